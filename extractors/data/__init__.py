"""Data files of the extractors: the lexicon and the word lists."""
