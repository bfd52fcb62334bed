"""Taxonomy definitions (SPEC 6.5): created, edited, attached to collections and deleted by editors.

A taxonomy's name is also the first segment of its public archive URLs (``/<taxonomy>/<term>/``), which
share the namespace with collection item URLs (``/<collection>/<slug>/``): a name already used by a
collection, or by a public site route, is refused.
"""

from __future__ import annotations

import re

from django.db import IntegrityError, transaction
from django.utils import timezone

from content import stamps
from emdash import purge
from emdash.actor import Actor
from emdash.errors import Conflict, ValidationError
from emdash.http_cache import CONTENT_KEY, TAXONOMIES_KEY
from emdash.permissions import Perm, require
from taxonomy.models import TaxonomyDefinition, Term, TermAssignment
from taxonomy.services import LABEL_MAX_LENGTH, get_definition

NAME_RE = re.compile(r"^[a-z][a-z0-9_]*\Z")
NAME_MAX_LENGTH = 63
MAX_COLLECTIONS = 100
# First URL segments the public site serves itself (public_site/urls.py).
RESERVED_NAMES = frozenset({"search", "feed", "sitemap", "robots", "preview", "admin", "static", "media"})


def existing_collections() -> set[str]:
    from content.models import Collection  # content depends on taxonomy's tables only through signals

    return set(Collection.objects.values_list("slug", flat=True))


def _check_name(name: str, problems: dict[str, str]) -> None:
    if not NAME_RE.match(name) or len(name) > NAME_MAX_LENGTH:
        problems["name"] = (
            f"must be 1-{NAME_MAX_LENGTH} lowercase letters, digits or '_', starting with a letter (e.g. genre)"
        )
    elif name in RESERVED_NAMES:
        problems["name"] = f"'{name}' is reserved by the public site"


def _check_label(value: str | None, key: str, problems: dict[str, str]) -> None:
    if value is not None and (not value.strip() or len(value) > LABEL_MAX_LENGTH):
        problems[key] = f"must be a non-empty string of at most {LABEL_MAX_LENGTH} characters"


def _check_collections(collections: list[str] | None, problems: dict[str, str]) -> list[str] | None:
    if collections is None:
        return None
    if len(collections) > MAX_COLLECTIONS:
        problems["collections"] = f"at most {MAX_COLLECTIONS} collections"
        return None
    unknown = sorted(set(collections) - existing_collections())
    if unknown:
        there = ", ".join(sorted(existing_collections())) or "none"
        problems["collections"] = f"no such collection(s): {', '.join(unknown[:10])} (known: {there})"
        return None
    return list(dict.fromkeys(collections))


def taxonomy_create(
    *,
    actor: Actor,
    name: str,
    label: str,
    label_singular: str | None = None,
    hierarchical: bool = False,
    collections: list[str] | None = None,
) -> TaxonomyDefinition:
    require(actor, Perm.TAXONOMY_MANAGE)
    problems: dict[str, str] = {}
    _check_name(name, problems)
    _check_label(label, "label", problems)
    _check_label(label_singular, "labelSingular", problems)
    chosen = _check_collections(collections, problems)
    if problems:
        raise ValidationError.for_fields(problems)
    if name in existing_collections():
        raise Conflict(f"'{name}' is a collection: its public URLs would clash with the taxonomy's archives")
    if TaxonomyDefinition.objects.filter(name=name).exists():
        raise Conflict(f"A taxonomy named '{name}' already exists")
    now = timezone.now()
    try:
        with transaction.atomic():
            row = TaxonomyDefinition.objects.create(
                name=name,
                label=label.strip(),
                label_singular=(label_singular or "").strip(),
                hierarchical=hierarchical,
                collections=chosen or [],
                created_at=now,
                updated_at=now,
            )
            _changed()
            return row
    except IntegrityError:  # a concurrent create of the same name won the race
        raise Conflict(f"A taxonomy named '{name}' already exists") from None


def taxonomy_update(
    *,
    actor: Actor,
    name: str,
    label: str | None = None,
    label_singular: str | None = None,
    hierarchical: bool | None = None,
    collections: list[str] | None = None,
) -> TaxonomyDefinition:
    """Change labels, nesting or the attached collections. Detaching a collection removes the taxonomy's
    terms from that collection's items; making a taxonomy flat is refused while terms are nested."""
    require(actor, Perm.TAXONOMY_MANAGE)
    problems: dict[str, str] = {}
    _check_label(label, "label", problems)
    _check_label(label_singular, "labelSingular", problems)
    chosen = _check_collections(collections, problems)
    if problems:
        raise ValidationError.for_fields(problems)
    with transaction.atomic():
        row = get_definition(name, for_update=True)
        if hierarchical is False and Term.objects.filter(taxonomy=row, parent__isnull=False).exists():
            raise Conflict(f"Taxonomy '{name}' has nested terms: move them to the top level before making it flat")
        if chosen is not None:
            dropped = set(row.collections or []) - set(chosen)
            TermAssignment.objects.filter(term__taxonomy=row, collection__in=dropped).delete()
            row.collections = chosen
        if label is not None:
            row.label = label.strip()
        if label_singular is not None:
            row.label_singular = label_singular.strip()
        if hierarchical is not None:
            row.hierarchical = hierarchical
        row.updated_at = timezone.now()
        row.save()
        _changed()
    return row


def taxonomy_delete(*, actor: Actor, name: str) -> None:
    """Delete a taxonomy with all its terms and their assignments (menu items pointing at them stop linking)."""
    require(actor, Perm.TAXONOMY_MANAGE)
    with transaction.atomic():
        row = get_definition(name, for_update=True)
        TermAssignment.objects.filter(term__taxonomy=row).delete()
        # Children first: a term's parent link is RESTRICT, so delete leaves before their ancestors.
        Term.objects.filter(taxonomy=row).update(parent=None)
        Term.objects.filter(taxonomy=row).delete()
        row.delete()
        _changed()


def _changed() -> None:
    """In the writing transaction: definitions show in taxonomy reads and archive headings, and an update or
    delete may drop assignments, so the ``taxonomies`` and ``terms`` stamps move and pages showing terms go."""
    stamps.bump("taxonomies", "terms")
    purge.schedule([TAXONOMIES_KEY, CONTENT_KEY])


def detach_missing_collections() -> int:
    """Remove collections that no longer exist from every definition (after a collection is deleted)."""
    existing = existing_collections()
    changed = 0
    for row in TaxonomyDefinition.objects.all():
        kept = [slug for slug in row.collections or [] if slug in existing]
        if kept != list(row.collections or []):
            TaxonomyDefinition.objects.filter(pk=row.pk).update(collections=kept, updated_at=timezone.now())
            changed += 1
    return changed
