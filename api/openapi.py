"""OpenAPI generation hooks: document the REST routes only (not MCP, OAuth or the signed PUT target)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema

from emdash import doors


def only_rest_routes(endpoints: list[tuple[str, Any, str, Any]], **kwargs: Any) -> list[tuple[str, Any, str, Any]]:
    """The routes the door table says are documented (emdash.doors)."""
    return [e for e in endpoints if doors.documented(e[0])]


class ApiSchema(AutoSchema):
    """Operation IDs from the view's name (``ContentDetail_put``), and each operation's access rule in its
    description and security (public operations also accept no credentials)."""

    def _rule(self) -> Any:
        from api.permissions import declared_rule

        return declared_rule(self.view, self.method)

    def get_description(self) -> str:
        rule = self._rule()
        # The operation's description, else the view's own docstring (inspect.getdoc would inherit ApiView's).
        bound = getattr(self.view, "bound", {}).get(self.method)
        text = bound[0].description if bound else (type(self.view).__doc__ or "").strip()
        if rule is None:
            return text
        scopes = " or ".join(f"`{s.value}`" for s in (rule.scope, *sorted(rule.also)))
        access = f"Token scope {scopes}, minimum role {rule.min_role.label}."
        if rule.public:
            access += " Anonymous callers allowed (published data only)."
        return f"{text}\n\n{access}".strip()

    def get_auth(self) -> list[dict[str, Any]]:
        auth = list(super().get_auth())
        rule = self._rule()
        if rule is not None and rule.public and {} not in auth:
            auth.append({})
        return auth

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
