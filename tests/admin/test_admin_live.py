"""Live updates: committed content changes reach the admin websocket; only signed-in contributors+ listen."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from admin_ui.live import GROUP
from config.asgi import application
from content.entries import services
from tests.factories import actor, make_entry


def _listen():
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(GROUP, channel)
    return layer, channel


def test_a_content_change_is_broadcast_after_commit(posts):
    layer, channel = _listen()
    by = actor(role="editor")
    entry = make_entry(by=by)
    message = async_to_sync(layer.receive)(channel)
    assert message == {
        "type": "content.changed",
        "collection": "posts",
        "id": entry.id,
        "action": "created",
        "by": by.user.email,
        "by_public": "an editor",
    }
    services.entry_publish(actor=by, collection="posts", id=entry.id)
    assert async_to_sync(layer.receive)(channel)["action"] == "published"


SAME_ORIGIN = [(b"host", b"127.0.0.1"), (b"origin", b"http://127.0.0.1")]


def _cookie_for(user) -> list[tuple[bytes, bytes]]:
    from django.test import Client

    client = Client()
    client.force_login(user)
    session = client.cookies["sessionid"].value
    return [(b"cookie", f"sessionid={session}".encode()), *SAME_ORIGIN]


async def _connect(headers):
    communicator = WebsocketCommunicator(application, "/_emdash/admin/ws/changes/", headers=headers)
    connected, code = await communicator.connect()
    return communicator, connected, code


@pytest.mark.django_db(transaction=True)
def test_the_websocket_delivers_changes_to_signed_in_editors():
    editor = actor(role="editor").user
    headers = _cookie_for(editor)

    async def scenario():
        communicator, connected, _ = await _connect(headers)
        assert connected
        await get_channel_layer().group_send(
            GROUP, {"type": "content.changed", "collection": "posts", "id": "X", "action": "updated", "by": "bot"}
        )
        received = await communicator.receive_json_from(timeout=2)
        await communicator.disconnect()
        return received

    # Editors get the public form of "by" (admins get the one with the e-mail; see test_admin_ws_origin).
    assert async_to_sync(scenario)() == {"collection": "posts", "id": "X", "action": "updated", "by": "someone"}


@pytest.mark.django_db(transaction=True)
def test_the_websocket_refuses_anonymous_visitors_and_subscribers():
    subscriber = actor(role="subscriber").user

    async def scenario(headers):
        communicator, connected, code = await _connect(headers)
        await communicator.disconnect()
        return connected, code

    assert async_to_sync(scenario)(SAME_ORIGIN) == (False, 4403)
    assert async_to_sync(scenario)(_cookie_for(subscriber)) == (False, 4403)


@pytest.mark.django_db(transaction=True)
def test_a_socket_closing_while_the_layer_times_out_is_no_error(monkeypatch, caplog):
    """Issue 21.9: Redis timing out as a page closes its socket was a 50-line error; now one info line."""
    editor = actor(role="editor").user
    headers = _cookie_for(editor)
    layer = get_channel_layer()

    async def timed_out(group, channel):
        raise TimeoutError("Timeout reading from 127.0.0.1:6379")

    async def scenario():
        communicator, connected, _ = await _connect(headers)
        assert connected
        monkeypatch.setattr(layer, "group_discard", timed_out)
        await communicator.disconnect(code=1000)

    caplog.set_level("INFO")
    async_to_sync(scenario)()
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
    assert [r.getMessage() for r in caplog.records if r.name == "emdash.admin.live"] == [
        "websocket closed (1000); leaving the live-update group failed: "
        "TimeoutError('Timeout reading from 127.0.0.1:6379')"
    ]
