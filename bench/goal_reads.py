"""Goals 1 and 2 of issue 15: ``tools/call content_get`` and ``content_list`` (50 items) >= 0.5x the floor.

Ours (the Django app, everything on), the floor (``bench/floor.py``: bare Django, one SQL query) and the SDK
reference (``bench/reference_server.py``) serve the same seeded SQLite file under the same gunicorn gthread
settings (uvicorn for the reference), each alone under load in turn. Before loading, ours and the reference
must return the same payload and the floor the same rows. ``tools/list`` is measured too (served from bytes
encoded once per process: it should cost about what the floor's one-row read costs).
"""

from __future__ import annotations

import json
import statistics
from typing import Any

from bench.harness import Bench, Row, Server, call_body, rpc_body, say

TARGET = 0.5
GOALS = {
    "content_get": "Goal 1: tools/call content_get >= 0.5x the floor (req/s)",
    "content_list": "Goal 2: tools/call content_list (50 items) >= 0.5x the list floor (req/s)",
}


def _comparable(payload: Any) -> Any:
    """A payload with ``nextCursor`` reduced to whether there is one (cursors carry a signing timestamp)."""
    if isinstance(payload, dict) and "nextCursor" in payload:
        return {**payload, "nextCursor": payload["nextCursor"] is not None}
    return payload


def _first_difference(a: Any, b: Any, path: str = "$") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(a.keys() | b.keys()):
            if key not in a or key not in b:
                return f"{path}.{key} (present on one side only)"
            if a[key] != b[key]:
                return _first_difference(a[key], b[key], f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return f"{path}: {json.dumps(a)[:80]} != {json.dumps(b)[:80]}"


def _ids(tool: str, payload: Any) -> list[str]:
    if tool == "content_list":
        return [item["id"] for item in payload["items"]]
    return [payload.get("item", payload)["id"]]


def verify(servers: dict[str, Server], token: str, workloads: dict[str, bytes]) -> None:
    """Ours and the reference answer the same payload, the floor the same rows (same ids, same order)."""
    for tool, body in workloads.items():
        answers = {name: server.call(token, body) for name, server in servers.items()}
        if "floor" in answers and _ids(tool, answers["floor"]) != _ids(tool, answers["ours"]):
            raise SystemExit(f"{tool}: the floor returned other rows than ours")
        if tool == "content_list" and len(answers["ours"]["items"]) != 50:
            raise SystemExit(f"content_list returned {len(answers['ours']['items'])} items, expected 50")
        if "reference" in answers:
            ours, ref = _comparable(answers["ours"]), _comparable(answers["reference"])
            if ours != ref:
                raise SystemExit(f"{tool}: ours and the reference differ at {_first_difference(ours, ref)}")
        say(f"{tool}: payloads checked ({', '.join(answers)})")


def run(bench: Bench) -> list[Row]:
    args = bench.args
    site = bench.site("reads", "--posts", "60", shared=True)
    token, seeded = site.token, site.seeded
    workloads = {
        "content_get": call_body("content_get", {"collection": seeded["collection"], "id": seeded["id"]}),
        "content_list": call_body("content_list", {"collection": seeded["collection"], "limit": 50}),
    }
    floor_env = {**site.env, "DJANGO_SETTINGS_MODULE": "bench.floor"}
    servers = {
        "ours": bench.gunicorn("ours", "config.wsgi:application", site.env, threads=args.threads),
        "floor": bench.gunicorn("floor", "bench.floor:application", floor_env, threads=args.threads),
        "reference": bench.uvicorn(
            "reference", "bench.reference_server:app", {**site.env, "BENCH_THREADS": str(args.threads)}
        ),
    }
    servers = {name: s for name, s in servers.items() if name in args.servers.split(",")}
    raw: list[dict[str, Any]] = []
    with bench.serving(token, *servers.values()):
        verify(servers, token, workloads)
        workloads["tools/list"] = rpc_body("tools/list", {})
        for rnd in range(1, args.rounds + 1):
            for tool, body in workloads.items():
                for c in args.connections:
                    for name, server in servers.items():
                        if tool == "tools/list" and name != "ours":
                            continue
                        r = bench.load(server, body, token, c, args.duration, args.warmup)
                        raw.append({"round": rnd, "server": name, "tool": tool, "connections": c, **r})
                        print(
                            f"    round {rnd} {tool:<12} c={c:<3} {name:<9} {r['rps']:8.1f} req/s  "
                            f"p50 {r['p50_ms']:7.2f} ms  p99 {r['p99_ms']:7.2f} ms",
                            flush=True,
                        )
    return rows(raw, args.connections)


def _median(raw: list[dict[str, Any]], server: str, tool: str, c: int, key: str = "rps") -> float | None:
    runs = [r[key] for r in raw if r["server"] == server and r["tool"] == tool and r["connections"] == c and key in r]
    return statistics.median(runs) if runs else None


def _cpu_note(raw: list[dict[str, Any]], tool: str, c: int) -> str:
    """The servers' CPU ms per request: what req/s would be on an idle CPU (the machine may be shared)."""
    ours, floor = (_median(raw, s, tool, c, "cpu_ms") for s in ("ours", "floor"))
    if not ours or not floor:
        return ""
    return f"CPU/request {ours:.2f} vs {floor:.2f} ms = {floor / ours:.2f}x"


def rows(raw: list[dict[str, Any]], connections: list[int]) -> list[Row]:
    out: list[Row] = []
    for tool, goal in GOALS.items():
        for c in connections:
            ours, floor, ref = (_median(raw, s, tool, c) for s in ("ours", "floor", "reference"))
            note = _cpu_note(raw, tool, c)
            out.append(Row.at_least(goal, f"c={c}", ours, floor, TARGET, unit="req/s", peer_name="floor", note=note))
            if ref is not None:
                ratio = ours / ref if ours else None
                out.append(Row(goal, f"c={c} vs the SDK reference", ours, "req/s", ref, "reference", ratio))
        if tool == "content_list":
            for c in connections:
                listed, floor = _median(raw, "ours", "tools/list", c), _median(raw, "floor", "content_get", c)
                out.append(
                    Row(
                        goal,
                        f"tools/list c={c} (pre-encoded bytes)",
                        listed,
                        "req/s",
                        floor,
                        "one-row floor",
                        listed / floor if listed and floor else None,
                    )
                )
    return out
