"""Give every fixed change-stamp scope its first row, dated now.

A scope without a row has no change time, so its reads (the taxonomies the migrations create, terms, bylines,
menus, settings and media not yet touched) had an ETag but no Last-Modified, and If-Modified-Since could never
give a 304. Whatever those scopes hold was written before this runs, so now is a correct last change time.
Existing rows are kept as they are.
"""

from django.db import migrations
from django.utils import timezone

SCOPES = ("menus", "settings", "terms", "taxonomies", "bylines", "media")


def forwards(apps, schema_editor):
    stamps = apps.get_model("content", "ChangeStamp")
    existing = {key.partition("#")[0] for key in stamps.objects.values_list("key", flat=True)}
    now = timezone.now()
    stamps.objects.bulk_create(
        [stamps(key=key, version=1, changed_at=now) for key in SCOPES if key not in existing], ignore_conflicts=True
    )


class Migration(migrations.Migration):
    dependencies = [
        ("content", "0010_redirect_source_escapes"),
        ("taxonomy", "0002_default_taxonomies"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
