"""What content services and selectors hand back: a row with its collection and pending draft."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from content import hooks
from content.entries import linked, presenters, seo
from content.entries.media_details import show_media
from content.entries.outputs import Item
from content.entries.rows import draft_meta, draft_raw, known_values, rev_token
from content.models import EntryBase
from content.schema.specs import CollectionSpec
from emdash.cursors import Page


@dataclass
class Entry:
    spec: CollectionSpec
    row: EntryBase
    draft: dict[str, Any] | None
    show_draft: bool = True  # False for readers who may only see published values
    meta: dict[str, Any] = field(default_factory=dict)  # the draft's pending slug / SEO (rows.DRAFT_META)
    seo: dict[str, Any] = field(default_factory=dict)  # the live SEO
    # What a revision restore left out: ``[{field, mediaId}]`` of media items deleted since (dead_media.py).
    dropped_media: list[dict[str, str]] = field(default_factory=list)

    @classmethod
    def load(
        cls, spec: CollectionSpec, row: EntryBase, *, show_draft: bool = True, live_seo: dict[str, Any] | None = None
    ) -> Entry:
        """``live_seo``: the caller knows it already (a create), so it is not read again."""
        raw = draft_raw(row) if show_draft else None
        draft = None if raw is None else known_values(spec, raw)
        # rows.find(for_read=True) brought the live SEO along with the row (one query less per read).
        if live_seo is None:
            live_seo = row.seo_live if hasattr(row, "seo_live") else seo.live(spec.slug, row.id)
        return cls(spec, row, draft, show_draft, draft_meta(raw), live_seo or {})

    @property
    def id(self) -> str:
        return str(self.row.pk)

    @property
    def rev(self) -> str:
        return rev_token(self.row)

    def to_dict(self) -> Item:
        body = presenters.entry(self.spec, self.row, draft=self.draft, show_draft=self.show_draft)
        shown = [body["data"], *([body["liveData"]] if "liveData" in body else [])]
        linked.show_targets(self.spec, shown, published_only=not self.show_draft)
        show_media(self.spec, shown)
        return presenters.with_seo(body, self.row, live_seo=self.seo, meta=self.meta if self.show_draft else {})


@dataclass
class EntryRows:
    """A page of rows as a list selector found them, with their pending drafts (raw, by revision id).
    Presenting them is the caller's step: the operation's presenter, or a door's view, calls ``present``."""

    spec: CollectionSpec
    rows: list[Any]  # model rows, or a list page's records (emdash.prepared.Prepared.records)
    drafts: dict[str, dict[str, Any]]
    next_cursor: str | None = None
    show_draft: bool = False
    full: bool = False  # every field, not only the summary's small ones

    def present(self) -> Page[Item]:
        items = presenters.summaries(self.spec, self.rows, self.drafts, show_draft=self.show_draft, full=self.full)
        datas = [item["data"] for item in items]
        linked.show_targets(self.spec, datas, published_only=not self.show_draft)
        show_media(self.spec, datas)
        credits = hooks.rows_credits(self.spec.slug, self.rows)
        for item, credit in zip(items, credits or (), strict=False):
            item.update(credit)  # type: ignore[typeddict-item]
        return Page(items, self.next_cursor)

    def to_dict(self) -> dict[str, Any]:
        return self.present().to_dict()
