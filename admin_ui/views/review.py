"""The Review screen (SPEC 9.2): change sets waiting for review, each entry's diff of draft vs live, its problems
and public URLs; approve or reject with a comment, publish now or at a time, revert a published set.

Every button runs the change set operation through the pipeline (audited as admin), so the screen can never
allow what MCP and REST refuse: four-eyes, publish rights on every item, all-or-none publishing.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from admin_ui.base import actor_for, admin_page, run
from admin_ui.display import display_json
from content.changesets import selectors
from emdash.dates import iso
from emdash.errors import EmDashError, NotFound
from emdash.permissions import Perm, can
from settings_app import localtime

STATES = selectors.STATES
# action -> (operation, success message)
ACTIONS = {
    "submit": ("changeset_submit", "Submitted for review."),
    "approve": ("changeset_review", "Approved. It can be published now or scheduled."),
    "reject": ("changeset_review", "Rejected; the author sees your comment."),
    "publish": ("changeset_publish", "Published: every item is live."),
    "schedule": ("changeset_publish", "Scheduled: the worker publishes it at that time."),
    "revert": ("changeset_revert", "Reverted."),
}


@admin_page(Perm.CHANGESET_READ, "GET")
def review_list(request: HttpRequest) -> HttpResponse:
    actor = actor_for(request)
    state = request.GET.get("state", "submitted")
    state = state if state in STATES else "submitted"
    try:
        page = selectors.changeset_list(actor=actor, state=state, limit=50, cursor=request.GET.get("cursor") or None)
    except EmDashError:  # a stale or tampered cursor: back to the first page
        page = selectors.changeset_list(actor=actor, state=state, limit=50)
    context = {
        "nav_key": "review",
        "items": page["items"],
        "next_cursor": page.get("nextCursor", ""),
        "state": state,
        "states": STATES,
    }
    return render(request, "admin_ui/review/list.html", context)


@admin_page(Perm.CHANGESET_READ, "GET")
def review_detail(request: HttpRequest, id: str) -> HttpResponse:
    actor = actor_for(request)
    try:
        changeset = selectors.changeset_get(actor=actor, id=id)
    except NotFound:
        raise Http404("No such change set") from None
    entries = [
        {
            **entry,
            "diff": [
                {**change, "live": display_json(change["live"]), "draft": display_json(change["draft"])}
                for change in entry["diff"]
            ],
        }
        for entry in changeset["entries"]
    ]
    mine = changeset.get("creator", {}).get("id") == str(actor.user_id)
    context = {
        "nav_key": "review",
        "changeset": changeset,
        "entries": entries,
        "can_propose": can(actor, Perm.CHANGESET_PROPOSE),
        "can_review": can(actor, Perm.CHANGESET_REVIEW),
        "can_publish": can(actor, Perm.CHANGESET_PUBLISH),
        # Taken back in full: "Revert" could only fail, and the badge says so rather than "published".
        "revertible": selectors.revertible(changeset["id"]),
        "mine": mine,
    }
    return render(request, "admin_ui/review/detail.html", context)


def _input(action: str, id: str, post: Any) -> dict[str, Any]:
    raw: dict[str, Any] = {"id": id}
    if action in ("approve", "reject"):
        raw["decision"] = action
        if comment := post.get("comment", "").strip():
            raw["comment"] = comment
    elif action == "schedule":
        raw["scheduledAt"] = iso(localtime.from_input(post.get("scheduled_at", ""))) or ""
    elif action == "revert" and post.get("force"):
        raw["force"] = True
    return raw


@admin_page(Perm.CHANGESET_READ, "POST")
def review_action(request: HttpRequest, id: str, action: str) -> HttpResponse:
    if action not in ACTIONS:
        raise Http404("No such action")
    name, success = ACTIONS[action]
    try:
        raw = _input(action, id, request.POST)
    except (ValueError, EmDashError):
        raw = {"id": id, "scheduledAt": ""}  # the operation names the bad time
    outcome = run(request, name, raw, success)
    if outcome.ok and action == "revert" and outcome.result.get("skipped"):
        skipped = ", ".join(s["item"] for s in outcome.result["skipped"])
        messages.warning(
            request,
            f"Skipped (edited since the set was published): {skipped}. Revert with force to take them back too.",
        )
    return redirect("admin_ui:review_detail", id=id)
