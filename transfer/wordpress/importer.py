"""``import_wordpress``: a WXR file into this site, idempotent and resumable (transfer.models.WordPressLink),
with a report of what was created, found already imported, and skipped and why.

The file is read whole first (transfer.wordpress.wxr), so an unsafe or malformed file is refused before anything
is written. Each item is then written in its own transaction with its link row: a stopped import resumes where it
stopped when run again.
"""

from __future__ import annotations

from pathlib import Path

from emdash.actor import Actor
from emdash.call import calling, for_door
from transfer.progress import Progress, Silent
from transfer.wordpress import wxr
from transfer.wordpress.collections import (
    NOT_CONTENT,
    attach_taxonomies,
    collection_for,
    ensure_collection,
    unusable,
)
from transfer.wordpress.entries import ItemImporter, add_redirects, parents_first
from transfer.wordpress.media_files import import_attachments
from transfer.wordpress.menus import import_menus
from transfer.wordpress.people import map_authors
from transfer.wordpress.report import Links, Report
from transfer.wordpress.terms import import_terms


def import_wordpress(
    path: str,
    *,
    actor: Actor,
    media_dir: Path | None = None,
    fetch: bool = True,
    create_users: bool = False,
    progress: Progress | None = None,
) -> Report:
    """Import a WXR file. Every change it makes is recorded as door "import" (SPEC 9.3), with the caller's user,
    token and program."""
    with calling(for_door(actor, "import")):
        return _import(path, actor, media_dir, fetch, create_users, progress or Silent())


def _import(
    path: str, actor: Actor, media_dir: Path | None, fetch: bool, create_users: bool, progress: Progress
) -> Report:
    site = wxr.read(path)
    report, links = Report(site.link), Links(site.link)
    # WordPress numbers every item from 1; without a usable id an item could not be linked (a second such item
    # would pass for the first one "already imported"), so it is left out and reported.
    for item in (i for i in site.items if not i.post_id):
        report.skip(
            f"{item.post_type or 'item'} '{item.title[:60]}'", "no usable wp:post_id (WordPress gives each item one)"
        )
    site.items = [i for i in site.items if i.post_id]
    types = sorted({i.post_type for i in site.items} - NOT_CONTENT)
    for post_type, why in [(t, unusable(collection_for(t))) for t in types if t]:
        if why is not None:
            report.skip(f"post type {post_type}", why)
            types.remove(post_type)
    collections = [collection_for(t) for t in types if t]
    for slug in dict.fromkeys(["posts", "pages", *collections]):
        added = ensure_collection(slug, actor)
        if added:
            report.notes.append(f"collection {slug}: added fields {', '.join(added)}")
    attach_taxonomies(list(dict.fromkeys(["posts", *collections])), actor)
    for skipped in sorted({i.post_type for i in site.items} & NOT_CONTENT - {"attachment", "nav_menu_item"}):
        report.skip(f"post type {skipped}", "a WordPress site-builder record, not content")
    authors = map_authors(site, actor, links, report, create_users=create_users)
    import_terms(site, actor, links, report)
    media = import_attachments(site, actor, links, report, media_dir=media_dir, fetch=fetch)
    items = ItemImporter(site, actor, links, report, media, authors)
    content = parents_first([i for i in site.items if i.post_type in types])
    for done, item in enumerate(content, 1):
        items.run(item)
        progress.step("items", done, len(content))
    import_menus(site, actor, links, report)
    add_redirects(site, actor, links, report)
    progress.done()
    return report
