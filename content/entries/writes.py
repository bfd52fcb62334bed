"""The one way an entry row changes: a conditional UPDATE on the version the caller read.

A row count of zero means someone else wrote first: CONFLICT, and the surrounding transaction rolls
back whatever else the caller wrote.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from content.models import EntryBase
from content.schema.specs import CollectionSpec
from emdash.errors import Conflict


def save(spec: CollectionSpec, row: EntryBase, **changes: Any) -> EntryBase:
    """Apply ``changes`` to ``row`` if its version is still the one read; bump version and updated_at."""
    expected = row.version
    changes.setdefault("updated_at", timezone.now())
    changes["version"] = expected + 1
    count = spec.model.objects.filter(pk=row.pk, version=expected).update(**changes)
    if count != 1:
        raise Conflict("The item was changed by someone else; fetch it again and retry")
    for name, value in changes.items():
        setattr(row, name, value)
    return row
