"""``completion/complete`` (SPEC 10, protocol 2025-06-18 and later): values for prompt and resource-template
arguments, by the argument's name: collection slugs, taxonomy names, menu names. Values the caller may not read
are simply not offered (a completion is a hint, never a refusal)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from content.schema.specs import current as current_schema
from emdash.actor import Actor
from emdash.permissions import Perm, can
from mcp_endpoint import prompts, resources
from menus.models import Menu
from taxonomy.models import TaxonomyDefinition

MAX_VALUES = 100  # the protocol's cap on one answer


class CompletionError(Exception):
    """Bad completion/complete params: the dispatcher answers -32602 with this message."""


def _collections() -> list[str]:
    return sorted(current_schema().collections)


def _taxonomies() -> list[str]:
    return list(TaxonomyDefinition.objects.order_by("name").values_list("name", flat=True))


def _menus() -> list[str]:
    return list(Menu.objects.order_by("name").values_list("name", flat=True).distinct())


# Argument name -> (any of these permissions lets the caller see the values, the values). Collection slugs serve
# the prompts (content readers) and the schema template (schema readers) alike.
SOURCES: dict[str, tuple[tuple[Perm, ...], Callable[[], list[str]]]] = {
    "collection": ((Perm.CONTENT_READ, Perm.SCHEMA_READ), _collections),
    "taxonomy": ((Perm.TAXONOMY_READ,), _taxonomies),
    "menu": ((Perm.MENU_READ,), _menus),
}
TEMPLATE_ARGUMENTS = {resources.COLLECTION_TEMPLATE: ("collection",)}


def _arguments_of(ref: Any) -> tuple[str, ...]:
    if not isinstance(ref, dict):
        raise CompletionError('Invalid params: ref must be {"type": "ref/prompt", "name": ...} or ref/resource')
    kind = ref.get("type")
    if kind == "ref/prompt":
        name = ref.get("name")
        prompt = prompts.PROMPTS.get(name) if isinstance(name, str) else None
        if prompt is None:
            raise CompletionError(f"Invalid params: unknown prompt (prompts: {', '.join(prompts.PROMPTS)})")
        return tuple(a.name for a in prompt.arguments)
    if kind == "ref/resource":
        uri = ref.get("uri")
        if not isinstance(uri, str) or uri not in TEMPLATE_ARGUMENTS:
            raise CompletionError(
                f"Invalid params: unknown resource template (templates: {', '.join(TEMPLATE_ARGUMENTS)})"
            )
        return TEMPLATE_ARGUMENTS[uri]
    raise CompletionError('Invalid params: ref.type must be "ref/prompt" or "ref/resource"')


def complete(params: dict[str, Any], actor: Actor) -> dict[str, Any]:
    arguments = _arguments_of(params.get("ref"))
    argument = params.get("argument")
    if not isinstance(argument, dict) or not isinstance(argument.get("name"), str):
        raise CompletionError('Invalid params: argument must be {"name": ..., "value": ...}')
    value = argument.get("value", "")
    if not isinstance(value, str):
        raise CompletionError("Invalid params: argument.value must be a string")
    name = argument["name"]
    if name not in arguments and name not in SOURCES:
        raise CompletionError(f"Invalid params: unknown argument '{name[:100]}' (arguments: {', '.join(arguments)})")
    source = SOURCES.get(name)
    if source is None or not any(can(actor, perm) for perm in source[0]):
        return {"completion": {"values": [], "total": 0, "hasMore": False}}
    prefix = value.lower()
    found = [v for v in source[1]() if v.lower().startswith(prefix)]
    return {"completion": {"values": found[:MAX_VALUES], "total": len(found), "hasMore": len(found) > MAX_VALUES}}
