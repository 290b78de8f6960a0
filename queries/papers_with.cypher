// papers_with: every paper that names a concept (Method, Dataset, Benchmark, Task, Metric or
// keyphrase Concept), with how it names it.
// Parameters:
//   $concept: Concept - the concept's key, e.g. "method:grpo" (kg query also takes a name)
// Returns: paper, key, relations (relationship types, sorted); by name then key.
// Mirrors kg.traverse.papers_with.
MATCH (c:Concept {key: $concept})<-[e]-(p:Paper)
WITH p, type(e) AS relation
ORDER BY relation
WITH p, collect(relation) AS relations
RETURN coalesce(p.title, p.label, p.key) AS paper, p.key AS key, relations
ORDER BY paper, key
