"""Bylines as the outside world sees them (MCP, REST, templates and content items share this shape)."""

from __future__ import annotations

from bylines.models import Byline
from content.entries.outputs import BylineSummary
from emdash.dates import iso


def summary(row: Byline) -> BylineSummary:
    return {
        "id": row.id,
        "slug": row.slug,
        "displayName": row.display_name,
        "bio": row.bio or None,
        "avatarMediaId": row.avatar_media_id or None,
        "websiteUrl": row.website_url or None,
        "userId": row.user_id,
        "isGuest": row.is_guest,
        "locale": row.locale,
        "translationGroup": row.translation_group,
        "createdAt": iso(row.created_at),
        "updatedAt": iso(row.updated_at),
    }
