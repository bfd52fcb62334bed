"""Outbound request targets: refuse private, loopback, link-local and other non-public addresses (SSRF).

Used by webhook delivery. The check resolves the host and refuses when ANY address it resolves to is not
public, so a name with one public and one internal address is refused too. (media_upload's URL fetcher has its
own guarded fetcher; the two should share this check.)
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit


class BlockedTarget(ValueError):
    """The URL may not be requested; the message is safe to show."""


def _is_public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def check_url(url: str, *, allow_private: bool = False) -> None:
    """Raise BlockedTarget unless ``url`` is http(s) with a host whose every address is public."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BlockedTarget("must be an http:// or https:// URL with a host")
    if parts.username or parts.password:
        raise BlockedTarget("must not contain a user name or password")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        infos = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except (OSError, ValueError, UnicodeError):
        raise BlockedTarget(f"the host {parts.hostname[:100]} could not be resolved") from None
    if allow_private:
        return
    for info in infos:
        if not _is_public(str(info[4][0])):
            raise BlockedTarget(
                f"the host {parts.hostname[:100]} resolves to a private, loopback or link-local address; "
                "set EMDASH_WEBHOOKS_ALLOW_PRIVATE=1 to allow it (development only)"
            )
