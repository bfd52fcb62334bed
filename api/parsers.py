"""The REST API's JSON parser: DRF's, plus the refusal of text no database can store (NUL, lone surrogates)."""

from __future__ import annotations

from typing import Any

from rest_framework.parsers import JSONParser

from emdash.errors import ValidationError
from emdash.text import PROBLEM, find_bad_text


class CheckedJSONParser(JSONParser):
    """Python's json module decodes ``"\\ud800"`` and ``"\\u0000"``; refuse them here, once for every route."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        data = super().parse(stream, media_type, parser_context)
        where = find_bad_text(data)
        if where is not None:
            raise ValidationError.for_fields({where or "body": PROBLEM})
        return data
