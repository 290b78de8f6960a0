// top_collaborators: the authors with the most distinct co-authors.
// Parameters:
//   $limit: int = 10 (1..) - how many authors
// Returns: author, key, coauthors, papers; most co-authors first, ties by name then key.
// Mirrors kg.traverse.top_collaborators. `coauthors` is a property kg build derives on every
// Author (distinct co-authors), so the ranking does not count every co-author pair.
MATCH (a:Author)
WHERE a.coauthors > 0
WITH a
ORDER BY a.coauthors DESC, a.name, a.key
LIMIT $limit
MATCH (a)-[:AUTHORED]->(p:Paper)
WITH a, count(p) AS papers
RETURN a.name AS author, a.key AS key, a.coauthors AS coauthors, papers
ORDER BY coauthors DESC, author, key
