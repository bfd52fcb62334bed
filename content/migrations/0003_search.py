"""The search index: a document table plus, by database vendor, an FTS5 table (SQLite) or a tsvector column with
a GIN index (PostgreSQL), both kept in step with the document table by triggers.

PostgreSQL also gets accent-insensitive copies of the built-in text search configurations (``emdash_english``,
``emdash_french``, ...: ``unaccent`` before the language's dictionaries) when the ``unaccent`` extension can be
installed; without it the plain configurations are used. The vector is built from the text with ``<``, ``>`` and
``&`` swapped for control characters, so the parser reads markup-like text as words instead of dropping it as tags.
"""

import django.utils.timezone
from django.db import DatabaseError, migrations, models, transaction

SQLITE_FORWARD = [
    """CREATE VIRTUAL TABLE content_search_fts USING fts5(
        head, body,
        content='content_search_document', content_rowid='id',
        tokenize='porter unicode61 remove_diacritics 2'
    )""",
    """CREATE TRIGGER content_search_fts_ai AFTER INSERT ON content_search_document BEGIN
        INSERT INTO content_search_fts(rowid, head, body) VALUES (new.id, new.head, new.body);
    END""",
    """CREATE TRIGGER content_search_fts_ad AFTER DELETE ON content_search_document BEGIN
        INSERT INTO content_search_fts(content_search_fts, rowid, head, body)
        VALUES ('delete', old.id, old.head, old.body);
    END""",
    """CREATE TRIGGER content_search_fts_au AFTER UPDATE ON content_search_document BEGIN
        INSERT INTO content_search_fts(content_search_fts, rowid, head, body)
        VALUES ('delete', old.id, old.head, old.body);
        INSERT INTO content_search_fts(rowid, head, body) VALUES (new.id, new.head, new.body);
    END""",
]
SQLITE_BACKWARD = [
    "DROP TRIGGER IF EXISTS content_search_fts_au",
    "DROP TRIGGER IF EXISTS content_search_fts_ad",
    "DROP TRIGGER IF EXISTS content_search_fts_ai",
    "DROP TABLE IF EXISTS content_search_fts",
]

POSTGRES_FORWARD = [
    "ALTER TABLE content_search_document ADD COLUMN vector tsvector NOT NULL DEFAULT ''::tsvector",
    # Keep the vector in the row (the text columns go to TOAST first): ranking reads every matching vector, and
    # fetching each one from TOAST made common-term queries several times slower.
    "ALTER TABLE content_search_document ALTER COLUMN vector SET STORAGE MAIN",
    "CREATE INDEX content_search_doc_vector ON content_search_document USING GIN (vector)",
    """CREATE FUNCTION content_search_plain(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT translate(coalesce($1, ''), '<>&', chr(4) || chr(5) || chr(6))
    $$""",
    """CREATE FUNCTION content_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        NEW.vector := setweight(to_tsvector(NEW.config::regconfig, content_search_plain(NEW.head)), 'A')
                   || setweight(to_tsvector(NEW.config::regconfig, content_search_plain(NEW.body)), 'B');
        RETURN NEW;
    END
    $$""",
    """CREATE TRIGGER content_search_vector BEFORE INSERT OR UPDATE OF head, body, config
        ON content_search_document FOR EACH ROW EXECUTE FUNCTION content_search_vector()""",
]
POSTGRES_BACKWARD = [
    "DROP TRIGGER IF EXISTS content_search_vector ON content_search_document",
    "DROP FUNCTION IF EXISTS content_search_vector()",
    "DROP FUNCTION IF EXISTS content_search_plain(text)",
    "DROP INDEX IF EXISTS content_search_doc_vector",
    "ALTER TABLE content_search_document DROP COLUMN IF EXISTS vector",
]


UNACCENT_PREFIX = "emdash_"


def _unaccent_configs(schema_editor):
    """``emdash_<name>`` for every built-in configuration: unaccent, then the original dictionaries for words."""
    connection = schema_editor.connection
    try:
        with transaction.atomic(using=connection.alias):
            schema_editor.execute("CREATE EXTENSION IF NOT EXISTS unaccent", params=None)
    except DatabaseError:
        return  # no contrib package or no right to install it: accents will matter
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT c.cfgname, string_agg(quote_ident(d.dictname), ', ' ORDER BY m.mapseqno)
            FROM pg_catalog.pg_ts_config c
            JOIN pg_catalog.pg_namespace n ON n.oid = c.cfgnamespace AND n.nspname = 'pg_catalog'
            JOIN pg_catalog.pg_ts_config_map m ON m.mapcfg = c.oid
            JOIN pg_catalog.pg_ts_dict d ON d.oid = m.mapdict
            WHERE m.maptokentype = (SELECT tokid FROM ts_token_type('default') WHERE alias = 'word')
            GROUP BY c.cfgname
            """
        )
        configs = cursor.fetchall()
    for name, dictionaries in configs:
        target = connection.ops.quote_name(UNACCENT_PREFIX + name)
        schema_editor.execute(
            f"CREATE TEXT SEARCH CONFIGURATION {target} (COPY = pg_catalog.{connection.ops.quote_name(name)})",
            params=None,
        )
        schema_editor.execute(
            f"ALTER TEXT SEARCH CONFIGURATION {target} ALTER MAPPING FOR hword, hword_part, word "
            f"WITH unaccent, {dictionaries}",
            params=None,
        )


def _drop_unaccent_configs(schema_editor):
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT cfgname FROM pg_catalog.pg_ts_config WHERE cfgname LIKE %s", [UNACCENT_PREFIX + "%"])
        names = [row[0] for row in cursor.fetchall()]
    for name in names:
        schema_editor.execute(
            f"DROP TEXT SEARCH CONFIGURATION IF EXISTS {schema_editor.connection.ops.quote_name(name)}", params=None
        )


def forward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        _unaccent_configs(schema_editor)
    for statement in {"sqlite": SQLITE_FORWARD, "postgresql": POSTGRES_FORWARD}.get(vendor, []):
        schema_editor.execute(statement, params=None)


def backward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for statement in {"sqlite": SQLITE_BACKWARD, "postgresql": POSTGRES_BACKWARD}.get(vendor, []):
        schema_editor.execute(statement, params=None)
    if vendor == "postgresql":
        _drop_unaccent_configs(schema_editor)


class Migration(migrations.Migration):
    dependencies = [("content", "0002_schema_state_row")]

    operations = [
        migrations.CreateModel(
            name="SearchDocument",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("collection", models.CharField(max_length=63)),
                ("entry_id", models.CharField(max_length=26)),
                ("locale", models.CharField(max_length=16)),
                ("slug", models.CharField(max_length=200)),
                ("title", models.TextField(blank=True)),
                ("config", models.CharField(default="simple", max_length=63)),
                ("head", models.TextField(blank=True)),
                ("body", models.TextField(blank=True)),
            ],
            options={
                "db_table": "content_search_document",
                "indexes": [models.Index(fields=["collection", "locale"], name="content_search_doc_coll")],
                "constraints": [
                    models.UniqueConstraint(fields=("collection", "entry_id"), name="content_search_doc_entry")
                ],
            },
        ),
        migrations.CreateModel(
            name="SearchIndexState",
            fields=[
                ("collection", models.CharField(max_length=63, primary_key=True, serialize=False)),
                ("signature", models.CharField(max_length=64)),
                ("built_at", models.DateTimeField(default=django.utils.timezone.now)),
            ],
            options={"db_table": "content_search_state"},
        ),
        migrations.RunPython(forward, backward),
    ]
