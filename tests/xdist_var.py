"""Each pytest-xdist worker gets a var directory of its own (``EMDASH_VAR_DIR``/gw0, /gw1, ...).

Loaded with ``-p`` (pyproject's addopts) so it runs before pytest-django reads the settings, which is where
the var directory is fixed. A worker's SQLite test database, default MEDIA_ROOT, transfer uploads and secret
key then never meet another worker's, and the servers a test starts inherit the worker's directory through the
environment. pytest-django suffixes the test database names itself (``test.sqlite3_gw0``, ``test_<name>_gw0``
on PostgreSQL). Without xdist (``make test WORKERS=0``) nothing changes.
"""

from __future__ import annotations

import os
from pathlib import Path

_worker = os.environ.get("PYTEST_XDIST_WORKER")  # set by xdist before the worker's pytest starts
if _worker:
    _base = Path(os.environ.get("EMDASH_VAR_DIR", Path(__file__).resolve().parent.parent / "var"))
    os.environ["EMDASH_VAR_DIR"] = str(_base / _worker)
