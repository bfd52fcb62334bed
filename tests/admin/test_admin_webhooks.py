"""The admin's Webhooks screen: create (secret shown once), edit, delivery log, delete; admins only."""

from __future__ import annotations

import pytest

from tests.factories import make_entry
from webhooks import delivery
from webhooks.models import Delivery, Webhook

URL = "/_emdash/admin/webhooks/"


@pytest.fixture
def private_ok(settings) -> None:
    settings.EMDASH = {**settings.EMDASH, "WEBHOOKS_ALLOW_PRIVATE": True}


def test_an_admin_creates_edits_and_deletes_a_webhook(posts, as_role, private_ok, monkeypatch):
    monkeypatch.setattr(delivery, "_enqueue", lambda ids: None)
    client, _ = as_role("admin")
    assert "Webhooks" in client.get("/_emdash/admin/").content.decode()
    bad = client.post(URL, {"url": "ftp://x.example/", "events": ["content.created"], "active": "on"})
    assert bad.status_code == 400 and "http:// or https://" in bad.content.decode() and not Webhook.objects.exists()
    created = client.post(URL, {"url": "http://127.0.0.1:9/hook", "events": ["content.created"], "active": "on"})
    hook = Webhook.objects.get()
    assert created.status_code == 302 and created["Location"] == f"{URL}{hook.id}/"
    page = client.get(created["Location"]).content.decode()
    assert hook.secret in page and "shown only once" in page
    assert hook.secret not in client.get(created["Location"]).content.decode()  # once
    make_entry()
    assert "content.created" in client.get(f"{URL}{hook.id}/").content.decode()  # the delivery log
    assert Delivery.objects.filter(webhook=hook, status="pending").count() == 1
    saved = client.post(f"{URL}{hook.id}/", {"url": "http://127.0.0.1:9/other", "events": ["media.created"]})
    assert saved.status_code == 302
    hook.refresh_from_db()
    assert hook.url.endswith("/other") and hook.events == ["media.created"] and hook.active is False
    assert client.get(f"{URL}01ZZZZZZZZZZZZZZZZZZZZZZZZ/").status_code == 404
    assert client.post(f"{URL}{hook.id}/delete/").status_code == 302 and not Webhook.objects.exists()


def test_editors_cannot_open_the_webhooks_screen(posts, as_role):
    client, _ = as_role("editor")
    assert client.get(URL).status_code == 403
    assert client.post(URL, {"url": "https://example.com/", "events": ["content.created"]}).status_code == 403
