"""The admin websocket: exact origin match (scheme, host and port) and no e-mail addresses for non-admins."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.test import Client, override_settings

from config.asgi import application
from tests.factories import actor, make_entry

pytestmark = pytest.mark.django_db(transaction=True)

HOST = (b"host", b"127.0.0.1:8000")


def _session(user) -> tuple[bytes, bytes]:
    client = Client()
    client.force_login(user)
    return (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())


def _connects(headers: list[tuple[bytes, bytes]], scheme: str = "ws") -> bool:
    async def scenario() -> bool:
        communicator = WebsocketCommunicator(application, "/_emdash/admin/ws/changes/", headers=headers)
        communicator.scope["scheme"] = scheme
        connected, _ = await communicator.connect(timeout=10)
        await communicator.disconnect()
        return connected

    return async_to_sync(scenario)()


def test_the_same_origin_is_accepted():
    cookie = _session(actor(role="editor").user)
    assert _connects([cookie, HOST, (b"origin", b"http://127.0.0.1:8000")])
    assert _connects([cookie, HOST, (b"origin", b"https://127.0.0.1:8000")], scheme="wss")


@pytest.mark.parametrize(
    "origin",
    [
        b"http://127.0.0.1:1",  # another port of the same host (the audit's attack)
        b"http://127.0.0.1",  # the default port is another port too
        b"https://127.0.0.1:8000",  # another scheme
        b"http://localhost:8000",  # another host, even an allowed one
        b"http://evil.example",
        b"null",
    ],
)
def test_other_origins_are_refused_even_with_the_admin_cookie(origin):
    cookie = _session(actor(role="admin").user)
    assert not _connects([cookie, HOST, (b"origin", origin)])


def test_a_missing_origin_or_host_is_refused():
    cookie = _session(actor(role="admin").user)
    assert not _connects([cookie, HOST])
    assert not _connects([cookie, (b"origin", b"http://127.0.0.1:8000")])


def test_a_host_outside_allowed_hosts_is_refused_even_when_it_matches_the_origin():
    """A DNS-rebound page has Origin and Host of the attacker's name: same origin, but not our host."""
    cookie = _session(actor(role="admin").user)
    assert not _connects([cookie, (b"host", b"evil.example"), (b"origin", b"http://evil.example")])


def test_configured_origins_are_accepted():
    cookie = _session(actor(role="editor").user)
    with override_settings(EMDASH={"ALLOWED_ORIGINS": ["https://admin.example.com"]}):
        assert _connects([cookie, HOST, (b"origin", b"https://admin.example.com")])
    with override_settings(EMDASH={"SITE_URL": "https://cms.example.com/"}):
        assert _connects([cookie, HOST, (b"origin", b"https://cms.example.com")])


def _notice_for(role: str, by) -> dict:
    headers = [_session(actor(role=role).user), HOST, (b"origin", b"http://127.0.0.1:8000")]

    async def scenario() -> dict:
        communicator = WebsocketCommunicator(application, "/_emdash/admin/ws/changes/", headers=headers)
        connected, _ = await communicator.connect(timeout=10)
        assert connected
        from asgiref.sync import sync_to_async

        await sync_to_async(make_entry)(by=by)
        notice = await communicator.receive_json_from(timeout=5)
        await communicator.disconnect()
        return notice

    return async_to_sync(scenario)()


def test_change_notices_show_e_mail_addresses_only_to_admins(posts):
    editor = actor(role="editor")
    assert _notice_for("admin", editor)["by"] == editor.user.email
    for role in ("contributor", "author", "editor"):
        notice = _notice_for(role, editor)
        assert notice["by"] == "an editor" and "@" not in str(notice)
    editor.user.name = "Eddie"
    editor.user.save()
    assert _notice_for("author", editor)["by"] == "Eddie"
