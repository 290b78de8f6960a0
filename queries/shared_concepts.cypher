// shared_concepts: what two papers share: the concepts both name, rarest first.
// Parameters:
//   $paper: Paper - one paper's key (kg query also takes a title)
//   $other: Paper - the other paper's key (kg query also takes a title)
// Returns: concept, key, kind, idf (ln(papers / papers naming it), rounded to 6 places);
// highest idf first, ties by name then key. No rows for a paper and itself.
// Mirrors kg.traverse.shared_concepts.
MATCH (n:Paper)
WITH count(n) AS total
MATCH (p:Paper {key: $paper})-->(c:Concept)<--(q:Paper {key: $other})
WHERE p <> q
WITH DISTINCT total, c
MATCH (c)<--(r:Paper)
WITH total, c, count(DISTINCT r) AS naming
RETURN c.name AS concept, c.key AS key,
       head([label IN labels(c) WHERE label <> 'Concept'] + ['Concept']) AS kind,
       round(log(toFloat(total) / naming) * 1000000) / 1000000.0 AS idf
ORDER BY idf DESC, concept, key
