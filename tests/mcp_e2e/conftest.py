"""Shared helpers for the MCP end-to-end tests: users with tokens, and the endpoint's URL.

Tokens are personal access tokens issued through ``accounts.tokens.token_create`` for users built by
``tests.factories.make_user`` (with unusable passwords: no slow hashing).
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from accounts.models import User
from accounts.tokens import token_create
from emdash.roles import Role
from tests.factories import make_user

MCP_PATH = "/_emdash/api/mcp"


def new_user(role: Role) -> User:
    return make_user(role, password=None)


def token_for(user: User, scopes: Iterable[str], name: str = "e2e") -> str:
    """A raw ``ec_pat_`` token for ``user`` with exactly ``scopes``."""
    return token_create(user=user, name=name, scopes=list(scopes)).raw


@pytest.fixture
def mcp_url(live_server) -> str:
    """The MCP endpoint on pytest-django's threaded live server (shares the test database)."""
    return live_server.url + MCP_PATH
