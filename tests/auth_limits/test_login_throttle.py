"""SPEC 2: password sign-in is throttled per account and per client IP (429 and a lockout window)."""

from __future__ import annotations

import time

import pytest
from django.test import Client, override_settings

from emdash.conf import emdash_settings
from tests.factories import make_user

pytestmark = pytest.mark.django_db

LOGIN = "/_emdash/admin/login/"
RIGHT = "correct-horse-9"


class Clock:
    """Moves ``time.time`` (and with it the cache's expiry) forward."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.offset = 0.0
        real = time.time
        monkeypatch.setattr(time, "time", lambda: real() + self.offset)

    def advance(self, seconds: float) -> None:
        self.offset += seconds


def attempt(email: str, password: str, ip: str = "10.0.0.1") -> object:
    return Client(REMOTE_ADDR=ip).post(LOGIN, {"email": email, "password": password})


def test_wrong_passwords_lock_the_account_even_for_the_right_one_until_the_window_ends(monkeypatch):
    clock = Clock(monkeypatch)
    make_user("editor", email="ed@example.com")
    for _ in range(emdash_settings.LOGIN_MAX_FAILURES):
        assert attempt("ed@example.com", "wrong-password").status_code == 400
    locked = attempt("ed@example.com", RIGHT)
    assert locked.status_code == 429
    assert "Too many failed sign-in attempts. Try again in 15 minutes." in locked.content.decode()
    assert int(locked["Retry-After"]) == emdash_settings.LOGIN_LOCKOUT
    clock.advance(emdash_settings.LOGIN_LOCKOUT - 60)
    still = attempt("ed@example.com", RIGHT)
    assert still.status_code == 429 and "Try again in 1 minute." in still.content.decode()
    clock.advance(61)
    assert attempt("ed@example.com", RIGHT).status_code == 302


def test_the_account_lock_holds_across_ips():
    make_user("editor", email="ed@example.com")
    for n in range(emdash_settings.LOGIN_MAX_FAILURES):
        attempt("ed@example.com", "wrong-password", ip=f"10.0.1.{n}")
    assert attempt("ed@example.com", RIGHT, ip="10.0.2.1").status_code == 429
    make_user("editor", email="other@example.com")
    assert attempt("other@example.com", RIGHT, ip="10.0.2.1").status_code == 302  # other accounts are unaffected


def test_one_ip_is_locked_after_failures_spread_over_many_accounts():
    per_ip = emdash_settings.LOGIN_MAX_FAILURES_PER_IP
    victim = make_user("editor", email="victim@example.com")
    for n in range(per_ip):
        attempt(f"guess{n}@example.com", "wrong-password", ip="10.0.3.1")  # one failure per account
    assert attempt(victim.email, RIGHT, ip="10.0.3.1").status_code == 429
    assert attempt(victim.email, RIGHT, ip="10.0.3.2").status_code == 302


def test_a_successful_sign_in_does_not_reset_the_ip_count_for_other_accounts():
    per_ip = emdash_settings.LOGIN_MAX_FAILURES_PER_IP
    make_user("editor", email="mine@example.com")
    for n in range(per_ip - 1):
        attempt(f"guess{n}@example.com", "wrong-password", ip="10.0.4.1")
    assert attempt("mine@example.com", RIGHT, ip="10.0.4.1").status_code == 302  # the attacker's own account
    attempt("guess-last@example.com", "wrong-password", ip="10.0.4.1")
    assert attempt("mine@example.com", RIGHT, ip="10.0.4.1").status_code == 429


def test_a_successful_sign_in_clears_the_account_count():
    make_user("editor", email="ed@example.com")
    for _ in range(emdash_settings.LOGIN_MAX_FAILURES - 1):
        attempt("ed@example.com", "wrong-password")
    assert attempt("ed@example.com", RIGHT).status_code == 302
    attempt("ed@example.com", "wrong-password")
    assert attempt("ed@example.com", RIGHT).status_code == 302


@override_settings(EMDASH={"LOGIN_MAX_FAILURES": 2, "LOGIN_LOCKOUT": 60})
def test_thresholds_are_configurable():
    make_user("editor", email="ed@example.com")
    attempt("ed@example.com", "wrong-password")
    attempt("ed@example.com", "wrong-password")
    locked = attempt("ed@example.com", RIGHT)
    assert locked.status_code == 429 and locked["Retry-After"] == "60"
    assert "Try again in 1 minute." in locked.content.decode()


@pytest.mark.urls("tests.auth_limits.login_urls")
def test_the_fallback_login_page_is_throttled_too():
    make_user("editor", email="ed@example.com")
    client = Client(REMOTE_ADDR="10.0.5.1")
    for _ in range(emdash_settings.LOGIN_MAX_FAILURES):
        assert client.post("/login/", {"username": "ed@example.com", "password": "nope-nope"}).status_code == 200
    locked = client.post("/login/", {"username": "ed@example.com", "password": RIGHT})
    assert locked.status_code == 429 and locked["Retry-After"]
    assert "Too many failed sign-in attempts" in locked.content.decode()
    assert "_auth_user_id" not in client.session
