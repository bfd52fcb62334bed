"""emdash.safe_fetch: the SSRF guard (addresses, redirects, DNS answers), size and time caps.

The fetches go to a local server on 127.0.0.1 only. Where a test needs "a public first hop", that one
server address is exempted from the address rule, so redirects from it to other addresses are judged
by the real rule.
"""

from __future__ import annotations

import socket
import time
from typing import Any

import httpx
import pytest

from emdash import safe_fetch
from emdash.safe_fetch import FetchError, address_problem, fetch
from tests.conftest import offline_getaddrinfo
from tests.media.fetch_server import PNG, Server


@pytest.fixture
def allow_private(settings: Any) -> None:
    settings.EMDASH = {**getattr(settings, "EMDASH", {}), "FETCH_ALLOW_PRIVATE": True}


@pytest.fixture
def exempt_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """127.0.0.1 (the test server) counts as public; every other address keeps the real rule."""
    real = safe_fetch.address_problem
    monkeypatch.setattr(safe_fetch, "address_problem", lambda a: None if a == "127.0.0.1" else real(a))


def resolve_names(monkeypatch: pytest.MonkeyPatch, names: dict[str, list[str]]) -> list[str]:
    """Resolve the given names to the given addresses (in order); returns the log of lookups."""
    looked_up: list[str] = []

    def fake(host: str, port: int, *args: Any, **kwargs: Any) -> Any:
        looked_up.append(host)
        if host in names:
            return [(socket.AF_INET6 if ":" in a else socket.AF_INET, 1, 6, "", (a, port)) for a in names[host]]
        return offline_getaddrinfo(host, port, *args, **kwargs)

    monkeypatch.setattr(safe_fetch, "getaddrinfo", fake)
    return looked_up


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "127.5.5.5",
        "10.1.2.3",
        "172.16.0.1",
        "192.168.1.1",
        "169.254.169.254",  # cloud metadata
        "100.64.0.1",  # carrier-grade NAT
        "0.0.0.0",
        "224.0.0.1",
        "240.0.0.1",
        "::1",
        "::",
        "fe80::1",
        "fc00::1",
        "ff02::1",
        "::ffff:127.0.0.1",  # IPv4-mapped loopback
        "::ffff:169.254.169.254",
        "::ffff:10.0.0.1",
        # Issue 21.6: IPv4 inside IPv6 transition addresses is judged as IPv4.
        "2002:c0a8:0101::1",  # 6to4 of 192.168.1.1
        "2002:7f00:0001::",  # 6to4 of 127.0.0.1
        "2002:a9fe:a9fe::1",  # 6to4 of 169.254.169.254
        "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
        "64:ff9b::a00:1",  # NAT64 of 10.0.0.1
        "::7f00:1",  # IPv4-compatible 127.0.0.1
        "::a9fe:a9fe",  # IPv4-compatible 169.254.169.254
        "2001:0:4136:e378:8000:63bf:3fff:fdd2",  # Teredo
        "2001:0:5ef5:79fd::1",  # Teredo
    ],
)
def test_non_public_addresses_are_refused(address: str) -> None:
    assert address_problem(address) is not None


@pytest.mark.parametrize(
    "address",
    ["93.184.215.14", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "2002:808:808::1", "64:ff9b::808:808"],
)
def test_public_addresses_are_allowed(address: str) -> None:
    assert address_problem(address) is None


def test_loopback_is_refused_without_the_setting_and_nothing_is_sent(server: Server) -> None:
    with pytest.raises(FetchError, match="loopback"):
        fetch(f"{server.base}/img.png", max_bytes=10_000)
    assert server.hits == []


@pytest.mark.parametrize("url", ["http://[::1]:9/x", "http://[::ffff:127.0.0.1]:9/x", "http://169.254.169.254/latest"])
def test_literal_private_urls_are_refused(url: str) -> None:
    with pytest.raises(FetchError, match="not allowed"):
        fetch(url, max_bytes=10)


def test_allowed_with_the_setting(server: Server, allow_private: None) -> None:
    fetched = fetch(f"{server.base}/img.png", max_bytes=10_000)
    assert fetched.content == PNG and fetched.content_type == "image/png"


@pytest.mark.parametrize("scheme", ["ftp://example.com/a", "file:///etc/passwd", "gopher://x/", "javascript:alert(1)"])
def test_only_http_and_https(scheme: str) -> None:
    with pytest.raises(FetchError, match="only http"):
        fetch(scheme, max_bytes=10)


def test_a_name_with_any_private_address_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    resolve_names(monkeypatch, {"mixed.test": ["93.184.215.14", "10.0.0.7"]})
    with pytest.raises(FetchError, match="private"):
        fetch("http://mixed.test/a.png", max_bytes=10)


def test_connects_to_the_checked_address_resolving_once_per_hop(
    server: Server, exempt_server: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A rebinding resolver would answer 10.0.0.1 the second time; there is no second time.
    answers = iter([["127.0.0.1"], ["10.0.0.1"]])
    looked_up: list[str] = []

    def rebinding(host: str, port: int, *args: Any, **kwargs: Any) -> Any:
        looked_up.append(host)
        return [(socket.AF_INET, 1, 6, "", (a, port)) for a in next(answers)]

    monkeypatch.setattr(safe_fetch, "getaddrinfo", rebinding)
    port = server.server_address[1]
    fetched = fetch(f"http://files.test:{port}/img.png", max_bytes=10_000)
    assert fetched.content == PNG
    assert looked_up == ["files.test"]
    assert server.hits == ["/img.png"]


@pytest.mark.parametrize(
    "target",
    ["http://169.254.169.254/latest/meta-data/", "http://[::1]/", "http://10.0.0.1/", "http://[::ffff:127.0.0.2]/"],
)
def test_redirects_to_private_addresses_are_refused(server: Server, exempt_server: None, target: str) -> None:
    with pytest.raises(FetchError, match="not allowed"):
        fetch(f"{server.base}/redirect?{target}", max_bytes=10_000)
    assert server.hits == [f"/redirect?{target}"]


def test_redirect_to_a_name_resolving_privately_is_refused(
    server: Server, exempt_server: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    looked_up = resolve_names(monkeypatch, {"internal.test": ["192.168.0.10"]})
    with pytest.raises(FetchError, match="private"):
        fetch(f"{server.base}/redirect?http://internal.test/x", max_bytes=10_000)
    assert looked_up == ["127.0.0.1", "internal.test"]


def test_at_most_three_redirects(server: Server, allow_private: None) -> None:
    assert fetch(f"{server.base}/hop/2", max_bytes=10_000).content == PNG  # 3 redirects
    with pytest.raises(FetchError, match="too many redirects"):
        fetch(f"{server.base}/hop/3", max_bytes=10_000)  # 4 redirects


def test_declared_oversize_is_refused(server: Server, allow_private: None) -> None:
    with pytest.raises(FetchError) as exc:
        fetch(f"{server.base}/big-declared", max_bytes=1000)
    assert exc.value.too_large


def test_streamed_oversize_stops_past_the_cap(server: Server, allow_private: None) -> None:
    with pytest.raises(FetchError) as exc:
        fetch(f"{server.base}/big-chunked", max_bytes=2500)
    assert exc.value.too_large


def test_a_slow_server_times_out(server: Server, allow_private: None) -> None:
    with pytest.raises(FetchError, match="too long"):
        fetch(f"{server.base}/slow", max_bytes=10_000, timeout=0.5)


def test_a_trickling_server_hits_the_deadline(server: Server, allow_private: None) -> None:
    # Each byte arrives well within the read timeout; the whole answer does not fit in the deadline.
    with pytest.raises(FetchError, match="too long"):
        fetch(f"{server.base}/trickle", max_bytes=10_000, timeout=0.6)


def test_one_deadline_covers_every_redirect(server: Server, allow_private: None) -> None:
    """Issue 21.3: three slow redirects, each within the timeout, used to take three timeouts."""
    started = time.monotonic()
    with pytest.raises(FetchError, match="too long"):
        fetch(f"{server.base}/slow-hop/2?0.5", max_bytes=10_000, timeout=1.2)
    assert time.monotonic() - started < 1.6
    assert fetch(f"{server.base}/slow-hop/1?0.2", max_bytes=10_000, timeout=3).content == PNG


def test_a_slow_response_head_counts_against_the_deadline(server: Server, allow_private: None) -> None:
    # Five head lines 0.3 s apart: every read is within any read timeout, the whole head is not.
    started = time.monotonic()
    with pytest.raises(FetchError, match="too long"):
        fetch(f"{server.base}/slow-head?0.3", max_bytes=10_000, timeout=0.7)
    assert time.monotonic() - started < 1.0
    assert fetch(f"{server.base}/slow-head?0.05", max_bytes=10_000, timeout=3).content == PNG


def test_a_slow_name_lookup_counts_against_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(1.5)
        raise socket.gaierror("too late anyway")

    monkeypatch.setattr(safe_fetch, "getaddrinfo", slow)
    started = time.monotonic()
    with pytest.raises(FetchError, match="too long"):
        fetch("http://slow-dns.test/a.png", max_bytes=10, timeout=0.3)
    assert time.monotonic() - started < 1.0


def test_a_webhook_post_has_one_deadline_too(server: Server) -> None:
    started = time.monotonic()
    with pytest.raises(httpx.TimeoutException):  # a timeout, so the delivery is retried (a refusal is final)
        safe_fetch.post(f"{server.base}/slow-head?0.3", content=b"{}", headers={}, timeout=0.7, allow_private=True)
    assert time.monotonic() - started < 1.0


def test_http_errors_are_reported(server: Server, allow_private: None) -> None:
    with pytest.raises(FetchError, match="HTTP 404"):
        fetch(f"{server.base}/missing", max_bytes=10_000)


def test_credentials_in_urls_are_refused() -> None:
    with pytest.raises(FetchError, match="credentials"):
        fetch("http://user:pw@93.184.215.14/", max_bytes=10)
