"""Numbers in query strings, paths, forms and import files: "²" and "٣" pass ``str.isdigit()`` (``int()`` refuses the
first), and a 20-digit id passes it too but no SQLite integer holds it. Each door answers such input as it answers
any other bad number (404, an empty filter, VALIDATION_ERROR, a skipped import line), never with a 500."""

from __future__ import annotations

import io
from pathlib import Path

import orjson
import pytest
from django.core.management import call_command
from django.test import Client

from accounts.tokens import token_create
from content.entries import services
from content.schema import specs as schema
from emdash.actor import Actor
from emdash.numbers import plain_int
from menus.models import Menu, MenuItem
from tests.factories import make_collection, make_user

FIELDS = [{"slug": "title", "label": "Title", "type": "string", "required": True}]
ODD = ["²", "³", "٣", "9" * 20, "9" * 5000, "-1", " 7", "7 ", "0x10", "1_000"]


def test_plain_int_takes_only_ascii_digits_that_fit_a_database_integer() -> None:
    assert [plain_int(v) for v in ("0", "7", "0042", str(2**63 - 1))] == [0, 7, 42, 2**63 - 1]
    assert [plain_int(v) for v in [*ODD, "", str(2**63), None, 7]] == [None] * (len(ODD) + 4)
    assert plain_int("100", 99) is None and plain_int("99", 99) == 99


@pytest.fixture
def site(cms: None) -> tuple[Client, str]:
    make_collection("posts", fields=FIELDS)
    entry = services.entry_create(actor=Actor.system(), collection="posts", data={"title": "Hello"})
    services.entry_publish(actor=Actor.system(), collection="posts", id=entry.id)
    admin = make_user("admin")
    return Client(), token_create(user=admin, name="t", scopes="admin").raw


@pytest.mark.parametrize("odd", ODD)
def test_page_numbers_and_rendition_sizes(site: tuple[Client, str], odd: str) -> None:
    client, _ = site
    for path in ("/", "/posts/"):
        assert client.get(path, {"page": odd}).status_code == 404, (path, odd)
    response = client.get(f"/_emdash/media/01J00000000000000000000000/{odd}x0/cover.webp")
    assert response.status_code in (400, 404), (odd, response.status_code)


@pytest.mark.parametrize("odd", ODD)
def test_ids_in_the_api(site: tuple[Client, str], odd: str) -> None:
    client, token = site
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    audit = client.get("/_emdash/api/audit", {"actor": odd[:254]}, **auth)
    assert audit.status_code == 200 and audit.json()["items"] == [], (odd, audit.status_code)
    revoke = client.delete(f"/_emdash/api/tokens/{odd[:20]}", **auth)
    assert revoke.status_code in (400, 404), (odd, revoke.status_code)
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "changes_revert", "arguments": {"by": {"user": odd[:254]}, "since": "2020-01-01T00:00:00Z"}},
    }
    answer = client.post("/_emdash/api/mcp", orjson.dumps(call), content_type="application/json", **auth)
    assert answer.status_code == 200, (odd, answer.status_code)
    assert answer.json()["result"]["_meta"]["code"] == "VALIDATION_ERROR", answer.json()


def _wxr(path: Path, odd: str) -> None:
    def item(post_id: str, post_type: str, title: str, content: str = "", meta: dict[str, str] | None = None) -> str:
        metas = "".join(
            f"<wp:postmeta><wp:meta_key>{k}</wp:meta_key><wp:meta_value>{v}</wp:meta_value></wp:postmeta>"
            for k, v in (meta or {}).items()
        )
        return (
            f"<item><title>{title}</title><wp:post_id>{post_id}</wp:post_id><wp:post_type>{post_type}</wp:post_type>"
            f"<wp:status>publish</wp:status><wp:post_parent>{odd}</wp:post_parent>"
            f"<content:encoded><![CDATA[{content}]]></content:encoded>{metas}"
            + ('<category domain="nav_menu" nicename="main">Main</category>' if post_type == "nav_menu_item" else "")
            + "</item>"
        )

    path.write_text(
        '<rss xmlns:wp="http://wordpress.org/export/1.2/" xmlns:content="http://purl.org/rss/1.0/modules/content/">'
        "<channel><wp:wxr_version>1.2</wp:wxr_version>"
        "<wp:term><wp:term_taxonomy>nav_menu</wp:term_taxonomy><wp:term_slug>main</wp:term_slug>"
        "<wp:term_name>Main</wp:term_name></wp:term>"
        + item(odd, "post", "Odd id")
        + item("5", "post", "Fine", f'<p>Hi</p><img class="wp-image-{odd}" src="https://x.example/a.png">')
        + item(
            "6",
            "nav_menu_item",
            "",
            meta={"_menu_item_type": "custom", "_menu_item_url": "/x/", "_menu_item_object_id": odd}
            | {"_menu_item_menu_item_parent": odd},
        )
        + "</channel></rss>"
    )


@pytest.mark.parametrize("odd", ["²", "9" * 5000, "9" * 20])
def test_a_wordpress_export_with_odd_numbers_imports_the_rest(cms: None, tmp_path: Path, odd: str) -> None:
    path = tmp_path / "odd.xml"
    _wxr(path, odd)
    out = io.StringIO()
    call_command("emdash_import_wordpress", str(path), "--no-fetch", stdout=out)
    report = out.getvalue()
    titles = set(schema.current(fresh=True).get("posts").model.objects.values_list("f_title", flat=True))
    assert "Fine" in titles, report
    assert "post None" not in report and "Odd id" not in titles, report  # an item without a usable id is skipped
    assert "wp:post_id" in report, report
    menu = Menu.objects.get(name="main")
    assert MenuItem.objects.filter(menu=menu).count() == 1, report


def _tool(client: Client, token: str, name: str, arguments: dict) -> dict:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
    response = client.post(
        "/_emdash/api/mcp", orjson.dumps(body), content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
    )
    assert response.status_code == 200, response.content
    return response.json()["result"]


@pytest.mark.parametrize("big", [2**63, 2**64 - 1, -(2**63)])
def test_whole_number_arguments_stop_at_the_database_range(site: tuple[Client, str], big: int) -> None:
    """JSON carries integers up to 2**64 (orjson) and a query string any length; SQLite cannot bind past 2**63
    (a 500 from byline_list's userId and content_list's author filter). Every whole-number argument is refused
    past the databases' range, with the bound in the message."""
    client, token = site
    for name, arguments in (
        ("byline_list", {"userId": big}),
        ("byline_create", {"displayName": "X", "slug": "x", "userId": big}),
        ("content_list", {"collection": "posts", "filter": {"author": big}}),
        ("content_list", {"collection": "posts", "limit": big}),
    ):
        result = _tool(client, token, name, arguments)
        assert result.get("isError") and result["_meta"]["code"] == "VALIDATION_ERROR", (name, result)
    rest = client.get("/_emdash/api/bylines", {"userId": str(big)}, HTTP_AUTHORIZATION=f"Bearer {token}")
    assert rest.status_code == 400 and rest.json()["error"]["code"] == "VALIDATION_ERROR", rest.content
    assert not _tool(client, token, "byline_list", {"userId": 2**63 - 1}).get("isError")
    assert not _tool(client, token, "byline_list", {"userId": 3.0}).get("isError")  # SPEC 5.2: 3.0 is an integer
