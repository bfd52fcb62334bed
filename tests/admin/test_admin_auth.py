"""Logging in and out of the admin, and what anonymous visitors get."""

from __future__ import annotations

import pytest
from django.test import Client

from audit.models import AuditLog
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def test_anonymous_visitors_are_sent_to_the_login_page():
    response = Client().get("/_emdash/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith("/_emdash/admin/login/?next=/_emdash/admin/")


def test_login_with_a_wrong_password_fails_and_keeps_no_session():
    make_user("editor", email="ed@example.com")
    client = Client()
    response = client.post("/_emdash/admin/login/", {"email": "ed@example.com", "password": "nope-nope-nope"})
    assert response.status_code == 400
    assert "Email or password is not right" in response.content.decode()
    assert client.get("/_emdash/admin/").status_code == 302


def test_login_then_logout():
    make_user("editor", email="ed@example.com", password="correct-horse-9")
    client = Client()
    response = client.post(
        "/_emdash/admin/login/",
        {"email": "ED@example.com", "password": "correct-horse-9", "next": "/_emdash/admin/media/"},
    )
    assert response.status_code == 302 and response["Location"] == "/_emdash/admin/media/"
    assert client.get("/_emdash/admin/").status_code == 200
    assert AuditLog.objects.filter(source="admin", action="admin.login", outcome="ok").exists()
    assert client.get("/_emdash/admin/logout/").status_code == 405  # logging out takes a POST (CSRF-protected)
    client.post("/_emdash/admin/logout/")
    assert client.get("/_emdash/admin/").status_code == 302


def test_login_ignores_an_offsite_next_url():
    make_user("editor", email="ed@example.com", password="correct-horse-9")
    response = Client().post(
        "/_emdash/admin/login/",
        {"email": "ed@example.com", "password": "correct-horse-9", "next": "https://evil.example/"},
    )
    assert response["Location"] == "/_emdash/admin/"


def test_inactive_users_cannot_log_in():
    user = make_user("editor", email="gone@example.com", password="correct-horse-9")
    user.is_active = False
    user.save()
    response = Client().post("/_emdash/admin/login/", {"email": "gone@example.com", "password": "correct-horse-9"})
    assert response.status_code == 400
