// methods_on: the methods applied to a dataset or benchmark, with the evidence.
// Parameters:
//   $dataset: Dataset|Benchmark - its key, e.g. "benchmark:glue" (kg query also takes a name)
//   $include_parts: bool = false - a benchmark also answers for its member datasets (PART_OF)
// Returns: method, method_key, target, target_key, target_kind, count (supporting papers),
// papers (by name), evidence (the sentences of those papers that report the method's
// evaluation or application on the target, sorted);
// most supporting papers first, ties by method name, method key, then target.
// Mirrors kg.traverse.methods_on.
MATCH (d:Concept {key: $dataset})
WHERE d:Dataset OR d:Benchmark
MATCH (t:Concept)-[:PART_OF*0..]->(d)
WHERE $include_parts OR t = d
WITH DISTINCT t
MATCH (m:Method)-[r:APPLIED_TO]->(t)
UNWIND r.paper_keys AS paper_key
MATCH (p:Paper {key: paper_key})
WITH m, r, t, p
ORDER BY coalesce(p.title, p.label, p.key)
WITH m, r, t, collect(coalesce(p.title, p.label, p.key)) AS papers
UNWIND r.evidence AS sentence
WITH DISTINCT m, r, t, papers, sentence
ORDER BY sentence
WITH m, r, t, papers, collect(sentence) AS evidence
RETURN m.name AS method, m.key AS method_key, t.name AS target, t.key AS target_key,
       CASE WHEN t:Benchmark THEN 'Benchmark' ELSE 'Dataset' END AS target_kind,
       r.papers AS count, papers, evidence
ORDER BY count DESC, method, method_key, target, target_key
