"""Content negotiation for the REST door: its views render JSON only, so the usual Accept headers need no parsing.

DRF's default negotiation parses the Accept header into media types and ranks them on every request, a seventh of
an item read here even when the header is absent. A request that asks for nothing in particular (no Accept, or
exactly ``*/*`` or ``application/json``, and no ``?format=``) gets the view's first renderer, which is what the
default negotiation picks for it too; anything else (another type, parameters such as ``indent=4``, several
types with weights) is negotiated by DRF as before, 406 included.
"""

from __future__ import annotations

from typing import Any

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request

PLAIN_ACCEPTS = frozenset(("", "*/*", "application/json"))


class JSONFirstNegotiation(DefaultContentNegotiation):
    def select_renderer(
        self, request: Request, renderers: list[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        accept = request.META.get("HTTP_ACCEPT", "").strip()
        fmt = self.settings.URL_FORMAT_OVERRIDE
        if accept in PLAIN_ACCEPTS and not format_suffix and not (fmt and fmt in request.query_params):
            first = renderers[0]
            if first.media_type == "application/json":
                return first, first.media_type
        found: Any = super().select_renderer(request, renderers, format_suffix)
        return found  # type: ignore[no-any-return]
