"""What an export holds: one row of this table per kind, in the order an import must restore them.

The table is the one source of truth for the archive's contents: the exporter writes these kinds, the importer
reads them back, and docs/moving.md lists them. Rows are a model's columns by attribute name (``author_id``);
columns that are secrets are left out, and so never leave the site.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import models

from accounts.models import User
from bylines.models import Byline, ContentByline
from content.changesets.models import ChangeSet, ChangeSetEntry
from content.models import EntrySeo, Redirect, Revision
from media.models import MediaItem
from menus.models import Menu, MenuItem
from settings_app.models import SiteSettings
from taxonomy.models import TaxonomyDefinition, Term, TermAssignment
from webhooks.models import Webhook


@dataclass(frozen=True)
class Kind:
    name: str  # the member's name: <name>.jsonl
    model: type[models.Model]
    order_by: tuple[str, ...] = ("pk",)
    secrets: tuple[str, ...] = ()  # columns never exported
    user_columns: tuple[str, ...] = ()  # columns naming a user, remapped on import


# Collections and entries are not in this table: they live in dynamic tables (transfer.export.schema_rows,
# entry_rows); revisions sit between them and the rest because entries name them.
USERS = Kind("users", User, secrets=("password",))
REVISIONS = Kind("revisions", Revision, ("collection", "entry_id", "created_at", "id"), user_columns=("author_id",))
KINDS: tuple[Kind, ...] = (
    Kind("seo", EntrySeo, ("collection", "entry_id")),
    Kind("taxonomies", TaxonomyDefinition, ("name",)),
    Kind("terms", Term, ("taxonomy_id", "id")),
    Kind("term_assignments", TermAssignment, ("term_id", "collection", "entry_id")),
    Kind("menus", Menu, ("name",)),
    Kind("menu_items", MenuItem, ("menu_id", "position")),
    Kind("settings", SiteSettings),
    Kind("media", MediaItem, ("created_at", "id"), user_columns=("author_id",)),
    Kind("redirects", Redirect, ("source",), user_columns=("created_by_id",)),
    Kind("webhooks", Webhook, ("created_at", "id"), secrets=("secret",)),
    Kind("bylines", Byline, ("created_at", "id"), user_columns=("user_id",)),
    Kind("content_bylines", ContentByline, ("collection", "entry_id", "position")),
    Kind("changesets", ChangeSet, ("created_at", "id"), user_columns=("creator_id", "reviewer_id")),
    Kind("changeset_entries", ChangeSetEntry, ("changeset_id", "id"), user_columns=("added_by_id",)),
)

# The order an import restores the JSONL members in (the export writes them so): collections before their
# entries, users before the rows naming them, entries before their revisions and everything attached to them.
ORDER: tuple[str, ...] = ("schema", USERS.name, "entries", REVISIONS.name, *(kind.name for kind in KINDS))


def columns(kind: Kind) -> list[str]:
    return [f.attname for f in kind.model._meta.concrete_fields if f.attname not in kind.secrets]
