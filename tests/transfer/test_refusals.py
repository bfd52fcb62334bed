"""SPEC 12: a corrupt, truncated or foreign archive, or a site that is not empty, is refused before anything is
written (non-zero exit, a clear message), and the archive holds no secrets."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import tarfile
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from tests.transfer.site import manage, members, still_empty

pytestmark = pytest.mark.slow


def _rewrite(source: Path, target: Path, change: Any) -> None:
    with tarfile.open(source, "r:gz") as tar:
        files = [(m, tar.extractfile(m).read()) for m in tar if m.isfile()]  # type: ignore[union-attr]
    with tarfile.open(target, "w:gz") as out:
        for member, body in files:
            body = change(member.name, body)
            if body is None:
                continue
            member.size = len(body)
            out.addfile(member, io.BytesIO(body))


def _flip_media_byte(name: str, body: bytes) -> bytes:
    return body[:-1] + bytes([body[-1] ^ 1]) if name.startswith("media/") else body


def _edit_a_title(name: str, body: bytes) -> bytes:
    if name != "entries.jsonl":
        return body
    assert b'"Draft"' in body
    return body.replace(b'"Draft"', b'"Forged"')


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        ("truncated", "damaged or truncated"),
        ("media", "does not match its manifest"),
        ("row", "does not match its manifest"),
        ("no-manifest", "manifest.json is missing"),
        ("not-gzip", "damaged or truncated"),
    ],
)
def test_a_damaged_archive_is_refused_and_nothing_is_written(
    archive: Path, empty_site: dict[str, Any], tmp_path: Path, damage: str, message: str
) -> None:
    bad = tmp_path / "bad.tar.gz"
    whole = archive.read_bytes()
    if damage == "truncated":
        bad.write_bytes(whole[: len(whole) * 2 // 3])
    elif damage == "not-gzip":
        bad.write_bytes(gzip.decompress(whole)[:5000])
    else:
        change = {"media": _flip_media_byte, "row": _edit_a_title}.get(damage)
        _rewrite(archive, bad, change or (lambda name, body: None if name == "manifest.json" else body))
    done = manage("emdash_import", str(bad), check=False, **empty_site)
    assert done.returncode != 0
    assert "import refused, nothing was written" in done.stderr and message in done.stderr
    still_empty(tmp_path, empty_site)


def _rehash(source: Path, target: Path, change: Any) -> None:
    """``change`` the members, then write a manifest that matches: the archive verifies, its data lies."""
    with tarfile.open(source, "r:gz") as tar:
        files = {m.name: tar.extractfile(m).read() for m in tar if m.isfile()}  # type: ignore[union-attr]
    files = {name: change(name, body) for name, body in files.items()}
    manifest = json.loads(files.pop("manifest.json"))
    manifest["files"] = {name: hashlib.sha256(body).hexdigest() for name, body in files.items()}
    files["manifest.json"] = json.dumps(manifest).encode()
    with tarfile.open(target, "w:gz") as out:
        for name, body in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(body)
            out.addfile(info, io.BytesIO(body))


def _entry_of_an_unknown_collection(name: str, body: bytes) -> bytes:
    if name != "entries.jsonl":
        return body
    rows = [json.loads(line) for line in body.splitlines()]
    rows[-1]["collection"] = "nowhere"
    return b"".join(json.dumps(row).encode() + b"\n" for row in rows)


def test_an_archive_whose_rows_contradict_each_other_is_refused_clearly(
    archive: Path, empty_site: dict[str, Any], tmp_path: Path
) -> None:
    """The manifest matches (a hand-edited export), but an entry names a collection the archive lacks: a clear
    refusal naming the kind, no traceback, and the collections already created are dropped again."""
    bad = tmp_path / "inconsistent.tar.gz"
    _rehash(archive, bad, _entry_of_an_unknown_collection)
    done = manage("emdash_import", str(bad), check=False, **empty_site)
    assert done.returncode != 0
    assert "import refused, nothing was written" in done.stderr and "entries" in done.stderr, done.stderr
    assert "'nowhere'" in done.stderr and "Traceback" not in done.stderr, done.stderr
    still_empty(tmp_path, empty_site)


def test_a_missing_file_is_named_as_missing(empty_site: dict[str, Any], tmp_path: Path) -> None:
    done = manage("emdash_import", str(tmp_path / "nothing-here.tar.gz"), check=False, **empty_site)
    assert done.returncode != 0 and "no such file" in done.stderr and "damaged" not in done.stderr, done.stderr


def test_a_site_with_content_is_refused(archive: Path) -> None:
    with pytest.raises(Exception, match="this site is not empty"):
        call_command("emdash_import", str(archive))


def test_the_archive_holds_no_secrets_and_counts_what_it_holds(archive: Path) -> None:
    files = members(archive)
    users = [json.loads(line) for line in files["users.jsonl"].splitlines()]
    hooks = [json.loads(line) for line in files["webhooks.jsonl"].splitlines()]
    assert users and all("password" not in u for u in users)
    assert hooks and all("secret" not in h for h in hooks)
    assert b"ec_pat_" not in b"".join(files.values())
    with tarfile.open(archive, "r:gz") as tar:
        manifest = json.load(tar.extractfile("manifest.json"))  # type: ignore[arg-type]
    assert manifest["version"] == 1
    assert manifest["counts"]["entries"] == 3 and manifest["counts"]["terms"] == 2
    assert manifest["counts"]["revisions"] >= 3  # live and draft revisions; --history adds the rest
    assert set(manifest["files"]) == set(files)


def test_the_import_summary_counts_media_files_not_each(archive: Path, empty_site: dict[str, Any]) -> None:
    """The summary said "1 2026/11/x.png" for every file of the archive (each file counted as a kind of its own):
    a site with 10,000 images printed a 10,000-entry line, and the admin's import job stored as many keys. The files
    are counted together, under "media files"."""
    files = [name for name in members(archive) if name.startswith("media/")]
    done = manage("emdash_import", str(archive), **empty_site)
    summary = done.stdout.splitlines()[0]
    assert f"{len(files)} media files" in summary, summary
    assert not any(name.removeprefix("media/") in summary for name in files), summary


@pytest.mark.parametrize("where", ["missing-dir", "a-directory"])
def test_an_export_that_cannot_write_its_archive_says_so(cms: None, tmp_path: Path, where: str) -> None:
    """A path in a directory that does not exist was reported as "a media file is missing from the storage",
    and a directory as OUT ended in Python's IsADirectoryError traceback. Both now name the archive path and the
    reason, and leave nothing behind."""
    out = tmp_path / "no-such-dir" / "site.tar.gz" if where == "missing-dir" else tmp_path / "adir"
    if where == "a-directory":
        out.mkdir()
    with pytest.raises(CommandError) as refused:
        call_command("emdash_export", str(out))
    message = str(refused.value)
    assert f"cannot write {out}" in message and "media file" not in message, message
    assert not list(tmp_path.rglob("*.partial"))
