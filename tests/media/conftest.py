"""Every media test gets its own MEDIA_ROOT under tmp_path. The MCP client fixtures come from tests/mcp."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mcp.conftest import make_mcp, mcp  # noqa: F401  (fixtures)
from tests.media.fetch_server import server  # noqa: F401  (fixture)
from tests.media.storages import media_storage, s3_endpoint  # noqa: F401  (fixtures)


@pytest.fixture(autouse=True)
def media_root(tmp_path: Path, settings) -> Path:
    root = tmp_path / "media"
    root.mkdir()
    settings.MEDIA_ROOT = str(root)
    return root
