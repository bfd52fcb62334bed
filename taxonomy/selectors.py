"""Taxonomy reads: definitions, terms (paged, or as a tree), and the terms an entry carries.

Taxonomies and terms are public (published content is tagged with them); an entry's terms are shown
only to those who may see the entry.
"""

from __future__ import annotations

import functools
from typing import Any

from django.db.models import Aggregate, JSONField, OuterRef, Subquery
from django.db.models.functions import JSONArray

from content.entries import rows
from content.entries.outputs import Terms
from content.entries.selectors import sees_unpublished
from content.schema import specs as schema
from emdash import cursors, keyset
from emdash.actor import Actor
from emdash.cursors import Page
from emdash.errors import ValidationError
from emdash.permissions import Perm, require
from emdash.prepared import Prepared
from taxonomy import presenters, variants
from taxonomy.definitions import existing_collections
from taxonomy.links import term_path
from taxonomy.lookups import get_definition, get_term
from taxonomy.models import TaxonomyDefinition, Term, TermAssignment
from taxonomy.outputs import Definition
from taxonomy.outputs import Term as TermOut


def taxonomy_list(*, actor: Actor) -> list[Definition]:
    require(actor, Perm.TAXONOMY_READ)
    existing = existing_collections()
    return [presenters.definition(d, existing) for d in TaxonomyDefinition.objects.order_by("name")]


def taxonomy_get(*, actor: Actor, name: str) -> Definition:
    require(actor, Perm.TAXONOMY_READ)
    return presenters.definition(get_definition(name), existing_collections())


def _check_limit(limit: Any, maximum: int = 100) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= maximum:
        raise ValidationError.for_fields({"limit": f"must be an integer from 1 to {maximum}"})
    return limit


def term_list(
    *, actor: Actor, taxonomy: str, locale: str | None = None, limit: int = 50, cursor: str | None = None
) -> Page:
    """Terms ordered by (label, id): a total order, so pages never repeat or skip a term that stays put.
    ``locale`` keeps one locale's variants (as EmDash does; omitted: every locale's)."""
    require(actor, Perm.TAXONOMY_READ)
    limit = _check_limit(limit)
    definition = get_definition(taxonomy)
    qs = Term.objects.filter(taxonomy=definition).order_by("label", "id")
    if locale is not None:
        qs = qs.filter(locale=rows.resolve_locale(locale))
    # The locale is part of the cursor's key: a cursor from another locale's listing is refused, not misread.
    query_key = f"terms:{definition.name}" + (f":{locale}" if locale is not None else "")
    if cursor is not None:
        position = cursors.decode(cursor, query_key)
        if len(position) != 2 or not all(isinstance(p, str) for p in position):
            raise cursors.InvalidCursor("Invalid cursor: pass the nextCursor value from the previous page unchanged")
        label, last_id = position
        qs = keyset.after(qs, ("label", "id"), (label, last_id), descending=False)
    page = list(qs[: limit + 1])
    more = len(page) > limit
    page = page[:limit]
    next_cursor = cursors.encode(query_key, [page[-1].label, page[-1].id]) if more and page else None
    return Page([presenters.term(t, definition.name) for t in page], next_cursor)


def term_get(*, actor: Actor, taxonomy: str, term: str, locale: str | None = None) -> TermOut:
    """A term by slug or id; with ``locale`` (the public site, REST's ``?locale=``), a slug read in that locale
    first and the variant of its group shown in that locale."""
    require(actor, Perm.TAXONOMY_READ)
    definition = get_definition(taxonomy)
    locale = rows.resolve_locale(locale) if locale is not None else None
    found = get_term(definition, term, locale=locale)
    if locale is not None:
        found = variants.pick(variants.group_of(found), locale) or found
    return presenters.term(found, definition.name)


def term_translations(*, actor: Actor, taxonomy: str, term: str | None = None, id: str | None = None) -> Any:
    """A term's locale variants (named by slug, id or translation group), as content_translations answers an
    item's."""
    require(actor, Perm.TAXONOMY_READ)
    definition = get_definition(taxonomy)
    if term is None and id is None:
        raise ValidationError.for_fields({"termSlug": "give termSlug (or id): the term whose variants to list"})
    ident = term if term is not None else id
    # As EmDash's tool, an id may also name the translation group (the first variant's id, kept after it is gone).
    by_group = Term.objects.filter(taxonomy=definition, translation_group=ident).first() if term is None else None
    found = by_group or get_term(definition, ident)
    group = found.translation_group or found.id
    variants = Term.objects.filter(taxonomy=definition, translation_group=group).order_by("locale", "id")
    return {"translationGroup": group, "translations": [presenters.term(t, definition.name) for t in variants]}


def term_tree(*, actor: Actor, taxonomy: Any, locale: str | None = None) -> list[dict[str, Any]]:
    """The whole taxonomy as nested ``{id, slug, label, description, path, children}``, each level by label;
    with ``locale``, one variant per term (that locale's, else the default locale's)."""
    require(actor, Perm.TAXONOMY_READ)
    definition = get_definition(taxonomy)
    nodes: dict[str, dict[str, Any]] = {}
    parents: dict[str, str | None] = {}
    found = list(Term.objects.filter(taxonomy=definition).order_by("label", "id"))
    if locale is not None:
        found = variants.one_per_group(found, locale)
    for t in found:
        nodes[t.id] = {
            **presenters.term_ref(t),
            "description": t.description,
            "path": term_path(definition.name, t.slug, t.locale),
            "children": [],
        }
        parents[t.id] = t.parent_id
    roots: list[dict[str, Any]] = []
    for term_id, node in nodes.items():  # insertion order = label order, so children lists come out sorted
        parent = parents[term_id]
        (nodes[parent]["children"] if parent in nodes else roots).append(node)
    return roots


def assigned_terms(*, collection: str, entry_id: str) -> Terms:
    """``{taxonomy: [{id, slug, label}]}`` for an entry the caller has already been allowed to read or write
    (one query, no permission check of its own: a write's result must not fail on a read scope).

    Terms come in the order they were assigned."""
    return terms_of_rows(_assigned().rows([collection, entry_id]))


def terms_of_rows(found: Any, *, localized: bool = False) -> Terms:
    """``{taxonomy: [term refs]}`` of ``(taxonomy, term id, slug, label, assignment id[, shown variant])`` rows in
    any order: sorted here, so both databases (and both ways of reading them) agree whatever their collation.

    ``localized`` (the public site): each term as the variant the entry's locale shows (``variants``), with its
    ``locale``; two assigned variants of one term show once."""
    result: Terms = {}
    for row in sorted(found or (), key=lambda row: (row[0], row[4])):
        taxonomy, term_id, slug, label = row[:4]
        shown = row[5] if localized and len(row) > 5 and row[5] else None
        ref = presenters.term_ref_of(term_id, slug, label) if shown is None else presenters.term_ref_of(*shown[:3])
        if shown is not None:
            ref["locale"] = shown[3]  # type: ignore[typeddict-unknown-key]
        listed = result.setdefault(taxonomy, [])
        if all(other["id"] != ref["id"] for other in listed):
            listed.append(ref)
    return result


class _JSONList(Aggregate):
    """The group's values as one JSON array: json_group_array, or jsonb_agg on PostgreSQL (psycopg hands jsonb
    over as text, as JSONField expects)."""

    function = "JSON_GROUP_ARRAY"
    output_field = JSONField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, function="JSONB_AGG", **extra)


def assigned_column(collection: str) -> Subquery:
    """The terms of the entry in the outer query (``OuterRef("id")``) as one JSON column, for an entry read
    that wants them in its own statement; ``terms_of_rows`` presents the value (NULL: no terms). Each row also
    carries the variant the entry's locale shows (the public site's label and link)."""
    assigned = TermAssignment.objects.filter(collection=collection, entry_id=OuterRef("id")).order_by()
    columns = JSONArray("term__taxonomy__name", "term_id", "term__slug", "term__label", "id", variants.shown_variant())
    per_entry = assigned.values("entry_id").annotate(terms=_JSONList(columns)).values("terms")
    return Subquery(per_entry[:1], output_field=JSONField())


def taxonomy_exists(name: str) -> bool:
    return TaxonomyDefinition.objects.filter(name=name).exists()


def taxonomies_for(collection: str) -> list[str]:
    """Names of the taxonomies that apply to ``collection`` (definitions are few: filtered here, not in SQL,
    as SQLite has no JSON containment)."""
    return [d.name for d in TaxonomyDefinition.objects.order_by("name") if d.applies_to(collection)]


def tagged_entries(*, collection: str, taxonomy: str, slugs: list[str]) -> Any:
    """The ids of ``collection``'s entries carrying any of the terms ``slugs``, as a subquery (no query here). A
    slug matches the terms of every locale that use it: a filter asks for what items carry, not for one term."""
    return TermAssignment.objects.filter(
        collection=collection, term__taxonomy__name=taxonomy, term__slug__in=slugs
    ).values("entry_id")


@functools.cache
def _assigned() -> Prepared:
    """The terms query, compiled once per process (every content_get runs it)."""
    qs = TermAssignment.objects.filter(collection="", entry_id="").order_by()
    return Prepared(qs.values_list("term__taxonomy__name", "term_id", "term__slug", "term__label", "id"))


def entry_terms(*, actor: Actor, collection: str, id: Any, locale: Any = None) -> Terms:
    """An entry's terms; readers who may not see the entry get NOT_FOUND, as for the entry itself."""
    require(actor, Perm.CONTENT_READ)
    spec = schema.get_collection(collection)
    row = rows.find(spec, id, locale=locale)
    if row.status != "published" and not sees_unpublished(actor):
        raise rows.not_found(spec, id)
    return assigned_terms(collection=spec.slug, entry_id=row.id)


def term_paths(term_ids: list[str]) -> dict[str, str]:
    """Archive paths of terms by ID, in one query (for menus)."""
    if not term_ids:
        return {}
    qs = Term.objects.filter(id__in=term_ids).values_list("id", "slug", "taxonomy__name", "locale")
    return {term_id: term_path(taxonomy, slug, locale) for term_id, slug, taxonomy, locale in qs}


def group_entry_ids(*, actor: Actor, taxonomy: Any, term: Any, collection: str, locale: str | None = None) -> list[str]:
    """IDs of the entries of ``collection`` carrying ``term`` (a slug read in ``locale`` first) or any of its
    variants in other locales."""
    require(actor, Perm.TAXONOMY_READ)
    found = get_term(get_definition(taxonomy), term, locale=locale)
    group = Term.objects.filter(taxonomy_id=found.taxonomy_id, translation_group=found.translation_group or found.id)
    tagged = TermAssignment.objects.filter(term__in=group.values("id"), collection=collection)
    return list(tagged.values_list("entry_id", flat=True).distinct())


def term_entry_ids(*, actor: Actor, taxonomy: Any, term: Any, collection: str) -> list[str]:
    """IDs of the entries of ``collection`` carrying ``term`` (visibility is the content selector's job)."""
    require(actor, Perm.TAXONOMY_READ)
    definition = get_definition(taxonomy)
    row = get_term(definition, term)
    return list(TermAssignment.objects.filter(term=row, collection=collection).values_list("entry_id", flat=True))
