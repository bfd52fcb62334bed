"""Site settings: editors read them, admins change them (one partial update per save)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render

from admin_ui.base import actor_for, admin_page, posted, status_for
from emdash.numbers import plain_int
from emdash.permissions import Perm, can
from media import selectors as media_selectors
from settings_app import selectors
from settings_app.validation import SOCIAL_KEYS

TEXT = [
    ("title", "Site title"),
    ("tagline", "Tagline"),
    ("url", "Site URL"),
    ("dateFormat", "Date format (Unicode pattern, e.g. d MMMM yyyy or MMM d, yyyy)"),
    ("timezone", "Time zone (IANA name, e.g. Europe/Paris)"),
]
SEO_TEXT = [
    ("titleSeparator", "Title separator"),
    ("googleVerification", "Google verification code"),
    ("bingVerification", "Bing verification code"),
]
MEDIA = [("logo", "Logo"), ("favicon", "Favicon")]


def _media_ref(value: str) -> dict[str, Any] | None:
    return {"mediaId": value} if value else None


def changes_from(post: QueryDict) -> dict[str, Any]:
    """The settings document the form describes; empty inputs unset their key."""
    changes: dict[str, Any] = {key: post.get(key, "").strip() or None for key, _ in TEXT}
    raw_ppp = post.get("postsPerPage", "").strip()
    number = plain_int(raw_ppp.removeprefix("-"))
    whole = raw_ppp if number is None else -number if raw_ppp.startswith("-") else number
    changes["postsPerPage"] = whole or None
    for key, _ in MEDIA:
        changes[key] = _media_ref(post.get(key, ""))
    changes["social"] = {key: post.get(f"social.{key}", "").strip() or None for key in SOCIAL_KEYS}
    seo: dict[str, Any] = {key: post.get(f"seo.{key}", "").strip() or None for key, _ in SEO_TEXT}
    seo["robotsTxt"] = post.get("seo.robotsTxt", "") or None
    seo["defaultOgImage"] = _media_ref(post.get("seo.defaultOgImage", ""))
    changes["seo"] = seo
    changes["editorialGuide"] = post.get("editorialGuide", "").strip() or None
    if post.get("changesetsSelfApprove.sent"):  # the form showed the checkbox: unticked means off (the default)
        changes["changesetsSelfApprove"] = True if post.get("changesetsSelfApprove") else None
    return changes


@admin_page(Perm.SETTINGS_READ, "GET", "POST")
def site_settings(request: HttpRequest) -> HttpResponse:
    actor = actor_for(request)
    outcome = posted(request, "settings_update", changes_from, "Settings saved.")
    if outcome and outcome.ok:
        return redirect("admin_ui:settings")
    problems = outcome.problems if outcome else {}
    # After an error the form shows what was submitted (nothing was saved), not the stored settings.
    current = changes_from(request.POST) if outcome is not None else selectors.settings_get(actor=actor)
    images = media_selectors.media_list(actor=actor, mime_type="image/", limit=100).items
    social, seo = current.get("social") or {}, current.get("seo") or {}

    def ref(value: Any) -> str:
        return str(value.get("mediaId", "")) if isinstance(value, dict) else ""

    context = {
        "text_rows": [(k, k, label, current.get(k, ""), problems.get(k, "")) for k, label in TEXT],
        "posts_per_page": current.get("postsPerPage", ""),
        "media_rows": [(k, k, label, ref(current.get(k)), problems.get(f"{k}.mediaId", "")) for k, label in MEDIA]
        + [
            (
                "seo.defaultOgImage",
                "seo_defaultOgImage",
                "Default social image",
                ref(seo.get("defaultOgImage")),
                problems.get("seo.defaultOgImage.mediaId", ""),
            )
        ],
        "social_rows": [
            (f"social.{k}", f"social_{k}", k.title(), social.get(k, ""), problems.get(f"social.{k}", ""))
            for k in SOCIAL_KEYS
        ],
        "seo_rows": [
            (f"seo.{k}", f"seo_{k}", label, seo.get(k, ""), problems.get(f"seo.{k}", "")) for k, label in SEO_TEXT
        ],
        "robots_txt": seo.get("robotsTxt", ""),
        "editorial_guide": current.get("editorialGuide", ""),
        "self_approve": current.get("changesetsSelfApprove") is True,
        "images": images,
        "problems": problems,
        "can_write": can(actor, Perm.SETTINGS_MANAGE),
        "nav_key": "settings",
    }
    return render(request, "admin_ui/settings.html", context, status=status_for(outcome))
