"""PostgreSQL connections stay bounded under bursts (issue 10 item 3, SPEC 2): a real daphne process with
``EMDASH_DB_POOL_MAX=5`` takes three bursts of 50 concurrent MCP calls that read the database; the number of
server connections to the database never exceeds the pool size, and no request fails."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import psycopg
import pytest
from django.db import connection

from accounts.tokens import token_create
from tests.factories import make_entry, make_user
from tests.servers import daphne

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

POOL_MAX = 5
BURST = 50


class Sampler:
    """Polls pg_stat_activity from its own connection and keeps the highest count of other backends."""

    def __init__(self, dbname: str) -> None:
        s = connection.settings_dict
        self.conn = psycopg.connect(
            host=s["HOST"] or "127.0.0.1", port=s["PORT"] or 5432, user=s["USER"], dbname=dbname, autocommit=True
        )
        self.dbname = dbname
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def count(self) -> int:
        row = self.conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", [self.dbname]
        ).fetchone()
        return int(row[0]) if row else 0

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self.count())
            time.sleep(0.02)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._thread.join()
        self.conn.close()


def _burst(url: str, token: str) -> list[int]:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "content_list", "arguments": {"collection": "posts", "limit": 5}}}  # fmt: skip
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}

    def one(_: int) -> int:
        with httpx.Client(timeout=60) as client:
            response = client.post(url + "/_emdash/api/mcp", json=body, headers=headers)
            if response.status_code == 200:
                assert "result" in response.json(), response.text[:300]
            return response.status_code

    with ThreadPoolExecutor(BURST) as pool:
        return list(pool.map(one, range(BURST)))


def test_bursts_stay_within_the_pool(posts: Any) -> None:
    make_entry("posts", data={"title": "Hello"})
    token = token_create(user=make_user("admin", password=None), name="burst", scopes="admin").raw
    dbname = connection.settings_dict["NAME"]
    connection.close()  # the test's own connection: back to its pool before counting
    env = {"EMDASH_DB_POOL_MAX": str(POOL_MAX), "EMDASH_DB_POOL_MIN": "1"}
    with daphne(env) as (url, _process), Sampler(dbname) as sampler:
        baseline = sampler.count()  # this test process's own pooled connections, and the server's first
        after: list[int] = []
        for _ in range(3):
            statuses = _burst(url, token)
            assert all(status == 200 for status in statuses), sorted(set(statuses))
            after.append(sampler.count())
        peak = sampler.peak
    print(f"pool max {POOL_MAX}: baseline {baseline}, after each burst {after}, peak {peak}")
    # The server may hold at most POOL_MAX; the baseline already counts the test process's own connections
    # and the server's first pooled one.
    assert peak <= baseline + POOL_MAX
    assert max(after) <= baseline + POOL_MAX
