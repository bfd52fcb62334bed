"""The admin's Tools page (SPEC 12): admins only; export downloads the archive; a WordPress export or an archive
is uploaded and imported in the background (the worker's task), its page showing progress and then the report of
what was created and what was skipped and why."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from content.schema import specs as schema
from emdash import safe_fetch
from tests.factories import make_user
from transfer import jobs
from transfer.models import ImportJob

DATA = Path(__file__).resolve().parent.parent / "transfer" / "wordpress_data"
TOOLS = "/_emdash/admin/tools/"


@pytest.fixture
def admin(cms) -> Client:
    client = Client()
    client.force_login(make_user("admin"))
    return client


@pytest.fixture(autouse=True)
def no_network(monkeypatch) -> None:
    def refuse(*args, **kwargs):
        raise safe_fetch.FetchError("the network is off in tests")

    monkeypatch.setattr(safe_fetch, "fetch", refuse)


def test_only_admins_see_the_page(cms) -> None:
    editor = Client()
    editor.force_login(make_user("editor"))
    assert editor.get(TOOLS).status_code == 403
    assert editor.post(f"{TOOLS}export/").status_code == 403
    assert b'href="/_emdash/admin/tools/"' not in editor.get("/_emdash/admin/").content


def test_export_downloads_the_archive(admin: Client) -> None:
    page = admin.get(TOOLS)
    assert page.status_code == 200 and b"Download export" in page.content
    response = admin.post(f"{TOOLS}export/")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="emdash-export-')
    body = b"".join(response.streaming_content)
    with tarfile.open(fileobj=io.BytesIO(body), mode="r:gz") as archive:
        assert "manifest.json" in archive.getnames()


def test_a_wordpress_import_runs_in_the_background_and_reports(admin: Client) -> None:
    upload = SimpleUploadedFile("site.wxr", (DATA / "site.wxr").read_bytes(), content_type="text/xml")
    response = admin.post(f"{TOOLS}import-wordpress/", {"file": upload})
    job = ImportJob.objects.get()
    assert response.status_code == 302 and response["Location"] == f"{TOOLS}jobs/{job.pk}/"
    waiting = admin.get(response["Location"]).content.decode()
    assert 'http-equiv="refresh"' in waiting and "queued" in waiting
    assert jobs.run(job.pk) == ImportJob.DONE  # what the worker's task does
    assert jobs.run(job.pk) == "not queued"  # a second delivery of the task runs nothing
    job.refresh_from_db()
    assert job.report["created"]["posts"] >= 1 and not Path(job.path).exists()
    done = admin.get(response["Location"]).content.decode()
    assert 'http-equiv="refresh"' not in done
    assert "Skipped" in done and "the network is off in tests" in done  # the attachment, and why
    assert "posts" in schema.current(fresh=True).collections


def test_a_broken_file_fails_with_a_clear_message_and_writes_nothing(admin: Client) -> None:
    upload = SimpleUploadedFile("bad.xml", b"<rss><channel>", content_type="text/xml")
    admin.post(f"{TOOLS}import-wordpress/", {"file": upload})
    job = ImportJob.objects.get()
    assert jobs.run(job.pk) == ImportJob.FAILED
    page = admin.get(f"{TOOLS}jobs/{job.pk}/").content.decode()
    assert "Nothing was imported" in page
    assert "posts" not in schema.current(fresh=True).collections


def test_no_file_is_a_form_error(admin: Client) -> None:
    response = admin.post(f"{TOOLS}import-wordpress/", follow=True)
    assert "choose a file to import" in response.content.decode()
    assert not ImportJob.objects.exists()


def test_an_archive_is_refused_by_a_site_that_is_not_empty(admin: Client, tmp_path) -> None:
    exported = b"".join(admin.post(f"{TOOLS}export/").streaming_content)
    from tests.factories import make_collection

    make_collection("notes", fields=[{"slug": "title", "label": "Title", "type": "string"}])
    upload = SimpleUploadedFile("site.tar.gz", exported, content_type="application/gzip")
    admin.post(f"{TOOLS}import-archive/", {"file": upload})
    job = ImportJob.objects.get()
    assert jobs.run(job.pk) == ImportJob.FAILED
    job.refresh_from_db()
    assert "not empty" in job.error and "Nothing was imported" in job.error


def test_an_import_may_be_as_large_as_an_upload(admin: Client, settings) -> None:
    from emdash.edge import limits

    assert limits.limit_for(f"{TOOLS}import-wordpress/") == limits.max_upload() + limits.MULTIPART_OVERHEAD
    assert limits.limit_for(f"{TOOLS}import-archive/") > limits.max_body()
    assert limits.limit_for(TOOLS) == limits.max_body()
