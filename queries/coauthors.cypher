// coauthors: an author's co-authors, with the number of papers they share and the papers.
// Parameters:
//   $author: Author - the author's key, e.g. "author:juliakempe" (kg query also takes a name)
// Returns: coauthor, key, shared, papers; most shared papers first, ties by name then key.
// Mirrors kg.traverse.coauthors.
MATCH (a:Author {key: $author})-[:AUTHORED]->(p:Paper)<-[:AUTHORED]-(b:Author)
WHERE a <> b
WITH b, p, coalesce(p.title, p.label, p.key) AS paper
ORDER BY paper
WITH b, count(p) AS shared, collect(paper) AS papers
RETURN b.name AS coauthor, b.key AS key, shared, papers
ORDER BY shared DESC, coauthor, key
