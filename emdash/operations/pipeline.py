"""``run_operation``: validate → authorize → call the typed service → audit → present, for every door.

Domain errors propagate as :class:`~emdash.errors.EmDashError`; each door maps them once (MCP tool
errors, REST statuses, admin messages). A write's audit row is inserted in the same transaction as the
write, so a rolled-back write leaves no row and a failed audit insert rolls the write back.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from pydantic import ValidationError as PydanticError

from audit.record import Later, record
from emdash.call import Call, calling
from emdash.errors import EmDashError, ValidationError
from emdash.operations.record import Operation, Payload
from emdash.operations.schema import Input, problems
from emdash.permissions import require
from emdash.text import PROBLEM, find_bad_text


@dataclass(frozen=True)
class Shape:
    """How a door hands over the input: ``lax`` parses strings (query strings); ``fixed`` are the wire
    names the door fills itself (path parameters); ``noun`` names an input key in messages."""

    lax: bool = False
    fixed: frozenset[str] = frozenset()
    noun: str = "argument"


JSON = Shape()


def validate(op: Operation, raw_input: Any, shape: Shape = JSON) -> Input:
    """The typed input, or VALIDATION_ERROR naming every bad field at once (NUL and lone surrogates too)."""
    found: dict[str, str] = {}
    try:
        args = op.input.model_validate(raw_input, strict=not shape.lax)
    except PydanticError as exc:
        found = problems(exc, op.input, shape.fixed, shape.noun)
    if (bad := find_bad_text(raw_input)) is not None:
        found = {**found, bad or "arguments": PROBLEM}
    if found:
        raise ValidationError.for_fields(found, prefix="Invalid arguments") from None
    return args


def _kwargs(args: Input) -> dict[str, Any]:
    """The service's keyword arguments: fields the caller set, and defaults that are not None (an absent
    optional argument is left out, so the service's own default applies)."""
    values = {name: getattr(args, name) for name in type(args).model_fields}
    return {name: value for name, value in values.items() if value is not None or args.given(name)}


def _execute(op: Operation, call: Call, args: Input, started: float) -> Payload:
    with calling(call):  # what the service records (revisions) says how the change was made (SPEC 9.3)
        result = op.service(actor=call.actor, **_kwargs(args))
    payload = op.present(result, args)
    if op.is_write:
        target = op.target(args, payload) if op.target is not None else ""
        record(call, op.name, "ok", target, started=started)  # in the write's transaction
        for item in op.item_targets(args, payload) if op.item_targets is not None else ():
            record(call, op.name, "ok", item)
    return payload


def run_operation(
    op: Operation, call: Call, raw_input: Any, *, later: Later | None = None, shape: Shape = JSON
) -> Payload:
    """Run ``op`` for the door's ``call`` with ``raw_input`` (wire names); returns the payload every door presents.

    ``later`` receives the rows that are not written with the operation's own transaction: reads (MCP
    records every call) and failures. Without it, only successful writes are audited.
    """
    started = time.perf_counter()
    actor = call.actor
    outcome = "INTERNAL_ERROR"
    try:
        require(actor, op.perm)  # before validation: a refused caller learns nothing about the input shape
        args = validate(op, raw_input, shape)
        if op.is_write and op.atomic:
            with transaction.atomic():
                payload = _execute(op, call, args, started)
        else:
            payload = _execute(op, call, args, started)
        outcome = "ok"
        return payload
    except EmDashError as exc:
        outcome = exc.code
        raise
    finally:
        # Successful writes were recorded with the write itself; everything else goes to the door.
        if later is not None and not (op.is_write and outcome == "ok"):
            record(call, op.name, outcome, started=started, later=later)
