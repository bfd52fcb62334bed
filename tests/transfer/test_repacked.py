"""SPEC 12: an export unpacked and packed again with ``tar`` (``./`` before every name, members in directory
order) imports like the original; members outside the tree (absolute, ``..``), links and devices are refused."""

from __future__ import annotations

import io
import subprocess
import tarfile
from pathlib import Path
from typing import Any

import pytest

from tests.transfer.site import manage, members, still_empty
from transfer.archive import ArchiveError, verify

pytestmark = pytest.mark.slow


def _unpacked(archive: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "unpacked"
    folder.mkdir()
    subprocess.run(["tar", "-C", str(folder), "-xzf", str(archive)], check=True)
    return folder


def _names(archive: Path) -> list[str]:
    with tarfile.open(archive, "r:gz") as tar:
        return tar.getnames()


@pytest.mark.parametrize("order", ["directory", "reversed"])
def test_an_export_packed_again_with_tar_imports_the_same_site(
    archive: Path, empty_site: dict[str, Any], tmp_path: Path, order: str
) -> None:
    folder = _unpacked(archive, tmp_path)
    repacked = tmp_path / "repacked.tgz"
    if order == "directory":
        subprocess.run(["tar", "-C", str(folder), "-czf", str(repacked), "."], check=True)
    else:  # the manifest and media first, the schema last: every kind comes before its turn
        listed = sorted((f"./{p.relative_to(folder)}" for p in folder.rglob("*") if p.is_file()), reverse=True)
        subprocess.run(["tar", "-C", str(folder), "-czf", str(repacked), *listed], check=True)
    names = _names(repacked)
    assert all(name.startswith(".") for name in names) and any(n.startswith("./media/") for n in names), names
    assert verify(str(repacked))["files"] == verify(str(archive))["files"]
    done = manage("emdash_import", str(repacked), **empty_site)
    assert "imported" in done.stdout
    again = tmp_path / "again.tar.gz"
    manage("emdash_export", str(again), **empty_site)
    assert members(again) == members(archive)


def _with_member(source: Path, target: Path, extra: tarfile.TarInfo, body: bytes = b"") -> None:
    with tarfile.open(source, "r:gz") as tar:
        files = [(m, tar.extractfile(m).read()) for m in tar if m.isfile()]  # type: ignore[union-attr]
    with tarfile.open(target, "w:gz") as out:
        out.addfile(extra, io.BytesIO(body) if extra.isfile() else None)
        for member, data in files:
            out.addfile(member, io.BytesIO(data))


def _member(name: str, kind: bytes = tarfile.REGTYPE, link: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.linkname, info.size = kind, link, 3 if kind == tarfile.REGTYPE else 0
    return info


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (_member("/etc/cron.d/x"), "unsafe member path"),
        (_member("../outside.jsonl"), "unsafe member path"),
        (_member("./media/../../outside.png"), "unsafe member path"),
        (_member("media//x.png"), "unsafe member path"),
        (_member("/tmp", tarfile.DIRTYPE), "unsafe member path"),
        (_member("./media/up.png", tarfile.SYMTYPE, "../../../etc/passwd"), "unexpected member"),
        (_member("./media/hard.png", tarfile.LNKTYPE, "/etc/passwd"), "unexpected member"),
        (_member("./media/dev", tarfile.CHRTYPE), "unexpected member"),
        (_member("./fifo", tarfile.FIFOTYPE), "unexpected member"),
    ],
)
def test_members_out_of_the_tree_links_and_devices_are_refused(
    archive: Path, tmp_path: Path, extra: tarfile.TarInfo, message: str
) -> None:
    bad = tmp_path / "bad.tgz"
    _with_member(archive, bad, extra, b"bad")
    with pytest.raises(ArchiveError, match=message):
        verify(str(bad))


def test_a_refused_member_refuses_the_import_and_writes_nothing(
    archive: Path, empty_site: dict[str, Any], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.tgz"
    _with_member(archive, bad, _member("./media/up.png", tarfile.SYMTYPE, "/etc/passwd"))
    done = manage("emdash_import", str(bad), check=False, **empty_site)
    assert done.returncode != 0
    assert "import refused, nothing was written" in done.stderr and "unexpected member" in done.stderr, done.stderr
    still_empty(tmp_path, empty_site)
