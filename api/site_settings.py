"""Site settings routes."""

from __future__ import annotations

from rest_framework.request import Request
from rest_framework.response import Response

from api.base import ApiView
from api.rules import rule
from api.schema_doc import OBJECT, doc
from emdash.errors import ValidationError
from emdash.permissions import Perm
from settings_app import selectors, services

TAGS = ["settings"]


class SettingsView(ApiView):
    rules = {"GET": rule(Perm.SETTINGS_READ), "PUT": rule(Perm.SETTINGS_MANAGE)}

    @doc("Read the site settings", tags=TAGS)
    def get(self, request: Request) -> Response:
        return Response(selectors.settings_get(actor=self.actor(request)))

    @doc("Change some settings (partial); returns all of them", body=OBJECT, tags=TAGS)
    def put(self, request: Request) -> Response:
        if not isinstance(request.data, dict):
            raise ValidationError("The request body must be a JSON object")
        return Response(services.settings_update(actor=self.actor(request), changes=dict(request.data)))
