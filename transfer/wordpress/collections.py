"""The collections and taxonomies a WordPress import writes into, created (or completed) with the fields it needs."""

from __future__ import annotations

from typing import Any

from content.schema import services as schema_services
from content.schema import specs as schema
from content.schema.checks import RESERVED_COLLECTION_SLUGS, check_slug
from emdash.actor import Actor
from emdash.errors import InvalidSlug, ReservedSlug
from taxonomy.definitions import taxonomy_update
from taxonomy.models import TaxonomyDefinition

TITLE = {"slug": "title", "label": "Title", "type": "string", "required": True}
EXCERPT = {"slug": "excerpt", "label": "Excerpt", "type": "text"}
BODY = {"slug": "body", "label": "Body", "type": "portableText", "searchable": True}
IMAGE = {"slug": "featured_image", "label": "Featured image", "type": "image"}
STICKY = {"slug": "sticky", "label": "Sticky", "type": "boolean"}
PARENT = {"slug": "parent", "label": "Parent page", "type": "reference", "options": {"collection": "pages"}}
FIELDS: dict[str, list[dict[str, Any]]] = {
    "posts": [TITLE, EXCERPT, BODY, IMAGE, STICKY],
    "pages": [TITLE, EXCERPT, BODY, IMAGE, PARENT],
}
LABELS = {"posts": ("Posts", "Post"), "pages": ("Pages", "Page")}
SUPPORTS = ["drafts", "revisions", "scheduling", "search", "preview"]
# WordPress's own types that are not content (menus are read apart; the rest are site-builder internals).
NOT_CONTENT = {
    "attachment",
    "nav_menu_item",
    "revision",
    "custom_css",
    "customize_changeset",
    "oembed_cache",
    "user_request",
    "wp_block",
    "wp_template",
    "wp_template_part",
    "wp_global_styles",
    "wp_navigation",
    "wp_font_family",
    "wp_font_face",
}
TAXONOMIES = {"category": "category", "post_tag": "tag"}


def collection_for(post_type: str) -> str:
    return {"post": "posts", "page": "pages"}.get(post_type, post_type.replace("-", "_").lower()[:63])


def unusable(slug: str) -> str | None:
    """Why a post type's collection slug cannot name a collection, or None: WordPress allows names we do not
    (`2col`, a digit first; `search`, one of our routes), and one such type must not stop the whole import."""
    try:
        check_slug(slug, "collection", RESERVED_COLLECTION_SLUGS)
    except (InvalidSlug, ReservedSlug) as error:
        return str(error)
    if slug not in schema.current(fresh=True).collections and TaxonomyDefinition.objects.filter(name=slug).exists():
        return f"'{slug}' is a taxonomy here: its archives would hide the collection's public URLs"
    return None


def ensure_collection(slug: str, actor: Actor) -> list[str]:
    """Create the collection, or add the fields it lacks; the fields added."""
    collections = schema.current(fresh=True).collections
    if slug not in collections:
        label, singular = LABELS.get(slug, (slug.replace("_", " ").title(), slug.replace("_", " ").title()))
        schema_services.collection_create(
            actor=actor, slug=slug, label=label, label_singular=singular, supports=SUPPORTS
        )
    have = schema.current(fresh=True).get(slug).field_map
    added = []
    for field in FIELDS.get(slug, [TITLE, EXCERPT, BODY, IMAGE]):
        if field["slug"] not in have:
            schema_services.field_create(actor=actor, collection=slug, **field)
            added.append(field["slug"])
    return added


def attach_taxonomies(collections: list[str], actor: Actor) -> None:
    """category and tag (a fresh install has both, 6.5) apply to every collection the import fills."""
    for name in TAXONOMIES.values():
        row = TaxonomyDefinition.objects.filter(name=name).first()
        if row is not None and not set(collections) <= set(row.collections or []):
            wanted = sorted({*(row.collections or []), *collections})
            taxonomy_update(actor=actor, name=name, collections=wanted)
