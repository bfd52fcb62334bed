"""Creating and deleting collections and fields (changing them: :mod:`content.schema.updates`).

Definitions are checked by :mod:`content.schema.checks`; each change runs through
:func:`content.schema.ddl.run_ddl`, so the registry rows and the table change commit together or not at all.
"""

from __future__ import annotations

from typing import Any

from django.apps.registry import Apps
from django.db import IntegrityError, connection
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.models import Max
from django.utils import timezone

from content import hooks
from content.field_types import FIELD_TYPES
from content.models import Collection, EntryBase, EntrySeo, Field, Redirect, Revision
from content.schema import specs as schema
from content.schema.checks import (
    RESERVED_COLLECTION_SLUGS,
    check_field_definition,
    check_label,
    check_slug,
    check_supports,
    reference_default_problem,
)
from content.schema.ddl import column, model_from_registry, run_ddl
from content.schema.dynamic import RESERVED_FIELD_SLUGS, build_model, field_attname, table_name_for
from content.schema.specs import CollectionSpec, FieldSpec
from content.schema.validation import check_value
from content.schema.validation import normalise as normalise_value
from emdash.actor import Actor
from emdash.errors import (
    CollectionExists,
    CollectionHasContent,
    Conflict,
    FieldExists,
    FieldNotFound,
    ValidationError,
    known,
    shown,
)
from emdash.permissions import Perm, require


def collection_list(*, actor: Actor) -> list[CollectionSpec]:
    require(actor, Perm.SCHEMA_READ)
    return sorted(schema.current().collections.values(), key=lambda c: c.slug)


def collection_get(*, actor: Actor, slug: Any) -> CollectionSpec:
    require(actor, Perm.SCHEMA_READ)
    return schema.get_collection(slug)


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
    slug = check_slug(slug, "collection", RESERVED_COLLECTION_SLUGS)
    problems: dict[str, str] = {}
    label = check_label(label, "label", problems)
    singular = check_label(label_singular, "labelSingular", problems, required=False) or label
    if description is not None and (not isinstance(description, str) or len(description) > 2000):
        problems["description"] = "must be a string of at most 2000 characters"
    icon = check_label(icon, "icon", problems, required=False)
    supports = check_supports(supports, problems)
    if problems:
        raise ValidationError.for_fields(problems)
    if Collection.objects.filter(slug=slug).exists():
        raise CollectionExists(f"Collection '{slug}' already exists")
    if hooks.taxonomy_exists(slug):  # /<slug>/<x>/ would be the taxonomy's archive: no entry could be reached
        raise Conflict(f"'{slug}' is a taxonomy: its archives would hide the collection's public URLs")
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
        run_ddl(f"create the table for '{slug}'", body)
    except IntegrityError:
        raise CollectionExists(f"Collection '{slug}' already exists") from None
    return schema.current().get(slug)


def collection_delete(*, actor: Actor, slug: Any, force: bool = False) -> None:
    require(actor, Perm.SCHEMA_WRITE)
    spec = schema.current(fresh=True).get(slug)
    count = spec.model.objects.count()
    if count and force is not True:
        raise CollectionHasContent(
            f"Collection '{spec.slug}' has {count} item(s); use force: true to delete it with its content"
        )
    # Types whose fields name a collection (reference: options.collection, references: options.collections).
    linking = [t.name for t in FIELD_TYPES.values() if t.takes_target or "collections" in t.option_keys]
    referers = [
        f"{f.collection.slug}.{f.slug}"
        for f in Field.objects.filter(type__in=linking).select_related("collection")
        if spec.slug in [f.options.get("collection"), *(f.options.get("collections") or [])]
        and f.collection.slug != spec.slug
    ]
    if referers:
        raise Conflict(f"Collection '{spec.slug}' is referenced by {', '.join(referers)}; delete those fields first")

    def body(editor: BaseDatabaseSchemaEditor) -> None:
        for side in (Revision, EntrySeo, Redirect):  # rows about its items (manual redirects name no collection)
            side.objects.filter(collection=spec.slug).delete()
        Collection.objects.filter(slug=spec.slug).delete()
        editor.delete_model(spec.model)

    run_ddl(f"drop the table of '{spec.slug}'", body)


def _checked_field(spec: CollectionSpec, *, slug: str, label: Any, type: Any, **settings: Any) -> FieldSpec:
    """The new field's definition, or a ValidationError naming every problem with it."""
    flags = {k: settings[k] for k in ("required", "unique", "searchable", "translatable")}
    validation, options, problems = check_field_definition(
        spec, type=type, label=label, validation=settings["validation"], options=settings["options"], flags=flags
    )
    if problems:
        raise ValidationError.for_fields(problems, prefix="Invalid field definition")
    new = FieldSpec(
        slug=slug,
        label=label.strip(),
        type=type,
        default_value=settings["default_value"],
        validation=validation,
        options=options,
        **flags,
    )
    if new.unique and not new.translatable:
        # Translations share non-translatable values, so such a value could never be unique.
        raise ValidationError.for_fields(
            {"unique": "a unique field must be translatable"}, prefix="Invalid field definition"
        )
    default = new.default_value
    if default is not None:
        if new.unique:
            raise ValidationError.for_fields({"defaultValue": "a unique field cannot have a default value"})
        if problem := check_value(new, default) or reference_default_problem(spec, new, default):
            raise ValidationError.for_fields({"defaultValue": problem}, prefix="Invalid field definition")
    return new


def _fill_default(model: type[EntryBase], new: FieldSpec) -> None:
    """Existing items get a new field's default so "required" holds for them too."""
    fill = normalise_value(new, new.default_value)  # the canonical form writes store
    model.objects.update(**{field_attname(new.slug): new.kind.to_db(fill)})
    # So do their pending drafts, or publishing one would write NULL over the default.
    draft_ids = model.objects.exclude(draft_revision_id=None).values_list("draft_revision_id", flat=True)
    for revision in Revision.objects.filter(id__in=list(draft_ids)).only("id", "data"):
        if isinstance(revision.data, dict) and new.slug not in revision.data:
            revision.data = {**revision.data, new.slug: fill}
            revision.save(update_fields=["data"])


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
    spec = schema.current(fresh=True).get(collection)
    slug = check_slug(slug, "field", RESERVED_FIELD_SLUGS)
    if spec.get_field(slug):
        raise FieldExists(f"Field '{slug}' already exists in '{spec.slug}'")
    new = _checked_field(
        spec,
        slug=slug,
        label=label,
        type=type,
        required=required,
        unique=unique,
        default_value=default_value,
        validation=validation,
        options=options,
        searchable=searchable,
        translatable=translatable,
    )

    def body(editor: BaseDatabaseSchemaEditor) -> None:
        row = Collection.objects.select_for_update().get(slug=spec.slug)
        position = (row.fields.aggregate(m=Max("position"))["m"] or 0) + 1
        Field.objects.create(collection=row, position=position, **new.row_values())
        Collection.objects.filter(pk=row.pk).update(updated_at=timezone.now())
        model = model_from_registry(row)
        editor.add_field(model, column(model, slug))
        if new.default_value is not None:
            _fill_default(model, new)

    try:
        run_ddl(f"add the column '{slug}' to '{spec.slug}'", body)
    except IntegrityError:
        raise FieldExists(f"Field '{slug}' already exists in '{spec.slug}'") from None
    created = schema.current().get(spec.slug).get_field(slug)
    assert created is not None
    return created


def field_delete(*, actor: Actor, collection: Any, field_slug: Any) -> None:
    require(actor, Perm.SCHEMA_WRITE)
    spec = schema.current(fresh=True).get(collection)
    field = spec.get_field(field_slug) if isinstance(field_slug, str) else None
    if field is None:
        fields = known((f.slug for f in spec.fields), none="no fields yet")
        raise FieldNotFound(f"Field '{shown(field_slug)}' not found in '{spec.slug}' ({fields})")

    def body(editor: BaseDatabaseSchemaEditor) -> None:
        row = Collection.objects.select_for_update().get(slug=spec.slug)
        model = model_from_registry(row)  # with the field still in it
        Field.objects.filter(collection=row, slug=field.slug).delete()
        Collection.objects.filter(pk=row.pk).update(updated_at=timezone.now())
        editor.remove_field(model, column(model, field.slug))

    run_ddl(f"drop the column '{field.slug}' from '{spec.slug}'", body)
