"""Locales and translation groups: translationOf, per-locale slugs, shared (non-translatable) fields."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings

from content.entries import selectors, services
from content.models import Revision
from content.schema import specs as schema
from emdash.conf import emdash_settings
from emdash.errors import EmDashError
from tests.factories import SYSTEM, make_collection

PRODUCT_FIELDS = [
    {"slug": "title", "label": "Title", "type": "string", "required": True},
    {"slug": "body", "label": "Body", "type": "text"},
    {"slug": "price", "label": "Price", "type": "integer", "translatable": False},
    {"slug": "featured", "label": "Featured", "type": "boolean", "translatable": False},
]


def fails(code: str, fn: Any, *args: Any, **kwargs: Any) -> EmDashError:
    """Call ``fn`` and check it raises the EmDash error ``code``; other exceptions propagate."""
    try:
        fn(*args, **kwargs)
    except EmDashError as exc:
        assert exc.code == code, (args, kwargs, exc.as_dict())
        return exc
    raise AssertionError(f"expected {code} from {fn.__name__}{args} {kwargs}")


def model(collection: str = "products") -> Any:
    return schema.get_collection(collection).model


def db_row(entry_id: str, collection: str = "products") -> Any:
    return model(collection).objects.get(pk=entry_id)


def counts(collection: str = "products") -> tuple[int, int]:
    return model(collection).objects.count(), Revision.objects.filter(collection=collection).count()


def create(collection: str = "products", **kwargs: Any) -> Any:
    return services.entry_create(actor=SYSTEM, collection=collection, **kwargs)


def update(entry_id: str, collection: str = "products", **kwargs: Any) -> Any:
    return services.entry_update(actor=SYSTEM, collection=collection, id=entry_id, **kwargs)


def get(ident: str, collection: str = "products", **kwargs: Any) -> Any:
    return selectors.entry_get(actor=SYSTEM, collection=collection, id=ident, **kwargs)


def data(entry_id: str, collection: str = "products") -> dict[str, Any]:
    return get(entry_id, collection).to_dict()["data"]


def translations(ident: str, collection: str = "products") -> dict[str, Any]:
    return selectors.entry_translations(actor=SYSTEM, collection=collection, id=ident)


@pytest.fixture
def i18n(cms):
    with override_settings(EMDASH={"LOCALES": ["en", "fr", "de"]}):
        assert emdash_settings.i18n_enabled
        make_collection("products", fields=PRODUCT_FIELDS)
        yield


def test_default_locale_is_the_first_configured(i18n):
    entry = create(data={"title": "Hello"})
    assert db_row(entry.id).locale == "en"
    assert entry.to_dict()["locale"] == "en"
    with override_settings(EMDASH={"LOCALES": ["fr", "en"]}):
        assert db_row(create(data={"title": "Bonjour"}).id).locale == "fr"


def test_translation_of_joins_the_source_group(i18n):
    en = create(data={"title": "Hello", "price": 10})
    fr = create(data={"title": "Bonjour"}, locale="fr", translation_of=en.id)
    de = create(data={"title": "Hallo"}, locale="de", translation_of=fr.id)  # any member will do
    for entry, locale in ((en, "en"), (fr, "fr"), (de, "de")):
        row = db_row(entry.id)
        assert row.translation_group == en.id
        assert row.locale == locale
        assert get(entry.id).to_dict()["translationGroup"] == en.id
    # A new independent item has its own group.
    other = create(data={"title": "Other"})
    assert db_row(other.id).translation_group == other.id


def test_translation_of_by_slug(i18n):
    en = create(data={"title": "Hello"})
    fr = create(data={"title": "Bonjour"}, locale="fr", translation_of="hello")
    assert db_row(fr.id).translation_group == en.id


def test_second_translation_in_the_same_locale_is_conflict(i18n):
    en = create(data={"title": "Hello"})
    create(data={"title": "Bonjour"}, locale="fr", translation_of=en.id)
    before = counts()
    fails("CONFLICT", create, data={"title": "Salut"}, locale="fr", translation_of=en.id)
    fails("CONFLICT", create, data={"title": "Hi"}, locale="en", translation_of=en.id)
    fails("CONFLICT", create, data={"title": "Hi"}, translation_of=en.id)  # default locale: en
    assert counts() == before


def test_translation_of_unknown_or_trashed_source(i18n):
    en = create(data={"title": "Hello"})
    before = counts()
    for ident in ("missing", "01ARZ3NDEKTSV4RRFFQ69G5FAV", 5):
        err = fails("VALIDATION_ERROR", create, data={"title": "x"}, locale="fr", translation_of=ident)
        assert "translationOf" in err.details["fields"]
    services.entry_trash(actor=SYSTEM, collection="products", id=en.id)
    err = fails("VALIDATION_ERROR", create, data={"title": "x"}, locale="fr", translation_of=en.id)
    assert "translationOf" in err.details["fields"]
    assert counts() == before


def test_translation_must_not_cross_collections(i18n):
    make_collection("pages", fields=[{"slug": "title", "label": "Title", "type": "string"}])
    page = create("pages", data={"title": "Page"})
    err = fails("VALIDATION_ERROR", create, data={"title": "x"}, locale="fr", translation_of=page.id)
    assert "translationOf" in err.details["fields"]


def test_unknown_locale(i18n):
    en = create(data={"title": "Hello"})
    before = counts()
    for locale in ["es", "EN", "en-US", "", 1, ["fr"], "fr\x00"]:
        err = fails("VALIDATION_ERROR", create, data={"title": "x"}, locale=locale)
        assert "locale" in err.details["fields"]
        fails("VALIDATION_ERROR", create, data={"title": "x"}, locale=locale, translation_of=en.id)
        assert "locale" in fails("VALIDATION_ERROR", get, "hello", locale=locale).details["fields"]
        assert (
            "locale"
            in fails(
                "VALIDATION_ERROR", selectors.entry_list, actor=SYSTEM, collection="products", locale=locale
            ).details["fields"]
        )
    assert counts() == before


def test_locales_other_than_the_default_need_configuring(cms):
    make_collection("products", fields=PRODUCT_FIELDS)
    assert not emdash_settings.i18n_enabled
    err = fails("VALIDATION_ERROR", create, data={"title": "x"}, locale="fr")
    assert "locale" in err.details["fields"]
    assert db_row(create(data={"title": "x"}, locale="en").id).locale == "en"
    assert counts()[0] == 1


def test_slugs_are_unique_per_locale(i18n):
    en = create(data={"title": "Hello"})
    fr = create(data={"title": "Hello"}, locale="fr", translation_of=en.id)
    assert db_row(en.id).slug == db_row(fr.id).slug == "hello"
    assert create(data={"title": "Hello"}).row.slug == "hello-2"
    assert create(data={"title": "Hello"}, locale="de").row.slug == "hello"
    # Explicit slugs conflict only within their locale.
    fails("SLUG_CONFLICT", create, data={"title": "x"}, slug="hello", locale="fr")
    renamed = create(data={"title": "Other"}, locale="fr")
    fails("SLUG_CONFLICT", update, renamed.id, slug="hello")
    update(renamed.id, slug="hello-2")  # taken in en only
    assert db_row(renamed.id).slug == "hello-2"


def test_slug_lookups_respect_locale(i18n):
    en = create(data={"title": "Hello", "body": "english"})
    fr = create(data={"title": "Hello", "body": "french"}, locale="fr", translation_of=en.id)
    fr_only = create(data={"title": "Bonjour"}, locale="fr")
    assert get("hello").id == en.id  # the default locale first
    assert get("hello", locale="en").id == en.id
    assert get("hello", locale="fr").id == fr.id
    assert get("hello", locale="fr").to_dict()["data"]["body"] == "french"
    fails("NOT_FOUND", get, "hello", locale="de")
    assert get("bonjour", locale="fr").id == fr_only.id
    fails("NOT_FOUND", get, "bonjour", locale="en")
    # An id is an id whatever the locale.
    assert get(fr.id, locale="en").id == fr.id


def test_list_by_locale(i18n):
    en = create(data={"title": "Hello"})
    fr = create(data={"title": "Bonjour"}, locale="fr", translation_of=en.id)
    listed = selectors.entry_list(actor=SYSTEM, collection="products", locale="fr")
    assert [i["id"] for i in listed.items] == [fr.id]
    assert listed.items[0]["translationGroup"] == en.id
    assert [i["id"] for i in selectors.entry_list(actor=SYSTEM, collection="products", locale="de").items] == []


def test_translation_starts_with_shared_values(i18n):
    en = create(data={"title": "Hello", "body": "english", "price": 10, "featured": True})
    fr = create(data={"title": "Bonjour"}, locale="fr", translation_of=en.id)
    assert data(fr.id) == {"title": "Bonjour", "body": None, "price": 10, "featured": True}
    row = db_row(fr.id)
    assert (row.f_price, row.f_featured, row.f_body) == (10, True, None)


def test_shared_fields_are_copied_across_the_group_on_update(i18n):
    en = create(data={"title": "Hello", "body": "english", "price": 10})
    fr = create(data={"title": "Bonjour", "body": "french"}, locale="fr", translation_of=en.id)
    de = create(data={"title": "Hallo"}, locale="de", translation_of=en.id)
    stranger = create(data={"title": "Other", "price": 1})
    fr_version = db_row(fr.id).version
    update(en.id, data={"price": 20, "title": "Hello again", "featured": True})
    for entry in (fr, de):
        row = db_row(entry.id)
        assert (row.f_price, row.f_featured) == (20, True)
    assert db_row(fr.id).version == fr_version + 1
    # Translatable fields stay per locale.
    assert db_row(fr.id).f_title == "Bonjour"
    assert db_row(fr.id).f_body == "french"
    assert db_row(de.id).f_title == "Hallo"
    assert db_row(stranger.id).f_price == 1
    # It works from any member of the group, and with None too.
    update(de.id, data={"price": None})
    assert {db_row(e.id).f_price for e in (en, fr, de)} == {None}
    # Editing only translatable fields touches nobody else.
    fr_version = db_row(fr.id).version
    update(en.id, data={"body": "changed"})
    assert db_row(fr.id).version == fr_version


def test_shared_fields_reach_published_siblings_as_drafts(i18n):
    en = create(data={"title": "Hello", "price": 10}, status="published")
    fr = create(data={"title": "Bonjour"}, locale="fr", translation_of=en.id, status="published")
    update(en.id, data={"price": 15})
    fr_body = get(fr.id).to_dict()
    assert fr_body["data"]["price"] == 15
    assert fr_body["liveData"]["price"] == 10
    assert db_row(fr.id).f_price == 10  # the live version changes only when the sibling is published
    services.entry_publish(actor=SYSTEM, collection="products", id=fr.id)
    assert db_row(fr.id).f_price == 15
    assert db_row(fr.id).f_title == "Bonjour"


def test_shared_fields_skip_trashed_siblings(i18n):
    en = create(data={"title": "Hello", "price": 10})
    fr = create(data={"title": "Bonjour"}, locale="fr", translation_of=en.id)
    services.entry_trash(actor=SYSTEM, collection="products", id=fr.id)
    version = db_row(fr.id).version
    update(en.id, data={"price": 99})
    assert db_row(fr.id).f_price == 10
    assert db_row(fr.id).version == version


def test_failed_update_does_not_touch_siblings(i18n):
    en = create(data={"title": "Hello", "price": 10})
    fr = create(data={"title": "Bonjour"}, locale="fr", translation_of=en.id)
    fails("VALIDATION_ERROR", update, en.id, data={"price": 20, "title": ""})
    fails("CONFLICT", update, en.id, data={"price": 20}, rev="stale")
    assert db_row(fr.id).f_price == 10
    assert db_row(en.id).f_price == 10


def test_entry_translations(i18n):
    en = create(data={"title": "Hello"}, status="published")
    fr = create(data={"title": "Bonjour"}, locale="fr", translation_of=en.id)
    de = create(data={"title": "Hallo"}, locale="de", translation_of=en.id)
    result = translations(fr.id)
    assert result["translationGroup"] == en.id
    assert [t["locale"] for t in result["translations"]] == ["de", "en", "fr"]
    by_locale = {t["locale"]: t for t in result["translations"]}
    assert by_locale["en"] == {
        "id": en.id,
        "locale": "en",
        "slug": "hello",
        "status": "published",
        "updatedAt": get(en.id).to_dict()["updatedAt"],
    }
    assert by_locale["fr"]["id"] == fr.id and by_locale["fr"]["status"] == "draft"
    assert translations("hello") == translations(en.id) == result
    services.entry_trash(actor=SYSTEM, collection="products", id=de.id)
    assert [t["locale"] for t in translations(en.id)["translations"]] == ["en", "fr"]
    fails("NOT_FOUND", translations, de.id)
    fails("NOT_FOUND", translations, "missing")


def test_entry_translations_of_a_lone_item(i18n):
    entry = create(data={"title": "Solo"})
    result = translations(entry.id)
    assert result["translationGroup"] == entry.id
    assert [t["id"] for t in result["translations"]] == [entry.id]


def test_duplicate_keeps_the_locale_and_starts_a_new_group(i18n):
    en = create(data={"title": "Hello", "price": 3})
    fr = create(data={"title": "Bonjour"}, locale="fr", translation_of=en.id)
    copy = services.entry_duplicate(actor=SYSTEM, collection="products", id=fr.id)
    row = db_row(copy.id)
    assert row.locale == "fr"
    assert row.translation_group == copy.id
    assert row.f_title == "Bonjour (Copy)"
    assert row.f_price == 3
    assert [t["id"] for t in translations(en.id)["translations"]] == [en.id, fr.id]
