"""Concurrent hierarchy writes with real threads: two moves that would close a cycle between them cannot
both succeed, and concurrent menu replacements never interleave."""

from __future__ import annotations

import pytest

from emdash.errors import ValidationError
from menus import selectors as menu_selectors
from menus import services as menu_services
from taxonomy import services
from taxonomy.models import Term
from tests.content.test_concurrency import run_in_threads
from tests.factories import SYSTEM

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _ancestors_loop(term: Term) -> bool:
    seen: set[str] = set()
    current: Term | None = term
    while current is not None:
        if current.pk in seen:
            return True
        seen.add(current.pk)
        current = current.parent
    return False


def test_crossed_moves_never_build_a_cycle() -> None:
    for round_ in range(5):
        a = services.term_create(actor=SYSTEM, taxonomy="category", slug=f"a{round_}", label="A")
        b = services.term_create(actor=SYSTEM, taxonomy="category", slug=f"b{round_}", label="B")
        results = run_in_threads(
            [
                lambda a=a, b=b: services.term_update(actor=SYSTEM, taxonomy="category", term=a.slug, parent_id=b.id),
                lambda a=a, b=b: services.term_update(actor=SYSTEM, taxonomy="category", term=b.slug, parent_id=a.id),
            ]
        )
        outcomes = sorted(kind for kind, _ in results)
        assert outcomes == ["error", "ok"], results
        error = next(value for kind, value in results if kind == "error")
        assert isinstance(error, ValidationError) and "cycle" in error.message
        for term in Term.objects.filter(slug__in=[a.slug, b.slug]):
            assert not _ancestors_loop(term)


def test_concurrent_menu_replacements_do_not_interleave() -> None:
    menu_services.menu_create(actor=SYSTEM, name="primary", label="Primary")
    lists = [[{"label": f"{who}{i}", "type": "custom", "customUrl": f"/{who}{i}/"} for i in range(20)] for who in "xy"]
    results = run_in_threads(
        [lambda items=items: menu_services.menu_set_items(actor=SYSTEM, name="primary", items=items) for items in lists]
    )
    assert [kind for kind, _ in results] == ["ok", "ok"], results
    labels = [i["label"] for i in menu_selectors.menu_get(actor=SYSTEM, name="primary")["items"]]
    assert labels in ([f"x{i}" for i in range(20)], [f"y{i}" for i in range(20)])


def test_concurrent_creates_without_a_slug_each_get_their_own() -> None:
    """Slugs made from one label at once: the loser of the unique index makes its slug again (no SLUG_CONFLICT)."""
    results = run_in_threads(
        [lambda: services.term_create(actor=SYSTEM, taxonomy="tag", label="Same Label") for _ in range(3)]
    )
    assert [kind for kind, _ in results] == ["ok"] * 3, results
    assert sorted(Term.objects.filter(taxonomy__name="tag").values_list("slug", flat=True)) == [
        "same-label",
        "same-label-2",
        "same-label-3",
    ]
