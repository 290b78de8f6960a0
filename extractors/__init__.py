"""The extraction side of kg: listings in, typed entity mentions with evidence out."""
