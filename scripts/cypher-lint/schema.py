"""What Neo4j's linter needs to check kg's named queries, as JSON on stdout.

The graph's labels, relationship types and their endpoints (from kg.schema), and for each
``.cypher`` file its declared parameters (from its header, read by kg.query.named) with a
value of the declared type. Run as ``python scripts/cypher-lint/schema.py [DIR]``; lint.mjs
reads the JSON.
"""

import json
import os
import sys
from pathlib import Path

from kg.query.named import QUERY_DIR, Param, list_queries
from kg.schema import NODE_KINDS, REL_ENDPOINTS, REL_TYPES, labels_of


def sample_value(param: Param) -> object:
    """A value of the parameter's type (its default where it has one); node parameters
    are keys, so strings."""
    if param.type == "int":
        return int(param.default or param.low or 1)
    if param.type == "bool":
        return param.default == "true"
    return param.default or ("" if param.type == "str" else "key")


def shown(path: Path) -> str:
    """A file's path as the linter prints it: relative to the working folder when inside it."""
    relative = os.path.relpath(path)
    return str(path) if relative.startswith("..") else relative


def lint_input(directory: Path) -> dict[str, object]:
    """The schema and every query file of ``directory`` with its parameters."""
    return {
        "schema": {
            "labels": list(NODE_KINDS),
            "relationshipTypes": list(REL_TYPES),
            # Each end under every label it carries (a Dataset is also a Concept).
            "graphSchema": [
                {"from": x, "to": y, "relType": rel}
                for rel in REL_TYPES
                for a, b in sorted(REL_ENDPOINTS[rel])
                for x in labels_of(a)
                for y in labels_of(b)
            ],
        },
        "queries": [
            {
                "path": shown(query.path),
                "text": query.text,
                "parameters": {p.name: sample_value(p) for p in query.params},
            }
            for query in list_queries(directory)
        ],
    }


if __name__ == "__main__":
    json.dump(lint_input(Path(sys.argv[1]) if len(sys.argv) > 1 else QUERY_DIR), sys.stdout)
