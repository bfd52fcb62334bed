"""import_wordpress's mediaId (SPEC 12): an admin uploads the WordPress export with the media tools; XML is
accepted from admins only, kept as application/xml and always served as an attachment (never inline)."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from django.test import Client

from emdash import safe_fetch
from tests.mcp.conftest import make_mcp, mcp  # noqa: F401 (fixtures)

DATA = Path(__file__).parent / "wordpress_data"


@pytest.fixture(autouse=True)
def media_root(tmp_path, settings):
    settings.MEDIA_ROOT = str(tmp_path / "media")


@pytest.fixture(autouse=True)
def no_network(monkeypatch) -> None:
    def refuse(*args, **kwargs):
        raise safe_fetch.FetchError("the network is off in tests")

    monkeypatch.setattr(safe_fetch, "fetch", refuse)


def args(data: bytes, name: str = "export.xml") -> dict:
    return {"filename": name, "data": base64.b64encode(data).decode()}


def test_an_admin_uploads_a_wxr_and_imports_it_by_media_id(cms, mcp) -> None:  # noqa: F811
    item = mcp.ok("media_upload", args((DATA / "site.wxr").read_bytes()))["item"]
    assert item["mimeType"] == "application/xml"
    assert item["storageKey"].endswith(".xml"), "not the system's first guess for application/xml (.xsl)"
    admin = Client()
    admin.force_login(mcp.user)
    served = admin.get(item["url"])
    assert served.status_code == 200
    assert served["Content-Disposition"].startswith("attachment")
    assert served["Content-Type"] == "application/octet-stream" and served["X-Content-Type-Options"] == "nosniff"
    report = mcp.ok("import_wordpress", {"mediaId": item["id"]})
    assert report["created"]["posts"] == 5


def test_editors_cannot_upload_xml(cms, make_mcp) -> None:  # noqa: F811
    editor = make_mcp("editor", "media:write")
    result = editor.fails("media_upload", args((DATA / "site.wxr").read_bytes()))
    assert result["_meta"]["code"] == "VALIDATION_ERROR"


def test_an_admin_file_that_is_not_xml_is_refused(cms, mcp) -> None:  # noqa: F811
    result = mcp.fails("media_upload", args(b"<html><script>alert(1)</script></html>"))
    assert "not an XML document" in result["content"][0]["text"]


@pytest.mark.parametrize(
    ("tool", "arguments", "field"),
    [
        ("import_wordpress", {}, "mediaId"),
        ("media_upload", {"filename": "a.png"}, "data"),
    ],
)
def test_neither_source_says_one_is_needed(cms, mcp, tool, arguments, field) -> None:  # noqa: F811
    """Sending no source at all is not "both": the refusal says what to send."""
    result = mcp.fails(tool, arguments)
    assert result["_meta"]["code"] == "VALIDATION_ERROR"
    message = result["_meta"]["details"]["fields"][field]
    assert "not both" not in message and "url" in message, message


def test_an_uploaded_export_is_seen_by_admins_only(cms, mcp, make_mcp) -> None:  # noqa: F811
    """A WordPress export holds drafts, private posts, post passwords and authors' emails: uploaded for
    import_wordpress, it must not be listed, described or served to the public or to non-admins."""
    item = mcp.ok("media_upload", args((DATA / "site.wxr").read_bytes()))["item"]
    anonymous = Client()
    listed = anonymous.get("/_emdash/api/media?limit=100").json()["items"]
    assert item["id"] not in {i["id"] for i in listed}
    assert anonymous.get(f"/_emdash/api/media/{item['id']}").status_code == 404
    assert anonymous.get(item["url"]).status_code == 404
    editor = make_mcp("editor", "media:read")
    assert item["id"] not in {i["id"] for i in editor.ok("media_list", {"limit": 100})["items"]}
    assert editor.fails("media_get", {"id": item["id"]})["_meta"]["code"] == "NOT_FOUND"
    assert item["id"] in {i["id"] for i in mcp.ok("media_list", {"limit": 100})["items"]}
    admin = Client()
    admin.force_login(mcp.user)
    served = admin.get(item["url"])
    assert served.status_code == 200


def test_an_overlong_media_id_is_refused_without_echoing_it(cms, mcp) -> None:  # noqa: F811
    """Every other media id argument is bounded at 26 characters; import_wordpress's mediaId was not, so a
    100,000-character value came back whole in the "not found" message."""
    result = mcp.fails("import_wordpress", {"mediaId": "x" * 100_000})
    assert result["_meta"]["code"] == "VALIDATION_ERROR"
    assert "at most 26 characters" in result["content"][0]["text"]
    assert len(result["content"][0]["text"]) < 500
