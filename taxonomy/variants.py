"""Which locale variant of a term a page shows (SPEC 10): the translation group's member in the page's locale,
else the default locale's, else the term itself.

An entry carries whichever variant an editor assigned; the public site shows the variant of the entry's own
locale. The choice is made in SQL, inside the entry read's terms column (``shown_variant``), so a warm entry page
pays no query for it (tests/site/test_page_caching.py); archives and term trees pick in Python among the few
variants they have already read.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import connection
from django.db.models import Func, JSONField, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce, JSONArray

from emdash.conf import emdash_settings
from taxonomy.models import Term


class _AsJSON(Func):
    """A JSON value read through a subquery, kept JSON inside an outer JSON array: SQLite's json() (a subquery
    hands SQLite text, which json_array would quote); PostgreSQL's jsonb needs nothing."""

    function = "JSON"
    output_field = JSONField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return compiler.compile(self.source_expressions[0])


def _variant(locale: Any) -> Subquery:
    """``[id, slug, label, locale]`` of the assigned term's variant in ``locale`` (one unique-index lookup)."""
    found = Term.objects.filter(
        ~Q(translation_group=""), translation_group=OuterRef("term__translation_group"), locale=locale
    ).order_by()
    return Subquery(found.values(shown=JSONArray("id", "slug", "label", "locale"))[:1], output_field=JSONField())


def shown_variant() -> Any:
    """For a term assignment (``term__...``) of the entry two levels out (``OuterRef(OuterRef("locale"))``): the
    variant the entry's page shows, as ``[id, slug, label, locale]``."""
    chosen = Coalesce(
        _variant(OuterRef(OuterRef("locale"))),
        _variant(Value(emdash_settings.default_locale)),
        JSONArray("term_id", "term__slug", "term__label", "term__locale"),
        output_field=JSONField(),
    )
    return _AsJSON(chosen) if connection.vendor != "postgresql" else chosen


def pick(variants: Iterable[Term], locale: str | None) -> Term | None:
    """The variant shown in ``locale`` among one group's ``variants``: that locale's, else the default's."""
    found = {t.locale: t for t in variants}
    return found.get(locale or emdash_settings.default_locale) or found.get(emdash_settings.default_locale)


def group_of(term: Term) -> list[Term]:
    """Every variant of ``term`` (itself included), by locale."""
    group = term.translation_group or term.id
    return list(Term.objects.filter(taxonomy_id=term.taxonomy_id, translation_group=group).order_by("locale"))


def one_per_group(terms: list[Term], locale: str | None) -> list[Term]:
    """One variant per translation group (the locale's, else the default's, else the group's first), in the order
    the groups first appear in ``terms``; parents point at the chosen variant of their own group."""
    groups: dict[str, list[Term]] = {}
    for t in terms:
        groups.setdefault(t.translation_group or t.id, []).append(t)
    chosen = {group: pick(members, locale) or members[0] for group, members in groups.items()}
    group_by_id = {t.id: t.translation_group or t.id for t in terms}
    out = []
    for t in chosen.values():
        parent_group = group_by_id.get(t.parent_id or "")
        t.parent_id = chosen[parent_group].id if parent_group in chosen else None
        out.append(t)
    return out
