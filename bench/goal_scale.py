"""Goal 6 of issue 15: reads must not slow down with the amount of content or the size of the schema, and a
worker must not grow.

- ``content_list`` first page and a page 1,000 items deep, at ``--scale-items`` (100k) items vs 1,050 items
  (the smallest site with a page 1,000 deep): time per request within 1.5x;
- ``content_get`` on a site with 50 collections of 20 fields vs the plain site: within 1.2x;
- RSS of one worker after ``--rss-requests`` requests within 10% of its RSS after 1,000.

Time per request is the mean at one connection (1000 / req/s) from the same load runs; the servers' CPU time
per request is recorded alongside. Posts beyond the first 60 are bulk copies (bench/seed.py --bulk).
"""

from __future__ import annotations

import statistics
from typing import Any

import httpx

from bench.harness import Bench, Row, Server, call_body, headers, rss_kb, say

GOAL_LIST = "Goal 6: content_list at 100k items within 1.5x of 1k items (ms per request, c=1)"
GOAL_GET = "Goal 6: content_get with 50 collections x 20 fields within 1.2x of 1 collection (ms per request, c=1)"
GOAL_RSS = "Goal 6: worker RSS after many requests within 10% of after 1,000 (content_get)"
SMALL = 1050


def _deep_cursor(server: Server, token: str, collection: str, depth: int) -> str:
    """The cursor a client holds after reading ``depth`` items in pages of 50."""
    cursor = None
    for _ in range(depth // 50):
        arguments: dict[str, Any] = {"collection": collection, "limit": 50}
        if cursor:
            arguments["cursor"] = cursor
        answer = httpx.post(server.url, content=call_body("content_list", arguments), headers=headers(token))
        cursor = answer.json()["result"]["structuredContent"].get("nextCursor")
        if not cursor:
            raise SystemExit(f"{server.name}: no page {depth} items deep")
    assert cursor is not None
    return cursor


def _ms(bench: Bench, server: Server, body: bytes, token: str) -> tuple[float, float]:
    """Mean ms per request at c=1 (median over rounds) and the server's CPU ms per request."""
    runs = [
        bench.load(server, body, token, 1, bench.args.duration, bench.args.warmup) for _ in range(bench.args.rounds)
    ]
    return statistics.median(1000 / r["rps"] for r in runs), statistics.median(r.get("cpu_ms", 0) for r in runs)


def _list_times(bench: Bench, name: str, items: int) -> dict[str, tuple[float, float]]:
    site = bench.site(name, "--posts", "60", "--bulk", str(items - 60), shared=True)
    server = bench.gunicorn(name, "config.wsgi:application", site.env)
    with bench.serving(site.token, server):
        first = call_body("content_list", {"collection": "posts", "limit": 50})
        deep = call_body(
            "content_list",
            {"collection": "posts", "limit": 50, "cursor": _deep_cursor(server, site.token, "posts", 1000)},
        )
        return {
            "first page": _ms(bench, server, first, site.token),
            "page 1,000 deep": _ms(bench, server, deep, site.token),
        }


def _rss(bench: Bench, server: Server, body: bytes, token: str, total: int) -> tuple[int, int, int]:
    """(RSS KiB after ~1,000 requests, after ``total``, requests actually sent)."""
    (pid,) = server.worker_pids()
    sent = bench.load(server, body, token, 1, 2)["requests"]
    while sent < 1000:
        sent += bench.load(server, body, token, 1, 1)["requests"]
    early = rss_kb(pid)
    while sent < total:
        sent += bench.load(server, body, token, 8, 10)["requests"]
        say(f"RSS: {sent} requests, {rss_kb(pid)} KiB")
    return early, rss_kb(pid), sent


def run(bench: Bench) -> list[Row]:
    args = bench.args
    rows: list[Row] = []
    small = _list_times(bench, "scale-small", SMALL)
    large = _list_times(bench, "scale-large", args.scale_items)
    for page in small:
        (big_ms, big_cpu), (small_ms, small_cpu) = large[page], small[page]
        rows.append(
            Row.at_most(
                GOAL_LIST,
                f"{page} at {args.scale_items:,} items",
                big_ms,
                small_ms,
                1.5,
                unit="ms",
                peer_name=f"{SMALL:,} items",
                note=f"CPU {big_cpu:.2f} vs {small_cpu:.2f} ms",
            )
        )
    plain = bench.site("scale-plain", "--posts", "60", shared=True)
    wide = bench.site("scale-wide", "--posts", "60", "--collections", "49", "--fields", "20")
    servers = {
        "scale-plain": bench.gunicorn("scale-plain", "config.wsgi:application", plain.env),
        "scale-wide": bench.gunicorn("scale-wide", "config.wsgi:application", wide.env),
    }
    with bench.serving(plain.token, servers["scale-plain"]):
        one = _ms(bench, servers["scale-plain"], _get(plain.seeded), plain.token)
    with bench.serving(wide.token, servers["scale-wide"]):
        fifty = _ms(bench, servers["scale-wide"], _get(wide.seeded), wide.token)
        note = f"CPU {fifty[1]:.2f} vs {one[1]:.2f} ms"
        rows.append(
            Row.at_most(GOAL_GET, "posts item", fifty[0], one[0], 1.2, unit="ms", peer_name="1 collection", note=note)
        )
        wide_get = call_body(
            "content_get", {"collection": wide.seeded["wide_collection"], "id": wide.seeded["wide_id"]}
        )
        early, late, sent = _rss(bench, servers["scale-wide"], wide_get, wide.token, args.rss_requests)
    rows.append(
        Row.at_most(
            GOAL_RSS, f"after {sent:,} requests", late / 1024, early / 1024, 1.1, unit="MiB", peer_name="after 1,000"
        )
    )
    return rows


def _get(seeded: dict[str, Any]) -> bytes:
    return call_body("content_get", {"collection": seeded["collection"], "id": seeded["id"]})
