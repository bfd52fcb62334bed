"""Refusals that tell a model what would work: a tool error is enriched with the way forward when the caller may
know it (an unknown collection names the existing ones to a caller who may read content, which can list any of
them anyway)."""

from __future__ import annotations

from content.schema import specs as schema
from emdash.actor import Actor
from emdash.errors import EmDashError
from emdash.permissions import Perm, can

MAX_LISTED = 50


def enrich(error: EmDashError, actor: Actor) -> EmDashError:
    if error.code == "COLLECTION_NOT_FOUND" and can(actor, Perm.CONTENT_READ):
        return _with_collections(error)
    return error


def _with_collections(error: EmDashError) -> EmDashError:
    slugs = sorted(schema.current().collections)[:MAX_LISTED]
    hint = f" Available collections: {', '.join(slugs)}." if slugs else " There are no collections yet."
    return type(error)(error.message.rstrip(".") + "." + hint, details={**(error.details or {}), "available": slugs})
