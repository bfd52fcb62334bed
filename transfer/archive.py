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
import tarfile
import tempfile
import uuid
import zlib
from collections.abc import Iterator
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


def _members(path: str) -> Iterator[tuple[tarfile.TarInfo, IO[bytes] | None]]:
    try:
        # gzip.open, not tarfile's own "r|gz": it raises EOFError when the compressed stream stops short, where
        # tarfile's reader takes a cut that falls on a block boundary for a clean end of the archive.
        with gzip.open(path, "rb") as raw, tarfile.open(fileobj=raw, mode="r|") as tar:
            for member in tar:
                yield member, tar.extractfile(member) if member.isfile() else None
    except FileNotFoundError:
        raise  # no archive at all: the caller says so, rather than calling it damaged
    except (tarfile.TarError, EOFError, OSError, ValueError) as exc:
        raise ArchiveError(f"the archive is damaged or truncated ({exc})") from None


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
    for member, handle in _members(path):
        if handle is None:
            raise ArchiveError(f"unexpected member {member.name!r} (only files belong in an export)")
        if member.name == MANIFEST:
            try:
                manifest = json.loads(handle.read(1 << 20))
            except ValueError:
                raise ArchiveError("manifest.json is not valid JSON") from None
            continue
        digest, count = hashlib.sha256(), 0
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
            count += chunk.count(b"\n")
        seen[member.name] = digest.hexdigest()
        if member.name.endswith(".jsonl"):
            lines[member.name.removesuffix(".jsonl")] = count
    return seen, lines, manifest


def read_rows(path: str) -> Iterator[tuple[str, Iterator[dict[str, Any]] | IO[bytes]]]:
    """Members in archive order: (kind, rows) for JSONL, (media key, file) for media. Verify first."""
    for member, handle in _members(path):
        if handle is None or member.name == MANIFEST:
            continue
        if member.name.startswith(MEDIA_PREFIX):
            yield member.name.removeprefix(MEDIA_PREFIX), handle
        else:
            yield member.name.removesuffix(".jsonl"), (json.loads(line) for line in handle)
