// collaboration_path: the shortest chain of co-authors from one author to another.
// Parameters:
//   $source: Author - the first author's key (kg query also takes a name)
//   $target: Author - the last author's key (kg query also takes a name)
// Returns: step, author, key, papers (shared with the previous author); no rows when the two
// are the same author or more than 6 co-author steps apart (12 AUTHORED relationships: a
// shortest path needs a bound). Of several shortest chains, the one whose list of author keys
// sorts first.
// Mirrors kg.traverse.collaboration_path.
MATCH (a:Author {key: $source})
MATCH (b:Author {key: $target})
WITH a, b
WHERE a <> b
MATCH path = allShortestPaths((a)-[:AUTHORED*..12]-(b))
WITH [n IN nodes(path) WHERE n:Author] AS chain
ORDER BY [n IN chain | n.key]
LIMIT 1
UNWIND range(0, size(chain) - 1) AS step
WITH step, chain[step] AS x, CASE WHEN step > 0 THEN chain[step - 1] END AS previous
OPTIONAL MATCH (previous)-[:AUTHORED]->(p:Paper)<-[:AUTHORED]-(x)
WITH step, x, coalesce(p.title, p.label, p.key) AS paper
ORDER BY step, paper
WITH step, x, collect(paper) AS papers
RETURN step, x.name AS author, x.key AS key, papers
ORDER BY step
