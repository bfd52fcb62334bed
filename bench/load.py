"""A small closed-loop HTTP load generator on httpx (used when ``wrk`` is not installed).

``--connections`` tasks each send the same POST back to back on one keep-alive connection for
``--warmup`` seconds (not measured) and then for ``--duration`` seconds; every response must be
200 (and contain ``--require`` when given). ``--vary TEXT`` replaces TEXT in the body with a number unique
to each request (writes that must not collide). Prints one JSON object: requests, errors, server_errors
(5xx), seconds, rps, p50_ms, p90_ms, p99_ms, max_ms, and the first bad response. Only loopback URLs are accepted.

    python bench/load.py --url http://127.0.0.1:8000/_emdash/api/mcp --body-file req.json \\
        --header 'Authorization: Bearer ...' --connections 8 --duration 10 --warmup 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import time
from typing import Any
from urllib.parse import urlsplit

import httpx

MAX_REQUESTS = 2_000_000  # a hard bound, whatever the duration


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return math.nan
    index = min(len(sorted_values) - 1, max(0, math.ceil(q / 100 * len(sorted_values)) - 1))
    return sorted_values[index]


class Check:
    """What every request sends and what its response must be."""

    def __init__(self, body: bytes, vary: str, require: str) -> None:
        self.body, self.vary, self.require = body, vary.encode(), require.encode()
        self.serial = 0
        self.first_bad = ""

    def next_body(self) -> bytes:
        if not self.vary:
            return self.body
        self.serial += 1
        return self.body.replace(self.vary, str(self.serial).encode())

    def ok(self, response: httpx.Response) -> bool:
        good = response.status_code == 200 and (not self.require or self.require in response.content)
        if not good and not self.first_bad:
            self.first_bad = f"{response.status_code}: {response.text[:300]}"
        return good


async def worker(
    client: httpx.AsyncClient,
    url: str,
    check: Check,
    headers: dict[str, str],
    until: float,
    latencies: list[float] | None,
    counts: dict[str, int],
) -> None:
    while time.perf_counter() < until and counts["sent"] < MAX_REQUESTS:
        counts["sent"] += 1
        started = time.perf_counter()
        try:
            response = await client.post(url, content=check.next_body(), headers=headers)
            ok = check.ok(response)
            counts["server_errors"] += response.status_code >= 500
        except httpx.HTTPError as exc:
            ok = False
            check.first_bad = check.first_bad or repr(exc)
        if latencies is not None:
            latencies.append(time.perf_counter() - started)
        if not ok:
            counts["errors"] += 1


async def run(
    url: str, check: Check, headers: dict[str, str], connections: int, duration: float, warmup: float
) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    async with httpx.AsyncClient(limits=limits, timeout=30) as client:
        if warmup > 0:
            counts = {"sent": 0, "errors": 0, "server_errors": 0}
            until = time.perf_counter() + warmup
            await asyncio.gather(
                *(worker(client, url, check, headers, until, None, counts) for _ in range(connections))
            )
        latencies: list[float] = []
        counts = {"sent": 0, "errors": 0, "server_errors": 0}
        started = time.perf_counter()
        until = started + duration
        await asyncio.gather(
            *(worker(client, url, check, headers, until, latencies, counts) for _ in range(connections))
        )
        elapsed = time.perf_counter() - started
    latencies.sort()
    ms = [x * 1000 for x in latencies]
    return {
        "requests": len(ms),
        "errors": counts["errors"],
        "server_errors": counts["server_errors"],
        "first_bad": check.first_bad,
        "seconds": round(elapsed, 3),
        "rps": round(len(ms) / elapsed, 1),
        "p50_ms": round(percentile(ms, 50), 3),
        "p90_ms": round(percentile(ms, 90), 3),
        "p99_ms": round(percentile(ms, 99), 3),
        "max_ms": round(ms[-1], 3) if ms else math.nan,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True)
    parser.add_argument("--body-file", required=True)
    parser.add_argument("--header", action="append", default=[], help="'Name: value' (repeatable)")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--duration", type=float, default=10)
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--vary", default="", help="text in the body replaced by a per-request number")
    parser.add_argument("--require", default="", help="text every response body must contain")
    args = parser.parse_args()
    host = urlsplit(args.url).hostname
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise SystemExit("load.py only targets loopback addresses")
    if not 1 <= args.connections <= 256 or not 0 < args.duration <= 300 or not 0 <= args.warmup <= 60:
        raise SystemExit("connections must be 1-256, duration 0-300 s, warmup 0-60 s")
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    for item in args.header:
        name, _, value = item.partition(":")
        headers[name.strip()] = value.strip()
    with open(args.body_file, "rb") as f:
        body = f.read()
    check = Check(body, args.vary, args.require)
    result = asyncio.run(run(args.url, check, headers, args.connections, args.duration, args.warmup))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
