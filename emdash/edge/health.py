"""``/_emdash/health``: the load balancer's probe (SPEC 13, "Operations").

Answered at the edge, before the host check: a probe comes by IP, whatever ``ALLOWED_HOSTS`` says, and the
plain answer reveals nothing. ``?deep=1`` checks the database, the cache and the task queue's age, for an
admin's bearer token or, when no proxy is trusted, a request from this machine; anyone else gets the plain
answer. A failing check is logged with the trace id and reported only as failed.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import DisallowedHost
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.utils import timezone

from accounts.auth import bearer_token, resolve_bearer, resource_url
from emdash.roles import Role
from emdash.tracing import unexpected

PATH = "/_emdash/health"
QUEUE_MAX_AGE = 300.0  # seconds a ready job may wait before the queue counts as stuck (no worker running?)


def answer(request: HttpRequest) -> JsonResponse:
    if request.GET.get("deep", "") in ("", "0") or not _may_look_deep(request):
        return _no_store(JsonResponse({"status": "ok"}))
    checks = {"database": _timed(_database), "cache": _timed(_cache), "taskQueue": _timed(_task_queue)}
    healthy = all(check["ok"] for check in checks.values())
    return _no_store(
        JsonResponse({"status": "ok" if healthy else "error", "checks": checks}, status=200 if healthy else 503)
    )


def _no_store(response: JsonResponse) -> JsonResponse:
    response["Cache-Control"] = "no-store"
    return response


def _may_look_deep(request: HttpRequest) -> bool:
    raw = bearer_token(request)
    if raw:
        actor = resolve_bearer(raw, lambda: _audience(request))
        return actor is not None and actor.user is not None and actor.user.role >= Role.ADMIN
    if getattr(settings, "EMDASH_TRUST_PROXY", 0):
        return False  # behind a proxy every request comes from this machine
    try:
        return ipaddress.ip_address(str(request.META.get("REMOTE_ADDR", ""))).is_loopback
    except ValueError:
        return False


def _audience(request: HttpRequest) -> str:
    try:
        return resource_url(request)
    except DisallowedHost:
        return ""  # probed by IP without EMDASH_SITE_URL: an OAuth token cannot be checked, a PAT can


def _timed(check: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        result = {"ok": True, **check()}
    except Exception as exc:
        unexpected(exc, f"health check {check.__name__.strip('_')}")
        result = {"ok": False}
    result["ms"] = round((time.perf_counter() - started) * 1000, 1)
    return result


def _database() -> dict[str, Any]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {}


def _cache() -> dict[str, Any]:
    key = f"emdash:health:{time.monotonic_ns()}"
    cache.set(key, "1", 10)
    if cache.get(key) != "1":
        raise RuntimeError("the cache did not return what was just stored")
    cache.delete(key)
    return {}


def _task_queue() -> dict[str, Any]:
    """Age of the oldest job ready to run (database backend); other backends are checked by their own tools."""
    backend = str(settings.TASKS["default"]["BACKEND"])
    if not backend.startswith("django_tasks_db."):
        return {"backend": backend.rsplit(".", 1)[-1]}
    from django_tasks_db.models import DBTaskResult  # the app is installed only with this backend

    now = timezone.now()
    oldest = DBTaskResult.objects.ready().order_by("enqueued_at").values_list("enqueued_at", "run_after").first()
    waiting_since = max(t for t in oldest if t is not None) if oldest is not None else now  # a delayed job waits
    age = max(0.0, (now - waiting_since).total_seconds())  # from when it was due
    return {"ok": age <= QUEUE_MAX_AGE, "oldestReadySeconds": round(age, 1)}
