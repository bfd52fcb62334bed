"""What a WordPress import did: counts of what it created, what it found already imported, and what it skipped
and why (each skip names the WordPress object, so an operator can fix it and run the import again)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from transfer.models import WordPressLink


@dataclass
class Report:
    site: str
    created: Counter[str] = field(default_factory=Counter)
    existing: Counter[str] = field(default_factory=Counter)
    skipped: list[dict[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def skip(self, what: str, why: str) -> None:
        self.skipped.append({"what": what, "why": why})

    def to_dict(self) -> dict[str, Any]:
        return {
            "site": self.site,
            "created": dict(sorted(self.created.items())),
            "alreadyImported": dict(sorted(self.existing.items())),
            "skipped": self.skipped,
            "notes": self.notes,
        }

    def lines(self) -> list[str]:
        out = [f"WordPress import of {self.site}"]
        out += [f"  created {n} {kind}" for kind, n in sorted(self.created.items())]
        out += [f"  already imported: {n} {kind}" for kind, n in sorted(self.existing.items())]
        out += [f"  skipped {s['what']}: {s['why']}" for s in self.skipped]
        out += [f"  note: {note}" for note in self.notes]
        return out


class LinkedMeanwhile(Exception):
    """An object's link appeared while this import was making it (two imports of one file at once): the maker rolls
    its copy back and uses the one linked first."""


@dataclass
class Links:
    """The link table for one export's site, read once and written as objects are made."""

    site: str
    known: dict[tuple[str, str], WordPressLink] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for link in WordPressLink.objects.filter(Q(site=self.site)):
            self.known[(link.kind, link.wp_id)] = link

    def get(self, kind: str, wp_id: object) -> WordPressLink | None:
        return self.known.get((kind, str(wp_id)))

    def add(self, kind: str, wp_id: object, target: str, collection: str = "") -> bool:
        """Record what ``wp_id`` became; an export that lists an object twice keeps the first. False when it was
        known already, or another import of the same file linked it first (it read the table before that)."""
        if (kind, str(wp_id)) in self.known:
            return False
        link, created = WordPressLink.objects.get_or_create(
            site=self.site, kind=kind, wp_id=str(wp_id), defaults={"target": target, "collection": collection}
        )
        self.known[(kind, str(wp_id))] = link
        return created
