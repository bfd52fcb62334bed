"""The public origin of the request being served, for answers that must hold an absolute URL whichever door
asked (the signed upload URL of ``media_upload_url``): EMDASH_SITE_URL when set, else the origin the door saw."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from urllib.parse import urlsplit

from emdash.conf import emdash_settings

_origin: ContextVar[str | Callable[[], str]] = ContextVar("emdash_origin", default="")


@contextmanager
def serving(origin: str | Callable[[], str]) -> Iterator[None]:
    """Run a door's work with ``origin`` (scheme://host[:port]) as the request's origin; a callable is asked
    only when an answer needs it (validating the Host header again costs a read call ~6 us it rarely needs)."""
    token = _origin.set(origin)
    try:
        yield
    finally:
        _origin.reset(token)


def current() -> str:
    """The served request's origin ("" outside one): kept by work that runs later (an MCP task) for its answers."""
    origin = _origin.get()
    return origin() if callable(origin) else origin


def absolute(path: str) -> str:
    """``path`` made absolute: against EMDASH_SITE_URL, else the served request's origin; as it is outside
    a request (a worker without EMDASH_SITE_URL)."""
    configured = str(emdash_settings.SITE_URL or "").rstrip("/")
    if configured:
        parts = urlsplit(configured)
        return f"{parts.scheme}://{parts.netloc}{path}"
    return f"{current()}{path}"
