"""The 6 byline operations (MCP tools and REST routes): credits shown on content, with locale variants."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from bylines import outputs, presenters, selectors, services
from emdash.operations import NULLABLE, READ, Cursor, Endpoint, Input, WholeNumber, audit_as, family, limit, reference
from emdash.permissions import Perm

API = "_emdash/api/bylines"
Id = Annotated[str, reference("Byline id (or slug)", services.SLUG_MAX_LENGTH)]
Slug = Annotated[
    str,
    Field(
        description="a-z, 0-9 and -, starting with a letter; unique per locale",
        min_length=1,
        max_length=services.SLUG_MAX_LENGTH,
    ),
]
Name = Annotated[str, Field(description="Name shown on content", min_length=1, max_length=services.NAME_MAX_LENGTH)]
Bio = Annotated[str | None, NULLABLE, Field(description="Short biography", max_length=services.BIO_MAX_LENGTH)]
Avatar = Annotated[str | None, NULLABLE, reference("Media id of the avatar image", 26)]
Website = Annotated[str | None, NULLABLE, Field(description="https://... link", max_length=2048)]
UserId = Annotated[WholeNumber | None, NULLABLE, Field(description="Linked user's id")]
Locale = Annotated[str, reference("Locale, e.g. en", 16)]


class ListInput(Input):
    search: str | None = Field(None, description="Part of the display name or slug", max_length=200)
    is_guest: bool | None = Field(None, description="true: guests only; false: linked users only")
    user_id: WholeNumber | None = Field(None, description="The byline linked to this user")
    locale: Locale | None = None
    limit: WholeNumber = limit(50, 100)
    cursor: Cursor | None = None


class IdInput(Input):
    id: Id


class CreateInput(Input):
    slug: Slug
    display_name: Name
    bio: Bio = None
    avatar_media_id: Avatar = None
    website_url: Website = None
    user_id: UserId = None
    is_guest: bool | None = Field(None, description="Default: true unless userId is given")
    locale: Locale | None = None
    translation_of: Annotated[str, reference("Id or slug of its variant in another locale", 200)] | None = None


class UpdateInput(IdInput):
    slug: Slug | None = None
    display_name: Name | None = None
    bio: Bio = None
    avatar_media_id: Avatar = None
    website_url: Website = None
    user_id: UserId = None
    is_guest: bool | None = Field(None, description="A guest credit, not a user's own")


def _update(*, actor: Any, id: str, **given: Any) -> Any:
    # Wire names for the service, so null (clear) and absent (keep) stay apart.
    wire = {"".join([k.split("_")[0], *(p.title() for p in k.split("_")[1:])]): v for k, v in given.items()}
    return services.byline_update(actor=actor, id=id, **wire)


def _byline(row: Any, args: Any) -> dict[str, Any]:
    return dict(presenters.summary(row))


def _deleted(byline_id: str, args: Any) -> dict[str, Any]:
    return {"deleted": byline_id}


BYLINES = Endpoint(API, "api-bylines")
ONE = Endpoint(f"{API}/<str:id>", "api-byline")
VARIANTS = Endpoint(f"{API}/<str:id>/translations", "api-byline-translations")
read = family("byline", Perm.BYLINES_READ, **READ)
write = family("byline", Perm.BYLINES_MANAGE, present=_byline, output=outputs.BYLINE, target=audit_as("bylines/{id}"))

read(
    "byline_list", "List bylines", ListInput, selectors.byline_list, BYLINES.get("query"), output=outputs.PAGE
).describe("List bylines (credits shown on content) by name. content_create/content_update take their ids in bylines.")
read(
    "byline_get",
    "Get byline",
    IdInput,
    selectors.byline_get,
    ONE.get(),
    present=lambda r, a: dict(r),
    output=outputs.BYLINE,
).describe("One byline: bio, avatar, website, linked user, locale, translation group.")
write(
    "byline_create",
    "Create byline",
    CreateInput,
    services.byline_create,
    BYLINES.post(status=201),
    target=lambda args, payload: f"bylines/{payload.get('id', '')}",
).describe(
    "Create a byline: a guest, or a user's own (userId). translationOf + locale adds a variant in another locale."
)
write("byline_update", "Update byline", UpdateInput, _update, ONE.patch(), idempotent=True).describe(
    "Change a byline; omitted fields stay, null clears one."
)
write(
    "byline_delete",
    "Delete byline",
    IdInput,
    services.byline_delete,
    ONE.delete(),
    destructive=True,
    present=_deleted,
    output=outputs.DELETED,
).describe("Delete a byline; items crediting it lose that credit (the next becomes primary).")
read(
    "byline_translations",
    "List byline translations",
    IdInput,
    selectors.byline_translations,
    VARIANTS.get(),
    present=lambda r, a: r,
    output=outputs.TRANSLATIONS,
).describe("A byline's locale variants (by id or translation group).")
