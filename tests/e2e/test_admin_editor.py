"""The rich-text editor and "no lost work" in headless Chromium: rich text with an uploaded inline image read on
the public site, a word processor's paste cleaned to Portable Text, autosave across a reload, the warning before
leaving with unsaved changes, and the settings form keeping every input when one is wrong."""

from __future__ import annotations

import pytest

from content.entries import selectors, services
from settings_app.selectors import site_settings
from tests.browser import screenshot
from tests.e2e.admin_helpers import log_in, png_file, rich_text
from tests.factories import SYSTEM, make_entry, make_user

pytestmark = pytest.mark.slow

WORD_HTML = """<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><style>p.MsoNormal{margin:0}</style></head>
<body><!--StartFragment--><p class=MsoNormal style='margin:0cm;font-family:Calibri'><span lang=EN-GB
style='font-size:12.0pt;color:#333333'>Quarterly <b><span style='mso-bidi-font-weight:normal'>results</span></b>
are <i>in</i>.<o:p></o:p></span></p>
<h2 style="color:red"><span style="font-family:Arial">Summary</span></h2>
<ul><li class=MsoListParagraph><span style="font-size:11pt">Revenue up</span></li>
<li>Costs <a href="javascript:alert(1)">down</a>, see the <a href="https://example.com/report" style="color:blue"
class="x">report</a></li></ul>
<script>window.pwned = true</script><img src="https://evil.example/x.png">
<div style="font-family:Courier"><font color="red">Plain closing line</font></div><!--EndFragment--></body></html>"""


def _expect():
    from playwright.sync_api import expect

    return expect


def _data(entry_id: str) -> dict:
    return selectors.entry_get(actor=SYSTEM, collection="posts", id=entry_id).to_dict()["data"]


def _texts(block: dict) -> str:
    return "".join(span["text"] for span in block.get("children", []))


def test_rich_text_with_an_uploaded_inline_image_is_published_and_rendered(
    posts, media_root, live_server, page, tmp_path
):
    make_user("editor", email="editor@example.com")
    expect = _expect()
    base = live_server.url
    log_in(page, base, "editor@example.com")
    page.goto(base + "/_emdash/admin/content/posts/new/")
    page.get_by_role("textbox", name="Title", exact=True).fill("Kitchen notes")
    body = rich_text(page)
    body.click()
    page.get_by_label("Text style").select_option("h2")
    page.keyboard.type("Our kitchen")
    page.keyboard.press("Enter")
    page.keyboard.type("We cook with ")
    page.keyboard.press("Control+b")
    page.keyboard.type("care")
    page.keyboard.press("Control+b")
    page.keyboard.type(" and read ")
    page.keyboard.type("recipes")
    page.keyboard.press("Control+Shift+ArrowLeft")  # select the word
    page.keyboard.press("Control+k")
    page.get_by_label("Link address").fill("https://example.com/recipes")
    page.get_by_label("Link address").press("Enter")
    # Wait for the link to be in the document before typing on: under load the dialog hands focus back late.
    expect(page.locator(".pt-content a[href='https://example.com/recipes']")).to_be_visible()
    # The editor takes focus back on the next animation frame, the linked word still selected: a key sent
    # before that frame is lost, and a letter typed after it would replace the word.
    expect(page.locator(".pt-content")).to_be_focused()
    page.keyboard.press("End")
    page.keyboard.type(".")
    page.keyboard.press("Enter")
    page.get_by_role("button", name="Bulleted list").click()
    page.keyboard.type("Knives")
    page.keyboard.press("Enter")
    page.keyboard.type("Pans")
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")  # leaves the list

    page.get_by_role("button", name="Image").click()
    dialog = page.get_by_role("dialog", name="Insert an image")
    expect(dialog).to_be_visible()
    dialog.get_by_label("Upload a new image").set_input_files(str(png_file(tmp_path, "stove.png", "orange")))
    expect(dialog.get_by_text("Uploaded stove.png.")).to_be_visible()
    dialog.get_by_label("Alt text").fill("An orange stove")
    screenshot(page, "admin-editor-image-dialog")
    dialog.get_by_role("button", name="Insert image").click()
    expect(page.locator(".pt-content img.pt-image")).to_be_visible()
    expect(page.get_by_role("button", name="Bold")).to_have_attribute("aria-pressed", "false")
    screenshot(page, "admin-editor-rich-text")

    page.get_by_role("button", name="Create draft").click()
    expect(page.get_by_text("Created.")).to_be_visible()
    expect(page.locator(".pt-content img.pt-image")).to_be_visible()  # the inline image is shown again
    page.get_by_role("button", name="Publish").click()
    expect(page.get_by_text("Published.")).to_be_visible()

    item = selectors.entry_list(actor=SYSTEM, collection="posts", status="published").present().items[0]
    stored = _data(item["id"])["body"]
    assert [(b["_type"], b.get("style"), b.get("listItem")) for b in stored] == [
        ("block", "h2", None),
        ("block", "normal", None),
        ("block", "normal", "bullet"),
        ("block", "normal", "bullet"),
        ("image", None, None),
    ]
    paragraph = stored[1]
    assert paragraph["markDefs"] == [
        {"_type": "link", "_key": paragraph["markDefs"][0]["_key"], "href": "https://example.com/recipes"}
    ]
    assert [(s["text"], s["marks"]) for s in paragraph["children"]] == [
        ("We cook with ", []),
        ("care", ["strong"]),
        (" and read ", []),
        ("recipes", [paragraph["markDefs"][0]["_key"]]),
        (".", []),
    ]
    assert stored[4]["asset"]["id"] and stored[4]["alt"] == "An orange stove"
    assert len({b["_key"] for b in stored}) == 5

    page.goto(base + f"/posts/{item['slug']}/")
    expect(page.get_by_role("heading", name="Our kitchen")).to_be_visible()
    expect(page.get_by_role("link", name="recipes")).to_have_attribute("href", "https://example.com/recipes")
    expect(page.locator("li", has_text="Knives")).to_be_visible()
    image = page.get_by_role("img", name="An orange stove")
    expect(image).to_be_visible()
    # Loaded from a rendition of the upload (SPEC 11: srcset; naturalWidth then depends on the chosen candidate).
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle())
    assert "/_emdash/media/" in image.get_attribute("srcset")
    screenshot(page, "site-post-rich-text")


def test_a_word_processor_paste_is_stored_as_clean_portable_text(posts, live_server, page):
    make_user("editor", email="editor@example.com")
    entry = make_entry(data={"title": "Pasted"})
    expect = _expect()
    base = live_server.url
    log_in(page, base, "editor@example.com")
    page.goto(base + f"/_emdash/admin/content/posts/{entry.id}/")
    rich_text(page).click()
    page.evaluate(
        """(html) => {
            const data = new DataTransfer();
            data.setData("text/html", html);
            data.setData("text/plain", "fallback");
            document.querySelector("[data-pt-content]").dispatchEvent(
                new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
        }""",
        WORD_HTML,
    )
    expect(page.locator(".pt-content h2")).to_have_text("Summary")
    page.get_by_role("button", name="Save draft").click()
    expect(page.get_by_text("Saved.")).to_be_visible()
    assert page.evaluate("window.pwned") is None

    body = _data(entry.id)["body"]
    assert [(b.get("style"), b.get("listItem"), _texts(b)) for b in body] == [
        ("normal", None, "Quarterly results are in."),
        ("h2", None, "Summary"),
        ("normal", "bullet", "Revenue up"),
        ("normal", "bullet", "Costs down, see the report"),
        ("normal", None, "Plain closing line"),
    ]
    assert all(b["_type"] == "block" for b in body)  # no image from elsewhere, no script, no table
    assert [(s["text"], s["marks"]) for s in body[0]["children"]] == [
        ("Quarterly ", []),
        ("results", ["strong"]),
        (" are ", []),
        ("in", ["em"]),
        (".", []),
    ]
    assert [d["href"] for d in body[3]["markDefs"]] == ["https://example.com/report"]  # javascript: dropped
    allowed = {"_type", "_key", "style", "listItem", "level", "markDefs", "children"}
    assert all(set(b) <= allowed for b in body)  # no class, style or font left over
    screenshot(page, "admin-editor-paste")


def test_autosave_keeps_typing_across_a_reload(posts, live_server, page):
    make_user("editor", email="editor@example.com")
    entry = make_entry(data={"title": "Autosaved"})
    expect = _expect()
    base = live_server.url
    log_in(page, base, "editor@example.com")
    url = base + f"/_emdash/admin/content/posts/{entry.id}/"
    page.goto(url)
    status = page.locator("[data-save-status]")
    rich_text(page).click()
    page.keyboard.type("Typed and never saved by hand")
    expect(status).to_have_text("Unsaved changes")
    expect(status).to_contain_text("Saved at", timeout=15_000)
    screenshot(page, "admin-editor-autosave")
    # A second burst of typing is saved too: the form carries the _rev of the first autosave.
    page.keyboard.type(", twice")
    expect(status).to_have_text("Unsaved changes")
    expect(status).to_contain_text("Saved at", timeout=15_000)
    page.reload()
    expect(rich_text(page)).to_have_text("Typed and never saved by hand, twice")
    expect(page.get_by_text("Saved.")).to_have_count(0)  # background saves leave no flash message behind
    assert _texts(_data(entry.id)["body"][0]) == "Typed and never saved by hand, twice"

    # Someone else saves meanwhile: the next autosave is refused, and says so.
    services.entry_update(actor=SYSTEM, collection="posts", id=entry.id, data={"title": "From elsewhere"})
    rich_text(page).click()
    page.keyboard.type(" More.")
    expect(status).to_contain_text("Not saved", timeout=15_000)
    expect(page.locator("#stale-warning")).to_be_visible()
    assert _data(entry.id)["title"] == "From elsewhere"


def test_leaving_with_unsaved_changes_asks_first(posts, live_server, page):
    make_user("editor", email="editor@example.com")
    base = live_server.url
    log_in(page, base, "editor@example.com")
    page.goto(base + "/_emdash/admin/content/posts/new/")
    dialogs: list[str] = []

    def answer(dialog):
        dialogs.append(dialog.type)
        dialog.dismiss()  # stay on the page

    page.on("dialog", answer)
    page.get_by_role("link", name="Media").click()  # nothing typed: leaves without asking
    page.wait_for_url(base + "/_emdash/admin/media/")
    assert dialogs == []
    page.goto(base + "/_emdash/admin/content/posts/new/")
    page.get_by_role("textbox", name="Title", exact=True).fill("Half written")
    page.get_by_role("link", name="Media").click()
    page.wait_for_timeout(500)
    assert dialogs == ["beforeunload"]
    assert page.url.endswith("/content/posts/new/")
    assert page.get_by_role("textbox", name="Title", exact=True).input_value() == "Half written"


def test_settings_keep_every_input_when_one_is_wrong(cms, live_server, page):
    make_user("admin", email="admin@example.com")
    expect = _expect()
    base = live_server.url
    log_in(page, base, "admin@example.com")
    page.goto(base + "/_emdash/admin/settings/")
    before = site_settings().get("title")
    page.get_by_label("Site title").fill("Renamed site")
    page.get_by_label("Tagline").fill("Fresh tagline")
    page.get_by_label("Time zone (IANA name, e.g. Europe/Paris)").fill("Mars/Olympus_Mons")
    page.get_by_role("button", name="Save settings").click()
    timezone_input = page.get_by_label("Time zone (IANA name, e.g. Europe/Paris)")
    expect(timezone_input).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#s_timezone_e")).to_be_visible()
    expect(page.get_by_label("Site title")).to_have_value("Renamed site")
    expect(page.get_by_label("Tagline")).to_have_value("Fresh tagline")
    expect(timezone_input).to_have_value("Mars/Olympus_Mons")
    assert site_settings().get("title") == before and site_settings().get("tagline") != "Fresh tagline"
    screenshot(page, "admin-settings-error")
    timezone_input.fill("Europe/Paris")
    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_text("Settings saved.")).to_be_visible()
    assert site_settings()["title"] == "Renamed site" and site_settings()["tagline"] == "Fresh tagline"


STRICT_CSP = (
    "default-src 'self'; script-src 'self'; style-src-elem 'self'; style-src-attr 'unsafe-inline'; "
    "img-src 'self' data: blob:; connect-src 'self' ws: wss:"
)


def test_the_editor_and_autosave_work_under_a_strict_content_security_policy(posts, live_server, page):
    """No inline script, no injected <style>: the edit page works with script-src 'self' and style-src-elem 'self'."""
    make_user("editor", email="editor@example.com")
    entry = make_entry(data={"title": "Strict"})
    expect = _expect()
    base = live_server.url
    log_in(page, base, "editor@example.com")
    violations: list[str] = []
    page.on("console", lambda message: "Content Security Policy" in message.text and violations.append(message.text))

    def with_csp(route):
        response = route.fetch()
        route.fulfill(response=response, headers={**response.headers, "content-security-policy": STRICT_CSP})

    page.route("**/_emdash/admin/content/**", with_csp)
    page.goto(base + f"/_emdash/admin/content/posts/{entry.id}/")
    rich_text(page).click()
    page.keyboard.press("Control+b")
    page.keyboard.type("Under a strict policy")
    expect(page.locator("[data-save-status]")).to_contain_text("Saved at", timeout=15_000)
    assert violations == []
    assert _data(entry.id)["body"][0]["children"][0]["marks"] == ["strong"]
