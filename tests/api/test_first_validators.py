"""A fresh site's reads carry Last-Modified from the start: every fixed change-stamp scope gets its row when the
database is migrated, so the taxonomies the migrations create (and terms, bylines, menus, settings not yet
touched) have a change time a client can revalidate with If-Modified-Since."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.test import Client

from content.models import ChangeStamp

first_stamps = importlib.import_module("content.migrations.0011_first_change_stamps")
READS = [
    "/_emdash/api/taxonomies",
    "/_emdash/api/taxonomies/category",
    "/_emdash/api/taxonomies/category/terms",
    "/_emdash/api/bylines",
    "/_emdash/api/menus",
]


@pytest.mark.parametrize("path", READS)
def test_a_migrated_site_answers_its_reads_with_last_modified(cms, path) -> None:
    ChangeStamp.objects.all().delete()  # as a site just migrated, before anything was written
    first_stamps.forwards(apps, None)
    response = Client().get(path)
    assert response.status_code == 200
    assert response["Last-Modified"] and response["ETag"]
    again = Client().get(path, HTTP_IF_MODIFIED_SINCE=response["Last-Modified"])
    assert again.status_code == 304


def test_the_rows_are_added_once_and_existing_ones_are_kept(cms) -> None:
    ChangeStamp.objects.all().delete()
    first_stamps.forwards(apps, None)
    ChangeStamp.objects.filter(key="menus").update(version=7)
    first_stamps.forwards(apps, None)
    assert ChangeStamp.objects.get(key="menus").version == 7
    assert set(ChangeStamp.objects.values_list("key", flat=True)) >= set(first_stamps.SCOPES)
