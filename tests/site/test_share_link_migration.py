"""The share-link model moved from public_site to content: existing links survive the migration (and its
reverse), on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = [("content", "0003_search"), ("public_site", "0001_preview_share")]


def _migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection)  # a fresh loader sees the new applied set


@pytest.mark.django_db(transaction=True)
def test_existing_share_links_move_to_content_with_their_rows() -> None:
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        old = _migrate(BEFORE).loader.project_state(BEFORE).apps.get_model("public_site", "PreviewShare")
        expires = timezone.now() + timedelta(days=1)
        old.objects.create(collection="posts", entry_id="01ABC", token_hash="h" * 64, expires_at=expires)
        assert "public_site_previewshare" in connection.introspection.table_names()

        new_state = _migrate(latest).loader.project_state(latest)
        moved = new_state.apps.get_model("content", "PreviewShare")
        assert moved._meta.db_table == "content_previewshare"
        assert "public_site_previewshare" not in connection.introspection.table_names()
        row = moved.objects.get()
        assert (row.collection, row.entry_id, row.token_hash, row.expires_at) == ("posts", "01ABC", "h" * 64, expires)
        assert ("public_site", "previewshare") not in new_state.models

        # and back: the reverse puts the row where the old code looks for it
        back = _migrate(BEFORE).loader.project_state(BEFORE).apps.get_model("public_site", "PreviewShare")
        assert back.objects.get().token_hash == "h" * 64
    finally:
        _migrate(latest)
