"""What a trusted reverse proxy tells us about the client: its IP address, for rate limits and logs."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str:
    """REMOTE_ADDR, or with ``EMDASH_TRUST_PROXY=N`` the address the N-th proxy from us saw.

    Each proxy appends the address it received the request from to X-Forwarded-For, so the entries on the
    right were written by our proxies and everything further left is whatever the client sent (spoofable).
    """
    hops = int(getattr(settings, "EMDASH_TRUST_PROXY", 0) or 0)
    remote = str(request.META.get("REMOTE_ADDR") or "unknown")
    if hops <= 0:
        return remote
    chain = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    if not chain:
        return remote
    return chain[-hops] if len(chain) >= hops else chain[0]
