"""Creating and deleting collections and fields: registry rows and DDL commit together or not at all.

The schema editor owns the transaction (``atomic=True``): on SQLite it cannot run inside an outer
transaction, and on PostgreSQL DDL is transactional, so one ``with`` block covers both the registry
writes and the table change, and the version stamp bump that tells other processes to reload.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, cast

from django.apps.registry import Apps
from django.db import DatabaseError, IntegrityError, connection, models, transaction
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.models import F, Max
from django.utils import timezone

from content import schema
from content.dynamic import RESERVED_FIELD_SLUGS, build_model, field_attname, table_name_for
from content.field_types import FIELD_TYPES, compile_pattern
from content.models import Collection, EntryBase, Field, Revision, SchemaState
from content.schema import DEFAULT_SUPPORTS, SUPPORTS, CollectionSpec, FieldSpec
from content.signals import schema_changed
from content.validation import _normalise as normalise_value
from content.validation import check_value
from emdash.actor import Actor
from emdash.errors import (
    CollectionExists,
    CollectionHasContent,
    Conflict,
    EmDashError,
    FieldExists,
    FieldNotFound,
    InvalidSlug,
    ReservedSlug,
    ValidationError,
)
from emdash.permissions import Perm, require

log = logging.getLogger("emdash.schema")

SLUG_RE = re.compile(r"^[a-z][a-z0-9_]*$")
SLUG_MAX_LENGTH = 63
LABEL_MAX_LENGTH = 200
RESERVED_COLLECTION_SLUGS = frozenset(
    {
        "content",
        "media",
        "users",
        "revisions",
        "taxonomies",
        "options",
        "audit_logs",
        # names our own routes, tables and apps use
        "schema",
        "search",
        "settings",
        "menus",
        "taxonomy",
        "terms",
        "tokens",
        "oauth",
        "mcp",
        "api",
        "admin",
        "auth",
        "emdash",
        "tasks",
        "sessions",
    }
)
MAX_SELECT_OPTIONS = 500


def _check_slug(value: Any, what: str, reserved: frozenset[str]) -> str:
    if not isinstance(value, str) or not SLUG_RE.fullmatch(value) or len(value) > SLUG_MAX_LENGTH:
        raise InvalidSlug(
            f"Invalid {what} slug {value!r}: use lowercase letters, digits and '_', starting with a letter, "
            f"at most {SLUG_MAX_LENGTH} characters"
        )
    if value in reserved:
        raise ReservedSlug(f"'{value}' is reserved and cannot be used as a {what} slug")
    return value


def _check_label(value: Any, name: str, problems: dict[str, str], *, required: bool = True) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()) or len(value) > LABEL_MAX_LENGTH:
        problems[name] = f"must be a non-empty string of at most {LABEL_MAX_LENGTH} characters"
        return ""
    return value.strip()


def _check_supports(value: Any, problems: dict[str, str]) -> list[str]:
    if value is None:
        return list(DEFAULT_SUPPORTS)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        problems["supports"] = f"must be a list drawn from: {', '.join(SUPPORTS)}"
        return []
    unknown = [v for v in value if v not in SUPPORTS]
    if unknown:
        problems["supports"] = f"unknown {', '.join(unknown)}; choose from: {', '.join(SUPPORTS)}"
    return [s for s in SUPPORTS if s in value]  # canonical order, no repeats


@contextmanager
def _ddl() -> Iterator[BaseDatabaseSchemaEditor]:
    """One transaction for DDL plus registry rows plus the version stamp."""
    if connection.vendor == "sqlite" and connection.in_atomic_block:
        raise RuntimeError("SQLite schema changes must not run inside an outer transaction")
    try:
        with connection.schema_editor(atomic=True) as editor:
            yield editor
            updated = SchemaState.objects.filter(pk=1).update(version=F("version") + 1)
            if not updated:
                SchemaState.objects.create(pk=1, version=1)
    finally:
        schema.invalidate()  # never keep a snapshot read inside a transaction that may have rolled back
    transaction.on_commit(lambda: schema_changed.send(sender=None))


def _model_from_registry(row: Collection) -> type[EntryBase]:
    """The table's model as the registry says inside this transaction, not as this process last cached it:
    SQLite rebuilds a table from the model when altering it, so a stale copy would lose columns another
    process added."""
    return build_model(CollectionSpec.from_rows(row, list(row.fields.order_by("position", "id"))), Apps())


def _column(model: type[EntryBase], field_slug: str) -> models.Field:
    return cast(models.Field, model._meta.get_field(field_attname(field_slug)))


def _run_ddl(action: str, body: Any) -> Any:
    try:
        with _ddl() as editor:
            return body(editor)
    except (EmDashError, IntegrityError):
        raise
    except DatabaseError:
        log.exception("schema change failed: %s", action)
        raise Conflict(f"The database refused to {action}; nothing was changed") from None


def collection_list(*, actor: Actor) -> list[CollectionSpec]:
    require(actor, Perm.SCHEMA_READ)
    return sorted(schema.current().collections.values(), key=lambda c: c.slug)


def collection_get(*, actor: Actor, slug: Any) -> CollectionSpec:
    require(actor, Perm.SCHEMA_READ)
    return schema.current().get(slug)


def collection_create(
    *,
    actor: Actor,
    slug: Any,
    label: Any,
    label_singular: Any = None,
    description: Any = None,
    icon: Any = None,
    supports: Any = None,
) -> CollectionSpec:
    require(actor, Perm.SCHEMA_WRITE)
    slug = _check_slug(slug, "collection", RESERVED_COLLECTION_SLUGS)
    problems: dict[str, str] = {}
    label = _check_label(label, "label", problems)
    singular = _check_label(label_singular, "labelSingular", problems, required=False) or label
    if description is not None and (not isinstance(description, str) or len(description) > 2000):
        problems["description"] = "must be a string of at most 2000 characters"
    icon = _check_label(icon, "icon", problems, required=False)
    supports = _check_supports(supports, problems)
    if problems:
        raise ValidationError.for_fields(problems)
    if Collection.objects.filter(slug=slug).exists():
        raise CollectionExists(f"Collection '{slug}' already exists")
    table = table_name_for(slug)
    if table in connection.introspection.table_names():
        raise CollectionExists(f"A table named '{table}' already exists in the database; pick another slug")

    def body(editor: BaseDatabaseSchemaEditor) -> None:
        now = timezone.now()
        row = Collection.objects.create(
            slug=slug,
            label=label,
            label_singular=singular,
            description=description or "",
            icon=icon,
            supports=supports,
            table_name=table,
            created_at=now,
            updated_at=now,
        )
        editor.create_model(build_model(CollectionSpec.from_rows(row, []), Apps()))

    try:
        _run_ddl(f"create the table for '{slug}'", body)
    except IntegrityError:
        raise CollectionExists(f"Collection '{slug}' already exists") from None
    return schema.current().get(slug)


def collection_delete(*, actor: Actor, slug: Any, force: bool = False) -> None:
    require(actor, Perm.SCHEMA_WRITE)
    spec = schema.current().get(slug)
    count = spec.model.objects.count()
    if count and force is not True:
        raise CollectionHasContent(
            f"Collection '{spec.slug}' has {count} item(s); use force: true to delete it with its content"
        )
    referers = [
        f"{f.collection.slug}.{f.slug}"
        for f in Field.objects.filter(type="reference").select_related("collection")
        if f.options.get("collection") == spec.slug and f.collection.slug != spec.slug
    ]
    if referers:
        raise Conflict(f"Collection '{spec.slug}' is referenced by {', '.join(referers)}; delete those fields first")

    def body(editor: BaseDatabaseSchemaEditor) -> None:
        Revision.objects.filter(collection=spec.slug).delete()
        Collection.objects.filter(slug=spec.slug).delete()
        editor.delete_model(spec.model)

    _run_ddl(f"drop the table of '{spec.slug}'", body)


def _check_field_definition(
    collection: CollectionSpec, *, type: Any, label: Any, validation: Any, options: Any, flags: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any], dict[str, str]]:
    problems: dict[str, str] = {}
    _check_label(label, "label", problems)
    for name, value in flags.items():
        if not isinstance(value, bool):
            problems[name] = "must be true or false"
    if not isinstance(type, str) or type not in FIELD_TYPES:
        problems["type"] = f"must be one of: {', '.join(FIELD_TYPES)}"
        return {}, {}, problems
    kind = FIELD_TYPES[type]
    validation = {} if validation is None else validation
    options = {} if options is None else options
    if not isinstance(validation, dict):
        problems["validation"] = "must be an object"
        validation = {}
    if not isinstance(options, dict):
        problems["options"] = "must be an object"
        options = {}
    for key, value in validation.items():
        name = f"validation.{key}"
        if key not in {"min", "max", "minLength", "maxLength", "pattern", "options"}:
            problems[name] = "unknown rule (known: min, max, minLength, maxLength, pattern, options)"
        elif key not in kind.validation_keys:
            problems[name] = f"does not apply to {type} fields"
        elif key in {"min", "max"} and (isinstance(value, bool) or not isinstance(value, int | float)):
            problems[name] = "must be a number"
        elif key in {"minLength", "maxLength"} and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            problems[name] = "must be a non-negative integer"
        elif key == "pattern" and (problem := compile_pattern(value)):
            problems[name] = problem
        elif key == "options" and (
            not isinstance(value, list)
            or not value
            or len(value) > MAX_SELECT_OPTIONS
            or not all(isinstance(v, str) and v for v in value)
            or len(set(value)) != len(value)
        ):
            problems[name] = f"must be a list of 1-{MAX_SELECT_OPTIONS} distinct non-empty strings"
    for low, high in (("min", "max"), ("minLength", "maxLength")):
        lo, hi = validation.get(low), validation.get(high)
        if isinstance(lo, int | float) and isinstance(hi, int | float) and lo > hi and high not in problems:
            problems[f"validation.{low}"] = f"must not exceed {high}"
    if type in {"select", "multiSelect"} and "options" not in validation:
        problems["validation.options"] = f"{type} fields need the list of allowed values"
    for key, value in options.items():
        name = f"options.{key}"
        if key == "collection":
            if type != "reference":
                problems[name] = "only reference fields name a target collection"
            elif not isinstance(value, str) or (value not in schema.current().collections and value != collection.slug):
                problems[name] = "must be the slug of an existing collection"
        elif key == "rows":
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 100:
                problems[name] = "must be an integer from 1 to 100"
        else:
            problems[name] = "unknown option (known: collection, rows)"
    if type == "reference" and "collection" not in options:
        problems["options.collection"] = "reference fields need the target collection's slug"
    return validation, options, problems


def _reference_default_problem(spec: CollectionSpec, new: FieldSpec, value: Any) -> str | None:
    """A reference default must name a live item of the target, or every item created without one would fail."""
    if new.type != "reference":
        return None
    target_slug = new.options.get("collection")
    target = spec if target_slug == spec.slug else schema.current().get(target_slug)
    if not target.model.objects.filter(id=normalise_value(new, value), deleted_at__isnull=True).exists():
        return f"no item with id '{value}' in '{target_slug}'"
    return None


def field_create(
    *,
    actor: Actor,
    collection: Any,
    slug: Any,
    label: Any,
    type: Any,
    required: Any = False,
    unique: Any = False,
    default_value: Any = None,
    validation: Any = None,
    options: Any = None,
    searchable: Any = False,
    translatable: Any = True,
) -> FieldSpec:
    require(actor, Perm.SCHEMA_WRITE)
    spec = schema.current().get(collection)
    slug = _check_slug(slug, "field", RESERVED_FIELD_SLUGS)
    if spec.get_field(slug):
        raise FieldExists(f"Field '{slug}' already exists in '{spec.slug}'")
    flags = {"required": required, "unique": unique, "searchable": searchable, "translatable": translatable}
    validation, options, problems = _check_field_definition(
        spec, type=type, label=label, validation=validation, options=options, flags=flags
    )
    if problems:
        raise ValidationError.for_fields(problems, prefix="Invalid field definition")
    new = FieldSpec(
        slug=slug,
        label=label.strip(),
        type=type,
        required=required,
        unique=unique,
        default_value=default_value,
        validation=validation,
        options=options,
        searchable=searchable,
        translatable=translatable,
    )
    if unique and not translatable:
        # Translations share non-translatable values, so such a value could never be unique.
        raise ValidationError.for_fields(
            {"unique": "a unique field must be translatable"}, prefix="Invalid field definition"
        )
    if default_value is not None:
        if unique:
            raise ValidationError.for_fields({"defaultValue": "a unique field cannot have a default value"})
        if problem := check_value(new, default_value) or _reference_default_problem(spec, new, default_value):
            raise ValidationError.for_fields({"defaultValue": problem}, prefix="Invalid field definition")

    def body(editor: BaseDatabaseSchemaEditor) -> None:
        row = Collection.objects.select_for_update().get(slug=spec.slug)
        position = (row.fields.aggregate(m=Max("position"))["m"] or 0) + 1
        Field.objects.create(
            collection=row,
            slug=slug,
            label=new.label,
            type=type,
            required=required,
            unique=unique,
            default_value=default_value,
            validation=validation,
            options=options,
            searchable=searchable,
            translatable=translatable,
            position=position,
        )
        Collection.objects.filter(pk=row.pk).update(updated_at=timezone.now())
        model = _model_from_registry(row)
        editor.add_field(model, _column(model, slug))
        if default_value is not None:
            # Existing items get the default so "required" holds for them too.
            fill = normalise_value(new, default_value)  # the canonical form writes store
            model.objects.update(**{field_attname(slug): new.kind.to_db(fill)})
            # So do their pending drafts, or publishing one would write NULL over the default.
            draft_ids = model.objects.exclude(draft_revision_id=None).values_list("draft_revision_id", flat=True)
            for revision in Revision.objects.filter(id__in=list(draft_ids)).only("id", "data"):
                if isinstance(revision.data, dict) and slug not in revision.data:
                    revision.data = {**revision.data, slug: fill}
                    revision.save(update_fields=["data"])

    try:
        _run_ddl(f"add the column '{slug}' to '{spec.slug}'", body)
    except IntegrityError:
        raise FieldExists(f"Field '{slug}' already exists in '{spec.slug}'") from None
    created = schema.current().get(spec.slug).get_field(slug)
    assert created is not None
    return created


def field_delete(*, actor: Actor, collection: Any, field_slug: Any) -> None:
    require(actor, Perm.SCHEMA_WRITE)
    spec = schema.current().get(collection)
    field = spec.get_field(field_slug) if isinstance(field_slug, str) else None
    if field is None:
        raise FieldNotFound(f"Field '{field_slug}' not found in '{spec.slug}'")

    def body(editor: BaseDatabaseSchemaEditor) -> None:
        row = Collection.objects.select_for_update().get(slug=spec.slug)
        model = _model_from_registry(row)  # with the field still in it
        Field.objects.filter(collection=row, slug=field.slug).delete()
        Collection.objects.filter(pk=row.pk).update(updated_at=timezone.now())
        editor.remove_field(model, _column(model, field.slug))

    _run_ddl(f"drop the column '{field.slug}' from '{spec.slug}'", body)
