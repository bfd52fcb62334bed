"""JSON a client sent, parsed the same way at every door (MCP, REST, OAuth, the admin's JSON fields).

orjson refuses what is not strict JSON (NaN, bad UTF-8, trailing data) and never recurses in Python, so a
body of ten thousand ``[`` is an answer, not a ``RecursionError``; anything nested past ``MAX_DEPTH`` is
refused before a recursive walker (validation, rendering) ever sees it.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

MAX_DEPTH = 64  # levels, the top-level value being 1: far past any real payload, far below Python's stack


class BadJSON(ValueError):
    """Not JSON we accept; ``reason`` is safe to show (a ValueError, so form fields' handlers catch it)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def loads(raw: bytes | bytearray | memoryview | str, *, lone_surrogates: bool = False) -> Any:
    """The decoded value of ``raw``, or :class:`BadJSON` ("invalid JSON" or "nesting deeper than …").

    ``lone_surrogates=True`` decodes ``"\\ud800"`` (which orjson refuses) so that the caller can name the field
    holding it (the REST API does); the value must still be refused before it reaches a database."""
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        reason = str(exc).lower()
        if "recursion" in reason or "depth" in reason:
            raise BadJSON(too_deep_reason()) from None
        if not (lone_surrogates and "surrogate" in reason):
            raise BadJSON("invalid JSON") from None
        value = _with_surrogates(raw)
    if _may_be_deep(raw) and too_deep(value):
        raise BadJSON(too_deep_reason())
    return value


def _may_be_deep(raw: bytes | bytearray | memoryview | str) -> bool:
    """False when ``raw`` has too few brackets to nest past MAX_DEPTH (each level opens one): most bodies, whose
    walk (a few us a call) is then skipped. Brackets inside strings are counted too, which only means a walk."""
    if isinstance(raw, memoryview):
        return True
    if isinstance(raw, str):
        return raw.count("[") + raw.count("{") > MAX_DEPTH
    return raw.count(b"[") + raw.count(b"{") > MAX_DEPTH


def _with_surrogates(raw: bytes | bytearray | memoryview | str) -> Any:
    """Python's decoder, which keeps lone surrogates; strict (no NaN) and guarded against deep nesting."""

    def no_constants(name: str) -> Any:
        raise BadJSON("invalid JSON")

    try:
        text = raw if isinstance(raw, str) else bytes(raw).decode("utf-8", errors="strict")  # bad UTF-8: refused
        return json.loads(text, parse_constant=no_constants)
    except RecursionError:
        raise BadJSON(too_deep_reason()) from None
    except ValueError:  # JSONDecodeError and UnicodeDecodeError are ValueErrors; BadJSON passes through
        raise BadJSON("invalid JSON") from None


def too_deep_reason() -> str:
    return f"nesting deeper than {MAX_DEPTH} levels"


def too_deep(value: Any) -> bool:
    """True when ``value`` nests more than MAX_DEPTH levels (walked without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return True
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values() if isinstance(v, dict | list))
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item if isinstance(v, dict | list))
    return False
