"""Autosave: the edit page's script posts the same form in the background and gets JSON back.

The post goes through the same view and save path as the Save button (so ``_rev`` conflict protection, field
checks and the audit log apply); only the answer differs: JSON instead of a redirect or a re-rendered page.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, JsonResponse

from admin_ui.base import Outcome, status_for
from admin_ui.widgets import field_problems

HEADER = "X-EmDash-Autosave"


def wanted(request: HttpRequest) -> bool:
    return request.method == "POST" and request.headers.get(HEADER) == "1"


def answer(request: HttpRequest, outcome: Outcome | None, problems: dict[str, str]) -> JsonResponse:
    """``{ok, rev, updatedAt}`` or ``{ok: false, code, message, problems}``; flash messages are not kept."""
    notes = [str(m) for m in messages.get_messages(request)]  # consumed: they must not show on the next page
    if outcome is not None and outcome.ok:
        saved = outcome.result  # the content_update payload: {item, _rev}
        body: dict[str, Any] = {"ok": True, "rev": saved["_rev"], "updatedAt": saved["item"]["updatedAt"]}
        return JsonResponse(body)
    code = outcome.code if outcome is not None else "VALIDATION_ERROR"
    body = {
        "ok": False,
        "code": code,
        "message": notes[-1] if notes else "Some fields need attention",
        "problems": field_problems(problems),
    }
    return JsonResponse(body, status=status_for(outcome, problems))
