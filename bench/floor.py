"""The benchmark's floor: a bare Django WSGI app answering the same two MCP reads with one SQL query each.

No middleware, no auth, no validation, no schema, no audit: it parses the JSON-RPC body, reads the row by
id (``content_get``) or the newest 50 published rows (``content_list``) with one query, and returns the
JSON-RPC envelope with the row(s) as ``text`` and ``structuredContent``. It is what this stack (Django,
gunicorn, SQLite, orjson) cannot beat; ``bench/run.py`` reports our endpoint as a ratio of it.

This module is its own settings module and URLconf, with the same DATABASES as ``config.settings`` (same
SQLite file, same connection options), so both pay the same connection costs:

    DJANGO_SETTINGS_MODULE=bench.floor EMDASH_VAR_DIR=... gunicorn bench.floor:application -k gthread
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.floor")

from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.settings import DATABASES as _EMDASH_DATABASES

SECRET_KEY = "floor"
DEBUG = False
ALLOWED_HOSTS = ["*"]
INSTALLED_APPS: list[str] = []
MIDDLEWARE: list[str] = []
ROOT_URLCONF = "bench.floor"
DATABASES = _EMDASH_DATABASES
USE_TZ = True
TABLE = "ec_posts"


def _rows(sql: str, params: list[Any]) -> list[dict[str, Any]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        names = [c[0] for c in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def _result(msg_id: Any, payload: Any) -> HttpResponse:
    text = orjson.dumps(payload, default=str).decode()
    body = {
        "jsonrpc": "2.0",
        "id": msg_id,
        "result": {"content": [{"type": "text", "text": text}], "structuredContent": payload, "isError": False},
    }
    return HttpResponse(orjson.dumps(body, default=str), content_type="application/json")


def mcp(request: HttpRequest) -> HttpResponse:
    message = orjson.loads(request.body)
    if message["method"] != "tools/call":  # ping, for bench/run.py's readiness check
        return HttpResponse(orjson.dumps({"jsonrpc": "2.0", "id": message["id"], "result": {}}))
    params = message["params"]
    arguments = params["arguments"]
    if params["name"] == "content_get":
        rows = _rows(f"SELECT * FROM {TABLE} WHERE id = %s", [arguments["id"]])
        return _result(message["id"], rows[0])
    rows = _rows(
        f"SELECT * FROM {TABLE} WHERE status = 'published' AND deleted_at IS NULL "
        "ORDER BY created_at DESC, id DESC LIMIT %s",
        [int(arguments.get("limit", 50))],
    )
    return _result(message["id"], {"items": rows, "nextCursor": None})


urlpatterns = [path("_emdash/api/mcp", mcp)]

from django.core.wsgi import get_wsgi_application  # noqa: E402

application = get_wsgi_application()
