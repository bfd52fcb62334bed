"""What the byline operations return: typed once, from which the JSON Schema is generated."""

from __future__ import annotations

from typing import Annotated, TypedDict

from content.entries.outputs import BylineSummary
from emdash.operations.shapes import page_of, shared
from emdash.operations.typed import Schema, schema_of

# Listed in full by byline_get, pointed to by the other byline tools.
BYLINE_SHAPE = schema_of(BylineSummary, "A byline: a credit's name, bio, avatar and site; dates in ISO 8601 UTC")
BYLINE = shared(BYLINE_SHAPE, "byline_get")
BYLINE_IN_LIST = shared(BYLINE_SHAPE, "byline_get")
PAGE = page_of(BYLINE_IN_LIST)


class Variants(TypedDict):
    """As content_translations answers (``translations``), and as EmDash's byline_translations does (``items``, the
    same list), so a client written for either reads it."""

    translationGroup: str
    translations: list[Annotated[BylineSummary, Schema(BYLINE_IN_LIST)]]
    items: list[Annotated[BylineSummary, Schema(BYLINE_IN_LIST)]]


TRANSLATIONS = schema_of(Variants)


class Deleted(TypedDict):
    """What byline_delete answers, as EmDash's tool does: the id of the byline it deleted."""

    deleted: str


DELETED = schema_of(Deleted)
