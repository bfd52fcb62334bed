"""Drop the tables django-oauth-toolkit left behind (SPEC 1: the dependency and its tables are removed).

They were never used: our grants live in emdash_oauth's own tables. IF EXISTS, so fresh databases (which never
had them) and old ones both migrate; the rows in django_migrations go too, so nothing remembers the app.
"""

from django.db import migrations

DOT_TABLES = [  # children before parents (PostgreSQL also gets CASCADE; SQLite migrations run without FK checks)
    "oauth2_provider_idtoken",
    "oauth2_provider_accesstoken",
    "oauth2_provider_refreshtoken",
    "oauth2_provider_grant",
    "oauth2_provider_devicegrant",
    "oauth2_provider_application",
]


def drop_tables(apps, schema_editor):
    connection = schema_editor.connection
    cascade = " CASCADE" if connection.vendor == "postgresql" else ""
    existing = set(connection.introspection.table_names())
    for table in DOT_TABLES:
        if table in existing:
            schema_editor.execute(f"DROP TABLE {schema_editor.quote_name(table)}{cascade}")
    schema_editor.execute("DELETE FROM django_migrations WHERE app = 'oauth2_provider'")


class Migration(migrations.Migration):
    dependencies = [("emdash_oauth", "0003_access_token_last_used")]

    operations = [migrations.RunPython(drop_tables, migrations.RunPython.noop)]
