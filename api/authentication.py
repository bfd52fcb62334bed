"""DRF authentication: a bearer token (PAT), else the session cookie (with CSRF), else anonymous.

``request.auth`` always ends up holding the :class:`~emdash.actor.Actor` the services need.
A bearer token that is sent but invalid is a 401; it never falls back to the session.
"""

from __future__ import annotations

from typing import Any

from rest_framework.authentication import BaseAuthentication, SessionAuthentication
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request

from accounts.auth import bearer_token, resolve_bearer
from accounts.discovery import resource_metadata_url
from emdash.actor import Actor


class BearerAuthentication(BaseAuthentication):
    """``Authorization: Bearer ec_pat_...``; tokens in the query string are ignored."""

    def authenticate(self, request: Request) -> tuple[Any, Actor] | None:
        token = bearer_token(request._request)
        if token is None:
            return None
        actor = resolve_bearer(token)
        if actor is None:
            raise AuthenticationFailed("The bearer token is invalid, expired or revoked", code="invalid_token")
        return actor.user, actor

    def authenticate_header(self, request: Request) -> str:
        return f'Bearer resource_metadata="{resource_metadata_url(request._request)}"'


class SessionActorAuthentication(SessionAuthentication):
    """The admin UI's session cookie: full role rights, no scope limit, CSRF enforced on writes."""

    def authenticate(self, request: Request) -> tuple[Any, Actor] | None:
        result = super().authenticate(request)
        if result is None:
            return None
        user, _ = result
        return user, Actor.for_user(user)


def actor_of(request: Request) -> Actor:
    auth = request.auth
    return auth if isinstance(auth, Actor) else Actor.anonymous()
