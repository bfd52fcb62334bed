"""Reading settings from environment variables: the README's Configuration table names each one."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any, TypeVar, overload

from django.core.exceptions import ImproperlyConfigured

from emdash.numbers import plain_int


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


N = TypeVar("N", int, float)


def _refuse(name: str, value: str, what: str) -> ImproperlyConfigured:
    # Python's own "invalid literal for int()" names neither the variable nor what it takes.
    return ImproperlyConfigured(f"{name} must be {what}, not {value!r}")


def _number(name: str, default: N | None, convert: Callable[[str], N], what: str) -> N | None:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return convert(value)
    except ValueError:
        raise _refuse(name, value, what) from None


@overload
def env_int(name: str) -> int | None: ...
@overload
def env_int(name: str, default: int) -> int: ...
def env_int(name: str, default: int | None = None) -> int | None:
    return _number(name, default, int, "a whole number")


@overload
def env_float(name: str) -> float | None: ...
@overload
def env_float(name: str, default: float) -> float: ...
def env_float(name: str, default: float | None = None) -> float | None:
    return _number(name, default, float, "a number (e.g. 0.5)")


def env_sizes(name: str) -> list[int] | None:
    """Comma-separated pixel sizes (EMDASH_IMAGE_SIZES); 0 is allowed (it keeps the ratio), negatives are not."""
    items = env_list(name)
    if not items:
        return None
    sizes = [plain_int(item) for item in items]
    if None in sizes:
        raise _refuse(name, os.environ.get(name, ""), "comma-separated whole numbers of pixels, e.g. 320,640,1280")
    return [size for size in sizes if size is not None]


def env_json_object(name: str) -> dict[str, Any] | None:
    """A JSON object from the environment (e.g. EMDASH_CACHE_PURGE), refused at start when it is not one."""
    value = os.environ.get(name, "").strip()
    if not value:
        return None
    try:
        parsed = json.loads(value)
    except ValueError:
        parsed = None
    if not isinstance(parsed, dict):
        raise ImproperlyConfigured(f'{name} must be a JSON object, e.g. {{"backend": "http", "url": "http://..."}}')
    return parsed


def env_size(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip().upper().removesuffix("IB").removesuffix("B")
    if not raw:
        return default
    scale = {"K": 1024, "M": 1024**2, "G": 1024**3}.get(raw[-1], 1)
    digits = (raw[:-1] if scale > 1 else raw).strip()
    number = plain_int(digits)
    if number is None:
        raise _refuse(name, os.environ.get(name, ""), "a size in bytes with an optional K, M or G suffix, e.g. 4M")
    return number * scale
