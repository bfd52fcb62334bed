"""The search index's vocabulary as a table (SQLite): ``content.search.sqlite_terms`` looks the terms a word
prefix covers up in it, one seek each, instead of letting FTS5 merge every such term's list for each query.
An fts5vocab table stores nothing of its own: it reads the FTS5 index. PostgreSQL: nothing to do."""

from django.db import migrations

FORWARD = "CREATE VIRTUAL TABLE IF NOT EXISTS content_search_terms USING fts5vocab(content_search_fts, instance)"
BACKWARD = "DROP TABLE IF EXISTS content_search_terms"


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute(FORWARD)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute(BACKWARD)


class Migration(migrations.Migration):
    dependencies = [("content", "0011_first_change_stamps")]

    operations = [migrations.RunPython(forward, backward)]
