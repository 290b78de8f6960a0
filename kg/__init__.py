"""kg: knowledge graphs of research papers."""

__version__ = "0.1.0"
