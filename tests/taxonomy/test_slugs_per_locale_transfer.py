"""Term slugs per locale through the site's doors in and out: an export/import keeps a French "news" beside the
English one (rows as they are, on SQLite and PostgreSQL), and a WordPress import matches its categories only with
the default locale's terms (it makes default-locale terms; another locale's term of that slug is another term)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from taxonomy.models import Term, TermAssignment
from taxonomy.services import term_create
from tests.factories import SYSTEM
from transfer.restore import site_import

DATA = Path(__file__).parents[1] / "transfer" / "wordpress_data"


@pytest.fixture(autouse=True)
def two_locales(settings: Any) -> None:
    settings.EMDASH = {**settings.EMDASH, "LOCALES": ["en", "fr"]}


def test_an_export_and_import_keep_both_locales_terms(cms: None, tmp_path: Path) -> None:
    english = term_create(actor=SYSTEM, taxonomy="category", slug="news", label="News")
    french = term_create(actor=SYSTEM, taxonomy="category", slug="news", label="Nouvelles", locale="fr")
    archive = tmp_path / "site.tar.gz"
    call_command("emdash_export", str(archive), stdout=io.StringIO())
    Term.objects.all().delete()
    site_import(str(archive))
    kept = {t.id: (t.slug, t.locale, t.label) for t in Term.objects.all()}
    assert kept == {english.id: ("news", "en", "News"), french.id: ("news", "fr", "Nouvelles")}


@pytest.mark.slow
def test_a_wordpress_import_leaves_another_locales_term_of_that_slug_alone(cms: None) -> None:
    french = term_create(actor=SYSTEM, taxonomy="category", slug="travel", label="Voyages", locale="fr")
    call_command("emdash_import_wordpress", str(DATA / "site.wxr"), "--no-fetch", stdout=io.StringIO())
    travel = {t.locale: t for t in Term.objects.filter(taxonomy__name="category", slug="travel")}
    assert travel["fr"].id == french.id and travel["fr"].label == "Voyages"
    assert travel["en"].label == "Travel"  # made by the import, in the default locale
    assert not TermAssignment.objects.filter(term=french).exists()
