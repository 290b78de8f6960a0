"""The graph into Neo4j (or any Bolt server): connection, dialect, rows and the push."""
