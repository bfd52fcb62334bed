"""WordPress authors → who is credited here.

Bylines (SPEC 10) have not landed yet: until they do, an author maps to the user with the same email (created,
without a password, only when asked), and otherwise the item has no author and the report says so. This one
function is where the byline mapping goes when bylines exist.
"""

from __future__ import annotations

from django.db import IntegrityError

from accounts.models import User
from emdash.roles import Role
from transfer.wordpress import wxr
from transfer.wordpress.report import Report


def map_authors(site: wxr.Site, report: Report, *, create_users: bool) -> dict[str, int | None]:
    """Author login → user id (or None: credited to nobody)."""
    found: dict[str, int | None] = {}
    for author in site.authors:
        email = author.email.strip().lower()
        user = User.objects.filter(email__iexact=email).first() if email else None
        if user is None and create_users and email:
            try:
                user = User.objects.create_user(email=email, name=author.display_name[:150], role=Role.AUTHOR)
                report.created["users"] += 1
            except IntegrityError:
                user = User.objects.filter(email__iexact=email).first()
        if user is None:
            why = (
                "no user has this email (run with --create-users to create one)" if email else "the export has no email"
            )
            report.skip(f"author {author.login}", f"{why}; their items are imported without an author")
        found[author.login] = user.pk if user else None
    return found
