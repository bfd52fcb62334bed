"""The REST API's JSON parser: DRF's, plus the refusal of text no database can store (NUL, lone surrogates)."""

from __future__ import annotations

from typing import Any

import orjson
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser, JSONParser

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


class StreamedJSONParser(BaseParser):
    """JSON read from the request stream, for routes whose body may pass ``MAX_BODY`` (``media_upload``'s base64).

    DRF hands ``JSONParser`` subclasses ``request.body``, which Django caps at ``DATA_UPLOAD_MAX_MEMORY_SIZE``
    (= ``MAX_BODY``); the route's own, larger limit is enforced by ``emdash.edge.limits`` before the view runs."""

    media_type = "application/json"

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            data = orjson.loads(stream.read() if stream is not None else b"")
        except orjson.JSONDecodeError:
            raise ParseError("The request body is not valid JSON") from None
        where = find_bad_text(data)
        if where is not None:
            raise ValidationError.for_fields({where or "body": PROBLEM})
        return data
