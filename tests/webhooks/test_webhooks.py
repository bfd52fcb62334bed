"""Webhooks: registration (REST), events after commit only, signed delivery, retries, give-up, SSRF refusals."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
from collections.abc import Iterator
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.db import transaction
from django.utils import timezone

from content.entries import services as content_services
from emdash.errors import EmDashError
from tests.api.helpers import body, call, client_for
from tests.factories import SYSTEM, make_entry
from tests.media.helpers import make_media
from webhooks import delivery, services
from webhooks.models import Delivery, Webhook

API = "/_emdash/api/webhooks"


class Receiver:
    """A local HTTP server answering with the queued statuses (then 200), keeping every request."""

    def __init__(self) -> None:
        self.statuses: list[int] = []
        self.requests: list[tuple[dict[str, str], bytes]] = []
        self.location = ""
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.requests.append((dict(self.headers), raw))
                status = receiver.statuses.pop(0) if receiver.statuses else 200
                self.send_response(status)
                if receiver.location:
                    self.send_header("Location", receiver.location)
                self.end_headers()
                self.wfile.write(b"x" * 5000 if status >= 500 else b"ok")

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    server = Receiver()
    yield server
    server.server.shutdown()
    server.server.server_close()


@pytest.fixture
def private_ok(settings) -> None:
    settings.EMDASH = {**settings.EMDASH, "WEBHOOKS_ALLOW_PRIVATE": True}


@pytest.fixture
def queued(monkeypatch) -> list[int]:
    """Deliveries handed to the task queue (run by the tests with delivery.attempt, time under their control)."""
    ids: list[int] = []
    monkeypatch.setattr(delivery, "_enqueue", ids.extend)
    return ids


@pytest.fixture(autouse=True)
def media_root(tmp_path, settings):
    """A MEDIA_ROOT of the test's own (media files are written)."""
    settings.MEDIA_ROOT = str(tmp_path / "media")


def _hook(events: list[str], url: str, **extra) -> dict:
    return services.webhook_create(actor=SYSTEM, url=url, events=events, **extra)


def test_a_delivery_is_signed_with_the_secret_and_carries_the_event(posts, private_ok, receiver, queued):
    hook = _hook(["content.created"], receiver.url, secret="s3cret-s3cret-s3cret")
    entry = make_entry(data={"title": "Hello hooks"})
    assert len(queued) == 1
    assert delivery.attempt(queued[0]) == Delivery.DELIVERED
    headers, raw = receiver.requests[0]
    expected = "sha256=" + hmac.new(b"s3cret-s3cret-s3cret", raw, hashlib.sha256).hexdigest()
    assert headers["X-EmDash-Signature"] == expected and headers["X-EmDash-Event"] == "content.created"
    payload = json.loads(raw)
    assert payload["event"] == "content.created" and payload["collection"] == "posts"
    assert payload["item"]["id"] == entry.id and payload["item"]["data"]["title"] == "Hello hooks"
    assert payload["occurredAt"] and payload["actor"] == {"system": True}
    row = Delivery.objects.get(pk=queued[0])
    assert row.webhook_id == hook["id"] and row.attempts == 1 and row.response_code == 200


def test_failed_attempts_are_retried_with_backoff_then_delivered(posts, private_ok, receiver, queued):
    _hook(["content.created"], receiver.url)
    receiver.statuses = [500, 503]
    make_entry()
    (delivery_id,) = queued
    start = timezone.now()
    assert delivery.attempt(delivery_id, now=start) == Delivery.PENDING
    row = Delivery.objects.get(pk=delivery_id)
    assert row.next_attempt_at == start + timedelta(seconds=10) and row.response_code == 500
    assert len(row.response_body) == delivery.RESPONSE_KEEP and "answered 500" in row.last_error
    assert delivery.requeue_due(now=start + timedelta(seconds=9)) == 0  # not yet
    assert delivery.requeue_due(now=start + timedelta(seconds=10)) == 1 and queued == [delivery_id] * 2
    assert delivery.requeue_due(now=start + timedelta(hours=1)) == 0  # queued once, not twice
    assert delivery.attempt(delivery_id, now=start) == Delivery.PENDING
    assert Delivery.objects.get(pk=delivery_id).next_attempt_at == start + timedelta(seconds=60)
    assert delivery.attempt(delivery_id) == Delivery.DELIVERED
    assert delivery.attempt(delivery_id) == Delivery.DELIVERED  # a duplicate task does not send again
    assert len(receiver.requests) == 3 and Delivery.objects.get(pk=delivery_id).attempts == 3


def test_delivery_gives_up_after_the_last_attempt(posts, private_ok, receiver, queued):
    _hook(["content.created"], receiver.url)
    receiver.statuses = [500] * 10
    make_entry()
    (delivery_id,) = queued
    outcomes = [delivery.attempt(delivery_id) for _ in range(delivery.MAX_ATTEMPTS + 1)]
    assert outcomes == [Delivery.PENDING] * 4 + [Delivery.FAILED] * 2
    row = Delivery.objects.get(pk=delivery_id)
    assert row.attempts == delivery.MAX_ATTEMPTS and row.next_attempt_at is None
    assert len(receiver.requests) == delivery.MAX_ATTEMPTS


def test_only_subscribed_events_of_active_webhooks_are_delivered(posts, private_ok, receiver, queued):
    _hook(["content.published"], receiver.url)
    _hook(["content.published"], receiver.url, active=False)
    entry = make_entry()
    assert queued == []  # created: nobody listens
    content_services.entry_publish(actor=SYSTEM, collection="posts", id=entry.id)
    assert len(queued) == 1 and Delivery.objects.get(pk=queued[0]).event == "content.published"


def test_content_delete_media_and_schema_events(posts, private_ok, receiver, queued):
    _hook(["content.deleted", "media.created", "media.deleted", "schema.changed"], receiver.url)
    entry = make_entry()
    content_services.entry_trash(actor=SYSTEM, collection="posts", id=entry.id)
    media = make_media(SYSTEM)
    from media import services as media_services

    media_services.media_delete(actor=SYSTEM, id=media.id)
    from content.schema import services as schema_services

    schema_services.field_create(actor=SYSTEM, collection="posts", slug="extra", label="Extra", type="string")
    events = [json.loads(row.body) for row in Delivery.objects.order_by("id")]
    assert [e["event"] for e in events] == ["content.deleted", "media.created", "media.deleted", "schema.changed"]
    assert events[0]["item"]["id"] == entry.id and events[0]["item"]["permanent"] is False
    assert events[1]["media"]["id"] == media.id and events[1]["media"]["url"]
    assert events[2]["media"]["id"] == media.id


def test_a_rolled_back_write_sends_nothing(posts, private_ok, receiver, queued):
    _hook(["content.created"], receiver.url)
    with pytest.raises(RuntimeError), transaction.atomic():
        make_entry()
        raise RuntimeError("the write fails after the entry was inserted")
    assert queued == [] and not Delivery.objects.exists()


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/hook",
        "http://localhost:8000/hook",
        "http://10.1.2.3/hook",
        "http://192.168.0.1/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://[::1]/hook",
        "http://[::ffff:127.0.0.1]/hook",
        "http://[2002:a9fe:a9fe::1]/latest/meta-data",  # 6to4 of 169.254.169.254 (issue 21.6)
        "http://[64:ff9b::a00:1]/hook",  # NAT64 of 10.0.0.1
        "http://0.0.0.0/hook",
        "ftp://example.com/hook",
        "http://user:pw@example.com/hook",
    ],
)
@pytest.mark.django_db
def test_private_and_odd_targets_are_refused_at_registration(url):
    with pytest.raises(EmDashError) as caught:
        _hook(["content.created"], url)
    assert caught.value.code == "VALIDATION_ERROR" and "url" in caught.value.details["fields"]
    assert not Webhook.objects.exists()


def test_the_target_is_checked_again_at_delivery_time(posts, private_ok, receiver, queued, settings):
    _hook(["content.created"], receiver.url)
    make_entry()
    settings.EMDASH = {**settings.EMDASH, "WEBHOOKS_ALLOW_PRIVATE": False}
    assert delivery.attempt(queued[0]) == Delivery.FAILED
    row = Delivery.objects.get(pk=queued[0])
    assert row.last_error.startswith("refused:") and receiver.requests == []


def test_redirects_are_not_followed(posts, private_ok, receiver, queued):
    _hook(["content.created"], receiver.url)
    receiver.statuses, receiver.location = [302], "http://169.254.169.254/latest/meta-data"
    make_entry()
    assert delivery.attempt(queued[0]) == Delivery.PENDING
    row = Delivery.objects.get(pk=queued[0])
    assert row.response_code == 302 and "redirects are not followed" in row.last_error
    assert len(receiver.requests) == 1


def test_rest_webhooks_for_admins_with_the_secret_shown_once(posts, private_ok, receiver, queued):
    admin = client_for("admin")
    created = call(admin, "POST", API, {"url": receiver.url, "events": ["content.created"]})
    assert created.status_code == 201, created.content
    hook = body(created)
    assert len(hook["secret"]) == 64 and hook["active"] is True
    listed = body(call(admin, "GET", API))["items"]
    assert [h["id"] for h in listed] == [hook["id"]] and "secret" not in listed[0]
    assert "secret" not in body(call(admin, "GET", f"{API}/{hook['id']}"))
    patched = call(admin, "PATCH", f"{API}/{hook['id']}", {"active": False, "events": ["content.updated"]})
    assert patched.status_code == 200 and body(patched)["active"] is False and "secret" not in body(patched)
    rotated = body(call(admin, "PATCH", f"{API}/{hook['id']}", {"rotateSecret": True}))
    assert rotated["secret"] != hook["secret"]
    bad = call(admin, "POST", API, {"url": receiver.url, "events": ["content.exploded"]})
    assert bad.status_code == 400 and body(bad)["error"]["code"] == "VALIDATION_ERROR"
    assert call(client_for("editor"), "GET", API).status_code == 403
    call(admin, "PATCH", f"{API}/{hook['id']}", {"active": True, "events": ["content.created"]})
    make_entry()
    delivery.attempt(queued[0])
    log = body(call(admin, "GET", f"{API}/{hook['id']}/deliveries"))["items"]
    assert [(d["event"], d["status"], d["responseCode"]) for d in log] == [("content.created", "delivered", 200)]
    assert call(admin, "DELETE", f"{API}/{hook['id']}").status_code == 200
    assert not Webhook.objects.exists() and not Delivery.objects.exists()


def test_a_failure_to_record_an_event_never_fails_the_committed_write(posts, private_ok, receiver, monkeypatch):
    _hook(["content.created"], receiver.url)

    def broken(event: str, body: str) -> list[int]:
        raise RuntimeError("queue table missing")

    monkeypatch.setattr(delivery, "record", broken)
    entry = make_entry(data={"title": "Still saved"})
    assert content_services.entry_publish(actor=SYSTEM, collection="posts", id=entry.id).id == entry.id
    assert not Delivery.objects.exists()


def test_delivery_connects_to_the_address_that_was_checked(posts, private_ok, receiver, queued, monkeypatch):
    """A name resolves once per delivery; the POST goes to that address, the name only in Host (no rebinding)."""
    from emdash import safe_fetch

    port = receiver.server.server_address[1]
    lookups: list[str] = []

    def resolve(host: str, *args: object, **kwargs: object) -> object:
        lookups.append(host)
        return safe_fetch.socket.getaddrinfo("127.0.0.1", port, type=safe_fetch.socket.SOCK_STREAM)

    monkeypatch.setattr(safe_fetch, "getaddrinfo", resolve)
    _hook(["content.created"], f"http://hooks.example:{port}/hook")  # checked once when saved
    make_entry()
    assert delivery.attempt(queued[0]) == Delivery.DELIVERED
    assert lookups == ["hooks.example", "hooks.example"]  # and once at delivery, not again by the HTTP client
    assert receiver.requests[0][0]["Host"] == f"hooks.example:{port}"


def test_change_set_events_follow_the_review_cycle(posts, private_ok, receiver, queued):
    """SPEC 9.2: changeset.submitted|approved|rejected|published|reverted, with the set in the body."""
    from content.changesets import publishing as changeset_publishing
    from content.changesets import services as changesets
    from emdash.actor import Actor
    from emdash.roles import Role
    from tests.factories import make_user

    _hook([f"changeset.{e}" for e in ("submitted", "approved", "rejected", "published", "reverted")], receiver.url)
    author, editor = Actor.for_user(make_user(Role.AUTHOR)), Actor.for_user(make_user(Role.EDITOR))
    entry = make_entry(by=author)
    made = changesets.changeset_create(actor=author, title="Webhooked")
    changesets.changeset_add(actor=author, id=made.id, collection="posts", item=entry.id)
    changesets.changeset_submit(actor=author, id=made.id)
    changesets.changeset_review(actor=editor, id=made.id, decision="reject", comment="Not yet")
    changesets.changeset_submit(actor=author, id=made.id)
    changesets.changeset_review(actor=editor, id=made.id, decision="approve")
    changeset_publishing.changeset_publish(actor=editor, id=made.id)
    changeset_publishing.changeset_revert(actor=editor, id=made.id)
    events = [json.loads(row.body) for row in Delivery.objects.order_by("id")]
    assert [e["event"] for e in events] == [
        "changeset.submitted",
        "changeset.rejected",
        "changeset.submitted",
        "changeset.approved",
        "changeset.published",
        "changeset.reverted",
    ]
    assert events[1]["changeset"]["comment"] == "Not yet" and events[1]["changeset"]["state"] == "rejected"
    assert events[4]["changeset"]["id"] == made.id and events[4]["actor"]["email"] == editor.user.email
