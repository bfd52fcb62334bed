"""Benchmark what media details cost a content list (SPEC 11): a page of 50 items, each with its own cover image
and an inline image (another item's cover), presented with and without their media's details (url, renditions,
srcset): 100 references to 50 media items.

Run on demand, not part of the test suite (it makes its own throwaway test database):

    .venv/bin/python bench/media_values_bench.py [--rounds 7] [--calls 50]

Prints CPU milliseconds per page (``time.process_time``, median of the rounds; the machine is shared, so CPU time
and the same-run ratio are the figures to quote) and the queries each page costs.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.core.files.base import ContentFile  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402
from PIL import Image  # noqa: E402


def _seed() -> None:
    from content.entries import services
    from emdash.actor import Actor
    from media import services as media_services
    from media import storage
    from tests.factories import make_collection

    system = Actor.system()
    make_collection(
        "posts",
        fields=[
            {"slug": "title", "label": "Title", "type": "string"},
            {"slug": "cover", "label": "Cover", "type": "image"},
            {"slug": "body", "label": "Body", "type": "portableText"},
        ],
    )
    ids = []
    for i in range(50):
        buffer = io.BytesIO()
        Image.new("RGB", (1600 + i, 900), (4 * i, 80, 160)).save(buffer, "JPEG")
        key = storage.storage().save(f"bench/cover-{i}.jpg", ContentFile(buffer.getvalue()))
        item = media_services.media_create(actor=system, filename="c.jpg", mime_type="image/jpeg", storage_key=key)
        ids.append(item.id)
    for n in range(50):
        inline = {"_type": "image", "_key": "im", "asset": {"id": ids[(n + 1) % 50]}}
        data = {"title": f"Post {n}", "cover": {"id": ids[n]}, "body": [inline]}
        entry = services.entry_create(actor=system, collection="posts", data=data)
        services.entry_publish(actor=system, collection="posts", id=entry.id)


def _page() -> None:
    from content.entries import selectors
    from emdash.actor import Actor

    selectors.entry_list(actor=Actor.anonymous(), collection="posts", limit=50, full=True).present()


def _measure(rounds: int, calls: int) -> tuple[float, int]:
    _page()
    with CaptureQueriesContext(connection) as captured:
        _page()
    samples = []
    for _ in range(rounds):
        start = time.process_time()
        for _ in range(calls):
            _page()
        samples.append((time.process_time() - start) * 1000 / calls)
    return statistics.median(samples), len(captured)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--calls", type=int, default=50)
    args = parser.parse_args()
    import tempfile

    from django.conf import settings

    settings.MEDIA_ROOT = tempfile.mkdtemp(prefix="emdash-bench-media-")
    setup_test_environment()
    old = connection.creation.create_test_db(verbosity=0)
    try:
        _seed()
        from content.entries import entry

        shown, shown_queries = _measure(args.rounds, args.calls)
        real = entry.show_media
        entry.show_media = lambda spec, datas: None  # type: ignore[assignment]
        try:
            bare, bare_queries = _measure(args.rounds, args.calls)
        finally:
            entry.show_media = real
        print(f"load average: {os.getloadavg()[0]:.2f}")
        print("| page of 50 (own cover + inline image each) | CPU ms per page | queries |")
        print("|---|---:|---:|")
        print(f"| without media details | {bare:.2f} | {bare_queries} |")
        print(f"| with media details | {shown:.2f} | {shown_queries} |")
        print(f"| ratio | {shown / bare:.2f}x | +{shown_queries - bare_queries} |")
    finally:
        connection.creation.destroy_test_db(old, verbosity=0)


if __name__ == "__main__":
    main()
