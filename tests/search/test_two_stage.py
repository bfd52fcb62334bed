"""Two-stage ranking (``EMDASH["SEARCH_CANDIDATES"]``): only the newest matches of each OR-alternative are ranked.

Counts and orders, not times: a common word ranks at most the cap's worth of documents, those are the most recently
indexed matches, their order is the exact ranking's order among them, a rare word OR-ed with a common one still finds
its old documents, filters apply before the cap, and with fewer matches than the cap nothing changes.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.test import override_settings

from content.search.backends import get_backend
from content.search.models import SearchDocument
from content.search.query import parse
from tests.search.conftest import create, found_ids


def cap(n: int) -> Any:
    return override_settings(EMDASH={**getattr(settings, "EMDASH", {}), "SEARCH_CANDIDATES": n})


def plums(count: int, collection: str = "notes") -> list[str]:
    """``count`` published items that all say "plum", some more often (so the ranking has something to order)."""
    return [
        create(
            collection, title=f"Orchard {i}", text=" ".join(["plum"] * (1 + i % 3) + ["tree"] * (i % 4)), publish=True
        )
        for i in range(count)
    ]


def newest(ids: list[str], n: int) -> set[str]:
    order = dict(SearchDocument.objects.filter(entry_id__in=ids).values_list("entry_id", "id"))
    return set(sorted(ids, key=order.__getitem__)[-n:])


def test_a_common_word_ranks_only_the_newest_candidates(notes):
    ids = plums(12)
    with cap(4):
        hits = get_backend().rank(parse("plum"), collections=None, locale=None, limit=50)
        found = found_ids("plum", limit=10)
    assert len(hits) == 4  # bounded: 12 documents match, 4 were ranked
    assert {h.entry_id for h in hits} == set(found) == newest(ids, 4)
    with cap(0):  # the exact ranking, restricted to the same four, gives the same order
        exact = [i for i in found_ids("plum", limit=50) if i in newest(ids, 4)]
    assert found == exact


def test_fewer_matches_than_the_cap_rank_exactly(notes):
    plums(12)
    with cap(0):
        exact = found_ids("plum", limit=12)
    with cap(12):
        assert found_ids("plum", limit=12) == exact
    assert len(exact) == 12


def test_each_alternative_gets_its_own_candidates(notes):
    old = create("notes", title="Quince", text="quince plum", publish=True)
    ids = plums(12)
    with cap(4):
        hits = get_backend().rank(parse("quince OR plum"), collections=None, locale=None, limit=50)
        found = found_ids("quince OR plum", limit=5)
    assert len(hits) == 5  # the one quince (the oldest plum) and the four newest plums
    assert found[0] == old  # the rare word ranks first although its item is older than every candidate plum
    assert set(found[1:]) == newest(ids, 4)


def test_filters_apply_before_the_cap(notes, articles):
    in_notes = plums(3)
    for i in range(6):  # newer matches in another collection must not use up the candidates
        create("articles", title=f"Plum {i}", excerpt="plum", publish=True)
    with cap(2):
        assert set(found_ids("plum", collections=["notes"])) == newest(in_notes, 2)
        assert len(found_ids("plum", collections=["articles"])) == 2


def test_phrases_and_several_words_are_capped_like_single_words(notes):
    ids = plums(12)
    with cap(3):
        both = found_ids("plum tree")
        phrase = found_ids('"plum tree"')
    with_tree = {i for n, i in enumerate(ids) if n % 4}
    assert set(both) == newest(sorted(with_tree), 3)
    assert set(phrase) <= with_tree and len(phrase) == 3
