"""Full-text search over published content: one interface, a SQLite FTS5 and a PostgreSQL tsvector backend.

Kept light on purpose (``content.models`` imports :mod:`content.search.models`): the backends, the
indexing code and the selector live in their own modules.
"""
