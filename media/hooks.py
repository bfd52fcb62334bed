"""Media's side of ``content.hooks``: which ids and URLs name media items."""

from __future__ import annotations

from media import selectors


class MediaItems:
    """``content.hooks.MediaProvider``, made of media's own selectors (no wrapper on the read path)."""

    existing_ids = staticmethod(selectors.existing_ids)
    urls_by_id = staticmethod(selectors.urls_by_id)
    ids_by_url = staticmethod(selectors.ids_by_url)
    details_by_id = staticmethod(selectors.details_by_id)
