"""Menu writes. Every function takes an ``actor`` and checks the permission table first.

``menu_set_items`` replaces a menu's items in one transaction: the whole list is checked first (every
problem reported at once, keyed ``items.<index>.<key>``) and nothing changes unless all of it is valid.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from content import stamps
from content.entries import rows
from content.schema import specs as schema
from content.schema.specs import CollectionSpec
from emdash import purge
from emdash.actor import Actor
from emdash.errors import Conflict, NotFound, ValidationError, known, shown
from emdash.http_cache import MENUS_KEY, menu_key
from emdash.ids import new_id
from emdash.locking import locked
from emdash.numbers import plain_int
from emdash.permissions import Perm, require
from emdash.safe_urls import url_problem
from menus.models import Menu, MenuItem
from taxonomy.lookups import AmbiguousSlug, find_term
from taxonomy.models import TaxonomyDefinition

NAME_RE = re.compile(r"^[a-z][a-z0-9_]*\Z")
NAME_MAX_LENGTH = 63
LABEL_MAX_LENGTH = 200
MAX_ITEMS = 500
CSS_CLASSES_RE = re.compile(r"^[A-Za-z0-9_ -]*\Z")
ITEM_KEYS = (
    "id",
    "label",
    "type",
    "customUrl",
    "referenceCollection",
    "referenceId",
    "titleAttr",
    "target",
    "cssClasses",
    "parentIndex",
)
DEFAULT_COLLECTION = {"page": "pages", "post": "posts"}  # when a page/post item names no collection


def get_menu(name: Any, *, locale: Any = None, for_update: bool = False, fallback: bool = False) -> Menu:
    """Menu ``name`` in ``locale`` (default: the default locale); ``fallback`` takes the default locale's
    variant when the locale has none (the public site). NOT_FOUND lists the menus that exist."""
    wanted = rows.resolve_locale(locale)
    if isinstance(name, str) and NAME_RE.match(name) and len(name) <= NAME_MAX_LENGTH:
        qs = locked(Menu.objects.all(), for_update).filter(name=name)
        menu = qs.filter(locale=wanted).first()
        if menu is None and fallback:
            menu = qs.filter(locale=rows.resolve_locale(None)).first()
        if menu is not None:
            return menu
    return _not_found(name, wanted)


def _not_found(name: Any, locale: str) -> Any:
    """NOT_FOUND saying what would work: the menus of this locale, and where else the name exists."""
    pairs = list(Menu.objects.order_by("name", "locale").values_list("name", "locale"))
    here = known((n for n, loc in pairs if loc == locale), none="no menus yet")
    elsewhere = sorted({loc for n, loc in pairs if n == name and loc != locale})
    hint = f"; it exists in locale {', '.join(elsewhere)} (pass locale)" if elsewhere else ""
    raise NotFound(f"Menu '{shown(name)}' not found in locale '{locale}' ({here}{hint}; menu_create adds one)")


def _variant_group(source: Any, locale: str, problems: dict[str, str]) -> str | None:
    """The translation group ``translationOf`` (a menu's id, or its name in another locale) names."""
    if source is None:
        return None
    found = None
    menu_id = plain_int(source)
    if menu_id is not None:
        found = Menu.objects.filter(pk=menu_id).first()
    if found is None and isinstance(source, str):
        found = Menu.objects.filter(name=source).exclude(locale=locale).order_by("locale").first()
    if found is None:
        problems["translationOf"] = f"no menu '{source}' (menu_list shows them)"
        return None
    group = found.translation_group or str(found.pk)
    if Menu.objects.filter(translation_group=group, locale=locale).exists():
        raise Conflict(f"Menu '{found.name}' already has a '{locale}' variant (menu_translations lists them)")
    return group


def _check_label(value: Any, key: str, problems: dict[str, str]) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > LABEL_MAX_LENGTH:
        problems[key] = f"must be a non-empty string of at most {LABEL_MAX_LENGTH} characters"
        return ""
    return value


def _changed(name: str) -> None:
    """In the writing transaction: menu caches of every process rebuild, shared caches drop the menu's pages."""
    stamps.bump("menus")
    purge.schedule([menu_key(name), MENUS_KEY])


def menu_create(
    *, actor: Actor, name: str, label: str, locale: str | None = None, translation_of: str | None = None
) -> Menu:
    """A new, empty menu in ``locale``; ``translation_of`` makes it a variant of another locale's menu."""
    require(actor, Perm.MENU_MANAGE)
    problems: dict[str, str] = {}
    if not isinstance(name, str) or not NAME_RE.match(name) or len(name) > NAME_MAX_LENGTH:
        problems["name"] = (
            f"must be 1-{NAME_MAX_LENGTH} lowercase letters, digits or '_', starting with a letter (e.g. primary)"
        )
    label = _check_label(label, "label", problems)
    locale = rows.resolve_locale(locale)
    group = _variant_group(translation_of, locale, problems)
    if problems:
        raise ValidationError.for_fields(problems)
    taken = f"A menu named '{name}' already exists in locale '{locale}'"
    if Menu.objects.filter(name=name, locale=locale).exists():
        raise Conflict(taken)
    now = timezone.now()
    try:
        with transaction.atomic():
            menu = Menu.objects.create(
                name=name, label=label, locale=locale, translation_group=group or "", created_at=now, updated_at=now
            )
            if not group:
                menu.translation_group = str(menu.pk)
                menu.save(update_fields=["translation_group"])
            _changed(name)
            return menu
    except IntegrityError:
        raise Conflict(taken) from None


def menu_update(*, actor: Actor, name: str, label: str, locale: str | None = None) -> Menu:
    """Relabel a menu. Its name is immutable: templates look menus up by name."""
    require(actor, Perm.MENU_MANAGE)
    with transaction.atomic():
        menu = get_menu(name, locale=locale, for_update=True)
        problems: dict[str, str] = {}
        label = _check_label(label, "label", problems)
        if problems:
            raise ValidationError.for_fields(problems)
        menu.label = label
        menu.updated_at = timezone.now()
        menu.save(update_fields=["label", "updated_at"])
        _changed(menu.name)
    return menu


def menu_delete(*, actor: Actor, name: str, locale: str | None = None) -> None:
    require(actor, Perm.MENU_MANAGE)
    with transaction.atomic():
        menu = get_menu(name, locale=locale, for_update=True)
        MenuItem.objects.filter(menu=menu).delete()
        menu.delete()
        _changed(name)


# --------------------------------------------------------------------------------------------- items


def _optional_text(item: dict[str, Any], key: str, at: str, problems: dict[str, str], maximum: int) -> str:
    value = item.get(key)
    if value is None:
        return ""
    if not isinstance(value, str) or len(value) > maximum:
        problems[f"{at}.{key}"] = f"must be a string of at most {maximum} characters"
        return ""
    return value


def _refuse(item: dict[str, Any], keys: tuple[str, ...], kind: str, at: str, problems: dict[str, str]) -> None:
    for key in keys:
        if item.get(key) is not None:
            problems[f"{at}.{key}"] = f"not allowed on '{kind}' items"


@dataclass
class _Lookups:
    """What checking a list of items reads once: the schema snapshot and the taxonomy definitions; the menu's
    locale, in which a term slug is read (term slugs are unique per taxonomy and locale)."""

    locale: str | None = None

    collections: dict[str, CollectionSpec] = field(default_factory=lambda: dict(schema.current().collections))
    taxonomies: dict[str, TaxonomyDefinition] = field(
        default_factory=lambda: {d.name: d for d in TaxonomyDefinition.objects.all()}
    )


def _reference_entry(
    item: dict[str, Any], kind: str, at: str, problems: dict[str, str], lookups: _Lookups
) -> tuple[str, str]:
    """A page/post item: the collection (default pages/posts) and the ULID of an existing, non-trashed entry."""
    collection = item.get("referenceCollection") or DEFAULT_COLLECTION[kind]
    ident = item.get("referenceId")
    spec = lookups.collections.get(collection) if isinstance(collection, str) else None
    if spec is None:
        problems[f"{at}.referenceCollection"] = f"no collection '{collection}'"
        return "", ""
    if not isinstance(ident, str) or not ident:
        problems[f"{at}.referenceId"] = f"is required for '{kind}' items: the ID or slug of an item in '{collection}'"
        return "", ""
    try:
        row = rows.find(spec, ident)
    except NotFound:
        problems[f"{at}.referenceId"] = f"no item '{ident}' in collection '{collection}'"
        return "", ""
    return spec.slug, row.id


def _reference_term(item: dict[str, Any], at: str, problems: dict[str, str], lookups: _Lookups) -> tuple[str, str]:
    name, ident = item.get("referenceCollection"), item.get("referenceId")
    definition = lookups.taxonomies.get(name) if isinstance(name, str) else None
    if definition is None:
        problems[f"{at}.referenceCollection"] = "must name a taxonomy (e.g. category) for 'taxonomy' items"
        return "", ""
    try:
        term = find_term(definition, ident, locale=lookups.locale)
    except AmbiguousSlug as exc:
        problems[f"{at}.referenceId"] = exc.message
        return "", ""
    if term is None:
        problems[f"{at}.referenceId"] = f"no term '{ident}' in taxonomy '{name}'"
        return "", ""
    return definition.name, term.id


def _check_display(item: dict[str, Any], index: int, at: str, problems: dict[str, str]) -> dict[str, Any]:
    """The item's label, place in the tree and HTML attributes."""
    label = _check_label(item.get("label"), f"{at}.label", problems)
    parent_index = item.get("parentIndex")
    if parent_index is not None and (
        isinstance(parent_index, bool) or not isinstance(parent_index, int) or not 0 <= parent_index < index
    ):
        problems[f"{at}.parentIndex"] = (
            "the first item cannot have a parent"
            if index == 0
            else f"must point to an earlier item (0 to {index - 1}); item {index} names {parent_index!r}"
        )
    target = item.get("target")
    if target is not None and target not in MenuItem.TARGETS:
        problems[f"{at}.target"] = "must be _self or _blank"
    css = _optional_text(item, "cssClasses", at, problems, 200)
    if css and not CSS_CLASSES_RE.match(css):
        problems[f"{at}.cssClasses"] = "must be class names (letters, digits, '-', '_') separated by spaces"
    return {
        "label": label,
        "title_attr": _optional_text(item, "titleAttr", at, problems, 200),
        "target": target or "",
        "css_classes": css,
        "parent_index": parent_index,
    }


def _check_link(item: dict[str, Any], at: str, problems: dict[str, str], lookups: _Lookups) -> tuple[str, str, str]:
    """(custom URL, reference collection, reference id): where the item of this ``type`` points."""
    kind = item.get("type")
    if kind == "custom":
        _refuse(item, ("referenceCollection", "referenceId"), kind, at, problems)
        problem = url_problem(item.get("customUrl"))
        if problem:
            problems[f"{at}.customUrl"] = problem
            return "", "", ""
        return item["customUrl"], "", ""
    if kind in ("page", "post"):
        _refuse(item, ("customUrl",), kind, at, problems)
        return ("", *_reference_entry(item, kind, at, problems, lookups))
    if kind == "taxonomy":
        _refuse(item, ("customUrl",), kind, at, problems)
        return ("", *_reference_term(item, at, problems, lookups))
    if kind == "collection":
        _refuse(item, ("customUrl", "referenceId"), kind, at, problems)
        collection = item.get("referenceCollection")
        if not isinstance(collection, str) or collection not in lookups.collections:
            problems[f"{at}.referenceCollection"] = f"must name an existing collection (got {collection!r})"
            return "", "", ""
        return "", collection, ""
    problems[f"{at}.type"] = f"must be one of: {', '.join(MenuItem.TYPES)}"
    return "", "", ""


def _check_item(item: Any, index: int, problems: dict[str, str], lookups: _Lookups) -> dict[str, Any] | None:
    """The model fields of item ``index``; problems are added under ``items.<index>``."""
    at = f"items.{index}"
    if not isinstance(item, dict):
        problems[at] = "must be an object"
        return None
    unknown = sorted(k for k in item if k not in ITEM_KEYS)
    for key in unknown:
        problems[f"{at}.{key}"] = f"unknown key (accepted: {', '.join(ITEM_KEYS)})"
    before = len(problems)
    fields = _check_display(item, index, at, problems)
    fields["custom_url"], fields["reference_collection"], fields["reference_id"] = _check_link(
        item, at, problems, lookups
    )
    fields["type"] = item.get("type")
    fields["id"] = item.get("id")
    return fields if len(problems) == before and not unknown else None


def _kept_ids(menu: Menu, items: list[Any], problems: dict[str, str]) -> dict[str, str]:
    """Items sent back with the ``id`` menu_get gave them keep it and their translation group: id -> group."""
    sent = [(i, item.get("id")) for i, item in enumerate(items) if isinstance(item, dict) and "id" in item]
    existing = dict(
        MenuItem.objects.filter(menu=menu, id__in=[v for _, v in sent if isinstance(v, str)]).values_list(
            "id", "translation_group"
        )
    )
    seen: set[str] = set()
    for index, ident in sent:
        if ident not in existing:
            problems[f"items.{index}.id"] = f"no item '{ident}' in this menu (leave id out for a new item)"
        elif ident in seen:
            problems[f"items.{index}.id"] = f"item '{ident}' is sent twice"
        else:
            seen.add(ident)
    return {k: v or k for k, v in existing.items()}


def menu_set_items(*, actor: Actor, name: str, items: list[dict[str, Any]], locale: str | None = None) -> int:
    """Replace every item of menu ``name`` with ``items`` (ordered; ``parentIndex`` points to an earlier
    item). All or nothing. Returns the new item count. The menu row stays, so its translation links do; an
    item sent back with its ``id`` keeps that id and its translation group."""
    require(actor, Perm.MENU_MANAGE)
    with transaction.atomic():
        menu = get_menu(name, locale=locale, for_update=True)
        if not isinstance(items, list):
            raise ValidationError.for_fields({"items": "must be a list of menu items"})
        if len(items) > MAX_ITEMS:
            raise ValidationError.for_fields({"items": f"at most {MAX_ITEMS} items per menu"})
        problems: dict[str, str] = {}
        lookups = _Lookups(locale=menu.locale)
        checked = [_check_item(item, index, problems, lookups) for index, item in enumerate(items)]
        kept = _kept_ids(menu, items, problems)
        if problems:
            raise ValidationError.for_fields(problems, prefix="Invalid menu items")
        now = timezone.now()
        ids: list[str] = []
        new_items: list[MenuItem] = []
        for position, fields in enumerate(checked):
            assert fields is not None  # no problems means every item was checked
            parent_index = fields.pop("parent_index")
            sent_id = fields.pop("id")
            ids.append(sent_id if sent_id in kept else new_id())
            new_items.append(
                MenuItem(
                    id=ids[-1],
                    translation_group=kept.get(sent_id) or ids[-1],
                    menu=menu,
                    parent_id=ids[parent_index] if parent_index is not None else None,
                    position=position,
                    created_at=now,
                    **fields,
                )
            )
        MenuItem.objects.filter(menu=menu).delete()
        MenuItem.objects.bulk_create(new_items)
        menu.updated_at = now
        menu.save(update_fields=["updated_at"])
        _changed(menu.name)
    return len(new_items)
