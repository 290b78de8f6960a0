// top_method_dataset_pairs: the method-dataset (or benchmark) pairs with the most papers.
// Parameters:
//   $limit: int = 10 (1..) - how many pairs
// Returns: method, method_key, target, target_key, count; most supporting papers first,
// ties by method name, target name, then keys.
// Mirrors kg.traverse.top_method_dataset_pairs.
MATCH (m:Method)-[r:APPLIED_TO]->(t:Concept)
RETURN m.name AS method, m.key AS method_key, t.name AS target, t.key AS target_key,
       r.papers AS count
ORDER BY count DESC, method, target, method_key, target_key
LIMIT $limit
