"""Bylines' side of ``content.hooks``: the functions content reaches an entry's credits through."""

from __future__ import annotations

from bylines import columns as credit_columns
from bylines import selectors, services


class EntryBylines:
    """``content.hooks.BylinesProvider``, made of the bylines app's own functions."""

    replace = staticmethod(services.replace_entry_bylines)
    credits = staticmethod(selectors.entry_credits)
    columns = staticmethod(credit_columns.columns)
    of_columns = staticmethod(credit_columns.of_columns)
    of_page = staticmethod(credit_columns.of_page)
    snapshot = staticmethod(services.entry_credit_refs)
    restore = staticmethod(services.restore_entry_bylines)
