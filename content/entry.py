"""What content services and selectors hand back: a row with its collection and pending draft."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from content import presenters
from content.models import EntryBase
from content.rows import draft_values, rev_token
from content.schema import CollectionSpec


@dataclass
class Entry:
    spec: CollectionSpec
    row: EntryBase
    draft: dict[str, Any] | None
    show_draft: bool = True  # False for readers who may only see published values

    @classmethod
    def load(cls, spec: CollectionSpec, row: EntryBase, *, show_draft: bool = True) -> Entry:
        return cls(spec, row, draft_values(spec, row) if show_draft else None, show_draft)

    @property
    def id(self) -> str:
        return str(self.row.pk)

    @property
    def rev(self) -> str:
        return rev_token(self.row)

    def to_dict(self) -> dict[str, Any]:
        return presenters.entry(self.spec, self.row, draft=self.draft, show_draft=self.show_draft)
