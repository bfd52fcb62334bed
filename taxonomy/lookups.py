"""Finding a taxonomy and its terms by name, slug or id.

A term's slug is unique per taxonomy **and locale** (as in EmDash: a French "news" may sit beside an English one),
so a slug can name several terms. It means the wanted ``locale``'s term (the item's, the menu's, the page's), else
the default locale's, else the only term with that slug. Two or more in other locales and none of these is
ambiguous: the caller is told to name the term by id instead of being handed a guess (EmDash takes the
alphabetically first locale's).

An id (ULID) names one term whatever its locale.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from content.entries import rows
from emdash.errors import NotFound, ValidationError, known, shown
from emdash.locking import locked
from taxonomy import variants
from taxonomy.models import TaxonomyDefinition, Term

IDENT_MAX_LENGTH = 200


class AmbiguousSlug(ValidationError):
    """A slug shared by terms of several locales, none of them the wanted or the default one."""


def get_definition(name: Any, *, for_update: bool = False) -> TaxonomyDefinition:
    definition = None
    if isinstance(name, str) and name and len(name) <= 63:
        definition = locked(TaxonomyDefinition.objects.all(), for_update).filter(name=name).first()
    if definition is None:
        names = known(TaxonomyDefinition.objects.order_by("name").values_list("name", flat=True), none="none yet")
        raise NotFound(f"Taxonomy '{shown(name)}' not found ({names}; taxonomy_create adds one)")
    return definition


def valid_ident(ident: Any) -> bool:
    return isinstance(ident, str) and 0 < len(ident) <= IDENT_MAX_LENGTH and "\x00" not in ident


def _choose(slug: str, candidates: list[Term], locale: str | None) -> Term | None:
    """The term ``slug`` means among the ``candidates`` sharing it (see the module docstring)."""
    chosen = variants.pick(candidates, locale)  # the wanted locale's, else the default locale's
    if chosen is not None:
        return chosen
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        return None
    ids = ", ".join(f"{t.id} ({t.locale})" for t in sorted(candidates, key=lambda t: t.locale))
    raise AmbiguousSlug(
        f"Slug '{slug}' names terms in several locales: {ids}; name the term by its id",
        details={"fields": {"slug": "names terms in several locales"}},
    )


def terms_by_ident(
    definition: TaxonomyDefinition,
    idents: list[str],
    *,
    prefer: str = "slug",
    locale: str | None = None,
) -> dict[str, Term]:
    """Terms of ``definition`` keyed by each given slug or id that names one, in one query. ``prefer`` says which
    wins when an ident is both some term's slug and another's id; ``locale`` is the one a slug is read in first.
    A slug shared by several locales with none to prefer raises AmbiguousSlug."""
    ids = [i.upper() for i in idents if rows.ULID_RE.match(i)]
    by_slug: dict[str, list[Term]] = {}
    by_id: dict[str, Term] = {}
    for t in Term.objects.filter(taxonomy=definition).filter(Q(slug__in=idents) | Q(id__in=ids)):
        by_slug.setdefault(t.slug, []).append(t)
        by_id[t.id] = t
    found: dict[str, Term] = {}
    for ident in idents:
        id_match = by_id.get(ident.upper())
        if prefer == "id" and id_match is not None:
            found[ident] = id_match
            continue
        slug_match = _choose(ident, by_slug.get(ident, []), locale)
        term = slug_match or id_match
        if term is not None:
            found[ident] = term
    return found


def find_term(
    definition: TaxonomyDefinition, ident: Any, *, prefer: str = "slug", locale: str | None = None
) -> Term | None:
    """A term of ``definition`` by slug or id, or None (AmbiguousSlug when a slug cannot be decided)."""
    if not valid_ident(ident):
        return None
    return terms_by_ident(definition, [ident], prefer=prefer, locale=locale).get(ident)


def get_term(
    definition: TaxonomyDefinition, ident: Any, *, for_update: bool = False, locale: str | None = None
) -> Term:
    """As ``find_term``, NOT_FOUND when nothing matches."""
    term = find_term(definition, ident, locale=locale)
    if term is None:
        raise NotFound(
            f"No term '{shown(ident)}' in taxonomy '{definition.name}' "
            f"(taxonomy_list_terms lists them; taxonomy_create_term adds one)"
        )
    if for_update:
        term = locked(Term.objects.all(), True).get(pk=term.pk)
    return term
