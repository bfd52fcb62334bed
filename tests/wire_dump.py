"""Dump what the outside world sees of the server, to prove a refactoring changed none of it.

    python -m tests.wire_dump OUTDIR      (then: diff -r BEFORE AFTER)

Writes, for a fresh throw-away SQLite database: every protocol version's ``tools/list``, the OpenAPI document,
the URL conf (pattern, name), and a fixed script of representative MCP, REST, admin and public responses.
It talks to the server only through management commands and HTTP (Django's test client), so it runs unchanged
across moves of the code behind them. Ids, timestamps, trace ids and tokens are replaced by stable placeholders.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

ULID = re.compile(r"\b[0-9A-HJKMNP-TV-Z]{26}\b")
STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?")
TRACE = re.compile(r"\b[0-9a-f]{24}\b")
SECRETS = re.compile(r"(ec_pat_|ec_oat_|ec_ort_)[A-Za-z0-9_-]+")
CURSOR = re.compile(r'("(?:nextCursor|cursor)": ?")[^"]+"')
NONCE = re.compile(r'nonce(=|-)"?[A-Za-z0-9+/=_-]{8,}"?')
CSRF = re.compile(r'(csrfmiddlewaretoken" value=")[^"]+"')
ETAG = re.compile(r'(_rev\\?": ?\\?")[A-Za-z0-9=_-]+')
KEY = re.compile(r'(\\?")[0-9a-f]{12}(?=\\?")')  # Portable Text keys and the marks naming them


def normalize(text: str) -> str:
    ids: dict[str, str] = {}

    def ulid(match: re.Match[str]) -> str:
        return ids.setdefault(match.group(0), f"<id{len(ids) + 1}>")

    for pattern, repl in (
        (SECRETS, r"\1<secret>"),
        (CURSOR, r'\1<cursor>"'),
        (ETAG, r"\1<rev>"),
        (KEY, r"\1<key>"),
        (NONCE, "nonce<nonce>"),
        (CSRF, r'\1<csrf>"'),
        (STAMP, "<time>"),
        (TRACE, "<trace>"),
    ):
        text = pattern.sub(repl, text)
    return ULID.sub(ulid, text)


def main(out: Path) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="wire-dump-"))
    os.environ["DATABASE_URL"] = f"sqlite:///{tmp / 'db.sqlite3'}"
    os.environ["EMDASH_VAR_DIR"] = str(tmp)
    os.environ.setdefault("EMDASH_AUDIT_FLUSH_INTERVAL", "0")
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    manage = (Path(__file__).resolve().parent.parent / "manage.py").read_text()
    settings_module = re.search(r'"DJANGO_SETTINGS_MODULE", "([^"]+)"', manage)
    assert settings_module
    os.environ["DJANGO_SETTINGS_MODULE"] = settings_module.group(1)

    import django

    django.setup()
    from io import StringIO

    from django.core.management import call_command
    from django.test import Client
    from django.urls import URLPattern, URLResolver, get_resolver

    call_command("migrate", verbosity=0, interactive=False)
    call_command(
        "emdash_user",
        "create",
        "--email",
        "admin@example.com",
        "--role",
        "admin",
        "--password",
        "correct-horse-9",
        stdout=StringIO(),
        stderr=StringIO(),
    )
    raw = StringIO()
    call_command(
        "emdash_token", "create", "--email", "admin@example.com", "--scopes", "admin", stdout=raw, stderr=StringIO()
    )
    token = raw.getvalue().strip()
    out.mkdir(parents=True, exist_ok=True)

    def write(name: str, value: Any) -> None:
        text = value if isinstance(value, str) else json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False)
        (out / name).write_text(normalize(text) + "\n")

    # The URL conf, in order.
    def walk(resolver: URLResolver, prefix: str = "") -> list[str]:
        rows = []
        for entry in resolver.url_patterns:
            if isinstance(entry, URLResolver):
                rows += walk(entry, prefix + str(entry.pattern))
            elif isinstance(entry, URLPattern):
                rows.append(f"{prefix}{entry.pattern}  name={entry.name}")
        return rows

    write("urlconf.txt", "\n".join(walk(get_resolver())))

    client = Client()
    auth = {"Authorization": f"Bearer {token}"}
    seq = iter(range(1, 10_000))

    def mcp(method: str, params: Any = None, version: str = "2025-06-18") -> Any:
        body = {"jsonrpc": "2.0", "id": next(seq), "method": method}
        if params is not None:
            body["params"] = params
        response = client.post(
            "/_emdash/api/mcp",
            json.dumps(body),
            content_type="application/json",
            headers={**auth, "MCP-Protocol-Version": version, "Accept": "application/json, text/event-stream"},
        )
        return {"status": response.status_code, "body": json.loads(response.content or b"null")}

    for version in ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"):
        write(f"tools-list-{version}.json", mcp("tools/list", {}, version))
        write(
            f"initialize-{version}.json",
            mcp(
                "initialize",
                {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "dump", "version": "1"}},
                version,
            ),
        )
    modern = {
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "dump", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {},
        }
    }
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": modern}
    response = client.post(
        "/_emdash/api/mcp",
        json.dumps(body),
        content_type="application/json",
        headers={
            **auth,
            "MCP-Protocol-Version": "2026-07-28",
            "Mcp-Method": "tools/list",
            "Accept": "application/json, text/event-stream",
        },
    )
    write("tools-list-2026-07-28.json", {"status": response.status_code, "body": json.loads(response.content)})
    write("openapi.json", json.loads(client.get("/_emdash/api/openapi.json").content))

    # A fixed script of calls: schema, content, taxonomy, menus, media, settings, redirects, errors.
    script: list[tuple[str, dict[str, Any]]] = [
        (
            "schema_create_collection",
            {"slug": "posts", "label": "Posts", "supports": ["drafts", "revisions", "search", "scheduling"]},
        ),
        (
            "schema_create_field",
            {"collection": "posts", "slug": "title", "label": "Title", "type": "string", "required": True},
        ),
        ("schema_create_field", {"collection": "posts", "slug": "body", "label": "Body", "type": "portableText"}),
        ("schema_create_field", {"collection": "posts", "slug": "price", "label": "Price", "type": "number"}),
        ("schema_create_field", {"collection": "posts", "slug": "flag", "label": "Flag", "type": "boolean"}),
        ("schema_create_field", {"collection": "posts", "slug": "when", "label": "When", "type": "datetime"}),
        (
            "schema_create_field",
            {
                "collection": "posts",
                "slug": "kind",
                "label": "Kind",
                "type": "select",
                "validation": {"options": ["a", "b"]},
            },
        ),
        (
            "schema_create_field",
            {
                "collection": "posts",
                "slug": "tags2",
                "label": "Tags2",
                "type": "multiSelect",
                "validation": {"options": ["x", "y"]},
            },
        ),
        ("schema_create_field", {"collection": "posts", "slug": "meta", "label": "Meta", "type": "json"}),
        (
            "schema_create_field",
            {
                "collection": "posts",
                "slug": "link",
                "label": "Link",
                "type": "reference",
                "options": {"collection": "posts"},
            },
        ),
        ("schema_create_field", {"collection": "posts", "slug": "count", "label": "Count", "type": "integer"}),
        ("schema_create_field", {"collection": "posts", "slug": "notes", "label": "Notes", "type": "text"}),
        ("schema_create_field", {"collection": "posts", "slug": "pic", "label": "Pic", "type": "image"}),
        ("schema_create_field", {"collection": "posts", "slug": "doc", "label": "Doc", "type": "file"}),
        ("schema_create_field", {"collection": "posts", "slug": "bad", "label": "Bad", "type": "nosuch"}),
        ("schema_get_collection", {"slug": "posts"}),
        (
            "content_create",
            {
                "collection": "posts",
                "data": {
                    "title": "Hello",
                    "body": "# Heading\n\nSome *text* and a [link](https://example.com).",
                    "price": 9.5,
                    "flag": True,
                    "when": "2026-01-02T03:04:05Z",
                    "kind": "a",
                    "tags2": ["x"],
                    "meta": {"k": [1, 2]},
                    "count": 3,
                    "notes": "plain",
                },
                "slug": "hello",
                "status": "published",
            },
        ),
        ("content_create", {"collection": "posts", "data": {"title": "Second"}, "slug": "second"}),
        ("content_create", {"collection": "posts", "data": {"title": 5}}),
        ("content_get", {"collection": "posts", "id": "hello"}),
        ("content_list", {"collection": "posts"}),
        ("content_list", {"collection": "posts", "filter": {"fields": {"price": {"gte": 1}}}}),
        ("content_list", {"collection": "posts", "filter": {"fields": {"kind": "a"}}}),
        ("content_list", {"collection": "posts", "filter": {"fields": {"nosuch": 1}}}),
        ("content_update", {"collection": "posts", "id": "second", "data": {"count": "many"}}),
        ("content_publish", {"collection": "posts", "id": "second"}),
        ("content_unpublish", {"collection": "posts", "id": "second"}),
        ("search", {"query": "Heading"}),
        ("taxonomy_list", {}),
        ("taxonomy_create_term", {"taxonomy": "category", "slug": "news", "label": "News"}),
        ("menu_create", {"name": "header", "label": "Header"}),
        ("menu_set_items", {"name": "header", "items": [{"label": "Home", "type": "custom", "url": "/"}]}),
        ("menu_get", {"name": "header"}),
        ("settings_get", {}),
        ("redirect_create", {"source": "/old", "destination": "/new"}),
        ("redirect_list", {}),
        ("revision_list", {"collection": "posts", "id": "hello"}),
        ("content_delete", {"collection": "posts", "id": "second"}),
        ("content_list_trashed", {"collection": "posts"}),
        ("nosuch_tool", {}),
    ]
    results = []
    for name, arguments in script:
        results.append(
            {"call": name, "arguments": arguments, "answer": mcp("tools/call", {"name": name, "arguments": arguments})}
        )
    write("mcp-script.json", results)

    rest = []
    for path in (
        "/_emdash/api/content/posts",
        "/_emdash/api/content/posts/hello",
        "/_emdash/api/schema/collections",
        "/_emdash/api/content/posts?limit=1",
        "/_emdash/api/content/nosuch",
        "/_emdash/api/menus",
        "/_emdash/api/taxonomies",
        "/_emdash/api/search?q=Heading",
        "/_emdash/api/redirects",
        "/_emdash/api/settings",
        "/_emdash/api/media",
    ):
        for who in ("admin", "anon"):
            response = client.get(path, headers=auth if who == "admin" else {})
            rest.append(
                {
                    "GET": path,
                    "as": who,
                    "status": response.status_code,
                    "headers": {k: response.get(k) for k in ("Content-Type", "Cache-Control", "Vary")},
                    "body": response.content.decode(errors="replace")[:4000],
                }
            )
    response = client.post("/_emdash/api/content/posts", "[[[[", content_type="application/json", headers=auth)
    rest.append({"POST": "bad json", "status": response.status_code, "body": response.content.decode()[:1000]})
    write("rest-script.json", rest)

    pages = []
    for path in ("/", "/posts/hello", "/posts/nosuch", "/old", "/_emdash/health", "/_emdash/admin/login/"):
        response = client.get(path)
        pages.append(
            {
                "GET": path,
                "status": response.status_code,
                "location": response.get("Location"),
                "type": response.get("Content-Type"),
                "length_bucket": len(response.content) // 1000,
            }
        )
    write("pages.json", pages)
    print(f"wrote {len(list(out.iterdir()))} files to {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "var/wire-dump"))
