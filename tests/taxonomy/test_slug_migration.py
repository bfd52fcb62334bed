"""Migration 0004 (term slugs unique per taxonomy and locale) keeps existing terms and their assignments, on SQLite
and PostgreSQL; after it a French "news" may sit beside the English one, and the reverse restores the old rule."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("taxonomy", "0003_term_translations")]


def _migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection)  # a fresh loader sees the new applied set


@pytest.mark.django_db(transaction=True)
def test_existing_terms_survive_and_slugs_become_per_locale() -> None:
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        old = _migrate(BEFORE).loader.project_state(BEFORE).apps
        definition = old.get_model("taxonomy", "TaxonomyDefinition").objects.get(name="category")
        term_model = old.get_model("taxonomy", "Term")
        news = term_model.objects.create(
            id="01HZZZZZZZZZZZZZZZZZZZZZZA", taxonomy=definition, slug="news", label="News", locale="en",
            translation_group="01HZZZZZZZZZZZZZZZZZZZZZZA",
        )  # fmt: skip
        old.get_model("taxonomy", "TermAssignment").objects.create(term=news, collection="posts", entry_id="E1")
        with pytest.raises(IntegrityError), transaction.atomic():  # the old rule: one "news" per taxonomy
            term_model.objects.create(id="01HZZZZZZZZZZZZZZZZZZZZZZB", taxonomy=definition, slug="news", locale="fr")

        new = _migrate(latest).loader.project_state(latest).apps
        term_model = new.get_model("taxonomy", "Term")
        kept = term_model.objects.get(slug="news")
        assert (kept.id, kept.label, kept.locale) == (news.id, "News", "en")
        assert new.get_model("taxonomy", "TermAssignment").objects.get().term_id == news.id
        term_model.objects.create(
            id="01HZZZZZZZZZZZZZZZZZZZZZZC", taxonomy_id=definition.pk, slug="news", label="Nouvelles", locale="fr"
        )
        with pytest.raises(IntegrityError), transaction.atomic():  # still one per taxonomy and locale
            term_model.objects.create(
                id="01HZZZZZZZZZZZZZZZZZZZZZZD", taxonomy_id=definition.pk, slug="news", label="X", locale="fr"
            )
        term_model.objects.filter(locale="fr").delete()  # the reverse needs slugs unique per taxonomy again
        back = _migrate(BEFORE).loader.project_state(BEFORE).apps
        assert back.get_model("taxonomy", "Term").objects.get().slug == "news"
    finally:
        _migrate(latest)
        with connection.cursor() as cursor:  # a transactional test leaves the rows it made
            cursor.execute("DELETE FROM taxonomy_termassignment")
            cursor.execute("DELETE FROM taxonomy_term")
