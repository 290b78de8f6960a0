// datasets_of: the datasets and benchmarks a method was applied to, with the evidence.
// Parameters:
//   $method: Method - the method's key, e.g. "method:grpo" (kg query also takes a name or alias)
//   $include_variants: bool = false - a family also answers for its versions and sizes (VARIANT_OF)
// Returns: method, method_key, target, target_key, target_kind, count (supporting papers),
// papers (by name), evidence (the sentences of those papers that report the method's
// evaluation or application on the target, sorted);
// most supporting papers first, ties by target name, target key, then method.
// Mirrors kg.traverse.datasets_of.
MATCH (f:Method {key: $method})
MATCH (m:Method)-[:VARIANT_OF*0..]->(f)
WHERE $include_variants OR m = f
WITH DISTINCT m
MATCH (m)-[r:APPLIED_TO]->(t:Concept)
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
ORDER BY count DESC, target, target_key, method, method_key
