"""Context rules that find names the lexicon does not know, as pure functions over strings.

Each rule returns spans (character offsets into the text it was given), some with the type
the rule itself implies; :mod:`kg.extractors.candidates` runs them over an abstract and
:mod:`kg.extractors.kinds` types the rest. One module per family: sentences, proposals,
names (by their shape), tasks, metrics, subjects, and the shared word-window helpers
(context).
"""
