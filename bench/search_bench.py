"""Benchmark full-text search on a large index: rare, medium and common terms on SQLite FTS5 or PostgreSQL.

Run on demand, not part of the test suite:

    .venv/bin/python bench/search_bench.py --backend sqlite|postgres [--docs 100000 --runs 30 --terms 5]

Steps:

1. a throw-away database: for SQLite a temporary EMDASH_VAR_DIR, for PostgreSQL a dedicated ``bench_search``
   database on 127.0.0.1 (dropped and created, dropped again at the end unless ``--keep``); migrated;
2. an ``articles`` collection (title string + body Portable Text, both searchable, search support) is created
   through the schema services;
3. ``--docs`` published items are generated from a Zipf-like vocabulary (so document frequencies range from a
   handful of items to most of them), inserted in bulk straight into the collection table, and indexed with the
   indexing code's bulk path (``content.search.indexing.index_rows``), then the index is optimised;
4. terms are picked by measured document frequency: rare (~0.01% of items), medium (~1%), common (~30%) and
   the most common words (in 90%+ of the items: the worst case), plus two-word queries (common AND medium);
5. each query runs through the search selector (the same call the MCP tool makes: validation, ranking,
   published re-check, excerpts), limit 20, once to warm up and then ``--runs`` times; p50/p95 per class are
   printed as a Markdown table (and saved as JSON with ``--output``);
6. the peer, in the same run on the same table: a substring scan without an index (``icontains`` on the
   searchable columns, newest first, limit 20), ``--peer-runs`` times per query; the table gives peer / ours.
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import json
import os
import platform
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from emdash.ids import new_id

ROOT = Path(__file__).resolve().parent.parent
PG_DATABASE = "bench_search"
SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in ("a", "e", "i", "o", "u", "ai", "or", "en")]
FIELDS = [
    {"slug": "title", "label": "Title", "type": "string", "required": True, "searchable": True},
    {"slug": "body", "label": "Body", "type": "portableText", "searchable": True},
]


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", choices=["sqlite", "postgres"], required=True)
    parser.add_argument("--docs", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=30, help="timed runs per query")
    parser.add_argument("--terms", type=int, default=5, help="queries per frequency class")
    parser.add_argument("--peer-runs", type=int, default=3, help="timed runs per query of the peer scan")
    parser.add_argument("--words", type=int, default=120, help="body words per document")
    parser.add_argument("--vocabulary", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--pg-url", default="postgres://postgres@127.0.0.1:5432/postgres", help="maintenance DB")
    parser.add_argument("--keep", action="store_true", help="keep the throw-away database")
    parser.add_argument("--output", type=Path, help="also write the results as JSON here")
    return parser.parse_args()


# -- the throw-away database ---------------------------------------------------------------------------------


def _loopback_only(url: str) -> None:
    from urllib.parse import urlparse

    host = urlparse(url).hostname
    if host not in {"127.0.0.1", "localhost", "::1"}:
        raise SystemExit(f"refusing to touch a non-loopback database server: {host}")


def _pg_admin(url: str, statement: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(statement)


def prepare_database(args: argparse.Namespace) -> tuple[str, Any]:
    """Point Django at a fresh database; returns a description and a clean-up callable."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    var_dir = tempfile.mkdtemp(prefix="emdash-search-bench-")
    os.environ["EMDASH_VAR_DIR"] = var_dir
    if args.backend == "sqlite":
        os.environ.pop("DATABASE_URL", None)
        where = f"SQLite file in {var_dir}"
    else:
        _loopback_only(args.pg_url)
        _pg_admin(args.pg_url, f"DROP DATABASE IF EXISTS {PG_DATABASE} WITH (FORCE)")
        _pg_admin(args.pg_url, f"CREATE DATABASE {PG_DATABASE}")
        base = args.pg_url.rsplit("/", 1)[0]
        os.environ["DATABASE_URL"] = f"{base}/{PG_DATABASE}"
        where = f"PostgreSQL database {PG_DATABASE}"

    def cleanup() -> None:
        from django.db import connections

        connections.close_all()
        if args.keep:
            log(f"kept {where}")
            return
        if args.backend == "postgres":
            # FORCE: the connection pool still holds its connections here
            _pg_admin(args.pg_url, f"DROP DATABASE IF EXISTS {PG_DATABASE} WITH (FORCE)")
        shutil.rmtree(var_dir, ignore_errors=True)

    return where, cleanup


# -- documents -----------------------------------------------------------------------------------------------


def vocabulary(size: int, rng: random.Random) -> list[str]:
    """Distinct pseudo-words of 3-4 syllables (no stop words, nothing a stemmer folds together by accident)."""
    words: set[str] = set()
    while len(words) < size:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.choice((3, 3, 4)))))
    return sorted(words)


class Zipf:
    """Draws words with probability proportional to 1 / rank^s."""

    def __init__(self, words: list[str], rng: random.Random, s: float = 1.05) -> None:
        self.words = words
        self.rng = rng
        self.cumulative = list(itertools.accumulate(1 / (rank**s) for rank in range(1, len(words) + 1)))
        self.total = self.cumulative[-1]

    def draw(self, k: int) -> list[str]:
        cumulative, words, total, rand = self.cumulative, self.words, self.total, self.rng.random
        return [words[bisect.bisect(cumulative, rand() * total)] for _ in range(k)]


def portable_text(words: list[str], paragraphs: int = 3) -> list[dict[str, Any]]:
    size = max(1, len(words) // paragraphs)
    return [
        {
            "_type": "block",
            "_key": f"b{i}",
            "style": "normal",
            "markDefs": [],
            "children": [{"_type": "span", "_key": f"s{i}", "text": " ".join(words[i * size : (i + 1) * size])}],
        }
        for i in range(paragraphs)
    ]


def load(args: argparse.Namespace) -> tuple[Counter[str], dict[str, float]]:
    """Create the collection, insert and index the documents; returns document frequencies and timings."""
    from django.db import transaction
    from django.utils import timezone

    from content.schema import services as schema_services
    from content.schema.dynamic import field_attname
    from content.search import indexing
    from content.search.backends import get_backend
    from emdash.actor import Actor

    system = Actor.system()
    schema_services.collection_create(actor=system, slug="articles", label="Articles", supports=["search"])
    for field in FIELDS:
        schema_services.field_create(actor=system, collection="articles", **field)
    spec = schema_services.collection_get(actor=system, slug="articles")

    rng = random.Random(args.seed)
    zipf = Zipf(vocabulary(args.vocabulary, rng), rng)
    frequencies: Counter[str] = Counter()
    title_col, body_col = field_attname("title"), field_attname("body")
    timings = {"generate": 0.0, "insert": 0.0, "index": 0.0}
    batch_size = 2000
    now = timezone.now()
    for start in range(0, args.docs, batch_size):
        began = time.perf_counter()
        batch = []
        for i in range(start, min(start + batch_size, args.docs)):
            title, body = zipf.draw(6), zipf.draw(args.words)
            frequencies.update(set(title) | set(body))
            entry_id = new_id()
            batch.append(
                spec.model(
                    id=entry_id,
                    slug=f"doc-{i}",
                    status="published",
                    created_at=now,
                    updated_at=now,
                    published_at=now,
                    version=1,
                    locale="en",
                    translation_group=entry_id,
                    **{title_col: " ".join(title).capitalize(), body_col: portable_text(body)},
                )
            )
        generated = time.perf_counter()
        with transaction.atomic():
            spec.model.objects.bulk_create(batch, batch_size=500)
        inserted = time.perf_counter()
        with transaction.atomic():
            indexing.index_rows(spec, batch, replace=False)
        indexed = time.perf_counter()
        timings["generate"] += generated - began
        timings["insert"] += inserted - generated
        timings["index"] += indexed - inserted
        if (start // batch_size) % 10 == 9 or start + batch_size >= args.docs:
            log(f"  {min(start + batch_size, args.docs)}/{args.docs} documents inserted and indexed")
    began = time.perf_counter()
    get_backend().optimize()
    timings["optimize"] = time.perf_counter() - began
    return frequencies, timings


# -- queries -------------------------------------------------------------------------------------------------


def pick_queries(frequencies: Counter[str], docs: int, per_class: int, rng: random.Random) -> dict[str, list[str]]:
    def near(share: float, low: float, high: float) -> list[str]:
        lo, hi = max(1, int(docs * share * low)), max(1, int(docs * share * high))
        pool = sorted(w for w, n in frequencies.items() if lo <= n <= hi)
        return rng.sample(pool, min(per_class, len(pool)))

    rare = near(0.0001, 0.5, 2.0) or near(0.0001, 0.5, 10.0)
    medium = near(0.01, 0.7, 1.5)
    common = near(0.3, 0.8, 1.2)
    everywhere = [w for w, _ in frequencies.most_common(per_class)]
    two_words = [f"{c} {m}" for c, m in zip(common, medium, strict=False)]
    return {
        "rare (~0.01%)": rare,
        "medium (~1%)": medium,
        "common (~30%)": common,
        "most common (90%+)": everywhere,
        "common + medium": two_words,
    }


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def run_queries(queries: dict[str, list[str]], frequencies: Counter[str], runs: int) -> list[dict[str, Any]]:
    from content.search.selectors import search
    from emdash.actor import Actor

    actor = Actor.anonymous()
    results = []
    for label, terms in queries.items():
        samples: list[float] = []
        matched: list[int] = []
        for query in terms:
            words = query.split()
            matched.append(min(frequencies[w] for w in words) if len(words) == 1 else -1)
            search(actor=actor, query=query, limit=20)  # warm-up
            for _ in range(runs):
                began = time.perf_counter()
                found = search(actor=actor, query=query, limit=20)
                samples.append((time.perf_counter() - began) * 1000)
            assert found, f"no result for {query!r}"
        single = [m for m in matched if m >= 0]
        results.append(
            {
                "class": label,
                "queries": terms,
                "matching_docs": f"{min(single)}-{max(single)}" if single else "n/a",
                "runs": len(samples),
                "p50_ms": round(statistics.median(samples), 2),
                "p95_ms": round(percentile(samples, 0.95), 2),
            }
        )
    return results


def run_peer(queries: dict[str, list[str]], runs: int) -> dict[str, float]:
    """The peer, timed on the same table in the same run: what a CMS without a search index does, a
    case-insensitive substring scan of the searchable columns (published items, newest first, limit 20).
    It finds substrings rather than words and does not rank, so it is a lower bound on real work."""
    from django.db.models import Q

    from content.schema import specs as schema
    from content.schema.dynamic import field_attname

    model = schema.get_collection("articles").model
    live = model.objects.filter(status="published", deleted_at__isnull=True).order_by("-published_at")
    title, body = field_attname("title"), field_attname("body")
    p50s: dict[str, float] = {}
    for label, terms in queries.items():
        samples: list[float] = []
        for query in terms:
            match = Q()
            for word in query.split():
                match &= Q(**{f"{title}__icontains": word}) | Q(**{f"{body}__icontains": word})
            list(live.filter(match).values_list("id", flat=True)[:20])  # warm-up
            for _ in range(runs):
                began = time.perf_counter()
                list(live.filter(match).values_list("id", flat=True)[:20])
                samples.append((time.perf_counter() - began) * 1000)
        p50s[label] = round(statistics.median(samples), 2)
    return p50s


def main() -> None:
    args = parse_args()
    sys.path.insert(0, str(ROOT))
    where, cleanup = prepare_database(args)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    try:
        log(f"migrating {where}")
        call_command("migrate", verbosity=0)
        log(f"loading {args.docs} documents")
        frequencies, timings = load(args)
        queries = pick_queries(frequencies, args.docs, args.terms, random.Random(args.seed + 1))
        log("timing queries")
        results = run_queries(queries, frequencies, args.runs)
        log("timing the peer (substring scan without an index)")
        peer = run_peer(queries, args.peer_runs)
        for row in results:
            row["peer_p50_ms"] = peer[row["class"]]
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute("SELECT version()")
            else:
                cursor.execute("SELECT 'SQLite ' || sqlite_version()")
            server = cursor.fetchone()[0].split(" on ")[0]
    finally:
        cleanup()
    docs_per_s = args.docs / timings["index"] if timings["index"] else 0
    print(f"\n{server}, Python {platform.python_version()}, {args.docs} documents, {args.words} body words each")
    print(
        f"load: insert {timings['insert']:.1f}s, index {timings['index']:.1f}s ({docs_per_s:,.0f} docs/s), "
        f"optimize {timings['optimize']:.1f}s\n"
    )
    print("| terms | items matching | p50 (ms) | p95 (ms) | peer scan p50 (ms) | peer / ours |")
    print("|---|---|---:|---:|---:|---:|")
    for row in results:
        ratio = row["peer_p50_ms"] / row["p50_ms"] if row["p50_ms"] else 0
        print(
            f"| {row['class']} | {row['matching_docs']} | {row['p50_ms']} | {row['p95_ms']} "
            f"| {row['peer_p50_ms']} | {ratio:.1f}x |"
        )
    if args.output:
        payload = {"backend": args.backend, "server": server, "docs": args.docs, "timings": timings, "results": results}
        args.output.write_text(json.dumps(payload, indent=2))


if __name__ == "__main__":
    main()
