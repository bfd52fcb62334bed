"""CORS through django-cors-headers (issue 11 item 4): one implementation, two policies (emdash/edge/cors.py)."""

from __future__ import annotations

from django.test import Client, override_settings

APP = "https://app.example.com"
EVIL = "https://evil.example.net"


@override_settings(EMDASH={"ALLOWED_ORIGINS": [APP]})
def test_rest_api_answers_allowed_origins_with_credentials(db: None) -> None:
    response = Client().get("/_emdash/api/search?q=x", headers={"Origin": APP})
    assert response["Access-Control-Allow-Origin"] == APP
    assert response["Access-Control-Allow-Credentials"] == "true"
    assert "WWW-Authenticate" in response["Access-Control-Expose-Headers"]
    preflight = Client().options(
        "/_emdash/api/content/posts",
        headers={
            "Origin": APP,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "x-csrftoken",
        },
    )
    assert preflight.status_code == 200 and "x-csrftoken" in preflight["Access-Control-Allow-Headers"]


def test_foreign_origins_get_no_cors_headers_and_a_refused_preflight(db: None) -> None:
    response = Client().get("/_emdash/api/search?q=x", headers={"Origin": EVIL})
    assert not response.has_header("Access-Control-Allow-Origin")
    preflight = Client().options(
        "/_emdash/api/search", headers={"Origin": EVIL, "Access-Control-Request-Method": "GET"}
    )
    assert preflight.status_code == 403 and not preflight.has_header("Access-Control-Allow-Origin")


def test_public_oauth_endpoints_allow_any_origin_without_credentials(db: None) -> None:
    for path in ("/_emdash/api/oauth/token", "/_emdash/api/oauth/register", "/_emdash/api/oauth/device/code"):
        preflight = Client().options(path, headers={"Origin": EVIL, "Access-Control-Request-Method": "POST"})
        assert preflight.status_code == 200, path
        assert preflight["Access-Control-Allow-Origin"] == "*"
        assert not preflight.has_header("Access-Control-Allow-Credentials")
        assert "content-type" in preflight["Access-Control-Allow-Headers"].lower()
    token = Client().post("/_emdash/api/oauth/token", {"grant_type": "nope"}, headers={"Origin": EVIL})
    assert token.status_code == 400 and token["Access-Control-Allow-Origin"] == "*"
    metadata = Client().get("/.well-known/oauth-authorization-server/_emdash", headers={"Origin": EVIL})
    assert metadata["Access-Control-Allow-Origin"] == "*"


@override_settings(DEBUG=True)
def test_html_pages_never_get_cors_headers_even_for_loopback_in_debug(db: None) -> None:
    """Cookie-bearing pages (admin, consent, device) must not be readable cross-origin."""
    for path in ("/_emdash/admin/login/", "/_emdash/oauth/authorize", "/_emdash/admin/device"):
        response = Client().get(path, headers={"Origin": "http://localhost:3000"})
        assert not response.has_header("Access-Control-Allow-Origin"), path


def test_userinfo_reads_cookies_so_it_is_not_public(db: None) -> None:
    response = Client().get("/_emdash/api/oauth/userinfo", headers={"Origin": EVIL})
    assert not response.has_header("Access-Control-Allow-Origin")
