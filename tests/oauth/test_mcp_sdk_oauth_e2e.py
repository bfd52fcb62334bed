"""End to end as an MCP client does it, with the official ``mcp`` SDK's ``OAuthClientProvider`` driven headlessly:
401 challenge → protected resource metadata → authorization server metadata → dynamic registration → consent
(as the logged-in user, CSRF and all, over HTTP) → code → token → tool call; then refresh and revoke over HTTP.

The SDK hands us the authorization URL (``redirect_handler``); we play the browser with a logged-in session and
give the redirect's ``code``/``state``/``iss`` back (``callback_handler``). The database is touched only outside
the event loop.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.auth import AuthorizationCodeResult, OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

from accounts.oauth.models import AccessToken, OAuthClient
from emdash.roles import Role
from tests.cli.conftest import browser_session
from tests.factories import make_user

pytestmark = pytest.mark.slow
REDIRECT = "http://127.0.0.1:33418/callback"


class MemoryStorage:
    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client_info: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client_info

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client_info = client_info


class HeadlessBrowser:
    """Approves the consent page as a logged-in user and captures the redirect back to the client."""

    def __init__(self, session: httpx.Client) -> None:
        self.session = session
        self.redirect: dict[str, list[str]] = {}
        self.consent_page = ""
        self.authorization_url = ""

    async def open(self, authorization_url: str) -> None:
        self.authorization_url = authorization_url
        page = self.session.get(authorization_url)
        assert page.status_code == 200, page.text[:500]
        self.consent_page = page.text
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        assert csrf
        offered = re.findall(r'name="scope" value="([^"]+)" checked', page.text)
        response = self.session.post(
            authorization_url, data={"csrfmiddlewaretoken": csrf.group(1), "decision": "approve", "scope": offered}
        )
        assert response.status_code == 302, response.text[:500]
        location = response.headers["location"]
        assert location.startswith(REDIRECT)
        self.redirect = parse_qs(urlsplit(location).query)

    async def callback(self) -> AuthorizationCodeResult:
        return AuthorizationCodeResult(
            code=self.redirect["code"][0], state=self.redirect["state"][0], iss=self.redirect["iss"][0]
        )


async def _sdk_session(mcp_url: str, browser: HeadlessBrowser, storage: MemoryStorage) -> tuple[list, Any]:
    seen: list[tuple[str, str, int]] = []

    async def record(response: httpx2.Response) -> None:
        seen.append((response.request.method, response.request.url.path, response.status_code))

    provider = OAuthClientProvider(
        server_url=mcp_url,
        client_metadata=OAuthClientMetadata(
            client_name="SDK test client", redirect_uris=[REDIRECT], token_endpoint_auth_method="none"
        ),
        storage=storage,
        redirect_handler=browser.open,
        callback_handler=browser.callback,
    )
    async with (
        httpx2.AsyncClient(auth=provider, event_hooks={"response": [record]}, timeout=30) as http,
        Client(streamable_http_client(mcp_url, http_client=http), mode="legacy") as client,
    ):
        result = await client.call_tool("schema_list_collections", {})
        assert not result.is_error, result.content
    return seen, result


def test_mcp_sdk_client_runs_the_whole_authorization_code_flow(live_server, transactional_db):
    user = make_user(Role.EDITOR, email="editor-sdk@example.com")
    mcp_url = live_server.url + "/_emdash/api/mcp"
    browser = HeadlessBrowser(browser_session(live_server.url, user.email))
    storage = MemoryStorage()

    seen, _ = asyncio.run(_sdk_session(mcp_url, browser, storage))

    paths = list(seen)
    first_401 = paths.index(("POST", "/_emdash/api/mcp", 401))
    order = [
        ("GET", "/.well-known/oauth-protected-resource", 200),  # the URL the 401 challenge names
        ("GET", "/.well-known/oauth-authorization-server/_emdash", 200),
        ("POST", "/_emdash/api/oauth/register", 201),
        ("POST", "/_emdash/api/oauth/token", 200),
    ]
    positions = [paths.index(step) for step in order]
    assert first_401 < positions[0] and positions == sorted(positions), paths
    assert ("POST", "/_emdash/api/mcp", 200) in paths[positions[-1] :]
    # The client asks for the scopes the 401 challenge names (MCP 2025-11-25 scope selection), not for every
    # supported scope: an editor is not even offered schema:write.
    requested = parse_qs(urlsplit(browser.authorization_url).query)["scope"][0].split()
    assert sorted(requested) == ["content:read", "content:write", "media:read", "schema:read"]
    assert "schema:write" not in browser.consent_page

    registered = OAuthClient.objects.get(registered_dynamically=True)
    assert registered.name == "SDK test client" and registered.redirect_uris == [REDIRECT]
    issued = AccessToken.objects.get(client=registered)
    assert issued.user == user and issued.resource == mcp_url
    assert "schema:write" not in issued.scopes and "schema:read" in issued.scopes
    assert storage.tokens is not None and storage.tokens.refresh_token

    # Refresh and revoke as the client would, then show the revoked grant no longer opens the endpoint.
    token_url = live_server.url + "/_emdash/api/oauth/token"
    client_id = storage.client_info.client_id if storage.client_info else ""
    refreshed = httpx.post(
        token_url,
        data={"grant_type": "refresh_token", "refresh_token": storage.tokens.refresh_token, "client_id": client_id,
              "resource": mcp_url},
    )  # fmt: skip
    assert refreshed.status_code == 200, refreshed.text
    new = refreshed.json()
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "schema_list_collections"}}
    headers = {"Authorization": f"Bearer {new['access_token']}", "Accept": "application/json, text/event-stream"}
    assert httpx.post(mcp_url, json=call, headers=headers).status_code == 200
    revoked = httpx.post(
        live_server.url + "/_emdash/api/oauth/token/revoke",
        data={"token": new["refresh_token"], "client_id": client_id},
    )
    assert revoked.status_code == 200
    after = httpx.post(mcp_url, json=call, headers=headers)
    assert after.status_code == 401 and 'error="invalid_token"' in after.headers["www-authenticate"]
