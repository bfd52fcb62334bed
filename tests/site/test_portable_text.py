"""Portable Text to HTML: structure, escaping, and only safe link schemes."""

from __future__ import annotations

import pytest

from public_site.portable_text import render, safe_href


def block(*children, style="normal", mark_defs=(), **extra):
    spans = [c if isinstance(c, dict) else {"_type": "span", "text": c, "marks": []} for c in children]
    return {"_type": "block", "style": style, "markDefs": list(mark_defs), "children": spans, **extra}


def test_blocks_styles_and_marks() -> None:
    html = render(
        [
            block("Title", style="h2"),
            block({"_type": "span", "text": "bold", "marks": ["strong", "em"]}, " and plain"),
            block("quoted", style="blockquote"),
            {"_type": "code", "code": "print('<hi>')"},
        ]
    )
    assert html == (
        "<h2>Title</h2><p><strong><em>bold</em></strong> and plain</p><blockquote>quoted</blockquote>"
        "<pre><code>print(&#x27;&lt;hi&gt;&#x27;)</code></pre>"
    )


def test_everything_is_escaped() -> None:
    html = render([block('<script>alert("x")</script>', style='"><img src=x onerror=alert(1)>')])
    assert "<script>" not in html and "onerror=alert" not in html.replace("onerror=alert(1)&gt;", "")
    assert "&lt;script&gt;" in html and html.startswith("<p>")


@pytest.mark.parametrize(
    "href",
    [
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        "java\tscript:alert(1)",
        " javascript:x",
        "data:text/html,x",
        "vbscript:x",
        "//evil.example/",
        "\\\\evil",
        "https://",
        42,
    ],
)
def test_unsafe_links_lose_their_anchor_but_keep_their_text(href) -> None:
    link = {"_key": "l1", "_type": "link", "href": href}
    html = render([block({"_type": "span", "text": "click", "marks": ["l1"]}, mark_defs=[link])])
    assert html == "<p>click</p>"
    assert safe_href(href) is None


@pytest.mark.parametrize("href", ["https://example.com/a?b=1&c=2", "/about/", "#top", "mailto:me@example.com"])
def test_safe_links_are_kept_and_escaped(href) -> None:
    link = {"_key": "l1", "_type": "link", "href": href}
    html = render([block({"_type": "span", "text": "go", "marks": ["l1"]}, mark_defs=[link])])
    assert html.startswith('<p><a href="') and "go</a>" in html
    assert "&amp;c=2" in html or "&" not in href
    assert ('rel="noopener noreferrer"' in html) == href.startswith("https://")


def test_lists_nest_by_level() -> None:
    html = render(
        [
            block("one", listItem="bullet", level=1),
            block("one.a", listItem="bullet", level=2),
            block("two", listItem="bullet", level=1),
            block("first", listItem="number", level=1),
            block("after"),
        ]
    )
    assert html == ("<ul><li>one<ul><li>one.a</li></ul></li><li>two</li></ul><ol><li>first</li></ol><p>after</p>")


def test_images_resolve_through_the_media_library_and_garbage_renders_nothing() -> None:
    media = {"M1": {"url": "/media/a.png", "alt": "Alt <b>", "caption": "", "width": 40, "height": 20}}
    html = render(
        [{"_type": "image", "asset": {"id": "M1"}}, {"_type": "image", "asset": {"id": "gone"}}],
        resolve_image=media.get,
    )
    assert html == (
        '<figure class="pt-image"><img src="/media/a.png" alt="Alt &lt;b&gt;" width="40" height="20" loading="lazy" '
        'decoding="async"></figure>'
    )
    responsive = {
        **media["M1"],
        "renditions": {"medium": "/r/960"},
        "srcset": "/r/160 160w, /r/320 320w",
        "dominantColor": "#0a0b0c",
    }
    assert render([{"_type": "image", "asset": {"id": "M1"}}], resolve_image={"M1": responsive}.get) == (
        '<figure class="pt-image"><img src="/r/960" alt="Alt &lt;b&gt;" srcset="/r/160 160w, /r/320 320w" '
        'sizes="(max-width: 960px) 100vw, 960px" width="40" height="20" data-placeholder="#0a0b0c" loading="lazy" '
        'decoding="async"></figure>'
    )
    assert render("not a list") == ""
    assert render([1, None, {"_type": "unknown", "html": "<script>"}, {"_type": "block", "children": "x"}]) == "<p></p>"
    assert render(
        [block({"_type": "span", "text": "x", "marks": [["list"], {"d": 1}]}, listItem=["x"], style=[1])]
    ) == ("<p>x</p>")
