"""MCP prompts (SPEC 10, protocol 2025-06-18 and later): ready-made instructions a user picks in their client.

``write_item`` (collection, topic) tells the model the collection's fields, the site's editorial guide and how to
submit a draft; ``review_changeset`` (id) how to review a change set before it is published; ``audit_content``
(collection) how to check a collection's items against the guide. Each is checked like the work it starts:
writing needs content:write (author), reviewing and auditing read drafts (content:read, contributor).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from content.changesets.models import ChangeSet
from content.schema.specs import CollectionSpec
from content.schema.specs import current as current_schema
from emdash.actor import Actor
from emdash.errors import CollectionNotFound
from emdash.permissions import Perm, require
from mcp_endpoint import resources

ARGUMENT_MAX = 2000  # characters of one argument value


class PromptError(Exception):
    """Bad prompts/get params: the dispatcher answers -32602 with this message."""


@dataclass(frozen=True)
class Argument:
    name: str
    description: str
    required: bool = True


@dataclass(frozen=True)
class Prompt:
    name: str
    title: str
    description: str
    arguments: tuple[Argument, ...]
    perm: Perm
    render: Callable[[dict[str, str]], str]

    def listed(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "arguments": [
                {"name": a.name, "description": a.description, "required": a.required} for a in self.arguments
            ],
        }


def _collection(slug: str) -> CollectionSpec:
    schema = current_schema()
    try:
        return schema.get(slug)
    except CollectionNotFound:
        known = ", ".join(sorted(schema.collections)) or "none yet"
        raise PromptError(f"Invalid params: no collection '{slug[:100]}' (collections: {known})") from None


def _fields(spec: CollectionSpec) -> str:
    lines = []
    for f in spec.fields:
        need = "required" if f.required else "optional"
        choices = f.validation.get("options") if isinstance(f.validation, dict) else None
        extra = f"; one of: {', '.join(str(c) for c in choices)}" if choices else ""
        lines.append(f"- `{f.slug}` ({f.type}, {need}): {f.label}{extra}")
    return "\n".join(lines) or "- (no fields yet: ask an admin to add some)"


def _guide() -> str:
    return resources.guide_text().strip()


def _write_item(args: dict[str, str]) -> str:
    spec = _collection(args["collection"])
    return f"""Write a new item for the "{spec.label}" collection (`{spec.slug}`) of this EmDash site.

Topic: {args["topic"]}

The item's data keys are these fields:
{_fields(spec)}

Rich-text (portableText) fields take Markdown. Image and file fields take {{"id": "<media id>"}} of an item in the
media library (media_list, or media_upload to add one); leave them out if you have none.

Follow the site's editorial guide:

{_guide()}

When the text is ready, submit it as a draft with content_create: {{"collection": "{spec.slug}", "data": {{...}}}}
(it creates a draft; do not publish it). Then tell the user the new item's id and title so an editor can review it.
"""


def _review_changeset(args: dict[str, str]) -> str:
    changeset = ChangeSet.objects.filter(id=args["id"]).only("id", "title").first()
    if changeset is None:  # a prompt about a set that does not exist would send the model hunting
        raise PromptError(f"Invalid params: no change set '{args['id'][:100]}' (changeset_list shows them)")
    return f"""Review the change set "{changeset.title}" (`{changeset.id}`) of this EmDash site before it is published.

1. Fetch the change set and the items it changes (the change set tools, e.g. changeset_get).
2. For each item, call content_compare to see the draft against the live version, and content_get for the whole item.
3. Check every change against the editorial guide below: facts, tone, spelling, headings, links, image alt text,
   SEO title and description, slugs.
4. Answer with a short verdict per item (ready, or what must change and why), then an overall recommendation.
   Do not publish or change anything yourself unless the user asks you to.

Editorial guide:

{_guide()}
"""


def _audit_content(args: dict[str, str]) -> str:
    spec = _collection(args["collection"])
    return f"""Audit the items of the "{spec.label}" collection (`{spec.slug}`) of this EmDash site.

Its fields:
{_fields(spec)}

1. List every item with content_list {{"collection": "{spec.slug}"}} (follow nextCursor until there is none), and read
   each one with content_get.
2. Check each item against the editorial guide below, and for: empty required or important fields, missing excerpts,
   missing SEO title or description, images without alt text (media_get), broken or outdated links, drafts left
   unpublished for a long time, duplicated topics.
3. Report a table: item (title and id), status, the problems found, the fix you suggest. Change nothing unless the
   user asks you to; then edit drafts with content_update.

Editorial guide:

{_guide()}
"""


PROMPTS = {
    p.name: p
    for p in (
        Prompt(
            "write_item",
            "Write an item",
            "Draft a new item for a collection, following its fields and the site's editorial guide.",
            (
                Argument("collection", "Collection slug, e.g. posts"),
                Argument("topic", "What the item is about"),
            ),
            Perm.CONTENT_CREATE,
            _write_item,
        ),
        Prompt(
            "review_changeset",
            "Review a change set",
            "Review a change set's items against the editorial guide before it is published.",
            (Argument("id", "Change set id"),),
            Perm.CONTENT_READ_UNPUBLISHED,
            _review_changeset,
        ),
        Prompt(
            "audit_content",
            "Audit a collection",
            "Check a collection's items for missing fields, SEO, alt text and the editorial guide.",
            (Argument("collection", "Collection slug, e.g. posts"),),
            Perm.CONTENT_READ_UNPUBLISHED,
            _audit_content,
        ),
    )
}


def listed() -> list[dict[str, Any]]:
    return [p.listed() for p in PROMPTS.values()]


def get(name: Any, arguments: Any, actor: Actor) -> dict[str, Any]:
    """``prompts/get``'s result; PromptError for bad params, permission errors propagate."""
    prompt = PROMPTS.get(name) if isinstance(name, str) else None
    if prompt is None:
        raise PromptError(f"Invalid params: unknown prompt {str(name)[:100]!r} (prompts: {', '.join(PROMPTS)})")
    arguments = {} if arguments is None else arguments
    if not isinstance(arguments, dict):
        raise PromptError("Invalid params: arguments must be an object of strings")
    accepted = {a.name for a in prompt.arguments}
    problems = [f"unknown argument '{str(k)[:100]}'" for k in arguments if k not in accepted]
    for a in prompt.arguments:
        value = arguments.get(a.name)
        if value is None and a.required:
            problems.append(f"'{a.name}' is required")
        elif value is not None and (not isinstance(value, str) or not value.strip() or len(value) > ARGUMENT_MAX):
            problems.append(f"'{a.name}' must be a non-empty string of at most {ARGUMENT_MAX} characters")
    if problems:
        names = ", ".join(a.name for a in prompt.arguments)
        raise PromptError(f"Invalid params for prompt {prompt.name}: {'; '.join(problems)} (arguments: {names})")
    require(actor, prompt.perm)
    text = prompt.render({k: v.strip() for k, v in arguments.items()})
    return {
        "description": prompt.description,
        "messages": [{"role": "user", "content": {"type": "text", "text": text}}],
    }
