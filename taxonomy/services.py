"""Term writes and term assignments. Public functions take an ``actor`` and check the permission table first.

Hierarchy rules (SPEC 6.5): a parent belongs to the same taxonomy, the taxonomy is hierarchical, no term is
its own ancestor, and a term has at most ``hierarchy.MAX_DEPTH`` ancestors. Writes that change the hierarchy lock the
taxonomy's definition row, so two concurrent moves cannot build a cycle between them.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from content import stamps
from content.entries import rows, slugs, writes
from content.schema import specs as schema
from emdash import purge
from emdash.actor import Actor
from emdash.errors import Conflict, SlugConflict, ValidationError
from emdash.http_cache import CONTENT_KEY, TAXONOMIES_KEY, collection_key, item_key
from emdash.ids import new_id
from emdash.permissions import Perm, require, require_go_live, require_owner_or
from taxonomy.hierarchy import check_placement
from taxonomy.lookups import AmbiguousSlug, find_term, get_definition, get_term, terms_by_ident, valid_ident
from taxonomy.models import TaxonomyDefinition, Term, TermAssignment

MAX_TERMS_PER_ENTRY = 100  # per taxonomy
LABEL_MAX_LENGTH = 200
DESCRIPTION_MAX_LENGTH = 5000
GENERATED_SLUG_ATTEMPTS = 3
UNSET: Any = object()  # "argument not given", as opposed to None ("detach")


# --------------------------------------------------------------------------------------------- checks


def _check_label(value: Any, problems: dict[str, str], *, required: bool) -> str | None:
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > LABEL_MAX_LENGTH:
        problems["label"] = f"must be a non-empty string of at most {LABEL_MAX_LENGTH} characters"
        return None
    return value


def _check_description(value: Any, problems: dict[str, str]) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > DESCRIPTION_MAX_LENGTH:
        problems["description"] = f"must be a string of at most {DESCRIPTION_MAX_LENGTH} characters"
        return None
    return value


def _resolve_parent(
    definition: TaxonomyDefinition, parent_id: Any, problems: dict[str, str], locale: str
) -> Term | None:
    """The parent named by id, or by slug as the term's own ``locale`` means it (a parent is in that locale)."""
    if parent_id is None:
        return None
    if not definition.hierarchical:
        problems["parentId"] = f"taxonomy '{definition.name}' is flat: its terms cannot have a parent"
        return None
    try:
        parent = find_term(definition, parent_id, prefer="id", locale=locale)
    except AmbiguousSlug as exc:
        problems["parentId"] = exc.message
        return None
    if parent is None:
        elsewhere = valid_ident(parent_id) and Term.objects.filter(pk=str(parent_id).upper()).exists()
        problems["parentId"] = (
            f"the parent must be a term of taxonomy '{definition.name}'"
            if elsewhere
            else f"no term '{parent_id}' in taxonomy '{definition.name}'"
        )
    return parent


def _save(term: Term, definition: TaxonomyDefinition, *, insert: bool) -> None:
    try:
        with transaction.atomic():
            term.save(force_insert=insert)
    except IntegrityError:
        raise _slug_taken(term.slug, definition, term.locale) from None


def _slug_taken(slug: str, definition: TaxonomyDefinition, locale: str) -> SlugConflict:
    return SlugConflict(f"Slug '{slug}' is already used in taxonomy '{definition.name}' (locale '{locale}')")


def _slug_is_taken(definition: TaxonomyDefinition, slug: str, locale: str, *, but: Term | None = None) -> bool:
    """Slugs are unique per taxonomy and locale (as in EmDash): another locale may use the same one."""
    found = Term.objects.filter(taxonomy=definition, locale=locale, slug=slug)
    return (found.exclude(pk=but.pk) if but is not None else found).exists()


def _derived_slug(definition: TaxonomyDefinition, label: str, locale: str) -> str:
    """A slug made from ``label`` as content's are from titles (SPEC 6.2), free in the taxonomy and locale."""
    base = slugs.slugify(label)
    nearby = Term.objects.filter(taxonomy=definition, locale=locale, slug__startswith=base)
    return slugs.next_free(base, set(nearby.values_list("slug", flat=True)))


# --------------------------------------------------------------------------------------------- terms


def term_create(
    *,
    actor: Actor,
    taxonomy: str,
    label: str,
    slug: str | None = None,
    parent_id: str | None = None,
    description: str | None = None,
    locale: str | None = None,
    translation_of: str | None = None,
) -> Term:
    """``translation_of`` (the id or slug of the term in another locale) makes the new term its variant in
    ``locale`` (default: the default locale): the two share a translation group. Without ``slug`` one is made
    from the label, free in the taxonomy and locale (as EmDash does)."""
    require(actor, Perm.TAXONOMY_MANAGE)
    if slug is not None:
        slug = slugs.check_slug(slug)
    asked, locale = locale is not None, rows.resolve_locale(locale)
    with transaction.atomic():
        definition = get_definition(taxonomy, for_update=parent_id is not None)
        problems: dict[str, str] = {}
        checked_label = _check_label(label, problems, required=True)
        description = _check_description(description, problems)
        parent = _resolve_parent(definition, parent_id, problems, locale)
        if parent is not None:
            check_placement(definition, parent, problems, locale=locale)
        group = _translation_group(definition, translation_of, locale, problems, asked=asked)
        if problems:
            raise ValidationError.for_fields(problems)
        if slug is not None and _slug_is_taken(definition, slug, locale):
            raise _slug_taken(slug, definition, locale)
        now = timezone.now()
        term_id = new_id()
        term = Term(
            id=term_id,
            locale=locale,
            translation_group=group or term_id,
            taxonomy=definition,
            slug=slug or "",
            label=checked_label or "",  # not None: a missing label is a problem above
            description=description or "",
            parent=parent,
            created_at=now,
            updated_at=now,
        )
        _insert(term, definition, generate=slug is None)
        _terms_changed([TAXONOMIES_KEY])  # term lists and the sitemap show it; no item carries it yet
    return term


def _insert(term: Term, definition: TaxonomyDefinition, *, generate: bool) -> None:
    """Insert ``term``; a slug made from its label is made again should a concurrent create take it first."""
    for attempt in range(GENERATED_SLUG_ATTEMPTS if generate else 1):
        if generate:
            term.slug = _derived_slug(definition, term.label, term.locale)
        try:
            _save(term, definition, insert=True)
            return
        except SlugConflict:
            if attempt == (GENERATED_SLUG_ATTEMPTS if generate else 1) - 1:
                raise


def _translation_group(
    definition: TaxonomyDefinition, source: str | None, locale: str, problems: dict[str, str], *, asked: bool = True
) -> str | None:
    """The group a new variant joins (None: a group of its own); CONFLICT when the locale is taken in it."""
    if source is None:
        return None
    try:
        found = find_term(definition, source, prefer="id")
    except AmbiguousSlug as exc:
        problems["translationOf"] = exc.message
        return None
    if found is None:
        problems["translationOf"] = f"no term '{source}' in taxonomy '{definition.name}'"
        return None
    group = found.translation_group or found.id
    if Term.objects.filter(translation_group=group, locale=locale).exists():
        hint = "" if asked else "; without locale it is the default locale's: pass locale for another"
        raise Conflict(
            f"Term '{found.slug}' already has a '{locale}' variant (taxonomy_term_translations lists them{hint})"
        )
    return group


def term_update(
    *,
    actor: Actor,
    taxonomy: str,
    term: str,
    slug: str | None = None,
    label: str | None = None,
    parent_id: str | None = UNSET,
    description: str | None = None,
) -> Term:
    """Change a term. ``parent_id`` None detaches it (makes it a root); leave it UNSET to keep the parent."""
    require(actor, Perm.TAXONOMY_MANAGE)
    if slug is not None:
        slug = slugs.check_slug(slug)
    with transaction.atomic():
        definition = get_definition(taxonomy, for_update=parent_id is not UNSET)
        row = get_term(definition, term, for_update=True)
        problems: dict[str, str] = {}
        label = _check_label(label, problems, required=False)
        description = _check_description(description, problems)
        if parent_id is not UNSET:
            parent = _resolve_parent(definition, parent_id, problems, row.locale)
            if parent is not None:
                check_placement(definition, parent, problems, locale=row.locale, moving=row)
        if problems:
            raise ValidationError.for_fields(problems)
        if slug is not None and slug != row.slug:
            if _slug_is_taken(definition, slug, row.locale, but=row):
                raise _slug_taken(slug, definition, row.locale)
            row.slug = slug
        if label is not None:
            row.label = label
        if description is not None:
            row.description = description
        if parent_id is not UNSET:
            row.parent = parent
        row.updated_at = timezone.now()
        _save(row, definition, insert=False)
        _terms_changed([TAXONOMIES_KEY, CONTENT_KEY])  # its label or slug shows on every item and page carrying it
    return row


def _terms_changed(keys: list[str]) -> None:
    """In the writing transaction: items' terms are part of their reads, whose validators include this stamp."""
    stamps.bump("terms")
    purge.schedule(keys)


def term_delete(*, actor: Actor, taxonomy: str, term: str) -> None:
    """Delete a term and its assignments. A term with children is refused: move or delete them first."""
    require(actor, Perm.TAXONOMY_MANAGE)
    with transaction.atomic():
        definition = get_definition(taxonomy, for_update=True)
        row = get_term(definition, term, for_update=True)
        children = list(Term.objects.filter(parent=row).order_by("slug").values_list("slug", flat=True)[:6])
        if children:
            listed = ", ".join(children[:5]) + (", ..." if len(children) > 5 else "")
            raise Conflict(
                f"Term '{row.slug}' has child terms ({listed}); delete them or move them to another parent first"
            )
        TermAssignment.objects.filter(term=row).delete()
        row.delete()
        _terms_changed([TAXONOMIES_KEY, CONTENT_KEY])


# --------------------------------------------------------------------------------------------- assignments


def _resolve_assignments(
    collection: str, terms: Any, locale: str | None
) -> list[tuple[TaxonomyDefinition, list[Term]]]:
    """Check ``{taxonomy: [term slug or ID, ...]}`` for ``collection``; every problem in one VALIDATION_ERROR.
    A slug means the term of the entry's ``locale``, else the default locale's, else the only one (lookups)."""
    if not isinstance(terms, dict):
        raise ValidationError.for_fields({"terms": "must be an object mapping taxonomy names to lists of term slugs"})
    problems: dict[str, str] = {}
    names = [n for n in terms if isinstance(n, str) and n]
    definitions = {d.name: d for d in TaxonomyDefinition.objects.filter(name__in=names)} if names else {}
    resolved: list[tuple[TaxonomyDefinition, list[Term]]] = []
    for name, idents in terms.items():
        key = f"terms.{name}"
        definition = definitions.get(name)
        if definition is None:
            known = ", ".join(TaxonomyDefinition.objects.order_by("name").values_list("name", flat=True)) or "none"
            problems[key] = f"unknown taxonomy (known: {known})"
            continue
        if not definition.applies_to(collection):
            applies = ", ".join(definition.collections or []) or "none"
            problems[key] = (
                f"taxonomy '{name}' does not apply to collection '{collection}' (it applies to: {applies}; "
                f"taxonomy_update with collections adds '{collection}')"
            )
            continue
        if not isinstance(idents, list) or not all(valid_ident(i) for i in idents):
            problems[key] = "must be a list of term slugs"
            continue
        if len(idents) > MAX_TERMS_PER_ENTRY:
            problems[key] = f"at most {MAX_TERMS_PER_ENTRY} terms per taxonomy"
            continue
        wanted = list(dict.fromkeys(idents))
        try:
            found = terms_by_ident(definition, wanted, locale=locale)
        except AmbiguousSlug as exc:
            problems[key] = exc.message
            continue
        missing = [i for i in wanted if i not in found]
        if missing:
            problems[key] = f"no such term(s) in '{name}': {', '.join(missing[:10])}"
            continue
        resolved.append((definition, list({found[i].pk: found[i] for i in wanted}.values())))
    if problems:
        raise ValidationError.for_fields(problems, prefix="Invalid terms")
    return resolved


def replace_entry_terms(*, collection: str, entry_id: str, terms: Any, locale: str | None = None) -> None:
    """Replace the assignments of each taxonomy named in ``terms`` (others are left alone); slugs are read in the
    entry's ``locale``.

    No permission check: the caller (a content write that already checked its own) passes an entry it
    holds. Runs in the caller's transaction; raises VALIDATION_ERROR before writing anything."""
    resolved = _resolve_assignments(collection, terms, locale)
    with transaction.atomic():
        for definition, chosen in resolved:
            TermAssignment.objects.filter(collection=collection, entry_id=entry_id, term__taxonomy=definition).delete()
            now = timezone.now()
            TermAssignment.objects.bulk_create(
                [TermAssignment(term=t, collection=collection, entry_id=entry_id, created_at=now) for t in chosen]
            )
        if resolved:
            _terms_changed([item_key(entry_id), collection_key(collection), CONTENT_KEY])


def entry_terms_set(*, actor: Actor, collection: str, id: str, taxonomy: str, terms: list[str]) -> None:
    """Set an entry's terms of one taxonomy (replacing them). Needs the right to edit the entry."""
    require(actor, Perm.CONTENT_EDIT_OWN)
    spec = schema.get_collection(collection)
    with transaction.atomic():
        row = rows.find(spec, id, for_update=True)
        require_owner_or(actor, row.author_id, Perm.CONTENT_EDIT_OWN, Perm.CONTENT_EDIT_ANY)
        if row.status != "draft":  # terms apply at once: a live item's are not a draft's to change (SPEC 9.1)
            require_go_live(actor, "Changing a live item's terms")
        if not isinstance(taxonomy, str):
            raise ValidationError.for_fields({"taxonomy": "must be a taxonomy name"})
        replace_entry_terms(collection=spec.slug, entry_id=row.id, terms={taxonomy: terms}, locale=row.locale)
        writes.save(spec, row)  # a new version: the item changed (a change set approved before cannot publish it)


def remove_entry_assignments(*, collection: str, entry_id: str) -> None:
    TermAssignment.objects.filter(collection=collection, entry_id=entry_id).delete()


def remove_orphaned_assignments() -> int:
    """Drop assignments of collections that no longer exist (one statement)."""
    from content.models import Collection

    deleted, _ = TermAssignment.objects.exclude(collection__in=Collection.objects.values("slug")).delete()
    return deleted
