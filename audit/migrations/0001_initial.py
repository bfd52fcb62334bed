# The AuditLog model moves here from the ``emdash`` app label (accounts): state only. The table
# ``emdash_auditlog``, its columns and its indexes were made by emdash.0002/0003 and stay as they are.

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("emdash", "0003_audit_target"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="AuditLog",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("created_at", models.DateTimeField(db_index=True, default=django.utils.timezone.now)),
                        ("token_ref", models.CharField(blank=True, max_length=64)),
                        ("client_id", models.CharField(blank=True, max_length=200)),
                        ("source", models.CharField(default="mcp", max_length=16)),
                        ("action", models.CharField(max_length=100)),
                        ("target", models.CharField(blank=True, db_index=True, max_length=255)),
                        ("outcome", models.CharField(max_length=40)),
                        ("duration_ms", models.FloatField(default=0)),
                        ("trace_id", models.CharField(db_index=True, max_length=32)),
                        (
                            "user",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "emdash_auditlog",
                        "ordering": ["-created_at"],
                        "indexes": [
                            models.Index(fields=["user", "-created_at"], name="emdash_audit_user_idx"),
                            models.Index(fields=["source", "-id"], name="emdash_audit_source_idx"),
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
