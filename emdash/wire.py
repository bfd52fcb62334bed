"""Model rows as the wire shows them: attribute names in camelCase, as every door answers."""

from __future__ import annotations

from typing import Any

from pydantic.alias_generators import to_camel


def attrs(row: Any, *names: str) -> dict[str, Any]:
    """``row``'s attributes ``names`` under their wire names: ``attrs(row, "id", "mime_type")`` gives
    ``{"id": ..., "mimeType": ...}``."""
    return {to_camel(name): getattr(row, name) for name in names}
