"""The share-link model now belongs to content (content/0004 adopted the table and renamed it): forget it here
without dropping anything."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("public_site", "0001_preview_share"),
        ("content", "0004_preview_share"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[migrations.DeleteModel(name="PreviewShare")]),
    ]
