"""SPEC 12: importing a WordPress export (WXR). The project's own small export covers every mapping; WordPress's
published theme test data (wordpress_data/NOTICE) checks the importer against what WordPress really writes."""

from __future__ import annotations

import io
import re
import threading
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from PIL import Image

from content.models import Collection, EntrySeo, Redirect
from content.schema import specs as schema
from emdash.actor import Actor
from media.models import MediaItem
from media.storage import open_file
from menus.models import Menu, MenuItem
from taxonomy.models import Term, TermAssignment
from transfer.models import WordPressLink

DATA = Path(__file__).parent / "wordpress_data"
pytestmark = pytest.mark.slow


def run(path: Path, *args: str) -> str:
    out = io.StringIO()
    call_command("emdash_import_wordpress", str(path), "--no-fetch", *args, stdout=out)
    return out.getvalue()


@pytest.fixture
def uploads(tmp_path: Path) -> Path:
    """A local copy of wp-content/uploads holding the small site's one image."""
    (tmp_path / "uploads/2020/01").mkdir(parents=True)
    Image.new("RGB", (30, 30), (255, 0, 0)).save(tmp_path / "uploads/2020/01/red.png")
    return tmp_path / "uploads"


def rows(collection: str) -> dict[str, Any]:
    return {row.slug: row for row in schema.current(fresh=True).get(collection).model.objects.all()}


def site_counts() -> dict[str, int]:
    counts = {
        f"entries:{slug}": spec.model.objects.count() for slug, spec in schema.current(fresh=True).collections.items()
    }
    for model in (MediaItem, Term, TermAssignment, Menu, MenuItem, Redirect, EntrySeo, WordPressLink):
        counts[model.__name__] = model.objects.count()
    return counts


def test_every_mapping_of_the_small_site(cms: None, uploads: Path, client: Any) -> None:
    report = run(DATA / "site.wxr", "--media-dir", str(uploads))
    assert "created 5 posts" in report and "created 2 pages" in report and "created 1 product" in report
    posts, pages = rows("posts"), rows("pages")
    formatting = posts["formatting"]
    assert formatting.status == "published" and formatting.f_sticky is True
    assert formatting.published_at == formatting.created_at == datetime(2020, 1, 2, 8, 30, tzinfo=UTC)
    assert posts["classic"].f_sticky is False
    assert posts["private-thoughts"].status == "draft" and posts["locked"].status == "draft"
    assert posts["coming-soon"].status == "scheduled"
    assert posts["coming-soon"].scheduled_at == datetime(2040, 6, 1, 12, tzinfo=UTC)
    assert rows("product")["blue-widget"].status == "draft"
    assert pages["team"].f_parent == pages["about"].id
    europe = Term.objects.get(taxonomy__name="category", slug="europe")
    assert europe.parent is not None and europe.parent.slug == "travel"
    assigned = set(TermAssignment.objects.filter(entry_id=formatting.id).values_list("term__slug", flat=True))
    assert assigned == {"europe", "trains"}
    image = MediaItem.objects.get()
    with open_file(image.storage_key) as handle:
        assert handle.read() == (uploads / "2020/01/red.png").read_bytes()
    assert image.alt == "A red square" and formatting.f_featured_image == {"id": image.id}
    assert formatting.f_excerpt == "Every format"
    seo = {s.entry_id: s.data for s in EntrySeo.objects.all()}
    assert seo[formatting.id] == {
        "title": "Formatting \u2013 Small Test Site",
        "description": "How every format is imported",
    }
    assert seo[posts["classic"].id] == {"title": "Classic, by RankMath", "description": "Described by RankMath"}
    menu = Menu.objects.get(name="main_menu")
    items = list(menu.items.order_by("position"))
    assert [(i.label, i.type) for i in items] == [("About", "page"), ("Europe", "taxonomy"), ("Elsewhere", "custom")]
    assert items[0].reference_id == pages["about"].id and items[1].parent_id == items[0].id
    assert items[1].reference_id == europe.id and items[2].target == "_blank"
    response = client.get("/2020/01/formatting/")
    assert response.status_code == 301 and response["Location"] == "/posts/formatting/"
    assert client.get("/about/team/")["Location"] == "/pages/team/"


def test_a_formatting_post_becomes_portable_text(cms: None, uploads: Path) -> None:
    run(DATA / "site.wxr", "--media-dir", str(uploads))
    body = rows("posts")["formatting"].f_body
    shape = [(b["_type"], b.get("style"), b.get("listItem")) for b in body]
    assert shape == [
        ("block", "h2", None),
        ("block", "normal", None),
        ("block", "normal", "bullet"),
        ("block", "normal", "bullet"),
        ("block", "normal", "number"),
        ("block", "blockquote", None),
        ("code", None, None),
        ("image", None, None),
        ("code", None, None),
        ("code", None, None),
    ]
    spans = [(s["text"], s["marks"]) for s in body[1]["children"]]
    link = body[1]["markDefs"][0]
    assert link["_type"] == "link" and link["href"] == "https://example.org/"
    assert spans == [
        ("Plain, ", []),
        ("bold", ["strong"]),
        (", ", []),
        ("italic", ["em"]),
        (", ", []),
        ("code", ["code"]),
        (" and ", []),
        ("a link", [link["_key"]]),
        (".", []),
    ]
    assert body[6]["code"] == 'if a < b:\n    print("yes")'
    assert body[7]["asset"] == {"id": MediaItem.objects.get().id}
    assert body[8]["language"] == "html" and "<table>" in body[8]["code"]
    assert "wp:latest-posts" in body[9]["code"]  # a dynamic block, kept rather than dropped
    classic = rows("posts")["classic"].f_body
    assert [[s["text"] for s in b["children"]] for b in classic] == [
        ["First paragraph with ", "bold", "."],
        ["Second paragraph\nwith a line break."],
    ]


def test_importing_twice_creates_nothing_new(cms: None, uploads: Path) -> None:
    run(DATA / "site.wxr", "--media-dir", str(uploads))
    before = site_counts()
    report = run(DATA / "site.wxr", "--media-dir", str(uploads))
    assert site_counts() == before
    assert "created" not in report and "already imported: 5 posts" in report


def test_theme_unit_test_data(cms: None, client: Any) -> None:
    report = run(DATA / "themeunittestdata.wordpress.xml")
    posts, pages = rows("posts"), rows("pages")
    assert len(posts) == 58 and len(pages) == 21
    assert Menu.objects.count() == 6 and Menu.objects.filter(name="all_pages").exists()
    assert Term.objects.filter(taxonomy__name="category").count() > 60
    assert posts["scheduled"].status == "scheduled" and posts["draft"].status == "draft"
    assert posts["template-sticky"].f_sticky is True
    assert posts["template-password-protected"].status == "draft"
    assert posts["template-sticky"].published_at == datetime(2012, 1, 7, 14, 7, 21, tzinfo=UTC)
    assert pages["level-3"].f_parent == pages["level-2"].id and pages["level-2"].f_parent == pages["level-1"].id
    assert "skipped attachment" in report  # --no-fetch and no --media-dir: reported, not silently lost
    assert client.get("/2012/01/07/template-sticky/")["Location"] == "/posts/template-sticky/"
    before = site_counts()
    run(DATA / "themeunittestdata.wordpress.xml")
    assert site_counts() == before


def test_every_core_block_kind_imports(cms: None) -> None:
    report = run(DATA / "64-block-test-data.xml")
    assert schema.current(fresh=True).get("posts").model.objects.count() == 61
    assert re.search(r"skipped post \d", report) is None  # every post's Portable Text passed the strict checker


XXE = """<?xml version="1.0"?>
<!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<rss xmlns:wp="http://wordpress.org/export/1.2/"><channel><wp:wxr_version>1.2</wp:wxr_version>
<item><title>&xxe;</title><wp:post_id>1</wp:post_id><wp:post_type>post</wp:post_type></item></channel></rss>"""
BOMB = """<?xml version="1.0"?>
<!DOCTYPE rss [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>
<rss xmlns:wp="http://wordpress.org/export/1.2/"><channel><wp:wxr_version>1.2</wp:wxr_version>
<item><title>&d;</title><wp:post_id>1</wp:post_id><wp:post_type>post</wp:post_type></item></channel></rss>"""


@pytest.mark.parametrize("body", [XXE, BOMB, "<rss><channel><item>", "<rss><channel></channel></rss>"])
def test_unsafe_or_broken_files_are_refused_writing_nothing(cms: None, tmp_path: Path, body: str) -> None:
    path = tmp_path / "bad.xml"
    path.write_text(body)
    with pytest.raises(CommandError, match="import refused, nothing was written"):
        run(path)
    assert Collection.objects.count() == 0 and WordPressLink.objects.count() == 0


def test_a_huge_attribute_is_parsed_in_few_large_feeds(cms: None, tmp_path: Path, monkeypatch: Any) -> None:
    """A 24 MiB attribute (a hostile or broken file) reaches the parser in a handful of feeds: expat before 2.6
    rescans an unfinished tag on every feed, so 16 KiB feeds (1,500 of them here) cost a minute of CPU."""
    from transfer.wordpress import wxr

    path = tmp_path / "huge.xml"
    path.write_text(
        '<rss xmlns:wp="http://wordpress.org/export/1.2/"><channel junk="' + "A" * (24 << 20) + '">'
        "<wp:wxr_version>1.2</wp:wxr_version><item><title>Kept</title><wp:post_id>1</wp:post_id>"
        "<wp:post_type>post</wp:post_type><wp:status>draft</wp:status></item></channel></rss>"
    )
    feeds: list[int] = []
    original = wxr.LargeReads.read

    def counted(self: Any, size: int = -1) -> bytes:
        data = original(self, size)
        feeds.append(len(data))
        return data

    monkeypatch.setattr(wxr.LargeReads, "read", counted)
    site = wxr.read(str(path))
    assert [item.title for item in site.items] == ["Kept"]
    assert len(feeds) <= 8, f"{len(feeds)} feeds"


def test_a_block_with_attributes_nested_past_python_s_recursion_is_kept_as_html(cms: None, tmp_path: Path) -> None:
    """Block attributes are JSON; 100,000 nested arrays overflow the JSON decoder's recursion. The post still
    imports (the block kept as HTML in a code block, as unknown blocks are), never a traceback."""
    path = tmp_path / "deep.xml"
    deep = '<!-- wp:core/odd {"a":' + "[" * 100_000 + " -->odd<!-- /wp:core/odd --><!-- wp:paragraph --><p>Fine</p>"
    path.write_text(
        '<rss xmlns:wp="http://wordpress.org/export/1.2/" xmlns:content="http://purl.org/rss/1.0/modules/content/">'
        "<channel><wp:wxr_version>1.2</wp:wxr_version><item><title>Deep</title><wp:post_id>9</wp:post_id>"
        "<wp:post_type>post</wp:post_type><wp:status>draft</wp:status><wp:post_name>deep</wp:post_name>"
        f"<content:encoded><![CDATA[{deep}]]></content:encoded></item></channel></rss>"
    )
    report = run(path)
    assert "created 1 posts" in report and "block 'odd' kept as HTML" in report, report
    body = rows("posts")["deep"].f_body
    assert [b["_type"] for b in body] == ["code", "block"] and body[1]["children"][0]["text"] == "Fine"


def test_plain_wordpress_links_redirect_to_the_imported_items(cms: None, uploads: Path, client: Any) -> None:
    """?p=ID and ?page_id=ID answer on every WordPress site whatever its permalinks: query-aware redirects."""
    run(DATA / "site.wxr", "--media-dir", str(uploads))
    pages = rows("pages")
    response = client.get("/?p=20")
    assert response.status_code == 301 and response["Location"] == "/posts/formatting/"
    # Post 22 was private (imported as a draft): its old link must not reveal the new slug (see the next test).
    assert client.get("/?p=22").status_code != 301
    assert client.get("/?page_id=30")["Location"] == f"/pages/{pages['about'].slug}/"
    assert client.get("/?utm_source=feed&p=20")["Location"] == "/posts/formatting/"  # other parameters ignored
    assert client.get("/?p=99999").status_code != 301  # an unknown id: the page answers as before
    count = Redirect.objects.count()
    run(DATA / "site.wxr", "--media-dir", str(uploads))
    assert Redirect.objects.count() == count  # importing again adds no redirect


def test_old_links_of_unpublished_items_answer_as_if_no_redirect_existed(cms: None, uploads: Path, client: Any) -> None:
    """A private or draft WordPress post is imported as a draft; an anonymous visitor following its old permalink
    must get the 404 of an unknown path, not a 301 naming the new slug. Once it is published, the redirect answers;
    unpublished or trashed again, it stops."""
    from content.entries import services
    from tests.factories import SYSTEM

    run(DATA / "site.wxr", "--media-dir", str(uploads))
    private = rows("posts")["private-thoughts"]
    sources = set(Redirect.objects.filter(entry_id=private.id).values_list("source", flat=True))
    assert "/?p=22" in sources, sources
    pretty = "/private-thoughts/"
    Redirect.objects.create(id="01JZZZZZZZZZZZZZZZZZZZZZZ1", source=pretty, target="/posts/x/", entry_id="")

    def answers() -> list[Any]:
        return [client.get("/?p=22"), client.get("/?p=22&utm_source=feed")]

    for response in answers():
        assert response.status_code != 301 and private.slug not in response.get("Location", ""), response
    assert client.get("/?p=20").status_code == 301  # a published post's old link still answers

    services.entry_publish(actor=SYSTEM, collection="posts", id=private.id)
    for response in answers():
        assert response.status_code == 301 and response["Location"] == f"/posts/{private.slug}/"
    services.entry_unpublish(actor=SYSTEM, collection="posts", id=private.id)
    assert all(response.status_code != 301 for response in answers())
    services.entry_publish(actor=SYSTEM, collection="posts", id=private.id)
    services.entry_trash(actor=SYSTEM, collection="posts", id=private.id)
    assert all(response.status_code != 301 for response in answers())
    assert client.get(pretty).status_code == 301  # a redirect an editor made (naming no item) is not affected


def test_an_old_pretty_permalink_of_a_draft_is_a_404(cms: None, tmp_path: Path, client: Any) -> None:
    """The pretty permalink (/2020/01/secret/) of a draft answers 404 like any unknown path."""
    path = tmp_path / "draft.xml"
    path.write_text(
        '<rss xmlns:wp="http://wordpress.org/export/1.2/"><channel><wp:wxr_version>1.2</wp:wxr_version>'
        "<link>https://d.example</link><item><title>Secret</title><link>https://d.example/2020/01/secret/</link>"
        "<wp:post_id>5</wp:post_id><wp:post_type>post</wp:post_type><wp:status>draft</wp:status>"
        "<wp:post_name>secret</wp:post_name></item></channel></rss>"
    )
    assert "created 2 redirects" in run(path)
    assert client.get("/2020/01/secret/").status_code == 404
    assert client.get("/?p=5").status_code == 200  # the home page, as for any unknown id


def test_imported_revisions_say_they_came_through_the_import(cms: None, uploads: Path) -> None:
    """SPEC 9.3: a WordPress import's revisions record door "import" (the command's own door would be "cli")."""
    from content.models import Revision

    run(DATA / "site.wxr", "--media-dir", str(uploads))
    doors = set(Revision.objects.values_list("source", flat=True))
    assert doors == {"import"}, doors


def test_authors_become_bylines_credited_on_their_items(cms: None, uploads: Path, client: Any) -> None:
    """SPEC 10/12: a WordPress author is a byline (linked to the user with the same email, else a guest), credited
    as the primary byline of every item they wrote; importing again makes no second byline."""
    from accounts.models import User
    from bylines.models import Byline, ContentByline

    run(DATA / "site.wxr", "--media-dir", str(uploads))
    ann = Byline.objects.get()
    assert (ann.slug, ann.display_name, ann.user_id, ann.is_guest) == ("ann", "Ann Writer", None, True)
    formatting = rows("posts")["formatting"]
    credits = ContentByline.objects.filter(collection="posts", entry_id=formatting.id)
    assert [(c.byline_id, c.position) for c in credits] == [(ann.id, 0)]
    read = client.get(f"/_emdash/api/content/posts/{formatting.id}").json()
    item = read.get("item", read)
    assert item["byline"]["displayName"] == "Ann Writer", item
    run(DATA / "site.wxr", "--media-dir", str(uploads))
    assert Byline.objects.count() == 1

    # With --create-users the author's byline is the new user's own.
    Byline.objects.all().delete()
    WordPressLink.objects.filter(kind="author").delete()
    run(DATA / "site.wxr", "--media-dir", str(uploads), "--create-users")
    user = User.objects.get(email="ann@small.example.com")
    made = Byline.objects.get()
    assert (made.user_id, made.is_guest) == (user.pk, False)


def test_a_post_type_that_cannot_be_a_collection_is_skipped_and_reported(cms: None, tmp_path: Path) -> None:
    """WordPress allows post types such as `2col` (a digit first) or `search`; neither can name a collection.
    Their items are skipped and reported; the rest of the file imports (never a traceback)."""

    def item(post_id: int, post_type: str, name: str) -> str:
        return (
            f"<item><title>{name}</title><wp:post_id>{post_id}</wp:post_id><wp:post_type>{post_type}</wp:post_type>"
            f"<wp:status>publish</wp:status><wp:post_name>{name}</wp:post_name></item>"
        )

    path = tmp_path / "types.xml"
    path.write_text(
        '<rss xmlns:wp="http://wordpress.org/export/1.2/"><channel><wp:wxr_version>1.2</wp:wxr_version>'
        + item(1, "post", "kept")
        + item(2, "2col", "digit-first")
        + item(3, "search", "reserved")
        + item(4, "recipe", "cake")
        + "</channel></rss>"
    )
    report = run(path)
    assert "created 1 posts" in report and "created 1 recipe" in report, report
    assert "skipped post type 2col" in report and "skipped post type search" in report, report
    assert set(schema.current(fresh=True).collections) == {"posts", "pages", "recipe"}


def test_an_old_non_ascii_permalink_redirects_to_the_imported_item(cms: None, tmp_path: Path, client: Any) -> None:
    """WordPress writes a non-Latin permalink %-encoded in lower case (/%d0%bf%d1%80.../); browsers and Django
    send it in upper case or decoded, so the stored source must match both."""
    path = tmp_path / "ru.xml"
    path.write_text(
        '<rss xmlns:wp="http://wordpress.org/export/1.2/"><channel><wp:wxr_version>1.2</wp:wxr_version>'
        "<link>https://ru.example</link><item><title>Privet</title>"
        "<link>https://ru.example/%d0%bf%d1%80%d0%b8%d0%b2%d0%b5%d1%82/</link>"
        "<wp:post_id>5</wp:post_id><wp:post_type>post</wp:post_type><wp:status>publish</wp:status>"
        "<wp:post_name>%d0%bf%d1%80%d0%b8%d0%b2%d0%b5%d1%82</wp:post_name></item></channel></rss>"
    )
    assert "created 2 redirects" in run(path)
    new = "/posts/" + next(iter(rows("posts"))) + "/"
    for old in ("/%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82/", "/%d0%bf%d1%80%d0%b8%d0%b2%d0%b5%d1%82/", "/привет/"):
        response = client.get(old)
        assert response.status_code == 301 and response["Location"] == new, (old, response.status_code)
    again = run(path)
    assert "created" not in again and "skipped" not in again, again


def test_an_import_racing_another_of_the_same_file_creates_no_duplicates(
    cms: None, uploads: Path, monkeypatch: Any
) -> None:
    """Two imports of one file at once (a double-clicked Import, a retried task): the second read the link table
    before the first wrote it. Each item's link is written in the item's transaction, so the loser rolls its copy
    back and counts the item as already imported."""
    from transfer.wordpress import report as report_module

    run(DATA / "site.wxr", "--media-dir", str(uploads))
    before = site_counts()
    monkeypatch.setattr(report_module.Links, "__post_init__", lambda self: None)  # read before the first wrote
    again = run(DATA / "site.wxr", "--media-dir", str(uploads))
    assert site_counts()["entries:posts"] == before["entries:posts"], again
    assert site_counts()["entries:pages"] == before["entries:pages"], again
    assert "already imported: 5 posts" in again, again


def test_two_imports_of_one_file_at_once_make_each_media_item_and_byline_once(
    cms: None, uploads: Path, monkeypatch: Any
) -> None:
    """Two imports of one file in two threads (each its own connection), both having read the link table before
    either wrote it, and both having read the attachment's bytes before either stored them: each media item and
    each byline exists once, like the items, and the loser leaves no stored file behind."""
    from bylines.models import Byline
    from media import storage as store
    from tests.content.test_concurrency import run_in_threads
    from transfer.wordpress import media_files
    from transfer.wordpress import report as report_module
    from transfer.wordpress.collections import attach_taxonomies, ensure_collection
    from transfer.wordpress.importer import import_wordpress

    actor = Actor.system()
    collections = ["posts", "pages", "product"]  # made first: creating one twice at once is another matter
    for slug in collections:
        ensure_collection(slug, actor)
    attach_taxonomies(collections, actor)
    both_read = threading.Barrier(2, timeout=30)
    both_have_bytes = threading.Barrier(2, timeout=30)
    read_links, read_file = report_module.Links.__post_init__, media_files._local

    def links_read_by_both(self: Any) -> None:
        read_links(self)
        both_read.wait()

    def bytes_read_by_both(media_dir: Path, url: str) -> bytes | None:
        found = read_file(media_dir, url)
        both_have_bytes.wait()
        return found

    monkeypatch.setattr(report_module.Links, "__post_init__", links_read_by_both)
    monkeypatch.setattr(media_files, "_local", bytes_read_by_both)
    folder = f"{datetime.now(UTC):%Y/%m}"

    def stored_files() -> set[str]:
        return set(store.storage().listdir(folder)[1]) if store.storage().exists(folder) else set()

    before = stored_files()
    one = partial(import_wordpress, str(DATA / "site.wxr"), actor=actor, media_dir=uploads, fetch=False)
    results = run_in_threads([one, one])
    assert [state for state, _ in results] == ["ok", "ok"], results
    reports = [report.to_dict() for _, report in results]
    assert MediaItem.objects.count() == 1 and Byline.objects.count() == 1, reports
    assert sum(r["created"].get("media", 0) for r in reports) == 1, reports
    assert sum(r["created"].get("bylines", 0) for r in reports) == 1, reports
    assert site_counts()["entries:posts"] == 5, reports
    assert not [s for r in reports for s in r["skipped"] if s["what"].startswith("redirect")], reports
    assert site_counts()["Menu"] == 1, reports
    assert stored_files() - before == {MediaItem.objects.get().storage_key.rpartition("/")[2]}


def test_an_author_with_an_invalid_email_gets_no_user(cms: None, tmp_path: Path) -> None:
    """--create-users makes accounts from the export's emails; one that is not an address makes none (the author
    is still credited, by a guest byline) and the report says why."""
    from accounts.models import User

    path = tmp_path / "authors.xml"
    path.write_text(
        '<rss xmlns:wp="http://wordpress.org/export/1.2/" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>'
        "<wp:wxr_version>1.2</wp:wxr_version><wp:author><wp:author_login>bob</wp:author_login>"
        "<wp:author_email>not-an-email</wp:author_email><wp:author_display_name>Bob</wp:author_display_name>"
        "</wp:author><item><title>By Bob</title><dc:creator>bob</dc:creator><wp:post_id>1</wp:post_id>"
        "<wp:post_type>post</wp:post_type><wp:status>publish</wp:status></item></channel></rss>"
    )
    report = run(path, "--create-users")
    assert not User.objects.filter(email__iexact="not-an-email").exists()
    assert "created 1 posts" in report and "not-an-email" in report and "created 1 users" not in report, report


def test_an_attachment_url_with_an_encoded_nul_is_skipped_not_a_crash(cms: None, uploads: Path, tmp_path: Path) -> None:
    """``%00`` in an attachment URL decodes to a NUL byte, which no file path may hold: with --media-dir the
    importer looked the file up anyway and died with Python's "embedded null byte" and a traceback. The attachment
    is now skipped and reported like any other file that is not in the folder, and the rest is imported."""
    path = tmp_path / "nul.xml"
    path.write_text(
        '<rss xmlns:wp="http://wordpress.org/export/1.2/"><channel><wp:wxr_version>1.2</wp:wxr_version>'
        "<item><title>Evil</title><wp:post_id>7</wp:post_id><wp:post_type>attachment</wp:post_type>"
        "<wp:status>inherit</wp:status>"
        "<wp:attachment_url>https://s.example.com/wp-content/uploads/2020/01/red.png%00.txt</wp:attachment_url>"
        "</item><item><title>Kept</title><wp:post_id>8</wp:post_id><wp:post_type>post</wp:post_type>"
        "<wp:status>publish</wp:status></item></channel></rss>"
    )
    report = run(path, "--media-dir", str(uploads))
    assert "created 1 posts" in report and "skipped attachment 7" in report, report
    assert MediaItem.objects.count() == 0
