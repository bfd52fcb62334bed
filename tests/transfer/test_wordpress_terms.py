"""Categories and tags with non-Latin slugs (WordPress keeps them %-encoded: ``%e6%bc%a2%e5%ad%97``). Every one of
them used to fold to the same ASCII slug (``untitled``), so the second was "matched" to the first and its posts
were filed under the wrong term. Each stays its own term, and each post keeps its own terms."""

from __future__ import annotations

import io
from pathlib import Path

from django.core.management import call_command

from content.entries import selectors
from emdash.actor import Actor
from taxonomy.models import Term
from taxonomy.selectors import assigned_terms

CATEGORIES = {
    "%e6%bc%a2%e5%ad%97": "漢字",
    "%e6%97%a5%e6%9c%ac": "日本",
    "%d0%bd%d0%be%d0%b2%d0%be%d1%81%d1%82%d0%b8": "новости",
}


def _export(path: Path) -> None:
    terms = "".join(
        f"<wp:category><wp:term_id>{n}</wp:term_id><wp:category_nicename>{slug}</wp:category_nicename>"
        f"<wp:cat_name>{name}</wp:cat_name></wp:category>"
        for n, (slug, name) in enumerate(CATEGORIES.items(), 10)
    ) + (
        "<wp:category><wp:term_id>20</wp:term_id><wp:category_nicename>news</wp:category_nicename>"
        "<wp:cat_name>News</wp:cat_name></wp:category>"
    )
    items = "".join(
        f"<item><title>{name} post</title><wp:post_id>{n}</wp:post_id><wp:post_type>post</wp:post_type>"
        f"<wp:post_name>p{n}</wp:post_name><wp:status>publish</wp:status>"
        f'<category domain="category" nicename="{slug}">{name}</category></item>'
        for n, (slug, name) in enumerate([*CATEGORIES.items(), ("news", "News")], 1)
    )
    path.write_text(
        '<rss xmlns:wp="http://wordpress.org/export/1.2/"><channel><wp:wxr_version>1.2</wp:wxr_version>'
        f"{terms}{items}</channel></rss>"
    )


def _import(path: Path) -> str:
    out = io.StringIO()
    call_command("emdash_import_wordpress", str(path), "--no-fetch", stdout=out)
    return out.getvalue()


def test_non_latin_categories_stay_apart(cms: None, tmp_path: Path) -> None:
    path = tmp_path / "nonlatin.xml"
    _export(path)
    report = _import(path)
    labels = sorted(Term.objects.filter(taxonomy__name="category").values_list("label", flat=True))
    assert labels == sorted([*CATEGORIES.values(), "News"]), report
    for n, name in enumerate([*CATEGORIES.values(), "News"], 1):
        entry = selectors.entry_get(actor=Actor.system(), collection="posts", id=f"p{n}")
        got = [t["label"] for t in assigned_terms(collection="posts", entry_id=entry.id).get("category", [])]
        assert got == [name], (n, got, report)
    again = _import(path)
    assert "created" not in again and Term.objects.filter(taxonomy__name="category").count() == 4, again


def test_a_menu_keeps_an_item_whose_link_menus_refuse(cms: None, tmp_path: Path) -> None:
    """WordPress themes give a dropdown's parent ``javascript:void(0)``; menus here refuse that scheme (and
    ``mailto:``). One such item used to drop the whole menu; it now links to ``#`` and its children stay nested."""
    from menus.models import Menu, MenuItem

    def nav(post_id: int, label: str, url: str, parent: int = 0) -> str:
        meta = {
            "_menu_item_type": "custom",
            "_menu_item_url": url,
            "_menu_item_object_id": str(post_id),
            "_menu_item_menu_item_parent": str(parent),
        }
        metas = "".join(
            f"<wp:postmeta><wp:meta_key>{k}</wp:meta_key><wp:meta_value>{v}</wp:meta_value></wp:postmeta>"
            for k, v in meta.items()
        )
        return (
            f"<item><title>{label}</title><wp:post_id>{post_id}</wp:post_id><wp:post_type>nav_menu_item</wp:post_type>"
            f"<wp:status>publish</wp:status><wp:menu_order>{post_id}</wp:menu_order>"
            f'<category domain="nav_menu" nicename="main">Main</category>{metas}</item>'
        )

    path = tmp_path / "menu.xml"
    path.write_text(
        '<rss xmlns:wp="http://wordpress.org/export/1.2/"><channel><wp:wxr_version>1.2</wp:wxr_version>'
        "<wp:term><wp:term_taxonomy>nav_menu</wp:term_taxonomy><wp:term_slug>main</wp:term_slug>"
        "<wp:term_name>Main</wp:term_name></wp:term>"
        + nav(1, "About", "javascript:void(0)")
        + nav(2, "Team", "https://example.com/team/", parent=1)
        + nav(3, "Mail us", "mailto:hi@example.com")
        + "</channel></rss>"
    )
    report = _import(path)
    items = list(MenuItem.objects.filter(menu=Menu.objects.get(name="main")).order_by("position"))
    assert [(i.label, i.custom_url) for i in items] == [
        ("About", "#"),
        ("Team", "https://example.com/team/"),
        ("Mail us", "#"),
    ], report
    assert items[1].parent_id == items[0].id and "javascript:void(0)" in report, report
