"""The schema operations (8): collections and fields, each a real table or column, on MCP, REST and the admin.

Schema services own their transaction (DDL on SQLite cannot run inside an outer one): ``atomic=False``,
so the audit row is written right after the change commits.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, WithJsonSchema
from pydantic_core import PydanticCustomError

from content import schema_services, schema_updates
from content.field_types import FIELD_TYPES
from content.schema import SUPPORTS, CollectionSpec, FieldSpec
from content.schema_services import LABEL_MAX_LENGTH, SLUG_MAX_LENGTH, SLUG_RE
from emdash.operations import NULLABLE, Input, NoInput, Route, WholeNumber, declare
from emdash.permissions import Perm

COLLECTIONS = "_emdash/api/schema/collections"
ONE_COLLECTION = f"{COLLECTIONS}/<str:slug>"
FIELDS = f"{COLLECTIONS}/<str:collection>/fields"
ONE_FIELD = f"{FIELDS}/<str:field_slug>"

# --- output schemas ---------------------------------------------------------------------------------------

FIELD = {
    "type": "object",
    "properties": {
        "slug": {"type": "string"},
        "label": {"type": "string"},
        "type": {"type": "string", "enum": list(FIELD_TYPES)},
        "required": {"type": "boolean"},
        "unique": {"type": "boolean"},
        "searchable": {"type": "boolean"},
        "translatable": {"type": "boolean"},
        "defaultValue": {},
        "validation": {"type": "object"},
        "options": {"type": "object"},
    },
    "required": ["slug", "label", "type", "required", "unique", "searchable", "translatable"],
}
COLLECTION = {
    "type": "object",
    "properties": {
        "slug": {"type": "string"},
        "label": {"type": "string"},
        "labelSingular": {"type": "string"},
        "description": {"type": "string"},
        "icon": {"type": "string"},
        "supports": {"type": "array", "items": {"type": "string", "enum": list(SUPPORTS)}},
        "createdAt": {"type": ["string", "null"]},
        "updatedAt": {"type": ["string", "null"]},
        "fields": {"type": "array", "items": FIELD},
    },
    "required": ["slug", "label", "labelSingular", "description", "icon", "supports"],
}
COLLECTION_LIST = {
    "type": "object",
    "properties": {"items": {"type": "array", "items": COLLECTION}},
    "required": ["items"],
}
DELETED_COLLECTION = {"type": "object", "properties": {"deleted": {"type": "string"}}, "required": ["deleted"]}
DELETED_FIELD = {
    "type": "object",
    "properties": {"deleted": {"type": "string"}, "collection": {"type": "string"}},
    "required": ["deleted", "collection"],
}

# --- inputs -----------------------------------------------------------------------------------------------

Slug = Annotated[str, Field(description="Collection slug, e.g. posts", min_length=1, max_length=SLUG_MAX_LENGTH)]
FieldSlug = Annotated[str, Field(description="Field slug, e.g. title", min_length=1, max_length=SLUG_MAX_LENGTH)]
NewSlug = Annotated[
    str,
    Field(
        description="Slug: lowercase letters, digits and '_', starting with a letter",
        min_length=1,
        max_length=SLUG_MAX_LENGTH,
        pattern=SLUG_RE.pattern,
    ),
]
Label = Annotated[str, Field(min_length=1, max_length=LABEL_MAX_LENGTH)]
Supports = Annotated[
    list[Literal[SUPPORTS]],  # type: ignore[valid-type]
    Field(description="Features (default ['drafts', 'revisions'])", json_schema_extra={"uniqueItems": True}),
]
Description = Annotated[str, Field(description="What the collection holds", max_length=2000)]
Icon = Annotated[str, Field(description="Admin icon name", max_length=100)]


def _number(value: Any) -> Any:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PydanticCustomError("number_type", "must be a number")
    return value


# Integers stay integers in the stored rules (5, not 5.0), and one error names the key (not int/float).
Number = Annotated[Any, AfterValidator(_number), WithJsonSchema({"type": "number"})]
# Optional whole numbers: the bounds are spelled out for the schema (pydantic would print "ge" there).
Length = Annotated[WholeNumber, Field(ge=0), WithJsonSchema({"type": "integer", "minimum": 0})]
Rows = Annotated[
    WholeNumber,
    Field(ge=1, le=100),
    WithJsonSchema({"type": "integer", "minimum": 1, "maximum": 100, "description": "Editor height of a textarea"}),
]
Position = Annotated[
    WholeNumber,
    Field(ge=1, le=1000),
    WithJsonSchema(
        {"type": "integer", "minimum": 1, "maximum": 1000, "description": "1-based place in the field order"}
    ),
]


class Validation(Input):
    """Value rules; which apply depends on the field type (the service names the ones that do not)."""

    min: Number | None = None
    max: Number | None = None
    min_length: Length | None = None
    max_length: Length | None = None
    pattern: str | None = Field(None, max_length=500)
    options: list[str] | None = Field(None, description="Allowed values of select and multiSelect fields")


class Options(Input):
    collection: str | None = Field(None, description="Target collection of a reference field")
    rows: Rows | None = None


DefaultValue = Annotated[Any, NULLABLE, Field(description="Default for new items")]


class SlugInput(Input):
    slug: Slug


class CollectionCreateInput(Input):
    slug: NewSlug
    label: Label = Field(description="Display name (plural), e.g. Blog Posts")
    label_singular: Annotated[str, Field(max_length=LABEL_MAX_LENGTH)] | None = Field(
        None, description="Singular display name"
    )
    description: Description | None = None
    icon: Icon | None = None
    supports: Supports | None = None


class CollectionUpdateInput(Input):
    slug: Slug
    label: Label | None = Field(None, description="Display name (plural)")
    label_singular: Label | None = Field(None, description="Singular display name")
    description: Description | None = None
    icon: Icon | None = None
    supports: Supports | None = Field(
        None, description="The full list of features; adding 'search' builds the index, removing it drops the index"
    )


class CollectionDeleteInput(Input):
    slug: Slug
    force: bool | None = Field(None, description="Delete even if it has content")


class FieldSettings(Input):
    """Settings shared by creating and changing a field."""

    validation: Validation | None = None
    options: Options | None = None
    searchable: bool | None = None
    translatable: bool | None = None


class FieldCreateInput(FieldSettings):
    collection: Slug
    slug: NewSlug
    label: Label = Field(description="Display name")
    type: Literal[tuple(FIELD_TYPES)] = Field(description="Field type")  # type: ignore[valid-type]
    required: bool | None = None
    unique: bool | None = None
    default_value: DefaultValue = Field(None, description="Default for new items (and existing ones)")


class FieldUpdateInput(FieldSettings):
    collection: Slug
    field_slug: FieldSlug
    label: Label | None = Field(None, description="Display name")
    type: str | None = Field(None, description="Must stay the field's type: a type cannot be changed", max_length=50)
    required: bool | None = Field(None, description="Refused while existing items have no value (ids listed)")
    unique: bool | None = Field(None, description="Refused while existing items share a value (ids listed)")
    default_value: DefaultValue = Field(None, description="Default for new items; null removes it")
    position: Position | None = None


class FieldDeleteInput(Input):
    collection: Slug
    field_slug: FieldSlug


# --- services: typed input to the schema services' keyword arguments ---------------------------------------


def _plain(value: Any) -> Any:
    """Nested rule models as the registry stores them (wire names, only what was set)."""
    return value.model_dump(by_alias=True, exclude_unset=True) if isinstance(value, Input) else value


def _field_create(**kwargs: Any) -> FieldSpec:
    return schema_services.field_create(**{k: _plain(v) for k, v in kwargs.items()})


def _field_update(**kwargs: Any) -> FieldSpec:
    return schema_updates.field_update(**{k: _plain(v) for k, v in kwargs.items()})


def _collection_list(*, actor: Any) -> dict[str, Any]:
    return {"items": [c.as_dict(with_fields=False) for c in schema_services.collection_list(actor=actor)]}


def _spec(result: CollectionSpec | FieldSpec, args: Any) -> dict[str, Any]:
    return result.as_dict()


def _schema(name: str, **fields: Any) -> None:
    declare(name=name, category="schema", **fields)


def _write(name: str, **fields: Any) -> None:
    _schema(name, perm=Perm.SCHEMA_WRITE, atomic=False, **fields)


_schema(
    "schema_list_collections",
    title="List collections",
    perm=Perm.SCHEMA_READ,
    read_only=True,
    idempotent=True,
    description="List every content collection with its label, supported features and timestamps, sorted by slug.",
    input=NoInput,
    service=_collection_list,
    present=lambda result, args: result,
    output_schema=COLLECTION_LIST,
    routes=(Route("GET", COLLECTIONS, args="query", name="api-schema-collections"),),
)
_schema(
    "schema_get_collection",
    title="Get collection schema",
    perm=Perm.SCHEMA_READ,
    read_only=True,
    idempotent=True,
    description="Get a collection with all its field definitions (slug, type, required, validation...). Call this "
    "before content_create or content_update to know which data keys and values are accepted.",
    input=SlugInput,
    service=schema_services.collection_get,
    present=_spec,
    output_schema=COLLECTION,
    routes=(Route("GET", ONE_COLLECTION, name="api-schema-collection"),),
)
_write(
    "schema_create_collection",
    title="Create collection",
    description="Create a content collection and its database table. Add fields with schema_create_field.",
    input=CollectionCreateInput,
    service=schema_services.collection_create,
    present=_spec,
    output_schema=COLLECTION,
    target=lambda args, payload: args.slug,
    routes=(Route("POST", COLLECTIONS, args="body", status=201, name="api-schema-collections"),),
)
_write(
    "schema_update_collection",
    title="Update collection",
    description="Change a collection's label, labelSingular, description, icon or supports. Only the settings "
    "given change; supports is the full new list (adding 'search' builds the search index, removing it drops it).",
    input=CollectionUpdateInput,
    service=schema_updates.collection_update,
    present=_spec,
    output_schema=COLLECTION,
    idempotent=True,
    target=lambda args, payload: args.slug,
    routes=(Route("PATCH", ONE_COLLECTION, args="body", name="api-schema-collection"),),
)
_write(
    "schema_delete_collection",
    title="Delete collection",
    destructive=True,
    description="Delete a collection and its table. Irreversible. A collection with content needs force: true.",
    input=CollectionDeleteInput,
    service=schema_services.collection_delete,
    present=lambda result, args: {"deleted": args.slug},
    output_schema=DELETED_COLLECTION,
    target=lambda args, payload: args.slug,
    routes=(Route("DELETE", ONE_COLLECTION, args="query", name="api-schema-collection"),),
)
_write(
    "schema_create_field",
    title="Create field",
    description="Add a field (a new column) to a collection. select/multiSelect list allowed values in "
    "validation.options; reference names its target in options.collection.",
    input=FieldCreateInput,
    service=_field_create,
    present=_spec,
    output_schema=FIELD,
    target=lambda args, payload: f"{args.collection}.{args.slug}",
    routes=(Route("POST", FIELDS, args="body", status=201, name="api-schema-fields"),),
)
_write(
    "schema_update_field",
    title="Update field",
    description="Change a field's label, required, unique, defaultValue, validation, options, searchable, "
    "translatable or position (1-based order). The type cannot change. Turning required or unique on is refused "
    "while existing items break the rule; the error lists them.",
    input=FieldUpdateInput,
    service=_field_update,
    present=_spec,
    output_schema=FIELD,
    idempotent=True,
    target=lambda args, payload: f"{args.collection}.{args.field_slug}",
    routes=(Route("PATCH", ONE_FIELD, args="body", name="api-schema-field"),),
)
_write(
    "schema_delete_field",
    title="Delete field",
    destructive=True,
    description="Remove a field from a collection, dropping its column and all its values. Irreversible.",
    input=FieldDeleteInput,
    service=schema_services.field_delete,
    present=lambda result, args: {"deleted": args.field_slug, "collection": args.collection},
    output_schema=DELETED_FIELD,
    target=lambda args, payload: f"{args.collection}.{args.field_slug}",
    routes=(Route("DELETE", ONE_FIELD, name="api-schema-field"),),
)
