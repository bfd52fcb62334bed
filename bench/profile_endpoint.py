"""Profile our endpoints in-process: the WSGI app called directly, no server and no network.

Each workload is sent ``--calls`` times through ``config.wsgi.application`` after a warm-up; prints the mean
time per call, then pyinstrument's call tree (or, with ``--cprofile`` or without pyinstrument, cProfile's top
functions by own time). Workloads (``--only``, comma-separated; default all):

- ``mcp-get``, ``mcp-list``: MCP ``tools/call content_get`` and ``content_list`` limit 50 (with ``--token``);
- ``rest-get``, ``rest-list``: anonymous REST item and list of 50 (issue 27 goal 6);
- ``page``: the item's public page (goal 4);
- ``rest-get-304``, ``rest-list-304``, ``search-304``, ``page-304``: the item, the list, a search and the item's
  public page with a current ``If-None-Match`` (goal 3).

Uses the database of EMDASH_VAR_DIR (``bench/run.py --profile`` passes its own).

    EMDASH_VAR_DIR=... python bench/profile_endpoint.py --id <post id> [--token ec_pat_...] [--calls 300]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

BASE_ENVIRON: dict[str, Any] = {
    "SCRIPT_NAME": "",
    "QUERY_STRING": "",
    "SERVER_NAME": "127.0.0.1",
    "SERVER_PORT": "8000",
    "SERVER_PROTOCOL": "HTTP/1.1",
    "HTTP_HOST": "127.0.0.1:8000",
    "wsgi.url_scheme": "http",
    "wsgi.errors": sys.stderr,
    "wsgi.multithread": False,
    "wsgi.multiprocess": False,
    "wsgi.run_once": False,
    "wsgi.version": (1, 0),
}


def request(
    app: Any, method: str, path: str, *, body: bytes = b"", headers: dict[str, str] | None = None, expect: int = 200
) -> Callable[[], list[tuple[str, str]]]:
    """A call of ``app`` with this request; returns the response headers, exits on another status."""
    path, _, query = path.partition("?")
    base = dict(BASE_ENVIRON, REQUEST_METHOD=method, PATH_INFO=path, QUERY_STRING=query)
    if body:
        base.update(CONTENT_TYPE="application/json", CONTENT_LENGTH=str(len(body)))
    base.update({"HTTP_" + k.upper().replace("-", "_"): v for k, v in (headers or {}).items()})
    seen: list[tuple[str, str]] = []

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> None:
        if not status.startswith(str(expect)):
            raise SystemExit(f"{method} {path}: unexpected status {status}, expected {expect}")
        seen[:] = headers

    def call() -> list[tuple[str, str]]:
        environ = dict(base, **{"wsgi.input": io.BytesIO(body)})
        result = app(environ, start_response)
        try:
            b"".join(result)
        finally:
            if hasattr(result, "close"):
                result.close()
        return seen

    return call


def make_call(app: Any, token: str, body: bytes) -> Callable[[], list[tuple[str, str]]]:
    """An MCP tools/call with a bearer token."""
    head = {
        "Accept": "application/json, text/event-stream",
        "Mcp-Protocol-Version": "2025-11-25",
        "Authorization": f"Bearer {token}",
    }
    return request(app, "POST", "/_emdash/api/mcp", body=body, headers=head)


def body(tool: str, arguments: dict[str, Any]) -> bytes:
    return json.dumps(
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}
    ).encode()


def _etag_of(call: Callable[[], list[tuple[str, str]]]) -> str:
    return next(v for k, v in call() if k.lower() == "etag")


def workloads(app: Any, args: argparse.Namespace) -> dict[str, Callable[[], Any]]:
    slug = args.collection
    item, page = f"/_emdash/api/content/{slug}/{args.id}", f"/{slug}/{args.id}/"
    found: dict[str, Callable[[], Any]] = {}
    if args.token:
        found["mcp-get"] = make_call(app, args.token, body("content_get", {"collection": slug, "id": args.id}))
        found["mcp-list"] = make_call(app, args.token, body("content_list", {"collection": slug, "limit": 50}))
    found["rest-get"] = request(app, "GET", item)
    found["rest-list"] = request(app, "GET", f"/_emdash/api/content/{slug}?limit=50")
    current = {"If-None-Match": _etag_of(found["rest-get"])}
    found["rest-get-304"] = request(app, "GET", item, headers=current, expect=304)
    listing, search = f"/_emdash/api/content/{slug}?limit=50", "/_emdash/api/search?q=content"
    for name, path in (("rest-list-304", listing), ("search-304", search)):
        found[name] = request(
            app, "GET", path, headers={"If-None-Match": _etag_of(request(app, "GET", path))}, expect=304
        )
    found["page"] = request(app, "GET", page)
    found["page-304"] = request(
        app, "GET", page, headers={"If-None-Match": _etag_of(request(app, "GET", page))}, expect=304
    )
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--token", help="a bearer token for the MCP workloads (skipped without)")
    parser.add_argument("--id", required=True, help="the post the item workloads read")
    parser.add_argument("--collection", default="posts")
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--only", default="", help="comma-separated workloads (default: all)")
    parser.add_argument("--time-only", action="store_true", help="the mean time per call, no profile")
    parser.add_argument("--cprofile", action="store_true", help="cProfile's flat table instead of pyinstrument")
    args = parser.parse_args()
    django.setup()
    from config.wsgi import application as app  # what the servers run: the conditional edge in front

    chosen = {name for name in args.only.split(",") if name}
    try:
        from pyinstrument import Profiler
    except ImportError:
        Profiler = None  # type: ignore[assignment, misc]
    for name, call in workloads(app, args).items():
        if chosen and name not in chosen:
            continue
        for _ in range(30):
            call()
        started, cpu = time.perf_counter(), time.process_time()
        for _ in range(args.calls):
            call()
        mean_ms = (time.perf_counter() - started) / args.calls * 1000
        cpu_ms = (time.process_time() - cpu) / args.calls * 1000
        print(f"\n==== {name}: {mean_ms:.3f} ms per call, {cpu_ms:.3f} ms CPU (mean of {args.calls}) ====", flush=True)
        if args.time_only:
            continue
        if Profiler is not None and not args.cprofile:
            profiler = Profiler(interval=0.0002)
            profiler.start()
            for _ in range(args.calls):
                call()
            profiler.stop()
            print(profiler.output_text(unicode=True, color=False, short_mode=False, show_all=False), flush=True)
        else:
            prof = cProfile.Profile()
            prof.enable()
            for _ in range(args.calls):
                call()
            prof.disable()
            pstats.Stats(prof).sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()
