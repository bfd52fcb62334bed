"""OpenAPI generation hooks: document the REST routes only (not MCP, OAuth or the signed PUT target)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema

EXCLUDED = ("/_emdash/api/mcp", "/_emdash/api/oauth", "/_emdash/api/media/upload/")


def only_rest_routes(endpoints: list[tuple[str, Any, str, Any]], **kwargs: Any) -> list[tuple[str, Any, str, Any]]:
    return [e for e in endpoints if e[0].startswith("/_emdash/api/") and not e[0].startswith(EXCLUDED)]


class ApiSchema(AutoSchema):
    """Operation IDs from the view's name, e.g. ``ContentDetail_put`` (stable and collision-free)."""

    def get_operation_id(self) -> str:
        name = type(self.view).__name__.removesuffix("View")
        action = getattr(self.view, "action_name", "")
        suffix = f"_{action.replace('-', '_')}" if action else ""
        return f"{name}{suffix}_{self.method.lower()}"


class BearerScheme(OpenApiAuthenticationExtension):
    target_class = "api.authentication.BearerAuthentication"
    name = "bearer"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {"type": "http", "scheme": "bearer", "description": "A personal access token (ec_pat_...)"}


class SessionScheme(OpenApiAuthenticationExtension):
    target_class = "api.authentication.SessionActorAuthentication"
    name = "session"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {"type": "apiKey", "in": "cookie", "name": "sessionid", "description": "Session cookie + X-CSRFToken"}
