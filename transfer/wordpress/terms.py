"""Categories and tags → the ``category`` and ``tag`` taxonomies, parents kept (a parent is made before its
children whatever order the export lists them in)."""

from __future__ import annotations

from urllib.parse import unquote

from content.entries.slugs import slugify
from emdash.actor import Actor
from emdash.conf import emdash_settings
from emdash.errors import EmDashError
from taxonomy.models import Term
from taxonomy.services import term_create
from transfer.wordpress import wxr
from transfer.wordpress.collections import TAXONOMIES
from transfer.wordpress.report import Links, Report


def import_terms(site: wxr.Site, actor: Actor, links: Links, report: Report) -> None:
    pending = [t for t in site.terms if t.taxonomy in TAXONOMIES and t.slug]
    names = {(t.taxonomy, t.slug) for t in pending}
    while pending:
        waiting = []
        for term in pending:
            parent = links.get("term", f"{term.taxonomy}:{term.parent}") if term.parent else None
            if term.parent and parent is None and (term.taxonomy, term.parent) in names:
                waiting.append(term)  # its parent comes later in this pass
                continue
            _one(term, parent.target if parent else None, actor, links, report)
        if len(waiting) == len(pending):  # a cycle, or parents that never resolve
            for term in waiting:
                report.skip(f"{term.taxonomy} {term.slug}", f"its parent '{term.parent}' could not be imported")
            return
        pending = waiting


def _one(term: wxr.Term, parent_id: str | None, actor: Actor, links: Links, report: Report) -> None:
    key = f"{term.taxonomy}:{term.slug}"
    if links.get("term", key) is not None:
        report.existing["terms"] += 1
        return
    taxonomy, plain = TAXONOMIES[term.taxonomy], unquote(term.slug)
    # A non-Latin slug (WordPress keeps it %-encoded) has no ASCII form: every one would fold to the same
    # "untitled", so the term gets a fresh slug made from its label and is never matched by slug.
    slug = slugify(plain) if plain.isascii() else None
    # Imported terms are the default locale's (term_create's default); slugs are unique per locale, so a match is
    # looked for there only: another locale's term of that slug is a different term.
    found = Term.objects.filter(taxonomy__name=taxonomy, slug=slug, locale=emdash_settings.default_locale)
    existing = found.first() if slug else None
    try:
        made = existing or term_create(
            actor=actor,
            taxonomy=taxonomy,
            slug=slug,
            label=term.name or term.slug,
            parent_id=parent_id,
            description=term.description or None,
        )
    except EmDashError as exc:
        report.skip(f"{term.taxonomy} {term.slug}", str(exc))
        return
    links.add("term", key, made.id, taxonomy)
    if term.term_id:
        links.add("term_id", term.term_id, made.id, taxonomy)  # menus point at terms by their WordPress id
    report.created["terms" if existing is None else "terms matched"] += 1
