"""Markdown in and out of Portable Text (content/markdown.py) and through every door (SPEC 6.4c)."""

from __future__ import annotations

from typing import Any

import pytest

from content.entries import selectors, services
from content.markdown import ImageNotFound, from_portable_text, to_portable_text
from content.portable_text import normalize
from media.selectors import ids_by_url, urls_by_id
from tests.api.helpers import body, call, client_for
from tests.factories import SYSTEM, make_entry
from tests.media.helpers import make_media

MEDIA_ID = "01ARZ3NDEKTSV4RRFFQ69G5FAV"
MEDIA_URL = "/media/cat.png"


@pytest.fixture(autouse=True)
def media_root(tmp_path, settings):
    """A MEDIA_ROOT of the test's own (media files are written)."""
    settings.MEDIA_ROOT = str(tmp_path / "media")


# Every supported construct, in the form from_portable_text writes it (so Markdown -> PT -> Markdown is exact).
CONSTRUCTS = {
    "paragraph": "Just some text.\n",
    "headings": "# One\n\n## Two\n\n### Three\n\n#### Four\n\n##### Five\n\n###### Six\n",
    "emphasis": "Some *em*, **strong**, ~~struck~~ and ***both*** here.\n",
    "inline code": "Call `print()` or ``a`b`` now.\n",
    "link": "See [the docs](https://example.com/docs?a=1) and [**bold link**](/about).\n",
    "hard break": "Line one\\\nline two\n",
    "code block": "```python\nprint('hi')\n\nx = 1\n```\n",
    "code block without language": "```\nplain\n```\n",
    "bullets": "- one\n- two\n    - nested\n        - deeper\n- three\n",
    "numbers": "1. first\n1. second\n    1. inner\n",
    "mixed list": "- bullet\n    1. numbered child\n",
    "quote": "> quoted *words*\n",
    "image": f"![A cat](<{MEDIA_URL}>)\n",
    "escapes": "Not \\*emphasis\\*, not \\[a link\\], 1. and # mid-line, a \\& b.\n",
    "escapes at line start": "\\# not a heading\n\n1\\. not a list\n\n\\- not a bullet\n\n\\> not a quote\n",
    "everything": "# Title\n\nIntro with *em*.\n\n- a\n- b\n\n> note\n\n```js\nx()\n```\n\nEnd.\n",
}


def _shape(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Blocks without their random keys (link keys replaced by their href), for comparisons."""
    out = []
    for block in blocks:
        hrefs = {d["_key"]: d["href"] for d in block.get("markDefs", [])}
        clean = {k: v for k, v in block.items() if k not in ("_key", "markDefs", "children")}
        if "children" in block:
            clean["children"] = [
                (span["text"], sorted(hrefs.get(m, m) for m in span["marks"])) for span in block["children"]
            ]
        out.append(clean)
    return out


def md_to_pt(markdown: str) -> list[dict[str, Any]]:
    return normalize(to_portable_text(markdown, {MEDIA_URL: MEDIA_ID}))


def pt_to_md(blocks: list[dict[str, Any]]) -> str:
    return from_portable_text(blocks, {MEDIA_ID: MEDIA_URL})


@pytest.mark.parametrize("name", list(CONSTRUCTS))
def test_markdown_to_portable_text_and_back_is_exact(name):
    markdown = CONSTRUCTS[name]
    assert pt_to_md(md_to_pt(markdown)) == markdown


@pytest.mark.parametrize("name", list(CONSTRUCTS))
def test_portable_text_to_markdown_and_back_keeps_the_blocks(name):
    blocks = md_to_pt(CONSTRUCTS[name])
    assert _shape(md_to_pt(pt_to_md(blocks))) == _shape(blocks)


def test_the_blocks_markdown_produces():
    blocks = md_to_pt(
        "## Head\n\nA *b* [c](https://x.example/)\n\n- one\n    1. two\n\n> q\n\n"
        "```py\nz\n```\n\n![Alt](/media/cat.png)"
    )
    assert _shape(blocks) == [
        {"_type": "block", "style": "h2", "children": [("Head", [])]},
        {
            "_type": "block",
            "style": "normal",
            "children": [("A ", []), ("b", ["em"]), (" ", []), ("c", ["https://x.example/"])],
        },
        {"_type": "block", "style": "normal", "listItem": "bullet", "level": 1, "children": [("one", [])]},
        {"_type": "block", "style": "normal", "listItem": "number", "level": 2, "children": [("two", [])]},
        {"_type": "block", "style": "blockquote", "children": [("q", [])]},
        {"_type": "code", "code": "z", "language": "py"},
        {"_type": "image", "asset": {"id": MEDIA_ID}, "alt": "Alt"},
    ]


def test_portable_text_written_by_hand_comes_out_as_markdown():
    blocks = normalize(
        [
            {
                "_type": "block",
                "markDefs": [{"_type": "link", "_key": "l1", "href": "https://a.example/"}],
                "children": [
                    {"text": "Bold ", "marks": ["strong"]},
                    {"text": "and linked", "marks": ["strong", "l1"]},
                    {"text": " tail *star*", "marks": []},
                ],
            },
            {"_type": "callout", "tone": "info"},  # custom blocks have no Markdown form
            {"_type": "block", "children": [{"text": "under", "marks": ["underline"]}]},
        ]
    )
    assert pt_to_md(blocks) == "**Bold [and linked](https://a.example/)** tail \\*star\\*\n\nunder\n"


def test_raw_html_stays_text_and_unsafe_links_are_not_links():
    blocks = md_to_pt("<script>alert(1)</script> [x](javascript:alert(1))")
    assert blocks[0]["markDefs"] == []
    assert "".join(s["text"] for s in blocks[0]["children"]).startswith("<script>alert(1)</script>")


def test_foreign_images_are_refused_with_a_hint():
    with pytest.raises(ImageNotFound, match="media_upload"):
        to_portable_text("![x](https://elsewhere.example/cat.png)", {})


# --- through the content services and the doors ---------------------------------------------------------------


def test_a_markdown_write_is_stored_as_portable_text_and_read_back_as_markdown(posts):
    media = make_media(SYSTEM)
    url = urls_by_id({media.id})[media.id]
    assert ids_by_url({url, "https://elsewhere.example/x.png"}) == {url: media.id}
    markdown = f"# Hi\n\nSome **bold** text.\n\n![Cat](<{url}>)\n"
    entry = make_entry(data={"title": "MD", "body": markdown})
    stored = selectors.entry_get(actor=SYSTEM, collection="posts", id=entry.id).to_dict()["data"]["body"]
    assert [b["_type"] for b in stored] == ["block", "block", "image"]
    assert stored[2]["asset"]["id"] == media.id and all(b["_key"] for b in stored)
    assert stored[2]["asset"]["url"] == url  # reads show the image's details (SPEC 11); writes store the id
    client = client_for("editor")
    got = body(call(client, "GET", f"/_emdash/api/content/posts/{entry.id}?markdown=true"))
    assert got["item"]["data"]["body"] == markdown
    plain = body(call(client, "GET", f"/_emdash/api/content/posts/{entry.id}"))
    assert isinstance(plain["item"]["data"]["body"], list)
    listed = body(call(client, "GET", "/_emdash/api/content/posts?markdown=true"))["items"]
    assert listed[0]["data"]["body"] == markdown
    assert "body" not in body(call(client, "GET", "/_emdash/api/content/posts"))["items"][0]["data"]


def test_malformed_values_are_refused_naming_the_path_and_store_nothing(posts):
    entry = make_entry(data={"title": "Keep"})
    cases = {
        "data.body[0].children": [{"_type": "block", "text": "Hello"}],
        "data.body[1].children[0].marks": [
            {"_type": "block", "children": [{"text": "ok"}]},
            {"_type": "block", "children": [{"text": "x", "marks": ["nope"]}]},
        ],
        "data.body[0].asset.id": [{"_type": "image", "asset": {"id": "01ZZZZZZZZZZZZZZZZZZZZZZZZ"}}],
        "data.body": "![x](https://elsewhere.example/cat.png)",
    }
    client = client_for("editor")
    for path, value in cases.items():
        response = call(client, "PUT", f"/_emdash/api/content/posts/{entry.id}", {"data": {"body": value}})
        assert response.status_code == 400, (path, response.content)
        assert list(body(response)["error"]["details"]["fields"]) == [path], body(response)
    data = selectors.entry_get(actor=SYSTEM, collection="posts", id=entry.id).to_dict()["data"]
    assert data["body"] is None and data["title"] == "Keep"


def test_missing_keys_are_filled_in(posts):
    entry = services.entry_create(
        actor=SYSTEM, collection="posts", data={"title": "K", "body": [{"_type": "block", "children": [{"text": "a"}]}]}
    )
    block = selectors.entry_get(actor=SYSTEM, collection="posts", id=entry.id).to_dict()["data"]["body"][0]
    assert block["_key"] and block["style"] == "normal" and block["markDefs"] == []
    assert block["children"][0] == {"_type": "span", "_key": block["children"][0]["_key"], "text": "a", "marks": []}


def test_markdown_without_blocks_is_an_empty_value(posts):
    entry = make_entry(data={"title": "Blank", "body": "   \n\n  "})
    assert selectors.entry_get(actor=SYSTEM, collection="posts", id=entry.id).to_dict()["data"]["body"] is None
