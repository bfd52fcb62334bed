"""Fill the benchmark database: the demo site plus enough published posts for a full page of 50.

Run after ``manage.py migrate`` and ``emdash_seed_demo`` with the same EMDASH_VAR_DIR; prints
``{"collection": ..., "count": ..., "id": ...}`` (``id`` is the post ``content_get`` fetches).

    EMDASH_VAR_DIR=... python bench/seed.py [--posts 60] [--bulk 100000] [--collections 49 --fields 20]

``--bulk N`` adds N more published posts as copies of the last one, inserted in batches straight into the
table (the services would take minutes for 100k; list pages only read the table). ``--collections K``
adds K collections of ``--fields`` fields each with one published item; ``wide_id``/``wide_collection``
then name that item in the last of them (goal 6: a read's cost must not grow with the schema).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from accounts.models import User  # noqa: E402
from content.entries import selectors, services  # noqa: E402
from content.schema import specs as schema  # noqa: E402
from emdash.actor import Actor  # noqa: E402
from emdash.ids import new_id  # noqa: E402

COLLECTION = "posts"
WORDS = ("content", "editor", "draft", "publish", "schema", "field", "revision", "assistant", "page", "token")
FIELD_TYPES = ("string", "text", "number", "boolean", "datetime")


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


def bulk(template_id: str, count: int) -> None:
    """``count`` copies of the template row, each with its own id, slug and (older) creation time."""
    model = schema.current().get(COLLECTION).model
    template = model.objects.get(id=template_id)
    values = {f.attname: getattr(template, f.attname) for f in model._meta.concrete_fields}
    batch = []
    for n in range(count):
        ident = new_id()
        created = template.created_at - timedelta(seconds=n + 1)
        row = dict(values, id=ident, slug=f"bulk-{n}", translation_group=ident, created_at=created)
        batch.append(model(**dict(row, updated_at=created, live_revision_id=None, draft_revision_id=None)))
        if len(batch) >= 2000:
            model.objects.bulk_create(batch)
            batch = []
    if batch:
        model.objects.bulk_create(batch)


def wide(actor: Actor, collections: int, fields: int) -> dict[str, str]:
    """``collections`` more collections of ``fields`` fields, one published item each; the last item.

    Registry rows and tables are made in one DDL transaction (what the schema services write, without a
    snapshot rebuild per field, which made 1,000 fields take minutes)."""
    from django.apps.registry import Apps
    from django.db import connection

    from content.models import Collection, Field, SchemaState
    from content.schema.dynamic import build_model, table_name_for
    from content.schema.specs import CollectionSpec

    slugs = [f"wide{c:02d}" for c in range(collections)]
    with connection.schema_editor(atomic=True) as editor:
        for slug in slugs:
            row = Collection.objects.create(
                slug=slug, label=slug.title(), supports=["drafts", "revisions"], table_name=table_name_for(slug)
            )
            made = [
                Field.objects.create(
                    collection=row,
                    slug="title" if f == 0 else f"f{f:02d}",
                    label=f"F{f}",
                    type="string" if f == 0 else FIELD_TYPES[f % len(FIELD_TYPES)],
                    position=f,
                )
                for f in range(fields)
            ]
            editor.create_model(build_model(CollectionSpec.from_rows(row, made), Apps()))
        SchemaState.objects.update_or_create(pk=1, defaults={"version": SchemaState.objects.get(pk=1).version + 1})
    schema.invalidate()
    item = services.entry_create(actor=actor, collection=slugs[-1], status="published", data={"title": "Wide"})
    return {"wide_collection": slugs[-1], "wide_id": str(item.id)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--posts", type=int, default=60, help="published posts to add")
    parser.add_argument("--bulk", type=int, default=0, help="published copies of the last post to add")
    parser.add_argument("--collections", type=int, default=0, help="collections to add")
    parser.add_argument("--fields", type=int, default=20, help="fields per added collection")
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
    assert last is not None
    if args.bulk:
        bulk(str(last.id), args.bulk)
    extra = wide(actor, args.collections, args.fields) if args.collections else {}
    page = selectors.entry_list(actor=actor, collection=COLLECTION, limit=100)
    count = len(page.items)
    print(json.dumps({"collection": COLLECTION, "count": count, "id": str(last.to_dict()["id"]), **extra}))


if __name__ == "__main__":
    main()
