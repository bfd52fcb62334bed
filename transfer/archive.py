"""The archive format (version 1): a gzipped tar of JSON Lines files, media files and ``manifest.json``.

``manifest.json`` comes last: its SHA-256s are only known once every member has been streamed. Reading verifies the
whole archive (every member's hash, every line count, nothing missing or extra) before anything is written, so a
corrupt or truncated file is refused whole.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import shutil
import tarfile
import tempfile
import uuid
import zlib
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import IO, Any

from django.utils import timezone

FORMAT = "emdash-export"
VERSION = 1
MANIFEST = "manifest.json"
MEDIA_PREFIX = "media/"
CHUNK = 256 * 1024


class ArchiveError(Exception):
    """The archive cannot be used; the message says why, for an operator."""


def _plain(value: Any) -> Any:
    # Full precision (Django's JSON encoder cuts microseconds, and an import must keep the exact times).
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal | uuid.UUID):
        return str(value)
    raise TypeError(f"cannot export a {type(value).__name__}")


def dumps(row: dict[str, Any]) -> bytes:
    # Sorted keys: PostgreSQL's jsonb reorders keys, and a round trip must give the same bytes.
    return json.dumps(row, default=_plain, sort_keys=True, ensure_ascii=False).encode() + b"\n"


class _Hashing:
    """A file object that hashes what is read through it (media streamed into the tar)."""

    def __init__(self, inner: IO[bytes]) -> None:
        self.inner = inner
        self.digest = hashlib.sha256()

    def read(self, size: int = -1) -> bytes:
        chunk = self.inner.read(size)
        self.digest.update(chunk)
        return chunk


@dataclass
class Writer:
    """Streams members into ``out``; JSONL goes through a temporary file on disk (a tar header needs the size)."""

    out: IO[bytes]
    files: dict[str, str] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Closed by close(), which must write the manifest first.
        self.tar = tarfile.open(fileobj=self.out, mode="w|gz", format=tarfile.PAX_FORMAT)  # noqa: SIM115

    def _info(self, name: str, size: int) -> tarfile.TarInfo:
        info = tarfile.TarInfo(name)
        info.size, info.mode, info.mtime = size, 0o644, int(timezone.now().timestamp())
        return info

    def jsonl(self, kind: str, rows: Iterator[dict[str, Any]]) -> int:
        digest, count = hashlib.sha256(), 0
        with tempfile.TemporaryFile() as spool:
            for row in rows:
                line = dumps(row)
                digest.update(line)
                spool.write(line)
                count += 1
            size = spool.tell()
            spool.seek(0)
            self.tar.addfile(self._info(f"{kind}.jsonl", size), spool)
        self.files[f"{kind}.jsonl"] = digest.hexdigest()
        self.counts[kind] = count
        return count

    def media(self, key: str, handle: IO[bytes], size: int) -> None:
        name = MEDIA_PREFIX + key
        reader = _Hashing(handle)
        self.tar.addfile(self._info(name, size), reader)  # type: ignore[arg-type]
        self.files[name] = reader.digest.hexdigest()

    def close(self, created_at: datetime) -> dict[str, Any]:
        manifest = {
            "format": FORMAT,
            "version": VERSION,
            "createdAt": created_at.isoformat(),
            "counts": self.counts,
            "files": self.files,
        }
        body = json.dumps(manifest, indent=2, sort_keys=True).encode()
        self.tar.addfile(self._info(MANIFEST, len(body)), io.BytesIO(body))
        self.tar.close()
        return manifest


def _members(path: str) -> Iterator[tuple[str, IO[bytes]]]:
    """(name, file) for each file of the archive, its name without the ``./`` a ``tar -C dir .`` puts before it;
    directories are passed over, and anything else (a link, a device, a path out of the tree) refuses the archive."""
    try:
        # gzip.open, not tarfile's own "r|gz": it raises EOFError when the compressed stream stops short, where
        # tarfile's reader takes a cut that falls on a block boundary for a clean end of the archive.
        with gzip.open(path, "rb") as raw, tarfile.open(fileobj=raw, mode="r|") as tar:
            for member in tar:
                name = _member_name(member)
                handle = tar.extractfile(member) if name is not None else None
                if name is not None and handle is not None:
                    yield name, handle
    except FileNotFoundError:
        raise  # no archive at all: the caller says so, rather than calling it damaged
    except (tarfile.TarError, EOFError, OSError, ValueError) as exc:
        raise ArchiveError(f"the archive is damaged or truncated ({exc})") from None


def _member_name(member: tarfile.TarInfo) -> str | None:
    """The member's path inside the export (None for a directory), or ArchiveError when it has no place there."""
    name = member.name
    while name.startswith("./"):
        name = name[2:]
    if member.isdir():
        name = name.rstrip("/")
        if name in ("", "."):
            return None  # the archive's root, as ``tar -C dir .`` writes it
    if name.startswith("/") or any(part in ("", ".", "..") for part in name.split("/")):
        raise ArchiveError(f"unsafe member path {member.name[:200]!r} (absolute, or with '..', '.' or '//')")
    if member.isdir():
        return None
    if not member.isfile():
        shown = member.name[:200]
        raise ArchiveError(f"unexpected member {shown!r} (only files belong in an export: no links or devices)")
    return name


def _check_manifest(manifest: Any) -> dict[str, Any]:
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ArchiveError("this is not an EmDash export (manifest.json names another format)")
    if manifest.get("version") != VERSION:
        raise ArchiveError(f"archive version {manifest.get('version')!r} is not supported (this site reads {VERSION})")
    if not isinstance(manifest.get("files"), dict) or not isinstance(manifest.get("counts"), dict):
        raise ArchiveError("manifest.json lacks its files or counts")
    return manifest


def verify(path: str) -> dict[str, Any]:
    """Read the whole archive once and check it against its manifest; the manifest, or ArchiveError."""
    try:
        seen, lines, manifest = _digest(path)
    except FileNotFoundError:
        raise
    except (tarfile.TarError, EOFError, OSError, zlib.error) as exc:
        raise ArchiveError(f"the archive is damaged or truncated ({exc})") from None
    if manifest is None:
        raise ArchiveError("manifest.json is missing (the archive is truncated or not an EmDash export)")
    manifest = _check_manifest(manifest)
    if seen != manifest["files"]:
        bad = sorted(set(seen) ^ set(manifest["files"])) or sorted(n for n in seen if seen[n] != manifest["files"][n])
        raise ArchiveError(f"the archive does not match its manifest (first: {bad[0]}); it is corrupt")
    if lines != manifest["counts"]:
        raise ArchiveError("the line counts do not match the manifest's counts; the archive is corrupt")
    return manifest


def _digest(path: str) -> tuple[dict[str, str], dict[str, int], Any]:
    """Each member's SHA-256 and line count, and the manifest as found (None when missing)."""
    seen: dict[str, str] = {}
    lines: dict[str, int] = {}
    manifest: Any = None
    for name, handle in _members(path):
        if name == MANIFEST:
            try:
                manifest = json.loads(handle.read(1 << 20))
            except ValueError:
                raise ArchiveError("manifest.json is not valid JSON") from None
            continue
        digest, count = hashlib.sha256(), 0
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
            count += chunk.count(b"\n")
        seen[name] = digest.hexdigest()
        if name.endswith(".jsonl"):
            lines[name.removesuffix(".jsonl")] = count
    return seen, lines, manifest


def read_rows(
    path: str, manifest: dict[str, Any], order: Sequence[str] = ()
) -> Iterator[tuple[str, Iterator[dict[str, Any]] | IO[bytes]]]:
    """(kind, rows) for each JSONL member, the kinds of ``order`` first and in that order, then (media key, file)
    for each media file; ``manifest`` is what :func:`verify` returned. An export streams through in its own order;
    a member that comes early (an archive re-packed by hand, in directory order) waits in a temporary file."""
    rank = {kind: i for i, kind in enumerate(order)}
    kinds = (name.removesuffix(".jsonl") for name in manifest["files"] if not name.startswith(MEDIA_PREFIX))
    due = sorted(kinds, key=lambda kind: rank.get(kind, len(rank)))
    with ExitStack() as spools:
        waiting: dict[str, IO[bytes]] = {}  # member name -> its spooled bytes, in archive order
        for name, handle in _members(path):
            kind = None if name.startswith(MEDIA_PREFIX) else name.removesuffix(".jsonl")
            if name == MANIFEST:
                continue
            if kind is not None and due and due[0] == kind:
                due.pop(0)
                yield kind, _lines(handle)
            elif kind is None and not due:
                yield name.removeprefix(MEDIA_PREFIX), handle
            else:
                spool = spools.enter_context(tempfile.TemporaryFile())
                shutil.copyfileobj(handle, spool, CHUNK)
                spool.seek(0)
                waiting[name] = spool
            yield from _due(due, waiting)
        yield from _due(due, waiting)


def _due(due: list[str], waiting: dict[str, IO[bytes]]) -> Iterator[tuple[str, Iterator[dict[str, Any]] | IO[bytes]]]:
    """The spooled members whose turn has come: the JSONL kinds next in ``due``, then media once every kind is in."""
    while due and f"{due[0]}.jsonl" in waiting:
        kind = due.pop(0)
        yield kind, _lines(waiting.pop(f"{kind}.jsonl"))
    if not due:
        for name in [n for n in waiting if n.startswith(MEDIA_PREFIX)]:
            yield name.removeprefix(MEDIA_PREFIX), waiting.pop(name)


def _lines(handle: IO[bytes]) -> Iterator[dict[str, Any]]:
    return (json.loads(line) for line in handle)
