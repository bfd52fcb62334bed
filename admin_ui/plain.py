"""Domain errors in plain language for the admin: one sentence per problem, shown next to its field.

Services speak to programs (``data.title: is required``, ``SLUG_CONFLICT``); the admin speaks to people
("Title is required."). The stable code still travels with the message as a CSS class (``code-<CODE>``)
for tests and support, never as visible text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from emdash.errors import EmDashError

# Problem texts the services produce, and the sentence an editor reads instead.
SENTENCES: dict[str, str] = {
    "is required": "{Label} is required.",
    "must be unique; another item already has this value": "Another {noun} already uses this {label}.",
    "is already used by another item": "This {label} is already used by another {noun}.",
}
TOP: dict[str, str] = {
    "CONFLICT": "Someone else saved this item after you opened it, so your save was refused to protect their work.",
    "SLUG_CONFLICT": "This slug is already used by another {noun}. Choose a different slug.",
    "INVALID_SLUG": "{message}.",
    "INTERNAL_ERROR": "Something went wrong on our side and nothing was changed. Please try again.",
}
_FIELD_KEY = re.compile(r"\bdata\.([A-Za-z_][A-Za-z0-9_]*)")


def humanize(slug: str) -> str:
    """``cover_image`` / ``coverImage`` -> "Cover image" (when no label is known)."""
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", slug).replace("_", " ").strip()
    return words[:1].upper() + words[1:].lower() if words else slug


def inline(label: str) -> str:
    """A label inside a sentence: "Title" -> "title", but acronyms and names keep their case ("ISBN", "URL")."""
    return label[:1].lower() + label[1:] if label[1:2].islower() else label


def wording(spec: Any) -> dict[str, Any]:
    """``labels`` and ``noun`` for a collection's messages: its fields by label, its items by singular name."""
    return {"labels": {f.slug: f.label for f in spec.fields}, "noun": spec.label_singular.lower()}


def field_sentence(key: str, problem: str, labels: Mapping[str, str] | None = None, noun: str = "item") -> str:
    slug = key.removeprefix("data.")
    label = (labels or {}).get(slug) or humanize(slug)
    template = SENTENCES.get(problem.strip())
    if template is not None:
        return template.format(Label=label, label=inline(label), noun=noun)
    if problem[:1].isupper():  # already a sentence (e.g. the datetime-local and DST messages)
        return problem if problem.endswith(".") else problem + "."
    text = _FIELD_KEY.sub(lambda m: humanize(m.group(1)), problem)
    return f"{label} {text}".rstrip(".") + "." if text.startswith(("must", "is ", "has ")) else f"{label}: {text}."


def field_sentences(
    problems: Mapping[str, str], labels: Mapping[str, str] | None = None, noun: str = "item"
) -> dict[str, str]:
    """Problems keyed ``data.<slug>`` or ``<slug>`` -> sentences keyed by the bare slug (what widgets use)."""
    return {key.removeprefix("data."): field_sentence(key, text, labels, noun) for key, text in problems.items()}


def problems_of(exc: EmDashError) -> dict[str, str]:
    """The field problems an error carries; a slug conflict belongs to the slug field."""
    fields = dict((exc.details or {}).get("fields") or {})
    if exc.code == "SLUG_CONFLICT" and "slug" not in fields:
        fields["slug"] = "is already used by another item"
    return fields


def message_for(exc: EmDashError, labels: Mapping[str, str] | None = None, noun: str = "item") -> str:
    """The banner text for an error: the problems as sentences, never codes or internal field paths."""
    fields = (exc.details or {}).get("fields") or {}
    if exc.code == "VALIDATION_ERROR" and fields:
        sentences = " ".join(field_sentences(fields, labels, noun).values())
        lead = "This item cannot be published yet:" if exc.message.startswith("Cannot publish") else "Please check:"
        return f"{lead} {sentences}"
    if exc.code in TOP:
        return TOP[exc.code].format(noun=noun, message=exc.message.rstrip("."))
    text = _FIELD_KEY.sub(lambda m: humanize(m.group(1)), exc.message).strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def code_tag(code: str) -> str:
    """The stable code as a CSS class on the message (machine-readable, not shown)."""
    return f"code-{code}"
