"""What content needs from the apps above it, plugged in by those apps (content never imports them).

Content sits below taxonomy, media and settings (they import content, never the reverse), yet an entry write
can carry ``terms``, an entry's output shows them, image/file values must name existing media and datetime
values are typed and shown in the site's time zone (``SiteTime``, plugged in by ``settings_app``; UTC without
it). Each other need is a typed Protocol; the taxonomy and media apps register an implementation in
``ready()`` (``taxonomy.hooks``, ``media.hooks``), and mypy checks it against the Protocol. Without them,
entries have no terms and no media reference is valid. The provider's methods are the apps' own functions
(static attributes), so the hot read path pays one attribute lookup, no wrapper call.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from emdash.dates import parse_iso
from emdash.errors import ValidationError

if TYPE_CHECKING:  # entries import this module; the type is only an annotation here
    from content.entries.outputs import CreditRef, Credits, Terms
    from content.media_values import MediaValue


class TermsProvider(Protocol):
    """An entry's taxonomy terms: what the taxonomy app gives content."""

    def replace(self, *, collection: str, entry_id: str, terms: Any, locale: str | None = None) -> None:
        """Replace the entry's assignments (``{taxonomy: [slug, ...]}``, slugs read in the entry's ``locale``);
        VALIDATION_ERROR on unknown terms."""

    def assigned(self, *, collection: str, entry_id: str) -> Terms:
        """The entry's terms, in one query."""

    def taxonomies(self, collection: str) -> list[str]:
        """Names of the taxonomies that apply to the collection."""

    def tagged(self, *, collection: str, taxonomy: str, slugs: list[str]) -> Any:
        """A subquery of the ids of entries carrying any of the terms ``slugs`` (for ``id__in``)."""

    def column(self, collection: str) -> Any:
        """An expression an entry query selects (on ``OuterRef("id")``) to read the terms in the same statement."""

    def of_column(self, value: Any, *, localized: bool = False) -> Terms:
        """The terms out of that column's value; ``localized``: as the variants the entry's locale shows."""

    def exists(self, name: str) -> bool:
        """Whether a taxonomy of this name exists (its archives answer ``/<name>/<term>/``)."""


class MediaProvider(Protocol):
    """Media items named by id or URL: what the media app gives content."""

    def existing_ids(self, ids: set[str]) -> set[str]:
        """Which of ``ids`` name media items, in one query."""

    def urls_by_id(self, ids: set[str]) -> dict[str, str]:
        """Public URLs of the items named by ``ids`` (Markdown output)."""

    def ids_by_url(self, urls: set[str]) -> dict[str, str]:
        """Which of ``urls`` are this site's media URLs, mapped to the item id (Markdown input)."""

    def details_by_id(self, ids: set[str]) -> dict[str, MediaValue]:
        """The details reads show with references to the items named by ``ids`` (any case), by upper-case id,
        in one query."""


class BylinesProvider(Protocol):
    """An entry's credits (bylines): what the bylines app gives content."""

    def replace(self, *, collection: str, entry_id: str, bylines: Any) -> None:
        """Replace the entry's credits with ``[{bylineId, roleLabel?}, ...]`` (first = primary);
        VALIDATION_ERROR on unknown bylines, nothing changed."""

    def credits(self, *, collection: str, entries: list[tuple[str, int | None, str]]) -> dict[str, Credits]:
        """``{entry id: {bylines, byline}}`` for ``(id, author id, locale)`` entries, in a fixed number of
        queries; an entry without credits falls back to its author's byline (``source: "inferred"``)."""

    def columns(self, collection: str) -> dict[str, Any]:
        """Annotations an entry query selects (on ``OuterRef("id")``, ``author_id``, ``locale``) to read the
        credits in the same statement: ``credits_live`` and ``byline_live``."""

    def of_columns(self, credits: Any, own: Any) -> Credits:
        """The credits out of those two columns' values."""

    def of_page(self, columns: Iterable[tuple[Any, Any]]) -> list[Credits]:
        """``of_columns`` for each of a page's ``(credits, own)`` pairs, a byline credited on several presented
        once."""

    def snapshot(self, *, collection: str, entry_id: str) -> list[CreditRef]:
        """The entry's explicit credits as ``[{bylineId, roleLabel}]`` in order, for a revision to keep."""

    def restore(self, *, collection: str, entry_id: str, credits: Any) -> None:
        """Make a revision's kept credits the entry's again, leaving out bylines deleted since."""


@dataclass(frozen=True)
class SiteTime:
    """How instants are shown and typed: in the site's time zone (settings), as UTC ISO 8601 without them."""

    display: Callable[[Any], str] = str
    to_input: Callable[[Any], str] = str
    from_input: Callable[[str], Any] = parse_iso


_terms: TermsProvider | None = None
_site_time = SiteTime()
_media: MediaProvider | None = None


# Whether a change set's creator may approve it (the setting changesetsSelfApprove, plugged in by settings_app).
def _never() -> bool:
    return False


_self_approve: Callable[[], bool] = _never
_bylines: BylinesProvider | None = None


def register_terms(provider: TermsProvider | None) -> None:
    global _terms
    _terms = provider


def register_media(provider: MediaProvider | None) -> None:
    global _media
    _media = provider


def register_bylines(provider: BylinesProvider | None) -> None:
    global _bylines
    _bylines = provider


def bylines_installed() -> bool:
    return _bylines is not None


def replace_entry_bylines(*, collection: str, entry_id: str, bylines: Any) -> None:
    """Replace the entry's credits; VALIDATION_ERROR when no bylines app is installed to hold them."""
    if _bylines is None:
        raise ValidationError.for_fields({"bylines": "bylines are not installed"})
    _bylines.replace(collection=collection, entry_id=entry_id, bylines=bylines)


def credit_snapshot(collection: str, entry_id: str) -> list[CreditRef] | None:
    """The entry's explicit credits for a revision to keep (None without a bylines app: nothing to keep)."""
    return _bylines.snapshot(collection=collection, entry_id=entry_id) if _bylines is not None else None


def restore_credits(collection: str, entry_id: str, credits: Any) -> None:
    """Bring back credits a revision kept (nothing to do without a bylines app)."""
    if _bylines is not None:
        _bylines.restore(collection=collection, entry_id=entry_id, credits=credits)


def entry_credits(collection: str, entries: list[tuple[str, int | None, str]]) -> dict[str, Credits]:
    """The credits of each ``(id, author id, locale)`` entry (none without a bylines app)."""
    if _bylines is None or not entries:
        return {}
    return _bylines.credits(collection=collection, entries=entries)


def credits_columns(collection: str) -> dict[str, Any]:
    """Annotations for an entry query reading the credits in the same statement (none without a bylines app)."""
    return _bylines.columns(collection) if _bylines is not None else {}


def row_credits(collection: str, row: Any) -> Credits:
    """The credits of an entry row: from its columns when its query read them, else from the bylines app."""
    if _bylines is None:
        return {"bylines": [], "byline": None}
    if hasattr(row, "credits_live"):
        return _bylines.of_columns(row.credits_live, row.byline_live)
    found = _bylines.credits(collection=collection, entries=[(row.id, row.author_id, row.locale)])
    return found.get(row.id) or {"bylines": [], "byline": None}


def rows_credits(collection: str, rows: list[Any]) -> list[Credits] | None:
    """The credits of each of ``rows`` in order: from their columns, else in one batch; None without a bylines
    app (items then carry no ``bylines`` key)."""
    if _bylines is None:
        return None
    if not rows or hasattr(rows[0], "credits_live"):  # one query read them all, or none
        return _bylines.of_page([(row.credits_live, row.byline_live) for row in rows])
    found = entry_credits(collection, [(row.id, row.author_id, row.locale) for row in rows])
    return [found.get(row.id) or {"bylines": [], "byline": None} for row in rows]


def register_site_time(clock: SiteTime) -> None:
    global _site_time
    _site_time = clock


def register_self_approve(reader: Callable[[], bool]) -> None:
    global _self_approve
    _self_approve = reader


def changesets_self_approve() -> bool:
    """The four-eyes rule's switch (SPEC 9.2): False, the default, means a creator never reviews their own set."""
    return bool(_self_approve())


def site_time() -> SiteTime:
    return _site_time


def registered() -> tuple[TermsProvider | None, MediaProvider | None]:
    """What is plugged in now (tests save and restore it)."""
    return _terms, _media


def media_urls_by_id(ids: set[str]) -> dict[str, str]:
    """Public URLs of media items (Markdown output of inline images); empty without a media app."""
    return _media.urls_by_id(ids) if _media is not None and ids else {}


def media_details(ids: set[str]) -> dict[str, MediaValue]:
    """Details of the media items named by ``ids`` for reads (content.media_values); empty without a media app."""
    return _media.details_by_id(ids) if _media is not None and ids else {}


def media_ids_by_url(urls: set[str]) -> dict[str, str]:
    """This site's media URLs among ``urls``, mapped to their ids (Markdown input); empty without a media app."""
    return _media.ids_by_url(urls) if _media is not None and urls else {}


def existing_media_ids(ids: set[str]) -> set[str]:
    """Which of ``ids`` name media items (none, when no media app is installed)."""
    return _media.existing_ids(ids) if _media is not None else set()


def replace_entry_terms(*, collection: str, entry_id: str, terms: Any, locale: str | None = None) -> None:
    """Replace the entry's assignments (term slugs read in the entry's ``locale``); VALIDATION_ERROR when no
    taxonomy app is installed to hold them."""
    if _terms is None:
        raise ValidationError.for_fields({"terms": "taxonomies are not installed"})
    _terms.replace(collection=collection, entry_id=entry_id, terms=terms, locale=locale)


def taxonomy_exists(name: str) -> bool:
    return _terms is not None and _terms.exists(name)


def assigned_terms(*, collection: str, entry_id: str) -> Terms:
    return _terms.assigned(collection=collection, entry_id=entry_id) if _terms is not None else {}


def terms_column(collection: str) -> Any | None:
    """An expression an entry query can select (on ``OuterRef("id")``) to read the entry's terms in the same
    statement; None without a taxonomy app."""
    return _terms.column(collection) if _terms is not None else None


def row_terms(collection: str, row: Any) -> Terms:
    """The terms of an entry row: from its ``terms_live`` column when its query read them, else one query."""
    if _terms is not None and hasattr(row, "terms_live"):
        return _terms.of_column(row.terms_live)
    return assigned_terms(collection=collection, entry_id=row.id)


def shown_terms(collection: str, rows: list[Any]) -> list[Terms]:
    """Each row's terms as the public site shows them: each term's variant in the row's locale, else the default
    locale's (SPEC 10). From the rows' ``terms_live`` column when their query read it, else one query for all."""
    if _terms is None or not rows:
        return [{} for _ in rows]
    terms = _terms
    if all(hasattr(row, "terms_live") for row in rows):
        return [terms.of_column(row.terms_live, localized=True) for row in rows]
    model = type(rows[0])
    found = dict(
        model.objects.filter(pk__in=[row.pk for row in rows])
        .annotate(shown=terms.column(collection))
        .values_list("pk", "shown")
    )
    return [terms.of_column(found.get(row.pk), localized=True) for row in rows]


def taxonomies_for(collection: str) -> list[str]:
    """Names of the taxonomies that apply to ``collection`` (none without a taxonomy app)."""
    return _terms.taxonomies(collection) if _terms is not None else []


def tagged_entries(*, collection: str, taxonomy: str, slugs: list[str]) -> Any:
    """A subquery of the ids of entries carrying any of the terms ``slugs`` of ``taxonomy`` (for ``id__in``).
    Only asked for a ``terms.<taxonomy>`` filter, which exists only when a taxonomy app named that taxonomy."""
    assert _terms is not None
    return _terms.tagged(collection=collection, taxonomy=taxonomy, slugs=slugs)
