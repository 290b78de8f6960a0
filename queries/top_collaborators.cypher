// top_collaborators: the authors with the most distinct co-authors.
// Parameters:
//   $limit: int = 10 (1..) - how many authors
// Returns: author, key, coauthors, papers; most co-authors first, ties by name then key.
// Mirrors kg.traverse.top_collaborators.
MATCH (a:Author)-[:AUTHORED]->(:Paper)<-[:AUTHORED]-(b:Author)
WHERE a <> b
WITH a, count(DISTINCT b) AS coauthors
MATCH (a)-[:AUTHORED]->(p:Paper)
WITH a, coauthors, count(p) AS papers
RETURN a.name AS author, a.key AS key, coauthors, papers
ORDER BY coauthors DESC, author, key
LIMIT $limit
