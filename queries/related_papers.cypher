// related_papers: a paper's most related papers (by title and abstract, raised by shared specific concepts).
// Parameters:
//   $paper: Paper - the paper's key, e.g. "paper:0123456789ab" (kg query also takes a title)
//   $limit: int = 10 (1..) - how many papers (the build stores 10 per paper)
// Returns: paper, key, score, text_score, shared, as the build stored them on SIMILAR_TO:
// score is the TF-IDF cosine of title and abstract (text_score) raised by the specific
// concepts both papers point to (shared, largest share first), rounded to 6 places.
// Best first (the stored rank). Mirrors kg.traverse.related_papers.
MATCH (p:Paper {key: $paper})-[s:SIMILAR_TO]->(q:Paper)
RETURN coalesce(q.title, q.label, q.key) AS paper, q.key AS key, s.score AS score,
       s.text_score AS text_score, s.shared AS shared
ORDER BY s.rank
LIMIT $limit
