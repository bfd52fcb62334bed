"""WordPress authors → who is credited here (SPEC 10, 12).

Every author becomes a byline (its credit on the items they wrote: `displayName` from the export, the slug from
the login), linked to the user with the same email when there is one (created, without a password, only when asked),
else a guest byline. The item's `author` is that user, or nobody (the report says so). A second run finds the
bylines it made through the import's link table, so importing again adds none; a byline is made in one
transaction with its link, so of two imports of one file at once only one keeps its byline.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils.text import slugify

from accounts.models import User
from bylines import services as bylines
from bylines.models import Byline
from emdash.actor import Actor
from emdash.errors import EmDashError, SlugConflict
from emdash.roles import Role
from transfer.wordpress import wxr
from transfer.wordpress.report import LinkedMeanwhile, Links, Report


@dataclass(frozen=True)
class Credit:
    user_id: int | None  # the item's author here
    byline_id: str | None  # the item's primary byline


def map_authors(site: wxr.Site, actor: Actor, links: Links, report: Report, *, create_users: bool) -> dict[str, Credit]:
    """Author login → the user and byline their items are credited to."""
    found: dict[str, Credit] = {}
    for author in site.authors:
        user = _user(author, report, create_users=create_users)
        found[author.login] = Credit(user.pk if user else None, _byline(author, user, actor, links, report))
    return found


def _user(author: wxr.Author, report: Report, *, create_users: bool) -> User | None:
    email = author.email.strip().lower()
    if email and not _is_address(email):
        report.notes.append(
            f"author {author.login}: the export's email {email[:100]!r} is not an address; no user is linked or "
            "created, and their items are credited to a guest byline"
        )
        return None
    user = User.objects.filter(email__iexact=email).first() if email else None
    if user is None and create_users and email:
        try:
            user = User.objects.create_user(email=email, name=author.display_name[:150], role=Role.AUTHOR)
            report.created["users"] += 1
        except IntegrityError:
            user = User.objects.filter(email__iexact=email).first()
    if user is None:
        why = "no user has this email (run with --create-users to create one)" if email else "the export has no email"
        report.notes.append(f"author {author.login}: {why}; their items are credited to a guest byline")
    return user


def _is_address(email: str) -> bool:
    try:
        validate_email(email)
    except ValidationError:
        return False
    return True


def _byline(author: wxr.Author, user: User | None, actor: Actor, links: Links, report: Report) -> str | None:
    link = links.get("author", author.login)
    if link is not None and Byline.objects.filter(pk=link.target).exists():
        return link.target
    name = (author.display_name or author.login).strip()[: bylines.NAME_MAX_LENGTH] or author.login
    base = _slug(author.login or name)
    for attempt in range(1, 50):
        slug = base if attempt == 1 else f"{base[: bylines.SLUG_MAX_LENGTH - 4]}-{attempt}"
        try:
            with transaction.atomic():  # the byline and its link together, as items are made
                made = bylines.byline_create(
                    actor=actor, slug=slug, display_name=name, user_id=user.pk if user else None
                )
                if not links.add("author", author.login, made.id):
                    raise LinkedMeanwhile  # another import of this file made it: roll this one back
        except SlugConflict:
            continue
        except LinkedMeanwhile:
            linked = links.get("author", author.login)
            return linked.target if linked is not None else None
        except EmDashError as exc:
            report.skip(f"author {author.login}", f"no byline: {exc}")
            return None
        report.created["bylines"] += 1
        return made.id
    report.skip(f"author {author.login}", "no free byline slug")
    return None


def _slug(text: str) -> str:
    """A byline slug (^[a-z][a-z0-9-]*$) from a WordPress login, which may hold dots, @ or capitals."""
    slug = slugify(text.replace(".", "-").replace("_", "-").replace("@", "-"))
    slug = "-".join(part for part in slug.split("-") if part)
    if not slug or not slug[0].isalpha():
        slug = f"author-{slug}" if slug else "author"
    return slug[: bylines.SLUG_MAX_LENGTH]
