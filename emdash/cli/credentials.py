"""The credentials file: ``{origin: {accessToken, refreshToken, expiresAt, user}}`` in ``auth.json``, mode 0600.

Writes are atomic (temp file + rename) and, where the OS offers ``flock``, serialised by a lock file so two
``emdash`` processes never rotate the same refresh token at once (which the server would treat as reuse).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no cross-process lock, the rename is still atomic
    fcntl = None  # type: ignore[assignment]


def config_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "emdash"


def auth_file() -> Path:
    return config_dir() / "auth.json"


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of a site URL (any path, such as the MCP URL, is dropped)."""
    parts = urlsplit(url.strip() if "://" in url else "https://" + url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"Not a site URL: {url!r}")
    return f"{parts.scheme}://{parts.netloc}".lower()


def load() -> dict[str, dict[str, Any]]:
    try:
        data = json.loads(auth_file().read_text())
    except FileNotFoundError:
        return {}
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save(data: dict[str, dict[str, Any]]) -> None:
    directory = config_dir()
    directory.mkdir(parents=True, exist_ok=True)
    directory.chmod(0o700)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".auth.", suffix=".json")
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w") as handle:
            json.dump(data, handle, indent=2, sort_keys=True)
        os.replace(tmp, auth_file())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    auth_file().chmod(0o600)


@contextlib.contextmanager
def locked() -> Iterator[None]:
    """Hold the credentials lock (a no-op where flock does not exist)."""
    directory = config_dir()
    directory.mkdir(parents=True, exist_ok=True)
    directory.chmod(0o700)
    if fcntl is None:  # pragma: no cover
        yield
        return
    with open(directory / ".auth.lock", "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def entry_from_tokens(tokens: dict[str, Any], user: dict[str, Any] | None) -> dict[str, Any]:
    expires = datetime.now(UTC) + timedelta(seconds=int(tokens.get("expires_in") or 3600))
    return {
        "accessToken": tokens["access_token"],
        "refreshToken": tokens.get("refresh_token"),
        "expiresAt": expires.isoformat(timespec="seconds"),
        "user": user,
    }


def is_fresh(entry: dict[str, Any], margin: timedelta = timedelta(seconds=60)) -> bool:
    try:
        expires = datetime.fromisoformat(str(entry.get("expiresAt")))
    except ValueError:
        return False
    return expires - margin > datetime.now(UTC)


def store(origin: str, entry: dict[str, Any]) -> None:
    with locked():
        data = load()
        data[origin] = entry
        save(data)


def remove(origin: str) -> dict[str, Any] | None:
    with locked():
        data = load()
        entry = data.pop(origin, None)
        save(data)
        return entry
