"""What every admin view shares: the actor, the access decorator, and running a service as one action."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from admin_ui import audit, plain
from audit import record as audit_record
from emdash import operations
from emdash.actor import Actor
from emdash.call import calling
from emdash.errors import CollectionNotFound, EmDashError, NotFound
from emdash.operations import run_operation
from emdash.permissions import Perm, can
from emdash.text import PROBLEM, is_bad_text_db_error
from emdash.tracing import unexpected


def actor_for(request: HttpRequest) -> Actor:
    """Session users are limited by their role alone (no token scopes)."""
    return Actor.for_user(request.user)  # type: ignore[arg-type]


@contextmanager
def found_or_404(message: str) -> Iterator[None]:
    """A service's NOT_FOUND (or COLLECTION_NOT_FOUND) inside the block becomes the admin's 404 page."""
    try:
        yield
    except (NotFound, CollectionNotFound):
        raise Http404(message) from None


def admin_page(
    perm: Perm | None = None, *methods: str
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Log-in required; with ``perm``, users whose role lacks it get a 403 page (services check again). With
    ``methods`` (``"GET", "POST"`` for a form page, ``"POST"`` for an action), other methods get a 405."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        if methods:
            view = require_http_methods(list(methods))(view)

        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not request.user.is_authenticated or not request.user.is_active:
                return redirect(f"{reverse('admin_ui:login')}?next={request.path}")
            if perm is not None and not can(actor_for(request), perm):
                return forbidden(request)
            with calling(audit.call(request)):  # every change the page makes is "via the admin" (SPEC 9.3)
                return view(request, *args, **kwargs)

        return wrapper

    return decorate


def forbidden(request: HttpRequest, message: str = "Your role does not allow this page.") -> HttpResponse:
    return render(request, "admin_ui/forbidden.html", {"message": message}, status=403)


@dataclass
class Outcome:
    """What a service call through :func:`attempt` produced: its result, or the error's field problems."""

    ok: bool
    result: Any = None
    problems: dict[str, str] = field(default_factory=dict)
    code: str = ""
    message: str = ""  # the plain-language sentence for a failure


def attempt(
    request: HttpRequest,
    action: str,
    call: Callable[[], Any],
    success: str | None = None,
    *,
    audited: bool = True,
    notify: bool = True,
    target: str = "",
    labels: dict[str, str] | None = None,
    noun: str = "item",
) -> Outcome:
    """Run one service call, map domain errors to a plain-language message (admin_ui.plain) and audit it.

    Unexpected errors are logged with a trace id; the user sees only the trace id. ``audited=False`` when
    the call writes its own audit row (operations run through the pipeline); ``notify=False`` leaves the
    message in the outcome instead of flashing it (bulk actions report all items at once); ``target`` names
    what the action is on in its audit row, whether it succeeds or is refused; ``labels`` and ``noun``
    (:func:`admin_ui.plain.wording`) name an item's fields by their labels in the message."""
    started = time.perf_counter()

    def record(code: str) -> None:
        if audited:  # else the pipeline already wrote this call's audit row
            audit.record(request, action, code, started, target)

    try:
        with calling(audit.call(request)):  # revisions made by the call say "via the admin" (SPEC 9.3)
            result = call()
    except EmDashError as exc:
        record(exc.code)
        message = plain.message_for(exc, labels, noun)
        outcome = Outcome(False, problems=plain.problems_of(exc), code=exc.code, message=message)
    except Exception as exc:
        if is_bad_text_db_error(exc):  # e.g. "\u0000" inside a JSON field's text: the user's input, not our bug
            record("VALIDATION_ERROR")
            outcome = Outcome(False, code="VALIDATION_ERROR", message=f"Invalid input: {PROBLEM}.")
        else:
            trace_id = unexpected(exc, f"admin action {action}")
            record("INTERNAL_ERROR")
            text = f"Something went wrong on our side and nothing was changed. Reference for support: {trace_id}."
            outcome = Outcome(False, code="INTERNAL_ERROR", message=text)
    else:
        record("ok")
        if success and notify:
            messages.success(request, success)
        return Outcome(True, result=result)
    if notify:
        messages.error(request, outcome.message, extra_tags=plain.code_tag(outcome.code))
    return outcome


def run(
    request: HttpRequest,
    name: str,
    raw: dict[str, Any],
    success: str | None = None,
    *,
    notify: bool = True,
    **wording: Any,
) -> Outcome:
    """Run operation ``name`` with the form's input through the pipeline (source "admin"), as :func:`attempt`
    does for a service call; the result is the operation's payload (what MCP and REST return)."""
    op = operations.get(name)
    if op is None:
        raise LookupError(f"No operation named {name}")
    door_call = audit.call(request)

    def keep(row: Any) -> None:
        # Refusals and failures are kept; a successful admin read is not (docs/architecture.md): a page view
        # is not an action, unlike an assistant's read over MCP.
        if op.is_write or row.outcome != "ok":
            audit_record.save(row)

    def call() -> Any:
        return run_operation(op, door_call, raw, later=keep)

    return attempt(request, name, call, success, audited=False, notify=notify, **wording)


ERROR_STATUS = {"CONFLICT": 409, "INSUFFICIENT_PERMISSIONS": 403, "INSUFFICIENT_SCOPE": 403, "NOT_FOUND": 404}


def status_for(outcome: Outcome | None, problems: dict[str, str] | None = None) -> int:
    """The HTTP status of a re-rendered form: 200 when nothing failed."""
    if outcome is not None and not outcome.ok:
        return ERROR_STATUS.get(outcome.code, 500 if outcome.code == "INTERNAL_ERROR" else 400)
    return 400 if problems else 200


def posted(
    request: HttpRequest, name: str, form: Callable[[Any], dict[str, Any]], success: str | None = None
) -> Outcome | None:
    """On POST, run operation ``name`` with the input ``form`` makes from the posted form; on GET, None."""
    return run(request, name, form(request.POST), success) if request.method == "POST" else None


def form_page(request: HttpRequest, template: str, nav: str, outcome: Outcome | None, **context: Any) -> HttpResponse:
    """A page whose form posts back to it: after a failure it shows what was sent and what was wrong with it,
    under the failure's HTTP status. ``context`` may replace ``form`` or ``problems``."""
    page = {"problems": outcome.problems if outcome else {}, "form": request.POST, "nav_key": nav, **context}
    return render(request, template, page, status=status_for(outcome))
