"""Changing existing collections and fields (SPEC 6.4d): settings, flags, order; never a field's type.

Like creating and deleting, every change runs in one transaction with its DDL and the version stamp bump
(``schema_ddl.run_ddl``), so other processes reload and the search index follows (``schema_changed``).
Turning ``required`` or ``unique`` on is refused while existing items break the new rule; the error names
the offending items (at most :data:`MAX_OFFENDERS`) and says how many there are.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.db import IntegrityError
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.models import Count
from django.utils import timezone

from content.models import Collection, Field, Revision
from content.schema import specs as schema
from content.schema.checks import check_field_definition, check_label, check_supports, reference_default_problem
from content.schema.ddl import column, model_from_registry, run_ddl
from content.schema.dynamic import field_attname
from content.schema.specs import CollectionSpec, FieldSpec
from content.schema.validation import check_value
from emdash.actor import Actor
from emdash.errors import Conflict, FieldNotFound, ValidationError, known, shown
from emdash.permissions import Perm, require

MAX_OFFENDERS = 20
# Features whose removal would strand pending drafts (their values live only in a revision).
_DRAFT_FEATURES = ("drafts", "revisions")


def _offenders(ids: list[str], rule: str) -> Conflict:
    shown = ", ".join(ids[:MAX_OFFENDERS])
    more = f" (showing {MAX_OFFENDERS} of {len(ids)})" if len(ids) > MAX_OFFENDERS else ""
    return Conflict(
        f"{len(ids)} existing item(s) break the new rule '{rule}'{more}: {shown}; fix them first",
        details={"rule": rule, "count": len(ids), "items": ids[:MAX_OFFENDERS]},
    )


# --- collections ------------------------------------------------------------------------------------------


def _collection_changes(spec: CollectionSpec, given: dict[str, Any]) -> dict[str, Any]:
    """The registry columns to write, validated; VALIDATION_ERROR names every bad setting at once."""
    problems: dict[str, str] = {}
    changes: dict[str, Any] = {}
    if "label" in given:
        changes["label"] = check_label(given["label"], "label", problems)
    if "label_singular" in given:
        changes["label_singular"] = check_label(given["label_singular"], "labelSingular", problems)
    if "description" in given:
        value = given["description"]
        if not isinstance(value, str) or len(value) > 2000:
            problems["description"] = "must be a string of at most 2000 characters"
        changes["description"] = value
    if "icon" in given:
        changes["icon"] = check_label(given["icon"], "icon", problems, required=False)
    if "supports" in given:
        changes["supports"] = check_supports(given["supports"], problems)
    if problems:
        raise ValidationError.for_fields(problems)
    return changes


def _check_drafts_kept(spec: CollectionSpec, supports: list[str]) -> None:
    dropped = [f for f in _DRAFT_FEATURES if spec.supports_feature(f) and f not in supports]
    if not dropped:
        return
    pending = list(
        spec.model.objects.exclude(draft_revision_id=None).order_by("created_at", "id").values_list("id", flat=True)
    )
    if pending:
        raise _offenders([str(i) for i in pending], f"no {' or '.join(dropped)} (items have pending drafts)")


def collection_update(*, actor: Actor, slug: Any, **given: Any) -> CollectionSpec:
    """Change a collection's label, singular label, description, icon or supported features.

    Turning ``search`` on builds the collection's index, turning it off drops it (after commit, through
    ``schema_changed``). Dropping ``drafts``/``revisions`` is refused while items have pending drafts."""
    require(actor, Perm.SCHEMA_WRITE)
    spec = schema.current(fresh=True).get(slug)
    changes = _collection_changes(spec, given)
    if "supports" in changes:
        _check_drafts_kept(spec, changes["supports"])
    current = {k: getattr(spec, k) for k in changes}
    current["supports"] = list(spec.supports) if "supports" in changes else None
    if all(current.get(k) == v for k, v in changes.items()):
        return spec  # nothing to change: no version bump, no reload elsewhere

    def body(editor: BaseDatabaseSchemaEditor) -> None:
        Collection.objects.filter(slug=spec.slug).update(**changes, updated_at=timezone.now())

    run_ddl(f"change the collection '{spec.slug}'", body)
    return schema.current().get(spec.slug)


# --- fields -----------------------------------------------------------------------------------------------

_FLAGS = ("required", "unique", "searchable", "translatable")


def _merged(field: FieldSpec, given: dict[str, Any]) -> FieldSpec:
    """The field as it will be: given settings over the current ones (label stripped later)."""
    keys = ("label", "default_value", "validation", "options", *_FLAGS)
    values = {k: given[k] for k in keys if k in given}
    if "validation" in values and values["validation"] is None:
        values["validation"] = {}
    if "options" in values and values["options"] is None:
        values["options"] = {}
    return dataclasses.replace(field, **values)


def _check_field_settings(spec: CollectionSpec, field: FieldSpec, new: FieldSpec, given: dict[str, Any]) -> FieldSpec:
    if "type" in given and given["type"] != field.type:
        raise ValidationError.for_fields(
            {"type": f"a field's type cannot be changed (it is {field.type}); add a new field and copy the values"},
            prefix="Invalid field change",
        )
    flags = {name: getattr(new, name) for name in _FLAGS}
    validation, options, problems = check_field_definition(
        spec, type=new.type, label=new.label, validation=new.validation, options=new.options, flags=flags
    )
    position = given.get("position")
    if position is not None and (isinstance(position, bool) or not isinstance(position, int) or position < 1):
        problems["position"] = "must be a whole number from 1"
    if new.unique and not new.translatable:
        problems["unique"] = "a unique field must be translatable"
    if problems:
        raise ValidationError.for_fields(problems, prefix="Invalid field change")
    new = dataclasses.replace(new, label=new.label.strip(), validation=validation, options=options)
    if new.default_value is not None:
        if new.unique:
            raise ValidationError.for_fields({"defaultValue": "a unique field cannot have a default value"})
        if problem := check_value(new, new.default_value) or reference_default_problem(spec, new, new.default_value):
            raise ValidationError.for_fields({"defaultValue": problem}, prefix="Invalid field change")
    return new


def _missing_values(spec: CollectionSpec, slug: str) -> list[str]:
    """Items (trashed ones too: they can come back) with no value, live or in their pending draft."""
    column = field_attname(slug)
    model = spec.model
    ids = [
        str(i) for i in model.objects.filter(**{f"{column}__isnull": True}).order_by("id").values_list("id", flat=True)
    ]
    drafts = dict(model.objects.exclude(draft_revision_id=None).values_list("draft_revision_id", "id"))
    for revision in Revision.objects.filter(id__in=list(drafts)).only("id", "data"):
        value = revision.data.get(slug) if isinstance(revision.data, dict) else None
        if value in (None, "", [], {}) and str(drafts[revision.id]) not in ids:  # a draft with no value
            ids.append(str(drafts[revision.id]))
    return ids


def _duplicate_values(spec: CollectionSpec, slug: str) -> list[str]:
    """Items sharing a value with another item (the column would refuse the unique index)."""
    column = field_attname(slug)
    model = spec.model
    taken = (
        model.objects.exclude(**{f"{column}__isnull": True})
        .values(column)
        .annotate(n=Count("id"))
        .filter(n__gt=1)
        .values_list(column, flat=True)
    )
    return [
        str(i)
        for i in model.objects.filter(**{f"{column}__in": list(taken)}).order_by("id").values_list("id", flat=True)
    ]


def _reordered(row: Collection, slug: str, position: int) -> None:
    """Move one field to ``position`` (1-based, clamped) and renumber the others 1..n in their order."""
    order = [f for f in row.fields.order_by("position", "id") if f.slug != slug]
    moving = row.fields.get(slug=slug)
    order.insert(min(position, len(order) + 1) - 1, moving)
    for number, item in enumerate(order, start=1):
        if item.position != number:
            Field.objects.filter(pk=item.pk).update(position=number)


def field_update(*, actor: Actor, collection: Any, field_slug: Any, **given: Any) -> FieldSpec:
    """Change a field's settings (not its type); see the module docstring for the rules on existing data."""
    require(actor, Perm.SCHEMA_WRITE)
    spec = schema.current(fresh=True).get(collection)
    field = spec.get_field(field_slug) if isinstance(field_slug, str) else None
    if field is None:
        fields = known((f.slug for f in spec.fields), none="no fields yet")
        raise FieldNotFound(f"Field '{shown(field_slug)}' not found in '{spec.slug}' ({fields})")
    new = _check_field_settings(spec, field, _merged(field, given), given)
    position = given.get("position")

    def body(editor: BaseDatabaseSchemaEditor) -> None:
        row = Collection.objects.select_for_update().get(slug=spec.slug)
        fresh = CollectionSpec.from_rows(row, list(row.fields.order_by("position", "id")))
        old_model = model_from_registry(row)
        object.__setattr__(fresh, "model", old_model)
        # Checked inside the transaction that changes the rule, so no write slips in between.
        if new.required and not field.required and (ids := _missing_values(fresh, field.slug)):
            raise _offenders(ids, "required")
        if new.unique and not field.unique and (ids := _duplicate_values(fresh, field.slug)):
            raise _offenders(ids, "unique")
        Field.objects.filter(collection=row, slug=field.slug).update(**new.row_values())  # slug and type unchanged
        if position is not None:
            _reordered(row, field.slug, position)
        Collection.objects.filter(pk=row.pk).update(updated_at=timezone.now())
        if new.unique != field.unique:
            new_model = model_from_registry(row)
            editor.alter_field(old_model, column(old_model, field.slug), column(new_model, field.slug))

    try:
        run_ddl(f"change the field '{field.slug}' of '{spec.slug}'", body)
    except IntegrityError:
        # A writer stored a duplicate between the check and the index build (PostgreSQL, read committed).
        ids = _duplicate_values(schema.current().get(spec.slug), field.slug)
        raise _offenders(ids, "unique") if ids else Conflict("Items changed during the update; retry") from None
    updated = schema.current().get(spec.slug).get_field(field.slug)
    assert updated is not None
    return updated
