"""Reading settings from environment variables: the README's Configuration table names each one."""

from __future__ import annotations

import json
import os
from typing import Any

from django.core.exceptions import ImproperlyConfigured


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_int(name: str) -> int | None:
    value = os.environ.get(name, "").strip()
    return int(value) if value else None


def env_float(name: str) -> float | None:
    value = os.environ.get(name, "").strip()
    return float(value) if value else None


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
    return int(raw[:-1] if scale > 1 else raw) * scale
