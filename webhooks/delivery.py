"""Delivering webhook events: a task per attempt, retries with backoff, a log row per delivery.

``record`` (called after the write committed) stores one Delivery per matching active webhook and enqueues a
task for each. The task POSTs the stored body, signed with ``X-EmDash-Signature: sha256=<hex HMAC-SHA256 of
the body>``, without following redirects, after checking the target address again (SSRF: DNS may have
changed since the webhook was saved). A failed attempt waits ``BACKOFF[n]`` seconds: the delivery keeps
``next_attempt_at`` and the worker's sweep (``requeue_due``) enqueues it again; after ``MAX_ATTEMPTS`` it is
marked failed.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import httpx
from django.db import transaction
from django.utils import timezone

from emdash import safe_fetch
from emdash.background import task
from emdash.conf import emdash_settings
from emdash.prepared import Prepared
from webhooks.models import Delivery, Webhook

if TYPE_CHECKING:
    from content.signals import Batch

log = logging.getLogger("emdash.webhooks")

MAX_ATTEMPTS = 5
BACKOFF = (10, 60, 300, 1800)  # seconds before attempts 2, 3, 4 and 5
RESPONSE_KEEP = 2000  # characters of the response body kept in the log
SIGNATURE_HEADER = "X-EmDash-Signature"


def sign(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def _matching(event: str, batch: Batch | None = None) -> list[Webhook]:
    # Few webhooks exist; filtering in Python works the same on every database's JSON support.
    return [hook for hook in _active(batch) if event in (hook.events or [])]


def _active(batch: Batch | None) -> list[Webhook]:
    """The active webhooks; read once for all the events of one committed transaction (``batch``)."""
    return _read_active() if batch is None else batch.value("webhooks.active", _read_active)


@functools.cache
def _active_query() -> Prepared:
    # Compiled once: every committed content write reads it, and Django's compiler cost more than the query.
    return Prepared(Webhook.objects.filter(active=True).order_by())


def _read_active() -> list[Webhook]:
    query = _active_query()
    return query.objects(query.params)


def subscribed(event: str, batch: Batch | None = None) -> bool:
    return bool(_matching(event, batch))


def record(event: str, body: str) -> list[int]:
    """One pending delivery per active webhook listening to ``event``; each enqueued once committed."""
    with transaction.atomic():
        ids = [Delivery.objects.create(webhook=hook, event=event, body=body).pk for hook in _matching(event)]
        transaction.on_commit(lambda: _enqueue(ids))
    return ids


def _enqueue(ids: list[int]) -> None:
    for delivery_id in ids:
        try:
            deliver.enqueue(delivery_id)
        except Exception:  # the queue is down: the sweep picks the delivery up later
            log.exception("could not enqueue webhook delivery %s", delivery_id)
            Delivery.objects.filter(pk=delivery_id).update(next_attempt_at=timezone.now())


@task()
def deliver(delivery_id: int) -> str:
    """The task: one attempt of one delivery."""
    return attempt(delivery_id)


def _post(hook: Webhook, row: Delivery) -> httpx.Response:
    data = row.body.encode()
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "EmDash-Webhooks/1",
        "X-EmDash-Event": row.event,
        "X-EmDash-Delivery": str(row.pk),
        SIGNATURE_HEADER: sign(hook.secret, data),
    }
    return safe_fetch.post(
        hook.url,
        content=data,
        headers=headers,
        timeout=float(emdash_settings.WEBHOOKS_TIMEOUT),
        allow_private=bool(emdash_settings.WEBHOOKS_ALLOW_PRIVATE),
    )


def attempt(delivery_id: int, *, now: datetime | None = None) -> str:
    """Try a pending delivery once and log the outcome; returns the new status."""
    with transaction.atomic():
        row = Delivery.objects.select_for_update().select_related("webhook").filter(pk=delivery_id).first()
        if row is None or row.status != Delivery.PENDING:
            return row.status if row else "missing"
        row.attempts += 1
        row.next_attempt_at = None
        row.save(update_fields=["attempts", "next_attempt_at", "updated_at"])
    hook = row.webhook
    error, code, text = "", None, ""
    if not hook.active:
        error = "the webhook is inactive"
    else:
        try:
            response = _post(hook, row)
            code, text = response.status_code, response.text[:RESPONSE_KEEP]
            if not 200 <= code < 300:
                error = f"answered {code}" + (" (redirects are not followed)" if 300 <= code < 400 else "")
        except safe_fetch.FetchError as exc:  # the target is checked again at every delivery
            error = f"refused: {exc.message}"
        except httpx.HTTPError as exc:
            error = f"{type(exc).__name__}: {str(exc)[:300]}"
    return _finish(row, code, text, error, final=not hook.active or error.startswith("refused"), now=now)


def _finish(row: Delivery, code: int | None, text: str, error: str, *, final: bool, now: datetime | None) -> str:
    row.response_code, row.response_body, row.last_error = code, text, error
    if not error:
        row.status = Delivery.DELIVERED
    elif final or row.attempts >= MAX_ATTEMPTS:
        row.status = Delivery.FAILED
    else:
        row.next_attempt_at = (now or timezone.now()) + timedelta(seconds=BACKOFF[row.attempts - 1])
    row.save(update_fields=["response_code", "response_body", "last_error", "status", "next_attempt_at", "updated_at"])
    return row.status


def requeue_due(*, now: datetime | None = None) -> int:
    """The worker's sweep: enqueue the pending deliveries whose retry time has come."""
    due = Delivery.objects.filter(status=Delivery.PENDING, next_attempt_at__lte=now or timezone.now())
    ids = list(due.values_list("pk", flat=True)[:500])
    if ids:
        Delivery.objects.filter(pk__in=ids).update(next_attempt_at=None)  # queued: not picked twice
        _enqueue(ids)
    return len(ids)
