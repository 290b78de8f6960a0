// related_papers: the papers sharing concepts with a paper, rare shared concepts weighing most.
// Parameters:
//   $paper: Paper - the paper's key, e.g. "paper:0123456789ab" (kg query also takes a title)
//   $limit: int = 10 (1..) - how many papers
// Returns: paper, key, score, shared; score sums ln(papers / papers naming the concept) over
// the shared concepts (any Method, Dataset, Benchmark, Task, Metric or Concept), rounded to
// 6 places; shared lists their names. Highest score first, ties by name then key.
// Mirrors kg.traverse.related_papers.
MATCH (n:Paper)
WITH count(n) AS total
MATCH (p:Paper {key: $paper})-->(c:Concept)
WITH DISTINCT total, p, c
MATCH (c)<--(r:Paper)
WITH total, p, c, collect(DISTINCT r) AS naming
WITH p, c, log(toFloat(total) / size(naming)) AS idf, naming
UNWIND naming AS q
WITH p, c, idf, q
WHERE q <> p
WITH q, c, idf
ORDER BY c.name
WITH q, sum(idf) AS total_idf, collect(c.name) AS shared
RETURN coalesce(q.title, q.label, q.key) AS paper, q.key AS key,
       round(total_idf * 1000000) / 1000000.0 AS score, shared
ORDER BY score DESC, paper, key
LIMIT $limit
