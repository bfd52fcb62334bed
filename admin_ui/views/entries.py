"""Content lists, the trash, and the create/edit form generated from the collection's fields."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from admin_ui import autosave, credits, list_filters, plain, seo_form, widgets
from admin_ui import terms as entry_terms
from admin_ui.base import actor_for, admin_page, run, status_for
from admin_ui.display import display, title_of
from content.entries import selectors
from content.schema import specs as schema
from content.schema.specs import CollectionSpec
from emdash.actor import Actor
from emdash.conf import emdash_settings
from emdash.errors import CollectionNotFound, EmDashError, NotFound
from emdash.permissions import Perm, can

SORTS = [
    ("updated_at", "Last updated"),
    ("created_at", "Created"),
    ("published_at", "Published"),
    ("title", "Title"),
    ("slug", "Slug"),
    ("status", "Status"),
]
PAGE_SIZE = 20
FIELDS_NEED_ATTENTION = "Some fields need attention: see the notes next to them."


def collection_or_404(slug: str) -> CollectionSpec:
    try:
        return schema.get_collection(slug)
    except CollectionNotFound:
        raise Http404("No such collection") from None


def _list_params(request: HttpRequest) -> dict[str, Any]:
    status = request.GET.get("status") or None
    sort = request.GET.get("sort") or "updated_at"
    return {
        "status": status if status in ("draft", "published", "scheduled") else None,
        "order_by": sort if sort in dict(SORTS) else "updated_at",
        "order": "asc" if request.GET.get("order") == "asc" else "desc",
        "search": request.GET.get("q", "").strip()[:200] or None,
        "cursor": request.GET.get("cursor") or None,
        "filter": list_filters.filter_object(request.GET),
    }


def _list_context(request: HttpRequest, spec: CollectionSpec) -> dict[str, Any]:
    actor = actor_for(request)
    params = _list_params(request)
    if params["order_by"] == "title" and spec.title_field is None:
        params["order_by"] = "updated_at"
    try:
        page = selectors.entry_list(actor=actor, collection=spec.slug, limit=PAGE_SIZE, **params).present()
    except EmDashError as exc:  # a stale cursor, a refused search or filter: show why, and the unfiltered first page
        messages.error(request, plain.message_for(exc, list_filters.labels(exc)), extra_tags=plain.code_tag(exc.code))
        fallback = {**params, "cursor": None, "search": None, "filter": None}
        page = selectors.entry_list(actor=actor, collection=spec.slug, limit=PAGE_SIZE, **fallback).present()
    items = [{**item, "title": title_of(item)} for item in page.items]
    next_query = request.GET.copy()
    if page.next_cursor:
        next_query["cursor"] = page.next_cursor
    return {
        "spec": spec,
        "items": items,
        "params": params,
        "sorts": SORTS,
        "next_query": next_query.urlencode() if page.next_cursor else "",
        "can_create": can(actor, Perm.CONTENT_CREATE),
        "nav_key": f"c:{spec.slug}",
    }


@admin_page(Perm.CONTENT_READ_UNPUBLISHED)
def entry_list(request: HttpRequest, collection: str) -> HttpResponse:
    spec = collection_or_404(collection)
    context = _list_context(request, spec)
    params = context["params"]
    context["filter_bar"] = list_filters.bar(actor_for(request), spec, request.GET)
    context["headers"] = list_filters.headers(request, params["order_by"], params["order"])
    context.update(_bulk_context(actor_for(request), spec))
    return render(request, "admin_ui/entries/list.html", context)


def _bulk_context(actor: Actor, spec: CollectionSpec) -> dict[str, Any]:
    """The selection column and the bulk action bar (views/bulk.py) for users who may change items."""
    allowed = can(actor, Perm.CONTENT_EDIT_OWN)
    return {"can_bulk": allowed, "bulk_terms": entry_terms.choices(actor, spec) if allowed else []}


@admin_page(Perm.CONTENT_READ_UNPUBLISHED)
def entry_rows(request: HttpRequest, collection: str) -> HttpResponse:
    """Just the table body: the list page refreshes it when content changes elsewhere."""
    spec = collection_or_404(collection)
    context = {**_list_context(request, spec), "can_bulk": can(actor_for(request), Perm.CONTENT_EDIT_OWN)}
    return render(request, "admin_ui/entries/_rows.html", context)


@admin_page(Perm.CONTENT_READ_UNPUBLISHED)
def trash(request: HttpRequest, collection: str) -> HttpResponse:
    spec = collection_or_404(collection)
    actor = actor_for(request)
    page = selectors.entry_list_trashed(actor=actor, collection=spec.slug, limit=100).present()
    context = {
        "spec": spec,
        "items": [{**item, "title": title_of(item)} for item in page.items],
        "can_delete": can(actor, Perm.CONTENT_DELETE_PERMANENT),
        "can_restore": can(actor, Perm.CONTENT_EDIT_OWN),
        "nav_key": f"c:{spec.slug}",
    }
    return render(request, "admin_ui/entries/trash.html", context)


def _form_context(
    request: HttpRequest, spec: CollectionSpec, actor: Actor, values: dict[str, Any], problems: dict[str, str]
) -> dict[str, Any]:
    sentences = plain.field_sentences(problems, **plain.wording(spec))
    return {
        "spec": spec,
        "widgets": widgets.bind(spec, values, actor, sentences),
        "slug_problem": sentences.get("slug", ""),
        "seo_problem": "; ".join(f"{k.replace('seo.', '')}: {v}" for k, v in problems.items() if k.startswith("seo")),
        "nav_key": f"c:{spec.slug}",
        "locales": emdash_settings.LOCALES,
        "i18n": len(emdash_settings.LOCALES) > 1,
    }


@admin_page(Perm.CONTENT_CREATE, "GET", "POST")
def entry_new(request: HttpRequest, collection: str) -> HttpResponse:
    spec = collection_or_404(collection)
    actor = actor_for(request)
    values = widgets.initial(spec, {f.slug: f.default_value for f in spec.fields})
    problems: dict[str, str] = {}
    outcome = None
    if request.method == "POST":
        data, problems = widgets.parse(spec, request.POST, {})
        values = widgets.posted(spec, request.POST)
        if credits.searching(request.POST):  # the bylines picker's "Find" (no script): show matches, save nothing
            problems = {}
        elif problems:
            messages.error(request, FIELDS_NEED_ATTENTION, extra_tags=plain.code_tag("VALIDATION_ERROR"))
        else:
            data = {k: v for k, v in data.items() if v is not None}
            raw: dict[str, Any] = {
                "collection": spec.slug,
                "data": data,
                **_given(request, slug="slug", locale="locale"),
            }
            terms = entry_terms.posted(spec, request.POST)
            if terms:  # assigned in the create's own transaction (content_create's ``terms``)
                raw["terms"] = terms
            if chosen := credits.posted(request.POST):  # content_create's ``bylines``
                raw["bylines"] = chosen
            if (seo := seo_form.posted(request, {})) is not None:
                raw["seo"] = seo
            outcome = run(request, "content_create", raw, "Created.", **plain.wording(spec))
            if outcome.ok:
                return redirect("admin_ui:entry_edit", spec.slug, outcome.result["item"]["id"])
            problems = outcome.problems
    context = _form_context(request, spec, actor, values, problems)
    context["slug"] = request.POST.get("slug", "")
    context["term_groups"] = entry_terms.groups(actor, spec, None, entry_terms.posted(spec, request.POST))
    context["byline_picker"] = credits.rows(actor, None, credits.posted(request.POST), _byline_search(request))
    context["seo"] = seo_form.values(request, {})
    context["seo_images"] = seo_form.image_picker(actor, context["seo"]["image"])
    return render(request, "admin_ui/entries/new.html", context, status=status_for(outcome, problems))


def load_entry(actor: Actor, spec: CollectionSpec, id: str) -> Any:
    try:
        return selectors.entry_get(actor=actor, collection=spec.slug, id=id)
    except NotFound:
        raise Http404("No such item") from None


def entry_or_404(actor: Actor, collection: str, id: str) -> tuple[CollectionSpec, Any]:
    """The collection and the item a page is about, or a 404 page."""
    spec = collection_or_404(collection)
    return spec, load_entry(actor, spec, id)


def _save(request: HttpRequest, spec: CollectionSpec, actor: Actor, entry: Any) -> tuple[Any, dict[str, str]]:
    """Apply the posted form; returns (outcome, or None when the form could not be read, problems)."""
    current = entry.to_dict()["data"]
    data, problems = widgets.parse(spec, request.POST, current)
    if problems:
        messages.error(request, FIELDS_NEED_ATTENTION, extra_tags=plain.code_tag("VALIDATION_ERROR"))
        return None, problems
    changed = {k: v for k, v in data.items() if v != current.get(k)}
    raw: dict[str, Any] = {"collection": spec.slug, "id": entry.id, "data": changed, **_given(request, slug="slug")}
    if request.POST.get("overwrite") != "1":
        raw.update(_given(request, _rev="_rev"))
    terms = entry_terms.posted(spec, request.POST)
    if terms is not None:
        raw["terms"] = terms
    chosen = credits.posted(request.POST)
    if chosen is not None and chosen != credits.explicit(entry):  # only a change (an inferred credit stays so)
        raw["bylines"] = chosen
    if autosave.wanted(request):
        raw["autosave"] = True  # one revision per editing session, not one per pause in typing
    if (seo := seo_form.posted(request, entry.to_dict()["seo"])) is not None:
        raw["seo"] = seo
    outcome = run(request, "content_update", raw, "Saved.", **plain.wording(spec))
    return outcome, outcome.problems


def _byline_search(request: HttpRequest) -> str:
    return credits.clean_search(request.POST.get(credits.SEARCH_KEY, "")) if credits.searching(request.POST) else ""


def _given(request: HttpRequest, **names: str) -> dict[str, str]:
    """Input keys (wire names) filled from non-empty form fields; empty fields are absent, not null."""
    return {key: request.POST[field] for key, field in names.items() if request.POST.get(field)}


@admin_page(Perm.CONTENT_READ_UNPUBLISHED, "GET", "POST")
def entry_edit(request: HttpRequest, collection: str, id: str) -> HttpResponse:
    actor = actor_for(request)
    spec, entry = entry_or_404(actor, collection, id)
    problems: dict[str, str] = {}
    outcome = None
    values = widgets.initial(spec, entry.to_dict()["data"])
    searching = request.method == "POST" and credits.searching(request.POST)
    if request.method == "POST" and not searching:
        outcome, problems = _save(request, spec, actor, entry)
        if autosave.wanted(request):
            return autosave.answer(request, outcome, problems)
        if outcome is not None and outcome.ok:
            return redirect("admin_ui:entry_edit", spec.slug, entry.id)
    if request.method == "POST":
        values = widgets.posted(spec, request.POST)
    item = entry.to_dict()
    conflict = outcome is not None and outcome.code == "CONFLICT"
    translations = _translations(actor, spec, entry.id)
    context = _form_context(request, spec, actor, values, problems)
    context.update(
        {
            "item": item,
            "title": title_of(item),
            "rev": request.POST.get("_rev", entry.rev) if conflict or searching else entry.rev,
            "conflict": conflict,
            "perms": _entry_perms(actor, entry),
            "term_groups": entry_terms.groups(actor, spec, entry.id, entry_terms.posted(spec, request.POST)),
            "byline_picker": credits.rows(actor, entry, credits.posted(request.POST), _byline_search(request)),
            "translations": translations,
            "source": _source(actor, spec, item, translations["items"], request.GET.get("source")),
            "public_url": reverse("entry", args=[spec.slug, item["slug"]]) if item["status"] == "published" else "",
            "seo": (seo := seo_form.values(request, item["seo"])),
            "seo_images": seo_form.image_picker(actor, seo["image"]),
        }
    )
    return render(request, "admin_ui/entries/edit.html", context, status=status_for(outcome, problems))


def _entry_perms(actor: Actor, entry: Any) -> dict[str, bool]:
    owner = entry.row.author_id
    own = actor.user_id is not None and owner == actor.user_id
    edit = can(actor, Perm.CONTENT_EDIT_ANY) or (own and can(actor, Perm.CONTENT_EDIT_OWN))
    return {"edit": edit, "create": can(actor, Perm.CONTENT_CREATE)}


def _translations(actor: Actor, spec: CollectionSpec, id: str) -> dict[str, Any]:
    group = selectors.entry_translations(actor=actor, collection=spec.slug, id=id)["translations"]
    have = {t["locale"] for t in group}
    return {"items": group, "missing": [loc for loc in emdash_settings.LOCALES if loc not in have]}


def _source(
    actor: Actor, spec: CollectionSpec, item: dict[str, Any], group: list[dict[str, Any]], wanted: str | None
) -> dict[str, Any] | None:
    """The read-only column beside a translation's form: another locale's values, by default the item the
    group was translated from (or the default locale's); None for an original or an item without translations
    (unless ``?source=<locale>`` asks)."""
    others = {t["locale"]: t for t in group if t["id"] != item["id"]}
    original = next((t for t in others.values() if t["id"] == item["translationGroup"]), None)
    is_original = item["id"] == item["translationGroup"]
    fallback = None if is_original else original or others.get(emdash_settings.LOCALES[0])
    chosen = others.get(wanted or "") or fallback
    if chosen is None:
        return None
    try:
        source = selectors.entry_get(actor=actor, collection=spec.slug, id=chosen["id"]).to_dict()
    except EmDashError:
        return None
    rows = [
        {"label": f.label, "multiline": f.kind.multiline, "value": display(source["data"].get(f.slug), f.kind)}
        for f in spec.fields
    ]
    return {"item": source, "title": title_of(source), "rows": rows, "locales": sorted(others)}


@admin_page(Perm.CONTENT_READ_UNPUBLISHED)
def entry_state(request: HttpRequest, collection: str, id: str) -> JsonResponse:
    """The item's current ``_rev`` and status, for the edit page's stale-version warning."""
    _, entry = entry_or_404(actor_for(request), collection, id)
    return JsonResponse({"rev": entry.rev, "status": entry.row.status, "updatedAt": entry.to_dict()["updatedAt"]})
