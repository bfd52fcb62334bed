"""Profile our MCP endpoint in-process: the WSGI app called directly, no server and no network.

Each benchmark call (``tools/call content_get`` and ``content_list`` limit 50) is sent ``--calls`` times
through ``config.wsgi.application`` after a warm-up; prints the mean time per call, then pyinstrument's
call tree (or, with ``--cprofile`` or without pyinstrument, cProfile's top functions by own time).
Uses the database of EMDASH_VAR_DIR (``bench/run.py --profile`` passes its own).

    EMDASH_VAR_DIR=... python bench/profile_endpoint.py --token ec_pat_... --id <post id> [--calls 300]
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

from django.core.wsgi import get_wsgi_application


def make_call(app: Any, token: str, body: bytes) -> Callable[[], None]:
    base = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": "/_emdash/api/mcp",
        "SCRIPT_NAME": "",
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": "127.0.0.1:8000",
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(body)),
        "HTTP_ACCEPT": "application/json, text/event-stream",
        "HTTP_MCP_PROTOCOL_VERSION": "2025-11-25",
        "HTTP_AUTHORIZATION": f"Bearer {token}",
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
        "wsgi.version": (1, 0),
    }

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> None:
        if not status.startswith("200"):
            raise SystemExit(f"unexpected status {status}")

    def call() -> None:
        environ = dict(base, **{"wsgi.input": io.BytesIO(body)})
        result = app(environ, start_response)
        try:
            b"".join(result)
        finally:
            if hasattr(result, "close"):
                result.close()

    return call


def body(tool: str, arguments: dict[str, Any]) -> bytes:
    return json.dumps(
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}
    ).encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--token", required=True)
    parser.add_argument("--id", required=True, help="the post content_get fetches")
    parser.add_argument("--collection", default="posts")
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--cprofile", action="store_true", help="cProfile's flat table instead of pyinstrument")
    args = parser.parse_args()
    app = get_wsgi_application()
    workloads = {
        "content_get": body("content_get", {"collection": args.collection, "id": args.id}),
        "content_list": body("content_list", {"collection": args.collection, "limit": 50}),
    }
    try:
        from pyinstrument import Profiler
    except ImportError:
        Profiler = None
    for tool, payload in workloads.items():
        call = make_call(app, args.token, payload)
        for _ in range(30):
            call()
        started = time.perf_counter()
        for _ in range(args.calls):
            call()
        mean_ms = (time.perf_counter() - started) / args.calls * 1000
        print(f"\n==== {tool}: {mean_ms:.2f} ms per call in-process (mean of {args.calls}) ====", flush=True)
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
