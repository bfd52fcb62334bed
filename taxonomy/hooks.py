"""Taxonomy's side of ``content.hooks``: the functions content reaches an entry's terms through."""

from __future__ import annotations

from taxonomy import selectors, services


class EntryTerms:
    """``content.hooks.TermsProvider``, made of taxonomy's own functions (no wrapper on the read path)."""

    replace = staticmethod(services.replace_entry_terms)
    assigned = staticmethod(selectors.assigned_terms)
    taxonomies = staticmethod(selectors.taxonomies_for)
    tagged = staticmethod(selectors.tagged_entries)
    column = staticmethod(selectors.assigned_column)
    of_column = staticmethod(selectors.terms_of_rows)
    exists = staticmethod(selectors.taxonomy_exists)
