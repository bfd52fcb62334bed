"""SQLite: the FTS5 index also keeps every term's first one, two and three characters (its ``prefix`` option).

Every query word is a prefix (docs/content-model.md). A prefix that covers many terms made FTS5 merge all their
lists in memory before it returned a row: a one-letter search over 100k items took ~3.8 s of CPU, a three-letter
one ~1 s, and the public search page answers anyone. With the prefix index such a prefix is one list, walked
lazily: 20-30 ms. It costs about 2.3x the index's size and 1.7x its build time (100k items: 51 -> 117 MB,
6.6 -> 11.3 s). The table is made again with the option and rebuilt from the documents it indexes (its triggers
name it, so they stay). PostgreSQL: nothing to do, its GIN index answers prefixes itself.
"""

from django.db import migrations

COLUMNS = """head, body,
        content='content_search_document', content_rowid='id',
        tokenize='porter unicode61 remove_diacritics 2'"""


def _remake(schema_editor, options: str) -> None:
    if schema_editor.connection.vendor != "sqlite":
        return
    schema_editor.execute("DROP TABLE content_search_fts")
    schema_editor.execute(f"CREATE VIRTUAL TABLE content_search_fts USING fts5({COLUMNS}{options})")
    schema_editor.execute("INSERT INTO content_search_fts(content_search_fts) VALUES ('rebuild')")


def forward(apps, schema_editor):
    _remake(schema_editor, ", prefix='1 2 3'")


def backward(apps, schema_editor):
    _remake(schema_editor, "")


class Migration(migrations.Migration):
    dependencies = [("content", "0012_search_terms")]

    operations = [migrations.RunPython(forward, backward)]
