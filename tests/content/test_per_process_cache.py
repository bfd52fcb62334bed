"""The per-process caches of public pages keep their most recently used keys when full (an LRU)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from content import stamps


@pytest.fixture
def cache(db: None) -> Iterator[stamps.PerProcess]:
    made = stamps.PerProcess("settings", max_keys=3)
    yield made
    stamps.PerProcess.instances.remove(made)


def _builder(built: list[str], key: str) -> Callable[[], str]:
    def build() -> str:
        built.append(key)
        return key.upper()

    return build


def test_a_full_cache_drops_its_least_recently_used_key_and_keeps_the_hot_ones(cache):
    built: list[str] = []
    with stamps.snapshot():
        for key in ("hot", "b", "c"):
            assert cache.get(key, _builder(built, key)) == key.upper()
        assert cache.get("hot", _builder(built, "hot")) == "HOT"  # used again: now the most recent
        cache.get("d", _builder(built, "d"))  # a fourth key: "b", the coldest, goes
        assert built == ["hot", "b", "c", "d"]
        for key in ("hot", "c", "d"):
            cache.get(key, _builder(built, key))
        assert built == ["hot", "b", "c", "d"]  # all three kept: nothing rebuilt
        cache.get("b", _builder(built, "b"))
        assert built == ["hot", "b", "c", "d", "b"]


def test_the_default_cache_holds_256_keys_without_clearing_the_rest(db):
    big = stamps.PerProcess("settings")
    try:
        built: list[str] = []
        with stamps.snapshot():
            for key in range(300):
                big.get(key, _builder(built, str(key)))
            built.clear()
            for key in range(299, 43, -1):  # the 256 most recent are all still there
                big.get(key, _builder(built, str(key)))
            assert built == []
            big.get(0, _builder(built, "0"))
            assert built == ["0"]
    finally:
        stamps.PerProcess.instances.remove(big)


def test_a_moved_stamp_rebuilds_the_value(cache):
    built: list[str] = []
    with stamps.snapshot():
        cache.get("k", _builder(built, "k"))
    stamps.bump("settings")
    with stamps.snapshot():
        cache.get("k", _builder(built, "k"))
        cache.get("k", _builder(built, "k"))
    assert built == ["k", "k"]
