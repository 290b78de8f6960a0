// coauthors_within: the authors within $hops co-authorship steps of an author, with distance.
// Parameters:
//   $author: Author - the author's key, e.g. "author:juliakempe" (kg query also takes a name)
//   $hops: int = 2 (1..3) - how many steps out: 1 = co-authors, 2 = their co-authors, up to 3
// Returns: author, key, distance; nearest first, ties by name then key.
// Mirrors kg.traverse.coauthors_within. Rings are collected breadth first, one per step.
MATCH (a:Author {key: $author})
OPTIONAL MATCH (a)-[:AUTHORED]->(:Paper)<-[:AUTHORED]-(b:Author)
WHERE b <> a
WITH a, collect(DISTINCT b) AS ring1
UNWIND CASE WHEN $hops >= 2 AND size(ring1) > 0 THEN ring1 ELSE [null] END AS x
OPTIONAL MATCH (x)-[:AUTHORED]->(:Paper)<-[:AUTHORED]-(c:Author)
WHERE c <> a AND NOT c IN ring1
WITH a, ring1, collect(DISTINCT c) AS ring2
UNWIND CASE WHEN $hops >= 3 AND size(ring2) > 0 THEN ring2 ELSE [null] END AS y
OPTIONAL MATCH (y)-[:AUTHORED]->(:Paper)<-[:AUTHORED]-(d:Author)
WHERE d <> a AND NOT d IN ring1 AND NOT d IN ring2
WITH ring1, ring2, collect(DISTINCT d) AS ring3
UNWIND [n IN ring1 | [n, 1]] + [n IN ring2 | [n, 2]] + [n IN ring3 | [n, 3]] AS found
WITH found[0] AS n, found[1] AS distance
RETURN n.name AS author, n.key AS key, distance
ORDER BY distance, author, key
