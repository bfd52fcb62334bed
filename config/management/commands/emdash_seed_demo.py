"""Load the demo site: collections, a few entries and an admin user. Safe to run again."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from django.conf import settings

from accounts.models import User
from content.entries import selectors, services
from content.entries.slugs import slugify
from content.schema import services as schema_services
from content.schema import specs as schema
from emdash.actor import Actor
from emdash.commands import EmDashCommand
from emdash.errors import EmDashError, NotFound
from emdash.roles import Role
from menus import selectors as menu_selectors
from menus import services as menu_services
from settings_app import selectors as settings_selectors
from settings_app import services as settings_services
from starters.definitions import PAGES, POSTS
from taxonomy import selectors as taxonomy_selectors
from taxonomy import services as taxonomy_services

ADMIN_EMAIL = "admin@example.com"

COLLECTIONS: list[dict[str, Any]] = [POSTS, PAGES]  # the blog starter's, so the demo shows what a site starts with


def _text(*paragraphs: str) -> list[dict[str, Any]]:
    """Portable Text blocks, one per paragraph."""
    return [
        {
            "_type": "block",
            "_key": f"b{i}",
            "style": "normal",
            "markDefs": [],
            "children": [{"_type": "span", "_key": f"s{i}", "text": text, "marks": []}],
        }
        for i, text in enumerate(paragraphs)
    ]


TERMS: list[tuple[str, str, str]] = [
    ("category", "news", "News"),
    ("category", "guides", "Guides"),
    ("tag", "mcp", "MCP"),
    ("tag", "editing", "Editing"),
    ("tag", "django", "Django"),
]
# Post title -> {taxonomy: [term slugs]}
POST_TERMS: dict[str, dict[str, list[str]]] = {
    "Welcome to EmDash": {"category": ["news"], "tag": ["mcp", "django"]},
    "Writing with drafts and revisions": {"category": ["guides"], "tag": ["editing"]},
}
MENUS: dict[str, tuple[str, list[dict[str, Any]]]] = {
    "primary": (
        "Primary",
        [
            {"label": "Home", "type": "custom", "customUrl": "/"},
            {"label": "News", "type": "taxonomy", "referenceCollection": "category", "referenceId": "news"},
            {"label": "Guides", "type": "taxonomy", "referenceCollection": "category", "referenceId": "guides"},
            {"label": "About", "type": "page", "referenceCollection": "pages", "referenceId": "about"},
        ],
    ),
    "footer": (
        "Footer",
        [
            {"label": "About", "type": "page", "referenceCollection": "pages", "referenceId": "about"},
            {"label": "Search", "type": "custom", "customUrl": "/search/"},
        ],
    ),
}
SITE = {"title": "EmDash Demo", "tagline": "A headless CMS for Django, with a built-in MCP server", "postsPerPage": 10}

ENTRIES: list[tuple[str, str, dict[str, Any]]] = [
    (
        "posts",
        "published",
        {
            "title": "Welcome to EmDash",
            "excerpt": "A headless CMS that AI assistants can work with.",
            "body": _text(
                "EmDash keeps your content in real tables and serves it to templates, apps and assistants.",
                "Connect an MCP client to /_emdash/api/mcp to manage content by conversation.",
            ),
        },
    ),
    (
        "posts",
        "published",
        {
            "title": "Writing with drafts and revisions",
            "excerpt": "Edit safely: drafts stay private until you publish.",
            "body": _text("Every save records a revision. Publish when you are ready; restore any revision later."),
        },
    ),
    (
        "posts",
        "draft",
        {
            "title": "An unfinished idea",
            "excerpt": "This draft is only visible to editors.",
            "body": _text("Drafts never appear on the public site."),
        },
    ),
    (
        "pages",
        "published",
        {
            "title": "About",
            "body": _text("This is the demo site of EmDash for Django."),
        },
    ),
    (
        "pages",
        "draft",
        {
            "title": "Contact",
            "body": _text("A page still being written."),
        },
    ),
]


class Command(EmDashCommand):
    help = "Load the demo site (posts and pages collections, sample entries, an admin user). Idempotent."

    def handle(self, *args: Any, **options: Any) -> None:
        system = Actor.system()
        existing = schema.current().collections
        for definition in COLLECTIONS:
            definition = dict(definition)
            fields = definition.pop("fields")
            if definition["slug"] in existing:
                continue
            schema_services.collection_create(actor=system, **definition)
            for field in fields:
                schema_services.field_create(actor=system, collection=definition["slug"], **field)
            self.stdout.write(f"created collection {definition['slug']}")
        admin, password = self._admin()
        author = Actor.for_user(admin)
        for collection, status, data in ENTRIES:
            try:
                selectors.entry_get(actor=system, collection=collection, id=slugify(data["title"]))
                continue  # already there
            except NotFound:
                pass
            services.entry_create(actor=author, collection=collection, data=data, status=status)
            self.stdout.write(f"created {collection}: {data['title']} ({status})")
        self._site(system)
        self.stdout.write(self.style.SUCCESS("Demo site ready."))
        self.stdout.write(f"  Admin login: {ADMIN_EMAIL}  password: {password}")

    def _site(self, system: Actor) -> None:
        """Categories, tags, their posts, the primary and footer menus and the site title (each once)."""
        for taxonomy, slug, label in TERMS:
            try:
                taxonomy_selectors.term_get(actor=system, taxonomy=taxonomy, term=slug)
            except EmDashError:
                taxonomy_services.term_create(actor=system, taxonomy=taxonomy, slug=slug, label=label)
                self.stdout.write(f"created {taxonomy}: {label}")
        for title, assignments in POST_TERMS.items():
            for taxonomy, slugs in assignments.items():
                taxonomy_services.entry_terms_set(
                    actor=system, collection="posts", id=slugify(title), taxonomy=taxonomy, terms=slugs
                )
        existing = {menu["name"] for menu in menu_selectors.menu_list(actor=system)}
        for name, (label, items) in MENUS.items():
            if name in existing:
                continue
            menu_services.menu_create(actor=system, name=name, label=label)
            menu_services.menu_set_items(actor=system, name=name, items=items)
            self.stdout.write(f"created menu {name}")
        if not settings_selectors.site_settings().get("title"):
            settings_services.settings_update(actor=system, changes=SITE)

    def _admin(self) -> tuple[User, str]:
        """The demo admin; its generated password is kept under var/ so every run can print it."""
        path = Path(settings.VAR_DIR) / "demo-admin-password.txt"
        user = User.objects.filter(email=ADMIN_EMAIL).first()
        if user is not None and path.exists():
            return user, path.read_text().strip()
        password = secrets.token_urlsafe(12)
        path.write_text(password)
        path.chmod(0o600)
        if user is None:
            user = User.objects.create_user(email=ADMIN_EMAIL, password=password, role=Role.ADMIN, name="Admin")
        else:
            user.set_password(password)
            user.save(update_fields=["password"])
        self.stdout.write(f"created admin user {ADMIN_EMAIL}")
        return user, password
