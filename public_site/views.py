"""The bundled public theme: home, entries, collection and taxonomy archives, search, preview, 404.

Every view reads through :mod:`public_site.query` (published content only) except the preview, which
needs a signed link and a signed-in user allowed to read drafts.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from content.entries import preview, shares
from emdash.actor import Actor
from emdash.edge import door_limits
from emdash.errors import EmDashError
from emdash.http_cache import CONTENT_KEY, collection_key, item_key
from emdash.numbers import plain_int
from public_site import query
from public_site.caching import add_keys, cached_page
from public_site.seo import page_meta
from taxonomy.outputs import Definition

HOME_COLLECTION = "posts"
MAX_PAGE = 10_000
# Archives that span several collections merge their newest items in memory: deep pages are refused.
MAX_ARCHIVE_PAGE = 100


def _page_number(request: HttpRequest) -> int:
    number = plain_int(request.GET.get("page", "1"), MAX_PAGE)
    if number is None or number < 1:
        raise Http404("No such page")
    return number


def _per_page(site: dict[str, Any]) -> int:
    value = site.get("postsPerPage")
    return value if isinstance(value, int) and 1 <= value <= 100 else 10


def _render(request: HttpRequest, template: str, context: dict[str, Any], status: int = 200) -> HttpResponse:
    site = context.get("site") or query.site_settings()
    # Menus in the page's language: an archive's, the shown item's, else a configured ?locale=.
    locale = context.get("locale") or query.page_locale(context.get("item"), request.GET.get("locale"))
    base = {
        "site": site,
        "header_menu": query.menu("primary", locale=locale),
        "footer_menu": query.menu("footer", locale=locale),
        "meta": page_meta(request, site, context.get("meta_for")),
    }
    return render(request, template, {**base, **context}, status=status)


@cached_page
def home(request: HttpRequest) -> HttpResponse:
    site = query.site_settings()
    number = _page_number(request)
    page = None
    if query.collection(HOME_COLLECTION) is not None:
        page = query.entries(HOME_COLLECTION, page=number, per_page=_per_page(site))
    add_keys(request, collection_key(HOME_COLLECTION))
    if number > 1 and (page is None or not page.items):
        raise Http404("No such page")
    return _render(request, "site/home.html", {"site": site, "page": page})


@cached_page
def collection_index(request: HttpRequest, collection: str) -> HttpResponse:
    spec = query.collection(collection)
    if spec is None:
        raise Http404("No such collection")
    site = query.site_settings()
    number = _page_number(request)
    page = query.entries(collection, page=number, per_page=_per_page(site))
    add_keys(request, collection_key(collection))
    if number > 1 and not page.items:
        raise Http404("No such page")
    context = {"site": site, "page": page, "heading": spec.label, "meta_for": {"title": spec.label}}
    return _render(request, "site/list.html", context)


@cached_page
def entry_or_archive(request: HttpRequest, first: str, second: str) -> HttpResponse:
    """``/<collection>/<slug>/`` is an entry; ``/<taxonomy>/<term>/`` (category, tag, ...) an archive."""
    definition = query.taxonomy(first)
    if definition is not None:
        return _archive(request, definition, second)
    if query.collection(first) is None:
        raise Http404("Not found")
    item = query.entry(first, second)
    if item is None:
        raise Http404("Not found")
    add_keys(request, item_key(item["id"]), collection_key(first))
    return _render(request, "site/entry.html", {"item": item, "collection": query.collection(first), "meta_for": item})


def _archive(request: HttpRequest, definition: Definition, slug: str) -> HttpResponse:
    """A term's archive in one locale (SPEC 10): a configured ``?locale=``, else the term's own. It shows the
    term's variant in that locale (else the default locale's) and lists that locale's items carrying any variant."""
    asked = query.page_locale(None, request.GET.get("locale"))
    named = query.term(definition["name"], slug, locale=asked)  # slugs are per locale: ?locale= reads it first
    if named is None:
        raise Http404("No such term")
    locale = asked or named.get("locale") or None
    term = query.term(definition["name"], named["id"], locale=locale) or named
    site = query.site_settings()
    number = _page_number(request)
    if number > MAX_ARCHIVE_PAGE:
        raise Http404("No such page")
    # Every attached collection that exists (taxonomy_get lists only those): /<taxonomy>/<term>/ spans them.
    collections = list(definition.get("collections") or [])
    add_keys(request, CONTENT_KEY)  # an archive spans collections: any item may join it
    per_page = _per_page(site)
    page = query.term_archive(
        definition["name"], named["id"], collections, page=number, per_page=per_page, locale=locale
    )
    heading = f"{definition['labelSingular']}: {term['label']}"
    context = {"site": site, "page": page, "heading": heading, "term": term, "meta_for": {"title": heading}}
    return _render(request, "site/list.html", {**context, "locale": locale})


@cached_page
def search(request: HttpRequest) -> HttpResponse:
    q = request.GET.get("q", "")[:200].strip()
    context: dict[str, Any] = {"q": q, "results": [], "meta_for": {"title": "Search"}}
    # Counted per visitor only when a search runs: an answer still current (304) or an empty form costs nothing.
    if q and (seconds := door_limits.limit(request, door_limits.SEARCH)) is not None:
        response = _render(request, "site/search.html", {**context, "limited": seconds}, status=429)
        response["Retry-After"] = str(seconds)
        response["Cache-Control"] = "no-store"
        return response
    context["results"] = query.search(q) if q else []
    add_keys(request, CONTENT_KEY)
    return _render(request, "site/search.html", context)


def _private(response: HttpResponse) -> HttpResponse:
    """Drafts are for the people holding the link: no search engine, no shared cache, no Referer leak."""
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Cache-Control"] = "private, no-store"
    response["Referrer-Policy"] = "no-referrer"
    return response


def _draft_page(request: HttpRequest, entry: Any, preview_kind: str) -> HttpResponse:
    item = {**entry.to_dict(), "terms": {}}
    context = {"item": item, "collection": entry.spec, "preview": preview_kind, "meta_for": item}
    return _private(_render(request, "site/entry.html", context))


def preview_view(request: HttpRequest, token: str) -> HttpResponse:
    """A draft through a signed link, for a signed-in user allowed to read drafts (else 404/403)."""
    user = request.user
    if not user.is_authenticated:
        context = {"meta_for": {"title": "Preview"}, "preview": "login"}
        return _private(_render(request, "site/preview_login.html", context, status=403))
    try:
        entry = preview.preview_entry(actor=Actor.for_user(user), token=token)
    except EmDashError as exc:
        status = 404 if exc.status == 404 else 403
        context = {"message": exc.message, "meta_for": {"title": "Preview"}, "preview": "error"}
        return _private(_render(request, "site/404.html", context, status))
    return _draft_page(request, entry, "editor")


def share_view(request: HttpRequest, token: str) -> HttpResponse:
    """A draft through a share link: no account needed; 404 unknown, 410 expired or revoked."""
    try:
        entry = shares.share_entry(token=token)
    except EmDashError as exc:
        title = "Preview link expired" if exc.status == 410 else "Preview not found"
        context = {"message": exc.message, "heading": title, "meta_for": {"title": title}, "preview": "error"}
        return _private(_render(request, "site/404.html", context, 410 if exc.status == 410 else 404))
    return _draft_page(request, entry, "share")


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _render(request, "site/404.html", {"meta_for": {"title": "Page not found"}}, status=404)
