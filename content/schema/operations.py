"""The schema operations (8): collections and fields, each a real table or column, on MCP, REST and the admin.

Schema services own their transaction (DDL on SQLite cannot run inside an outer one): ``atomic=False``,
so the audit row is written right after the change commits.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, Field, WithJsonSchema, model_validator
from pydantic_core import PydanticCustomError

from content.field_types import FIELD_TYPES
from content.schema import services as schema_services
from content.schema import updates as schema_updates
from content.schema.checks import LABEL_MAX_LENGTH, SLUG_MAX_LENGTH, SLUG_RE
from content.schema.specs import SUPPORTS, CollectionSpec, FieldSpec
from emdash.operations import NULLABLE, READ, Endpoint, Input, NoInput, WholeNumber, family, reference
from emdash.operations.shapes import BOOLEAN, NULLABLE_STRING, NUMBER, STRING, array, items_of, obj, shared
from emdash.permissions import Perm

API = "_emdash/api/schema/collections"
COLLECTIONS = Endpoint(API, "api-schema-collections")
ONE_COLLECTION = Endpoint(f"{API}/<str:collection>", "api-schema-collection")
FIELDS = Endpoint(f"{API}/<str:collection>/fields", "api-schema-fields")
ONE_FIELD = Endpoint(f"{API}/<str:collection>/fields/<str:field_slug>", "api-schema-field")

# --- output schemas ---------------------------------------------------------------------------------------

LENGTH = {"type": "integer", "minimum": 0}
VALIDATION = obj(
    {
        "min": NUMBER,
        "max": NUMBER,
        "minLength": LENGTH,
        "maxLength": LENGTH,
        "pattern": {"type": "string", "description": "Regular expression the whole value must match"},
        "options": {**array(STRING), "description": "Allowed values (select fields)"},
    },
    description="The field's rules (only those that apply to its type)",
)
OPTIONS = obj(
    {
        "collection": {"type": "string", "description": "Target collection (reference fields)"},
        "collections": {**array(STRING), "description": "Target collections (references fields)"},
        "rows": {"type": "integer", "minimum": 1, "maximum": 100, "description": "Editor height in rows"},
    },
    description="Type-specific settings",
)
FLAGS = ("required", "unique", "searchable", "translatable")
FIELD = shared(
    obj(
        {
            "slug": STRING,
            "label": STRING,
            "type": {"type": "string", "enum": list(FIELD_TYPES)},
            **{flag: BOOLEAN for flag in FLAGS},
            "defaultValue": {"description": "Default for new items: a value of the field's type"},
            "validation": VALIDATION,
            "options": OPTIONS,
        },
        ["slug", "label", "type", *FLAGS],
        "A field definition",
    ),
    "schema_get_collection",
    "fields[]",
)
COLLECTION = shared(
    obj(
        {
            "slug": STRING,
            "label": STRING,
            "labelSingular": STRING,
            "description": STRING,
            "icon": STRING,
            "supports": array({"type": "string", "enum": list(SUPPORTS)}),
            "createdAt": NULLABLE_STRING,
            "updatedAt": NULLABLE_STRING,
            "fields": array(FIELD),
        },
        ["slug", "label", "labelSingular", "description", "icon", "supports"],
        "A collection with its field definitions",
    ),
    "schema_get_collection",
)
COLLECTION_LIST = items_of(COLLECTION)
DELETED_COLLECTION = obj({"deleted": STRING}, ["deleted"])
DELETED_FIELD = obj({"deleted": STRING, "collection": STRING}, ["deleted", "collection"])

# --- inputs -----------------------------------------------------------------------------------------------

Slug = Annotated[str, reference("Collection slug", SLUG_MAX_LENGTH)]
# The schema tools name a collection `collection` as every other tool does (SPEC 10); `slug` was their old name.
NamedCollection = Annotated[str, reference("Collection slug (slug: the old name, still accepted)", SLUG_MAX_LENGTH)]
FieldSlug = Annotated[str, reference("Field slug, e.g. title", SLUG_MAX_LENGTH)]
NewSlug = Annotated[
    str,
    Field(
        description="New slug: a-z, 0-9 and _, starting with a letter",
        min_length=1,
        max_length=SLUG_MAX_LENGTH,
        pattern=SLUG_RE.pattern,
    ),
]
Label = Annotated[str, Field(min_length=1, max_length=LABEL_MAX_LENGTH)]
Supports = Annotated[
    list[Literal[SUPPORTS]],  # type: ignore[valid-type]
    Field(description="Features (default drafts, revisions)", json_schema_extra={"uniqueItems": True}),
]
Description = Annotated[str, Field(description="What the collection holds", max_length=2000)]
Icon = Annotated[str, Field(description="Admin icon name", max_length=100)]
Searchable = Field(None, description="Index for search (collections supporting search)")
Translatable = Field(None, description="Values differ per locale (multilingual sites)")


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
    """Value rules that fit the field's type (others are refused)."""

    min: Number | None = Field(None, description="Lowest number")
    max: Number | None = Field(None, description="Highest number; most items (references)")
    min_length: Length | None = Field(None, description="Shortest text")
    max_length: Length | None = Field(None, description="Longest text")
    pattern: str | None = Field(None, description="Regular expression text must match", max_length=500)
    options: list[str] | None = Field(None, description="Allowed values (select, multiSelect)")


class Options(Input):
    """Type-specific settings."""

    collection: str | None = Field(None, description="Target collection (reference)")
    collections: list[Annotated[str, Field(min_length=1, max_length=63)]] | None = Field(
        None, description="Target collections (references)", max_length=10
    )
    rows: Rows | None = None


DefaultValue = Annotated[Any, NULLABLE, Field(description="Default for new items")]


class OldNames(Input):
    """Accepts an argument under its old name (``renamed``: old -> new); sending both with different values is
    refused, as it cannot be told which one was meant."""

    renamed: ClassVar[dict[str, str]] = {}

    @model_validator(mode="before")
    @classmethod
    def _old_names(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        for old, new in cls.renamed.items():
            if old in data:
                if new in data and data[new] != data[old]:
                    raise PydanticCustomError(
                        "renamed", f"{old} is the old name of {new}: send {new} only", {"old": old, "new": new}
                    )
                data = {**{key: value for key, value in data.items() if key != old}, new: data[old]}
        return data


class SlugInput(OldNames):
    renamed = {"slug": "collection"}
    collection: NamedCollection


class CollectionCreateInput(OldNames):
    renamed = {"collection": "slug"}  # the new collection's slug, under the name the other schema tools use
    slug: NewSlug
    label: Label = Field(description="Display name (plural), e.g. Blog Posts")
    label_singular: Annotated[str, Field(max_length=LABEL_MAX_LENGTH)] | None = Field(
        None, description="Singular display name"
    )
    description: Description | None = None
    icon: Icon | None = None
    supports: Supports | None = None


class CollectionUpdateInput(OldNames):
    renamed = {"slug": "collection"}
    collection: NamedCollection
    label: Label | None = Field(None, description="Display name (plural)")
    label_singular: Label | None = Field(None, description="Singular display name")
    description: Description | None = None
    icon: Icon | None = None
    supports: Supports | None = Field(
        None, description="The full new list; adding search builds the index, removing it drops it"
    )


class CollectionDeleteInput(OldNames):
    renamed = {"slug": "collection"}
    collection: NamedCollection
    force: bool | None = Field(None, description="Delete even if it has content")


class FieldSettings(Input):
    """Settings shared by creating and changing a field."""

    validation: Validation | None = None
    options: Options | None = None
    searchable: bool | None = Searchable
    translatable: bool | None = Translatable


class FieldCreateInput(FieldSettings):
    collection: Slug
    slug: NewSlug
    label: Label = Field(description="Display name")
    type: Literal[tuple(FIELD_TYPES)] = Field(description="Field type")  # type: ignore[valid-type]
    required: bool | None = Field(None, description="Every item must have a value")
    unique: bool | None = Field(None, description="No two items may share a value")
    default_value: DefaultValue = Field(None, description="Default for new items (and existing ones)")


class FieldUpdateInput(FieldSettings):
    collection: Slug
    field_slug: FieldSlug
    label: Label | None = Field(None, description="Display name")
    type: str | None = Field(None, description="The current type (it cannot change)", max_length=50)
    required: bool | None = Field(None, description="Every item must have a value")
    unique: bool | None = Field(None, description="No two items may share a value")
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


def _deleted_collection(result: None, args: Any) -> dict[str, Any]:
    return {"deleted": args.collection}


def _by_collection(service: Any) -> Any:
    """The schema services name the collection ``slug``; the tools call it ``collection``."""

    def call(*, actor: Any, collection: str, **given: Any) -> Any:
        return service(actor=actor, slug=collection, **given)

    return call


def _deleted_field(result: None, args: Any) -> dict[str, Any]:
    return {"deleted": args.field_slug, "collection": args.collection}


def _collection_target(args: Any, payload: Any) -> str:
    return str(payload.get("slug") or args.collection)  # a created collection's slug, else the one named


def _field_target(args: Any, payload: Any) -> str:
    return f"{args.collection}.{getattr(args, 'field_slug', None) or args.slug}"


read = family("schema", Perm.SCHEMA_READ, **READ)
# Writes answer the collection or field as it now is (the same shapes schema_get_collection lists).
collection_write = family(
    "schema", Perm.SCHEMA_WRITE, atomic=False, present=_spec, output=COLLECTION, target=_collection_target
)
field_write = collection_write.but(output=FIELD, target=_field_target)

read(
    "schema_list_collections",
    "List collections",
    NoInput,
    _collection_list,
    COLLECTIONS.get("query"),
    output=COLLECTION_LIST,
).describe("List every collection by slug, without fields (schema_get_collection has them).")
read(
    "schema_get_collection",
    "Get collection schema",
    SlugInput,
    _by_collection(schema_services.collection_get),
    ONE_COLLECTION.get(),
    present=_spec,
    output=COLLECTION,
).describe("Get a collection and its fields: the data keys and values content_create and content_update accept.")
collection_write(
    "schema_create_collection",
    "Create collection",
    CollectionCreateInput,
    schema_services.collection_create,
    COLLECTIONS.post(status=201),
).describe("Create a collection (and its table); then add fields with schema_create_field.")
collection_write(
    "schema_update_collection",
    "Update collection",
    CollectionUpdateInput,
    _by_collection(schema_updates.collection_update),
    ONE_COLLECTION.patch(),
    idempotent=True,
).describe("Change a collection's labels, description, icon or supports; only what is sent changes.")
collection_write(
    "schema_delete_collection",
    "Delete collection",
    CollectionDeleteInput,
    _by_collection(schema_services.collection_delete),
    ONE_COLLECTION.delete("query"),
    destructive=True,
    present=_deleted_collection,
    output=DELETED_COLLECTION,
).describe("Irreversibly delete a collection, its table and items (force: true when it has items).")
field_write("schema_create_field", "Create field", FieldCreateInput, _field_create, FIELDS.post(status=201)).describe(
    "Add a field (a column) to a collection. select/multiSelect need validation.options, reference needs "
    "options.collection, references options.collections."
)
field_write(
    "schema_update_field", "Update field", FieldUpdateInput, _field_update, ONE_FIELD.patch(), idempotent=True
).describe(
    "Change a field's settings or position; only what is sent changes. Turning on required or unique fails "
    "while items break it (the error lists them)."
)
field_write(
    "schema_delete_field",
    "Delete field",
    FieldDeleteInput,
    schema_services.field_delete,
    ONE_FIELD.delete(),
    destructive=True,
    present=_deleted_field,
    output=DELETED_FIELD,
).describe("Irreversibly remove a field from a collection, with its column and values.")
