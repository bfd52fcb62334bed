"""The REST API's JSON parser: DRF's, plus the refusal of text no database can store (NUL, lone surrogates)."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser, JSONParser

from emdash import json_input
from emdash.errors import ValidationError
from emdash.text import PROBLEM, find_bad_text


class BadJSONBody(ParseError):
    """A body the shared decoder refused; its detail is safe to show (it names the reason, nothing else)."""


def _decode(raw: bytes) -> Any:
    """The one JSON parse (emdash.json_input) plus the refusal of ``"\\ud800"`` and ``"\\u0000"``, which
    decode fine but no database stores. Deep nesting is a 400 here, never a RecursionError (a 500)."""
    try:
        data = json_input.loads(raw, lone_surrogates=True)
    except json_input.BadJSON as exc:
        raise BadJSONBody(f"The request body could not be parsed ({exc.reason}; send a JSON object)") from None
    where = find_bad_text(data)
    if where is not None:
        raise ValidationError.for_fields({where or "body": PROBLEM})
    return data


class CheckedJSONParser(JSONParser):
    """DRF's JSON parser on the shared decoder, once for every route."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        return _decode(stream.read() if stream is not None else b"")


class StreamedJSONParser(BaseParser):
    """JSON read from the request stream, for routes whose body may pass ``MAX_BODY`` (``media_upload``'s base64).

    DRF hands ``JSONParser`` subclasses ``request.body``, which Django caps at ``DATA_UPLOAD_MAX_MEMORY_SIZE``
    (= ``MAX_BODY``); the route's own, larger limit is enforced by ``emdash.edge.limits`` before the view runs."""

    media_type = "application/json"

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        return _decode(stream.read() if stream is not None else b"")
