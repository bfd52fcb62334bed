"""Purging shared caches by surrogate key after a change (EMDASH ``CACHE_PURGE``; docs/caching.md).

``schedule(keys)`` is called inside the writing transaction; the keys are sent once it commits, by one background
thread per process, so no request waits on the CDN and a rolled-back write purges nothing. Keys that pile up while
a purge is in flight go out together in the next request. Three backends:

- ``http``: one request (``PURGE`` by default, or ``BAN``/``POST``) to ``url`` with the keys in ``Surrogate-Key``
  and ``xkey-purge`` headers (space-separated), as Varnish with vmod-xkey or a ban on ``obj.http.Surrogate-Key``
  expects, and ``Cache-Tag`` (comma-separated).
- ``cloudflare``: ``POST {api}/zones/{zone}/purge_cache`` with ``{"tags": [...]}`` (30 tags per call).
- ``fastly``: ``POST {api}/service/{service}/purge`` with ``Surrogate-Key: a b c`` (256 keys per call).

A failed purge is logged and retried once; the response's s-maxage bounds how long a missed purge can show a
stale page.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from typing import Any

import httpx
from django.db import transaction

from emdash.conf import emdash_settings

log = logging.getLogger("emdash.purge")
CLOUDFLARE_API = "https://api.cloudflare.com/client/v4"
FASTLY_API = "https://api.fastly.com"
BACKENDS = ("http", "cloudflare", "fastly")


class PurgeConfigError(ValueError):
    pass


def config() -> dict[str, Any] | None:
    """The configured purger, checked: None when purging is off."""
    raw = emdash_settings.CACHE_PURGE
    if not raw:
        return None
    if not isinstance(raw, dict) or raw.get("backend") not in BACKENDS:
        raise PurgeConfigError(f"EMDASH CACHE_PURGE needs a 'backend' of: {', '.join(BACKENDS)}")
    needs = {"http": ("url",), "cloudflare": ("zone", "token"), "fastly": ("service", "token")}[raw["backend"]]
    missing = [k for k in needs if not raw.get(k)]
    if missing:
        raise PurgeConfigError(f"EMDASH CACHE_PURGE ({raw['backend']}) needs: {', '.join(missing)}")
    return raw


def requests_for(conf: dict[str, Any], keys: list[str]) -> list[httpx.Request]:
    """The HTTP requests that purge ``keys`` with ``conf``'s backend."""
    backend = conf["backend"]
    if backend == "http":
        headers = {"Surrogate-Key": " ".join(keys), "xkey-purge": " ".join(keys), "Cache-Tag": ",".join(keys)}
        headers.update(conf.get("headers") or {})
        return [httpx.Request(str(conf.get("method") or "PURGE").upper(), conf["url"], headers=headers)]
    if backend == "cloudflare":
        api = str(conf.get("api") or CLOUDFLARE_API).rstrip("/")
        url = f"{api}/zones/{conf['zone']}/purge_cache"
        auth = {"Authorization": f"Bearer {conf['token']}"}
        return [
            httpx.Request("POST", url, json={"tags": keys[i : i + 30]}, headers=auth) for i in range(0, len(keys), 30)
        ]
    api = str(conf.get("api") or FASTLY_API).rstrip("/")
    url = f"{api}/service/{conf['service']}/purge"
    return [
        httpx.Request(
            "POST", url, headers={"Fastly-Key": str(conf["token"]), "Surrogate-Key": " ".join(keys[i : i + 256])}
        )
        for i in range(0, len(keys), 256)
    ]


class _Sender:
    """One daemon thread per process sending what was scheduled; ``flush`` waits until it is all sent."""

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._pending: dict[str, None] = {}
        self._busy = False
        self._thread: threading.Thread | None = None

    def add(self, keys: Iterable[str]) -> None:
        with self._lock:
            self._pending.update(dict.fromkeys(keys))
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="emdash-purge", daemon=True)
                self._thread.start()
            self._lock.notify_all()

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._pending:
                    self._busy = False
                    self._lock.notify_all()
                    self._lock.wait()
                keys, self._pending, self._busy = list(self._pending), {}, True
            send(keys)

    def flush(self, timeout: float = 10.0) -> bool:
        with self._lock:
            return self._lock.wait_for(lambda: not self._pending and not self._busy, timeout)


_sender = _Sender()


def send(keys: list[str]) -> bool:
    """Purge ``keys`` now (the background thread's step); True when every request succeeded."""
    try:
        conf = config()
    except PurgeConfigError as exc:
        log.error("cache purge skipped: %s", exc)
        return False
    if conf is None or not keys:
        return True
    ok = True
    timeout = float(conf.get("timeout") or 5.0)
    with httpx.Client(timeout=timeout) as client:
        for request in requests_for(conf, keys):
            for attempt in (1, 2):
                try:
                    response = client.send(request)
                    if response.status_code < 400:
                        break
                    problem = f"HTTP {response.status_code}"
                except httpx.HTTPError as exc:
                    problem = str(exc) or type(exc).__name__
                if attempt == 2:
                    ok = False
                    log.warning("cache purge of %s at %s failed: %s", keys, _shown(request.url), problem)
    return ok


def _shown(url: httpx.URL) -> str:
    """Where a purge went, for the log: without a password in the URL's userinfo or a key in its query."""
    return str(url.copy_with(username=None, password=None, query=None))


def schedule(keys: Iterable[str]) -> None:
    """Purge ``keys`` once the current transaction commits (at once outside one), off the request path."""
    wanted = list(dict.fromkeys(keys))
    if not wanted or not emdash_settings.CACHE_PURGE:
        return
    transaction.on_commit(lambda: _sender.add(wanted))


def flush(timeout: float = 10.0) -> bool:
    """Wait until every scheduled purge was sent (tests, the end of a management command)."""
    return _sender.flush(timeout)
