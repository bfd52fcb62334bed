"""The CLI's HTTP side: device login, transparent refresh, revocation and ``userinfo`` against one site."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import Any

import httpx

from accounts.oauth import metadata
from emdash.cli import credentials

USER_AGENT = "emdash-cli"


class CliError(Exception):
    """A failure to report on stderr (no trace), with the exit code to use."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code


class NotLoggedIn(CliError):
    pass


def http_client(timeout: float = 30.0) -> httpx.Client:
    return httpx.Client(timeout=httpx.Timeout(timeout, connect=10.0), headers={"User-Agent": USER_AGENT})


def _oauth_error(response: httpx.Response) -> tuple[str, str]:
    try:
        body = response.json()
        return str(body.get("error", "")), str(body.get("error_description", ""))
    except ValueError:
        return "http_error", f"HTTP {response.status_code}"


def start_device_login(http: httpx.Client, origin: str, scope: str | None) -> dict[str, Any]:
    data = {"client_id": metadata.CLI_CLIENT_ID, **({"scope": scope} if scope else {})}
    try:
        response = http.post(origin + metadata.DEVICE_CODE_PATH, data=data)
    except httpx.HTTPError as exc:
        raise CliError(f"Cannot reach {origin}: {exc}", 2) from None
    if response.status_code != 200:
        error, description = _oauth_error(response)
        raise CliError(f"The server refused the login request: {error} {description}".strip(), 2)
    return dict(response.json())


def poll_for_tokens(
    http: httpx.Client, origin: str, started: dict[str, Any], sleep: Callable[[float], None] = time.sleep
) -> dict[str, Any]:
    """Poll the token endpoint politely (interval, +5 s on slow_down, Retry-After on 429) until an answer."""
    interval = float(started.get("interval") or 5)
    deadline = time.monotonic() + float(started.get("expires_in") or 900)
    data = {"grant_type": metadata.DEVICE_GRANT, "device_code": started["device_code"], "client_id": "emdash-cli"}
    while time.monotonic() < deadline:
        sleep(interval)
        try:
            response = http.post(origin + metadata.TOKEN_PATH, data=data)
        except httpx.HTTPError:
            continue  # a network blip: try again at the next interval
        if response.status_code == 200:
            return dict(response.json())
        if response.status_code == 429:
            sleep(float(response.headers.get("Retry-After") or interval))
            continue
        error, description = _oauth_error(response)
        if error == "authorization_pending":
            continue
        if error == "slow_down":
            interval = min(interval + 5, 60)
            continue
        if error == "access_denied":
            raise CliError("Login was denied.", 2)
        if error == "expired_token":
            raise CliError("The code expired before it was approved; run `emdash login` again.", 2)
        raise CliError(f"Login failed: {error} {description}".strip(), 2)
    raise CliError("The code expired before it was approved; run `emdash login` again.", 2)


def userinfo(http: httpx.Client, origin: str, access_token: str) -> dict[str, Any]:
    response = http.get(origin + metadata.USERINFO_PATH, headers={"Authorization": f"Bearer {access_token}"})
    if response.status_code == 401:
        raise NotLoggedIn("The stored session is no longer valid; run `emdash login`.")
    if response.status_code != 200:
        raise CliError(f"Could not read the account: HTTP {response.status_code}")
    return dict(response.json())


def _refresh(http: httpx.Client, origin: str, entry: dict[str, Any]) -> dict[str, Any]:
    """Rotate the stored grant. The caller holds ``credentials.locked()``."""
    refresh_token = entry.get("refreshToken")
    if not refresh_token:
        raise NotLoggedIn("The session expired; run `emdash login`.")
    data = {"grant_type": metadata.REFRESH_GRANT, "refresh_token": refresh_token, "client_id": "emdash-cli"}
    try:
        response = http.post(origin + metadata.TOKEN_PATH, data=data)
    except httpx.HTTPError as exc:
        raise CliError(f"Cannot reach {origin} to refresh the session: {exc}") from None
    if response.status_code != 200:
        error, _ = _oauth_error(response)
        if error in ("invalid_grant", "invalid_client", "unauthorized_client"):
            remaining = credentials.load()  # under the caller's lock: no nested flock
            remaining.pop(origin, None)
            credentials.save(remaining)
            raise NotLoggedIn("The session expired or was revoked; run `emdash login`.")
        raise CliError(f"Refreshing the session failed: HTTP {response.status_code}")
    fresh = credentials.entry_from_tokens(response.json(), entry.get("user"))
    data_all = credentials.load()
    data_all[origin] = fresh
    credentials.save(data_all)
    return fresh


def access_token(http: httpx.Client, origin: str, *, stale: str | None = None) -> str:
    """A usable access token: ``EMDASH_TOKEN``, else the stored one, refreshed when expired (or when ``stale``,
    the token the server just refused, is still the stored one)."""
    if env := os.environ.get("EMDASH_TOKEN"):
        if stale == env:
            raise NotLoggedIn("EMDASH_TOKEN was refused by the server.")
        return env
    with credentials.locked():  # another emdash process may be refreshing the same grant
        entry = credentials.load().get(origin)
        if entry is None:
            raise NotLoggedIn(f"Not logged in to {origin}; run `emdash login --url {origin}`.")
        token = str(entry.get("accessToken") or "")
        if token and token != stale and credentials.is_fresh(entry):
            return token
        return str(_refresh(http, origin, entry)["accessToken"])


def revoke(http: httpx.Client, origin: str, entry: dict[str, Any]) -> bool:
    """Revoke the stored grant server-side (the refresh token revokes its whole family)."""
    token = entry.get("refreshToken") or entry.get("accessToken")
    if not token:
        return True
    try:
        response = http.post(origin + metadata.REVOKE_PATH, data={"token": token, "client_id": metadata.CLI_CLIENT_ID})
    except httpx.HTTPError as exc:
        print(f"warning: could not reach {origin} to revoke the token: {exc}", file=sys.stderr)
        return False
    return response.status_code == 200
