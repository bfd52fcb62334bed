"""Posts, pages and custom post types → entries: Portable Text bodies, excerpts, slugs, GMT dates, statuses,
sticky, featured images, terms, SEO (Yoast, RankMath), then page parents and redirects from old permalinks."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urlsplit

from django.db import transaction
from django.utils import timezone

from content.entries import services
from content.entries.slugs import slugify
from content.links import entry_path
from content.models import Redirect
from content.redirects.services import normalize_source, redirect_create
from content.schema import specs as schema
from emdash.actor import Actor
from emdash.errors import Conflict, EmDashError, SlugConflict
from taxonomy.models import Term
from transfer.wordpress import wxr
from transfer.wordpress.blocks import content_to_portable_text
from transfer.wordpress.collections import TAXONOMIES, collection_for
from transfer.wordpress.html_text import Images
from transfer.wordpress.media_files import base_path
from transfer.wordpress.people import Credit
from transfer.wordpress.report import LinkedMeanwhile, Links, Report

# publish → published, future → scheduled (a draft when it has no date), everything else a draft (private and
# password-protected included: this site has no per-item visibility, so they stay unpublished and the report says
# so).
STATUS = {"publish": "published", "future": "scheduled", "draft": "draft", "pending": "draft"}


def seo_of(item: wxr.Item, site_title: str) -> dict[str, str]:
    """Yoast or RankMath title and description; Yoast's %%variables%% resolved where they have a meaning here."""
    title = wxr.value(item.meta, "_yoast_wpseo_title", "rank_math_title")
    words = {"%%title%%": item.title, "%%sitename%%": site_title, "%%sep%%": "\u2013", "%%page%%": ""}
    words |= {"%title%": item.title, "%sitename%": site_title, "%sep%": "\u2013"}  # RankMath's spelling
    for word, meaning in words.items():
        title = title.replace(word, meaning)
    description = wxr.value(item.meta, "_yoast_wpseo_metadesc", "rank_math_description")
    seo = {"title": " ".join(title.split())[:200], "description": description[:500]}
    return {k: v for k, v in seo.items() if v}


class ItemImporter:
    def __init__(
        self,
        site: wxr.Site,
        actor: Actor,
        links: Links,
        report: Report,
        media: dict[str, str],
        authors: dict[str, Credit],
    ) -> None:
        self.site, self.actor, self.links, self.report = site, actor, links, report
        self.media, self.authors = media, authors
        self.term_slugs: dict[str, str] = {}  # term id → slug

    def image(self, src: str, wp_id: int | None) -> str | None:
        return self.media.get(f"id:{wp_id}") or self.media.get(base_path(src)) if src or wp_id else None

    def data(self, item: wxr.Item, collection: str) -> dict[str, Any]:
        images: Images = self.image
        converted = content_to_portable_text(item.content, images)
        for name in sorted(set(converted.kept_as_html)):
            self.report.notes.append(f"{collection}/{item.post_id}: block '{name}' kept as HTML in a code block")
        for src in converted.missing_images:
            self.report.skip(f"image {src} in {item.post_type} {item.post_id}", "not among the imported media")
        fields = schema.current().get(collection).field_map
        data: dict[str, Any] = {"title": item.title or f"Untitled {item.post_id}", "body": converted.blocks or None}
        if item.excerpt and "excerpt" in fields:
            data["excerpt"] = item.excerpt
        featured = self.media.get(f"id:{wxr.value(item.meta, '_thumbnail_id')}")
        if featured and "featured_image" in fields:
            data["featured_image"] = {"id": featured}
        if "sticky" in fields:
            data["sticky"] = item.sticky
        parent = self.links.get("item", item.parent) if item.parent else None
        if parent is not None and "parent" in fields and parent.collection == collection:
            data["parent"] = parent.target
        return {k: v for k, v in data.items() if v is not None}

    def terms(self, item: wxr.Item) -> dict[str, list[str]]:
        """The item's terms by their slugs here (the linked terms' own: a non-Latin one was given a new slug)."""
        found: dict[str, list[str]] = {}
        for taxonomy, slug in item.terms:
            link = self.links.get("term", f"{taxonomy}:{slug}") if taxonomy in TAXONOMIES else None
            if link is not None:
                if link.target not in self.term_slugs:
                    self.term_slugs[link.target] = (
                        Term.objects.filter(pk=link.target).values_list("slug", flat=True).first() or ""
                    )
                if self.term_slugs[link.target]:
                    found.setdefault(TAXONOMIES[taxonomy], []).append(self.term_slugs[link.target])
        return found

    def run(self, item: wxr.Item) -> None:
        collection = collection_for(item.post_type)
        if self.links.get("item", item.post_id) is not None:
            self.report.existing[collection] += 1
            return
        if item.status in ("trash", "auto-draft", "inherit"):
            self.report.skip(f"{item.post_type} {item.post_id}", f"status '{item.status}' is not content")
            return
        try:
            with transaction.atomic():
                entry_id = self.create(item, collection)
                if not self.links.add("item", item.post_id, entry_id, collection):
                    raise LinkedMeanwhile  # another import of this file made it: roll this copy back
        except LinkedMeanwhile:
            self.report.existing[collection] += 1
            return
        except EmDashError as exc:
            self.report.skip(f"{item.post_type} {item.post_id} ({item.title[:60]})", str(exc))
            return
        self.report.created[collection] += 1
        if item.password or item.status == "private":
            why = "password-protected" if item.password else "private"
            self.report.notes.append(f"{collection}/{item.post_id} was {why} in WordPress: imported as a draft")
        elif _dateless_schedule(item):
            self.report.notes.append(
                f"{collection}/{item.post_id} was scheduled in WordPress without a date: imported as a draft"
            )

    def create(self, item: wxr.Item, collection: str) -> str:
        """The new entry's id; a slug already taken (WordPress lets two items share one) is made unique."""
        try:
            with transaction.atomic():
                return self.create_as(item, collection, keep_slug=True)
        except SlugConflict:
            entry_id = self.create_as(item, collection, keep_slug=False)
            self.report.notes.append(f"{collection}/{item.post_id}: slug '{item.slug}' was taken; a new one was made")
            return entry_id

    def create_as(self, item: wxr.Item, collection: str, *, keep_slug: bool) -> str:
        # A slug that is not plain ASCII (WordPress keeps them %-encoded) is left to the site to make unique.
        plain = unquote(item.slug)
        slug = slugify(plain) if keep_slug and plain and plain.isascii() else None
        credit = self.authors.get(item.creator)
        entry = services.entry_create(
            actor=self.actor,
            collection=collection,
            data=self.data(item, collection),
            slug=slug,
            slug_hint=item.title or f"{item.post_type}-{item.post_id}",
            terms=self.terms(item) or None,
            seo=seo_of(item, self.site.title) or None,
            bylines=[{"bylineId": credit.byline_id}] if credit and credit.byline_id else None,
        )
        when = item.date_gmt or timezone.now()
        status = "draft" if item.password or _dateless_schedule(item) else STATUS.get(item.status, "draft")
        if status == "scheduled" and when > timezone.now():
            services.entry_schedule(actor=self.actor, collection=collection, id=entry.id, scheduled_at=when.isoformat())
        elif status in ("published", "scheduled"):
            services.entry_publish(actor=self.actor, collection=collection, id=entry.id, published_at=when.isoformat())
        model = schema.current().get(collection).model
        model.objects.filter(pk=entry.id).update(created_at=when, author_id=credit.user_id if credit else None)
        return entry.id


def _dateless_schedule(item: wxr.Item) -> bool:
    """A scheduled post whose export carries no date: publishing it "now" would show what its author held back."""
    return item.status == "future" and item.date_gmt is None


def parents_first(items: list[wxr.Item]) -> list[wxr.Item]:
    """Items ordered so that a page comes after its parent (the parent's id is then known when it is written)."""
    by_id = {item.post_id: item for item in items}

    def depth(item: wxr.Item) -> int:
        seen, level = {item.post_id}, 0
        while item.parent in by_id and item.parent not in seen:
            item = by_id[item.parent]
            seen.add(item.post_id)
            level += 1
        return level

    return sorted(items, key=depth)


def _query_link(site: wxr.Site, item: wxr.Item) -> str:
    """WordPress's plain link to an item, which answers on every WordPress site whatever its permalink
    settings: ``/?page_id=7`` for pages, ``/?p=12`` for everything else (under the site's own path)."""
    base = urlsplit(site.link).path.rstrip("/") if site.link else ""
    key = "page_id" if item.post_type == "page" else "p"
    return f"{base}/?{key}={item.post_id}"


def add_redirects(site: wxr.Site, actor: Actor, links: Links, report: Report) -> None:
    """The old permalinks of every imported item → its new address: the pretty path, and the plain
    ``?p=ID`` / ``?page_id=ID`` link (query-aware redirects)."""
    for item in site.items:
        link = links.get("item", item.post_id)
        if link is None:
            continue
        slug = schema.current().get(link.collection).model.objects.filter(pk=link.target).values_list("slug", flat=True)
        new = entry_path(link.collection, slug.first() or "")
        pretty = "/" + urlsplit(item.link).path.lstrip("/") if item.link and not urlsplit(item.link).query else ""
        olds = [pretty] if pretty and pretty != "/" and unquote(pretty).rstrip("/") != new.rstrip("/") else []
        for old in [normalize_source(o) for o in [*olds, _query_link(site, item)]]:
            if Redirect.objects.filter(source=old).exists():
                report.existing["redirects"] += 1
                continue
            try:
                # Naming the item: the redirect answers only while it is published (a private post's old link
                # must not reveal its new slug).
                redirect_create(actor=actor, source=old, target=new, collection=link.collection, entry_id=link.target)
                report.created["redirects"] += 1
            except Conflict:  # another import of this file added it since the check above
                report.existing["redirects"] += 1
            except EmDashError as exc:
                report.skip(f"redirect {old}", str(exc))
