# AuditLog now belongs to the ``audit`` app (audit.0001): removed from this app's state only, its table stays.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("emdash", "0003_audit_target"),
        ("audit", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="AuditLog")],
            database_operations=[],
        ),
    ]
