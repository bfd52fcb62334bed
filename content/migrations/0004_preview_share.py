"""Share links move from public_site to content (the admin and the site both use them; a door must not import
another door). The table and its rows stay: content adopts the model in its state only, then renames the table
to its own name; public_site/0002 forgets the model without touching the database."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("content", "0003_search"),
        ("public_site", "0001_preview_share"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="PreviewShare",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("collection", models.CharField(max_length=64)),
                        ("entry_id", models.CharField(max_length=64)),
                        ("token_hash", models.CharField(max_length=64, unique=True)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("expires_at", models.DateTimeField()),
                        ("revoked_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "created_by",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "public_site_previewshare",
                        "indexes": [models.Index(fields=["collection", "entry_id"], name="preview_share_item")],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.AlterModelTable(name="previewshare", table=None),
    ]
