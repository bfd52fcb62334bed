"""Redirect sources in the form lookups use: %-escapes upper case, query parameters sorted.

Sources written before ``normalize_source`` upper-cased escapes kept WordPress's lower-case ones
(``/%e4%b8%ad/``), which no request matches (Django hands the path over decoded, re-encoded upper case). Where
both forms were stored, the newest row is kept (it is what an editor or import wrote last) and the others are
dropped, since the source is unique. The normalisation is copied here, not imported: a migration must keep doing
what it did when the service changes."""

import re
from urllib.parse import parse_qsl, urlencode

from django.db import migrations
from django.db.models import Q

ESCAPE = re.compile(r"%[0-9a-fA-F]{2}")


def normalized(source):
    path, _, query = source.partition("?")
    path = ESCAPE.sub(lambda m: m.group(0).upper(), path)
    if not query:
        return path
    return f"{path}?{urlencode(sorted(parse_qsl(query, keep_blank_values=True)))}"


def normalize_sources(apps, schema_editor):
    redirect = apps.get_model("content", "Redirect")
    candidates = redirect.objects.filter(Q(source__contains="%") | Q(source__contains="?"))
    stale = {i: normalized(s) for i, s in candidates.values_list("id", "source").iterator() if normalized(s) != s}
    for wanted in sorted(set(stale.values())):
        rows = list(
            redirect.objects.filter(id__in=[i for i, s in stale.items() if s == wanted]).order_by("-created_at", "-id")
        )
        current = redirect.objects.filter(source=wanted).first()  # a row already in the normal form
        if current is not None and current.created_at >= rows[0].created_at:
            redirect.objects.filter(id__in=[r.id for r in rows]).delete()
            continue
        if current is not None:
            current.delete()
        redirect.objects.filter(id__in=[r.id for r in rows[1:]]).delete()
        redirect.objects.filter(id=rows[0].id).update(source=wanted)


class Migration(migrations.Migration):
    dependencies = [
        ("content", "0009_change_stamps"),
    ]

    operations = [
        migrations.RunPython(normalize_sources, migrations.RunPython.noop),
    ]
