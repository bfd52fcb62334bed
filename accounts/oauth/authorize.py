"""The authorization request (RFC 6749 4.1 + PKCE + RFC 8707): validate it, then approve or deny it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlencode, urlsplit, urlunsplit

from django.http import QueryDict

from accounts.models import User
from accounts.oauth import codes, grants
from accounts.oauth.clients import AUTH_CODE_GRANT
from accounts.oauth.errors import OAuthError
from accounts.oauth.models import OAuthClient


class BadClient(Exception):
    """The client or redirect URI cannot be trusted: show the error to the user, never redirect."""


class RedirectError(Exception):
    """An error the client should hear about: redirect back to it with ``error`` and ``state``."""

    def __init__(self, redirect_to: str) -> None:
        super().__init__(redirect_to)
        self.redirect_to = redirect_to


@dataclass(frozen=True)
class AuthorizationRequest:
    client: OAuthClient
    redirect_uri: str
    state: str | None
    scopes: list[str] | None  # None: the client asked for nothing in particular
    resource: str
    code_challenge: str
    issuer: str

    def requested_or(self, fallback: Iterable[str]) -> list[str]:
        return list(self.scopes) if self.scopes is not None else sorted(fallback)


def with_params(uri: str, params: dict[str, str | None]) -> str:
    """``uri`` with ``params`` added to its query (existing query parameters are kept)."""
    parts = urlsplit(uri)
    extra = urlencode({k: v for k, v in params.items() if v is not None})
    query = f"{parts.query}&{extra}" if parts.query else extra
    return urlunsplit((parts.scheme, parts.netloc, parts.path, query, ""))


def _single(query: QueryDict, name: str) -> str | None:
    values = query.getlist(name)
    if len(values) > 1:
        raise ValueError(name)
    return values[0] if values else None


def parse(query: QueryDict, *, expected_resource: str, issuer: str) -> AuthorizationRequest:
    """Validate an authorization request. Client and redirect URI problems raise BadClient; the rest RedirectError."""
    try:
        client_id, redirect_uri, state = (_single(query, n) for n in ("client_id", "redirect_uri", "state"))
    except ValueError as exc:
        raise BadClient(f"The parameter {exc} was given more than once") from None
    client = OAuthClient.objects.filter(client_id=(client_id or "")[:100]).first() if client_id else None
    if client is None:
        raise BadClient("Unknown client: the application that sent you here is not registered")
    if not redirect_uri or redirect_uri not in client.redirect_uris:
        raise BadClient("The redirect URI does not exactly match one registered for this application")

    def fail(error: str, description: str) -> RedirectError:
        params = {"error": error, "error_description": description, "state": state, "iss": issuer}
        return RedirectError(with_params(redirect_uri, params))

    try:
        response_type, challenge, method, scope, resource = (
            _single(query, n) for n in ("response_type", "code_challenge", "code_challenge_method", "scope", "resource")
        )
    except ValueError as exc:
        raise fail("invalid_request", f"The parameter {exc} was given more than once") from None
    if AUTH_CODE_GRANT not in client.grant_types:
        raise fail("unauthorized_client", "This client may not use the authorization code grant")
    if response_type != "code":
        raise fail("unsupported_response_type", "response_type must be 'code'")
    if method != "S256" or not challenge or not codes.CHALLENGE_RE.match(challenge):
        raise fail("invalid_request", "PKCE is required: code_challenge with code_challenge_method=S256")
    try:
        scopes = grants.parse_scope(scope)
        bound = grants.check_resource(resource, expected_resource)
    except OAuthError as exc:
        raise fail(exc.error, exc.description) from None
    return AuthorizationRequest(client, redirect_uri, state, scopes, bound, challenge, issuer)


def approve(request: AuthorizationRequest, *, user: User, selected: Iterable[str]) -> str:
    """Issue a code for requested ∩ selected ∩ role; the redirect URL to send the browser to."""
    granted = grants.clamp(request.scopes, user.role, selected)
    if not granted:
        return deny(request, "No scopes were granted")
    code = codes.issue_code(
        client=request.client,
        user=user,
        redirect_uri=request.redirect_uri,
        scopes=granted,
        resource=request.resource,
        code_challenge=request.code_challenge,
    )
    return with_params(request.redirect_uri, {"code": code, "state": request.state, "iss": request.issuer})


def deny(request: AuthorizationRequest, description: str = "The user denied the request") -> str:
    params = {"error": "access_denied", "error_description": description, "state": request.state}
    return with_params(request.redirect_uri, {**params, "iss": request.issuer})
