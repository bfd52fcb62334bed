"""Fill the benchmark database: the demo site plus enough published posts for a full page of 50.

Run after ``manage.py migrate`` and ``emdash_seed_demo`` with the same EMDASH_VAR_DIR; prints
``{"collection": ..., "count": ..., "id": ...}`` (``id`` is the post ``content_get`` fetches).

    EMDASH_VAR_DIR=... python bench/seed.py [--posts 60]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "emdash.settings")

import django

django.setup()

from content import selectors, services  # noqa: E402
from emdash.actor import Actor  # noqa: E402
from emdash.models import User  # noqa: E402

COLLECTION = "posts"
WORDS = ("content", "editor", "draft", "publish", "schema", "field", "revision", "assistant", "page", "token")


def paragraph(n: int, i: int) -> str:
    return " ".join(WORDS[(n * 7 + i * 3 + k) % len(WORDS)] for k in range(40)).capitalize() + "."


def body(n: int) -> list[dict[str, object]]:
    return [
        {
            "_type": "block",
            "_key": f"b{i}",
            "style": "normal",
            "markDefs": [],
            "children": [{"_type": "span", "_key": f"s{i}", "text": paragraph(n, i), "marks": []}],
        }
        for i in range(4)
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--posts", type=int, default=60, help="published posts to add")
    args = parser.parse_args()
    actor = Actor.for_user(User.objects.get(email="admin@example.com"))
    last = None
    for n in range(args.posts):
        last = services.entry_create(
            actor=actor,
            collection=COLLECTION,
            status="published",
            data={
                "title": f"Benchmark post {n:03d}",
                "excerpt": f"Post {n} of the benchmark set: a short summary line.",
                "body": body(n),
            },
        )
    page = selectors.entry_list(actor=actor, collection=COLLECTION, limit=100)
    assert last is not None
    print(json.dumps({"collection": COLLECTION, "count": len(page.items), "id": str(last.to_dict()["id"])}))


if __name__ == "__main__":
    main()
