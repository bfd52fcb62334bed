"""Text no database can store: NUL (U+0000) and unpaired UTF-16 surrogates (U+D800-U+DFFF).

PostgreSQL refuses both (a NUL in ``text``/``jsonb``, a surrogate cannot even be encoded to UTF-8), so every
door rejects them as a validation error when it decodes its input (SPEC 2), with :func:`find_bad_text`.
"""

from __future__ import annotations

import re
from typing import Any

_BAD = re.compile("[\x00\ud800-\udfff]")
PROBLEM = "must not contain NUL (U+0000) or unpaired surrogate (U+D800-U+DFFF) characters"
MAX_DEPTH = 200  # deeper values are refused by each door's parser long before this


def has_bad_chars(text: str) -> bool:
    return _BAD.search(text) is not None


def find_bad_text(value: Any, path: str = "") -> str | None:
    """The dotted path of the first string (or object key) in ``value`` holding a bad character, else None.

    The path of a top-level string is ``path`` itself ("" when not given); list items are ``path[i]``.
    """
    stack: list[tuple[Any, str, int]] = [(value, path, 0)]
    while stack:
        item, where, depth = stack.pop()
        if isinstance(item, str):
            if _BAD.search(item):
                return where
        elif depth < MAX_DEPTH and isinstance(item, dict):
            for key, child in item.items():
                child_path = f"{where}.{key}" if where else str(key)
                if isinstance(key, str) and _BAD.search(key):
                    return scrub(child_path)
                stack.append((child, child_path, depth + 1))
        elif depth < MAX_DEPTH and isinstance(item, list | tuple):
            stack.extend((child, f"{where}[{i}]", depth + 1) for i, child in enumerate(item))
    return None


def scrub(text: str) -> str:
    """``text`` with bad characters replaced by U+FFFD: safe to log, to audit and to echo in messages."""
    return _BAD.sub("\ufffd", text)


def bad_text_message(where: str) -> str:
    return f"{scrub(where) or 'value'}: {PROBLEM}"


def is_bad_text_db_error(exc: BaseException) -> bool:
    """A database (or driver) error caused by such a character that slipped past the doors.

    psycopg: ``DataError``/``ValueError`` "...cannot contain NUL (0x00) bytes"; encoding a surrogate:
    ``UnicodeEncodeError`` "surrogates not allowed". Checked by the doors' last-resort handlers so the
    caller gets a VALIDATION_ERROR, not a 500.
    """
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, UnicodeEncodeError) and "surrogate" in str(current):
            return True
        if isinstance(current, ValueError) and "NUL" in str(current):
            return True
        if type(current).__name__ == "DataError" and ("0x00" in str(current) or "NUL" in str(current)):
            return True
        current = current.__cause__ or current.__context__
    return False
