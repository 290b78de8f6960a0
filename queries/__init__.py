"""The named Cypher queries (the .cypher files beside this one), installed as ``kg.queries``."""
