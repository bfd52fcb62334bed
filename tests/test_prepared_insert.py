"""``emdash.prepared.insert``: what ``save(force_insert=True)`` stores, with the statement compiled once per model."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import IntegrityError, transaction
from django.db.models.signals import pre_save

from audit.models import AuditLog
from content.models import Revision
from emdash import prepared

pytestmark = pytest.mark.django_db

WHEN = datetime(2026, 11, 27, 12, 30, 45, 123456, tzinfo=UTC)


def _revision(ident: str, **extra: object) -> Revision:
    values: dict[str, object] = {
        "id": ident,
        "collection": "posts",
        "entry_id": "E" * 26,
        "data": {"title": "Ünïcode ✓", "body": [{"_type": "block", "n": 1.5, "none": None}], "n": 2**40},
        "created_at": WHEN,
    }
    return Revision(**{**values, **extra})


def test_a_row_inserted_so_reads_back_as_the_orm_would_have_stored_it() -> None:
    by_orm, by_prepared = _revision("A" * 26), _revision("B" * 26)
    by_orm.save(force_insert=True)
    prepared.insert(by_prepared)
    stored = {row["id"]: {**row, "id": ""} for row in Revision.objects.filter(id__in=["A" * 26, "B" * 26]).values()}
    assert stored["A" * 26] == stored["B" * 26]
    assert stored["B" * 26]["kind"] == Revision.KIND_DRAFT  # the model's default, as save() stores it
    assert stored["B" * 26]["created_at"] == WHEN
    assert not by_prepared._state.adding and by_prepared._state.db == "default"


def test_a_taken_key_is_django_s_integrity_error_and_the_transaction_goes_on() -> None:
    prepared.insert(_revision("C" * 26))
    with pytest.raises(IntegrityError), transaction.atomic():
        prepared.insert(_revision("C" * 26, kind=Revision.KIND_PUBLISH))
    assert Revision.objects.get(id="C" * 26).kind == Revision.KIND_DRAFT


def test_models_it_cannot_serve_go_the_orm_s_way() -> None:
    row = AuditLog(action="x", outcome="ok", source="mcp")  # an auto field: its id must be read back
    prepared.insert(row)
    assert row.pk is not None and AuditLog.objects.filter(pk=row.pk).exists()

    seen: list[str] = []

    def note(sender: object, instance: Revision, **kwargs: object) -> None:
        seen.append(instance.id)

    pre_save.connect(note, sender=Revision, dispatch_uid="test-prepared-insert")
    try:
        prepared.insert(_revision("D" * 26))
    finally:
        pre_save.disconnect(dispatch_uid="test-prepared-insert", sender=Revision)
    assert seen == ["D" * 26]  # a receiver still hears of the save


def test_or_skip_reports_a_taken_key_and_leaves_the_transaction_usable() -> None:
    """What a generated slug found taken relies on: no savepoint, and the next statement still runs (PostgreSQL
    would refuse every statement of an aborted transaction)."""
    with transaction.atomic():
        assert prepared.insert(_revision("E" * 26), or_skip=True) is True
        assert prepared.insert(_revision("E" * 26, kind=Revision.KIND_PUBLISH), or_skip=True) is False
        assert Revision.objects.get(id="E" * 26).kind == Revision.KIND_DRAFT
    row = AuditLog(action="x", outcome="ok", source="mcp")  # the ORM's way, in a savepoint
    assert prepared.insert(row, or_skip=True) is True
