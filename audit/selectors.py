"""Reading the audit log (admins): every write from every door and every MCP call, newest first."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from audit.models import AuditLog
from emdash import cursors
from emdash.actor import Actor
from emdash.dates import iso, parse_iso
from emdash.errors import InvalidCursor, ValidationError
from emdash.numbers import plain_int
from emdash.permissions import Perm, require

SOURCES = ("mcp", "rest", "admin", "worker", "oauth", "cli", "import")


def audit_list(
    *,
    actor: Actor,
    source: Any = None,
    limit: int = 100,
    before_id: Any = None,
    token: str | None = None,
    client: str | None = None,
) -> list[AuditLog]:
    """Up to ``limit`` rows, optionally of one ``source``, one token or one OAuth client, older than the row
    ``before_id`` (for paging)."""
    require(actor, Perm.AUDIT_READ)
    qs = AuditLog.objects.select_related("user").order_by("-id")
    if source in SOURCES:
        qs = qs.filter(source=source)
    if token:
        qs = qs.filter(token_ref=token_ref_of(token))
    if client:
        qs = qs.filter(oauth_client_id=client)
    if isinstance(before_id, int):
        qs = qs.filter(id__lt=before_id)
    return list(qs[: max(1, min(limit, 500))])


def _filters(user: str | None, since: str | None, until: str | None) -> Q:
    query, problems = Q(), {}
    if user is not None:
        user_id = plain_int(user)
        query &= Q(user_id=user_id) if user_id is not None else Q(user__email=user.strip().lower())
    for name, value, lookup in (("since", since, "created_at__gte"), ("until", until, "created_at__lt")):
        if value is not None:
            try:
                query &= Q(**{lookup: parse_iso(value)})
            except ValueError as exc:
                problems[name] = str(exc)
    if problems:
        raise ValidationError.for_fields(problems)
    return query


def _before(cursor: str | None, key: str) -> int | None:
    if cursor is None:
        return None
    position = cursors.decode(cursor, key)
    if len(position) != 1 or not isinstance(position[0], int):
        raise InvalidCursor("Invalid cursor: pass the nextCursor value from the previous page unchanged")
    return position[0]


def audit_page(
    *,
    actor: Actor,
    user: str | None = None,
    source: str | None = None,
    action: str | None = None,
    target: str | None = None,
    since: str | None = None,
    until: str | None = None,
    limit: int = 50,
    cursor: str | None = None,
    token: str | None = None,
    client: str | None = None,
) -> dict[str, Any]:
    """``{items, nextCursor?}``: rows matching every filter given, newest first; ``until`` is exclusive.
    ``token`` is a token id as the token list shows it ("pat:7", or 7), ``client`` an OAuth client_id."""
    require(actor, Perm.AUDIT_READ)
    qs = AuditLog.objects.select_related("user").filter(_filters(user, since, until)).order_by("-id")
    token_ref = token_ref_of(token) if token is not None else None
    for name, value in (
        ("source", source),
        ("action", action),
        ("target", target),
        ("token_ref", token_ref),
        ("oauth_client_id", client),
    ):
        if value is not None:
            qs = qs.filter(**{name: value})
    key = "audit:" + repr(
        (user, source, action, target, since, until, token_ref, client)
    )  # a cursor of another listing never fits
    before = _before(cursor, key)
    if before is not None:
        qs = qs.filter(id__lt=before)
    rows = list(qs[: limit + 1])
    page: dict[str, Any] = {"items": [present(row) for row in rows[:limit]]}
    if len(rows) > limit:
        page["nextCursor"] = cursors.encode(key, [rows[limit - 1].pk])
    return page


def token_ref_of(value: Any) -> str:
    """A token id as people pass it ("pat:7", "oauth:3", or a bare personal access token id "7") as stored."""
    text = str(value).strip()
    return f"pat:{text}" if plain_int(text) is not None else text


def present(row: AuditLog) -> dict[str, Any]:
    return {
        "id": row.pk,
        "createdAt": iso(row.created_at),
        "actor": {"id": row.user_id, "email": row.user.email} if row.user is not None else None,
        "tokenRef": row.token_ref,
        "tokenName": row.token_name,
        "oauthClient": {"id": row.oauth_client_id, "name": row.oauth_client_name} if row.oauth_client_id else None,
        "client": row.client,
        "clientVersion": row.client_version,
        "via": row.via_text(),
        "source": row.source,
        "action": row.action,
        "target": row.target,
        "outcome": row.outcome,
        "durationMs": row.duration_ms,
        "traceId": row.trace_id,
    }
