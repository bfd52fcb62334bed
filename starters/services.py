"""Applying a starter through the schema, taxonomy and menu services (never raw writes to their tables)."""

from __future__ import annotations

from typing import Any

from content.schema import services as schema_services
from content.schema import specs as schema
from emdash.actor import Actor
from emdash.errors import NotFound, ValidationError
from emdash.permissions import Perm, require
from menus import selectors as menu_selectors
from menus import services as menu_services
from starters.definitions import STARTERS, Starter
from starters.models import StarterChoice
from taxonomy import definitions as taxonomy_definitions
from taxonomy import selectors as taxonomy_selectors
from taxonomy.defaults import DEFAULT_TAXONOMIES


def starter_apply(*, actor: Actor, name: str) -> list[str]:
    """Create what starter ``name`` holds and is missing; answer what was created (empty on a second run).

    Not one transaction: on SQLite a table can only be created outside an outer atomic block (the schema
    services own theirs). Each step checks what exists first, so a run cut short is finished by running it
    again."""
    require(actor, Perm.SCHEMA_WRITE)
    starter = STARTERS.get(name)
    if starter is None:
        raise ValidationError.for_fields({"starter": f"must be one of: {', '.join(STARTERS)}"})
    created = _collections(actor, starter)
    created += _taxonomies(actor, starter)
    created += _menus(actor, starter)
    StarterChoice.objects.get_or_create(name=starter.name)
    return created


def _collections(actor: Actor, starter: Starter) -> list[str]:
    created = []
    for definition in starter.collections:
        if definition["slug"] in schema.current(fresh=True).collections:
            continue  # someone's own collection of that name is theirs: fields are not added to it
        settings = {k: v for k, v in definition.items() if k != "fields"}
        schema_services.collection_create(actor=actor, **settings)
        for spec in definition["fields"]:
            schema_services.field_create(actor=actor, collection=definition["slug"], **spec)
        created.append(f"collection {definition['slug']}")
    return created


def _taxonomies(actor: Actor, starter: Starter) -> list[str]:
    created = []
    defaults = {d["name"]: d for d in DEFAULT_TAXONOMIES}
    for name, collections in starter.taxonomies.items():
        try:
            attached: list[Any] = taxonomy_selectors.taxonomy_get(actor=actor, name=name)["collections"]
        except NotFound:  # an operator deleted it: the starter brings it back, as a fresh install has it
            taxonomy_definitions.taxonomy_create(actor=actor, **defaults[name], collections=list(collections))
            created.append(f"taxonomy {name}")
            continue
        missing = [c for c in collections if c not in attached]
        if missing:
            taxonomy_definitions.taxonomy_update(actor=actor, name=name, collections=[*attached, *missing])
            created.append(f"taxonomy {name} attached to {', '.join(missing)}")
    return created


def _menus(actor: Actor, starter: Starter) -> list[str]:
    created = []
    existing = {menu["name"] for menu in menu_selectors.menu_list(actor=actor)}
    for name, (label, items) in starter.menus.items():
        if name in existing:
            continue
        menu_services.menu_create(actor=actor, name=name, label=label)
        menu_services.menu_set_items(actor=actor, name=name, items=[dict(item) for item in items])
        created.append(f"menu {name}")
    return created
