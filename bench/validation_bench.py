"""Benchmark tool-argument validation: jsonschema (before the operation table) vs pydantic v2 vs msgspec.

Run on demand, not part of the test suite (msgspec is only in the ``bench`` extra):

    .venv/bin/python bench/validation_bench.py [--runs 20000]

Three realistic argument sets, each validated ``--runs`` times per library after a warm-up:
``content_create`` with a data object (title, body, tags) and terms, ``content_list`` with every filter, and a
``content_list`` with three bad fields (the error path: every problem collected). jsonschema uses the schemas
the tools were declared with before (a ``Draft202012Validator`` built once, ``iter_errors`` as the registry
did); pydantic uses the operation table's own input models (``content.entries.operations``); msgspec uses an
equivalent ``Struct`` (``forbid_unknown_fields``, ``Meta`` constraints). Prints a Markdown table of
microseconds per call (median of 5 rounds) and checks that the three libraries agree on valid vs invalid.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

import msgspec  # noqa: E402
from jsonschema import Draft202012Validator  # noqa: E402

from content.entries.operations import CreateInput, ListInput  # noqa: E402
from emdash.operations import input_schema  # noqa: E402

CREATE = {
    "collection": "posts",
    "data": {"title": "Hello world", "body": [{"_type": "block", "children": [{"text": "Hi"}]}], "tags": ["a", "b"]},
    "slug": "hello-world",
    "status": "draft",
    "terms": {"category": ["news"], "tag": ["django", "mcp"]},
}
LIST = {"collection": "posts", "status": "published", "limit": 20, "orderBy": "updatedAt", "order": "asc"}
BAD_LIST = {"collection": "", "limit": 0, "order": "up"}

ORDER = Literal[
    "createdAt", "created_at", "publishedAt", "published_at", "scheduledAt", "scheduled_at", "slug", "status",
    "title", "updatedAt", "updated_at",
]  # fmt: skip
Str200 = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]


class MsgCreate(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    collection: Annotated[str, msgspec.Meta(min_length=1, max_length=63)]
    data: dict[str, Any]
    slug: Str200 | None = None
    status: Literal["draft", "published"] | None = None
    locale: Annotated[str, msgspec.Meta(min_length=1, max_length=16)] | None = None
    translationOf: Str200 | None = None
    terms: Annotated[dict[str, list[Str200]], msgspec.Meta(max_length=20)] | None = None


class MsgList(msgspec.Struct, forbid_unknown_fields=True):
    collection: Annotated[str, msgspec.Meta(min_length=1, max_length=63)]
    status: Literal["draft", "published", "scheduled"] | None = None
    limit: Annotated[int, msgspec.Meta(ge=1, le=100)] = 50
    cursor: Annotated[str, msgspec.Meta(min_length=1, max_length=2048)] | None = None
    orderBy: ORDER | None = None
    order: Literal["asc", "desc"] | None = None
    locale: Annotated[str, msgspec.Meta(min_length=1, max_length=16)] | None = None


def _jsonschema(model: Any) -> Callable[[dict[str, Any]], bool]:
    validator = Draft202012Validator(input_schema(model))
    return lambda args: not list(validator.iter_errors(args))


def _pydantic(model: Any) -> Callable[[dict[str, Any]], bool]:
    def run(args: dict[str, Any]) -> bool:
        try:
            model.model_validate(args, strict=True)
            return True
        except Exception:
            return False

    return run


def _msgspec(struct: Any) -> Callable[[dict[str, Any]], bool]:
    def run(args: dict[str, Any]) -> bool:
        try:
            msgspec.convert(args, struct)
            return True
        except msgspec.ValidationError:
            return False

    return run


def _time(check: Callable[[dict[str, Any]], bool], args: dict[str, Any], runs: int) -> float:
    for _ in range(200):
        check(args)
    rounds = []
    for _ in range(5):
        started = time.perf_counter()
        for _ in range(runs):
            check(args)
        rounds.append((time.perf_counter() - started) / runs * 1e6)
    return statistics.median(rounds)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20000)
    runs = parser.parse_args().runs
    cases = [
        ("content_create (valid, data + terms)", CREATE, CreateInput, MsgCreate),
        ("content_list (valid, every filter)", LIST, ListInput, MsgList),
        ("content_list (3 bad fields)", BAD_LIST, ListInput, MsgList),
    ]
    print("| arguments | jsonschema µs | pydantic µs | msgspec µs | jsonschema / pydantic |")
    print("|---|---|---|---|---|")
    for label, args, model, struct in cases:
        checks = [_jsonschema(model), _pydantic(model), _msgspec(struct)]
        verdicts = {check(args) for check in checks}
        assert len(verdicts) == 1, f"{label}: the libraries disagree"
        js, pd, ms = (_time(check, args, runs) for check in checks)
        print(f"| {label} | {js:.1f} | {pd:.1f} | {ms:.1f} | {js / pd:.0f}x |")


if __name__ == "__main__":
    main()
