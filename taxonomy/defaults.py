"""The taxonomies a fresh install has. Plain data: the data migration and the post-migrate hook share it."""

from __future__ import annotations

from typing import Any

DEFAULT_TAXONOMIES: tuple[dict[str, Any], ...] = (
    {"name": "category", "label": "Categories", "label_singular": "Category", "hierarchical": True},
    {"name": "tag", "label": "Tags", "label_singular": "Tag", "hierarchical": False},
)
DEFAULT_COLLECTIONS = ("posts",)


def create_defaults(model: Any, using: str = "default") -> None:
    """Create the default taxonomies that are missing (``model`` may be a historical model)."""
    for definition in DEFAULT_TAXONOMIES:
        model.objects.using(using).get_or_create(
            name=definition["name"], defaults={**definition, "collections": list(DEFAULT_COLLECTIONS)}
        )


def seed_when_empty(sender: Any, apps: Any = None, using: str = "default", **kwargs: Any) -> None:
    """post_migrate (also sent after ``flush``): a database without any taxonomy gets the defaults back.

    Only an empty table is seeded, so taxonomies an operator removed on purpose stay removed while
    any other taxonomy exists."""
    if apps is None:  # flush sends no app registry: the current models are the ones in the database
        from django.apps import apps
    try:
        model = apps.get_model("taxonomy", "TaxonomyDefinition")
    except LookupError:  # migrated backwards past the table
        return
    if not model.objects.using(using).exists():
        create_defaults(model, using)
