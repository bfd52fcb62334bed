"""Renditions (issue 25, SPEC 11): a 1280-px WebP from a 12-megapixel JPEG, first render and cached hit.

``make bench`` calls :func:`run`, which runs this file in a child process (its own Django set-up on a throw-away
SQLite database and MEDIA_ROOT) and turns the JSON it prints into rows. On its own:

    .venv/bin/python bench/goal_renditions.py [--runs 7]

- **first render**: ``GET /_emdash/media/<id>/1280x0/inside.webp`` through the Django test client when no such
  rendition exists (its row and file are removed before each run): the view, the render lock, Pillow, the store.
- **floor**: Pillow alone doing the same job the plain way: open the JPEG, convert, resize to 1280 px wide
  (LANCZOS), encode WebP at the same quality. Ours may beat it: it lets libjpeg decode at a reduced scale.
- **cached hit**: the same URL again (the stored rendition, body read whole), against serving the original
  (``GET /media/<key>``, body read whole): a hit must cost no more than that.

Medians of ``--runs`` runs, in milliseconds.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
GOAL = "Renditions: 1280-px WebP from a 12-megapixel JPEG"
FIRST_TARGET = 1.5  # first render <= 1.5x Pillow alone
HIT_TARGET = 1.0  # a cached hit <= serving the original


def photo() -> bytes:
    """4000x3000 with gradients and noise, so the JPEG is photo-sized (a few MB), not a flat colour."""
    from PIL import Image

    size = (4000, 3000)
    gradient = Image.linear_gradient("L").resize(size)
    noise = Image.effect_noise(size, 40)
    rgb = Image.merge("RGB", (gradient, noise, gradient.rotate(90).resize(size)))
    buffer = io.BytesIO()
    rgb.save(buffer, "JPEG", quality=90)
    return buffer.getvalue()


def floor(data: bytes, quality: int) -> float:
    from PIL import Image

    started = time.perf_counter()
    with Image.open(io.BytesIO(data)) as image:
        rgb = image.convert("RGB")
        height = round(rgb.height * 1280 / rgb.width)
        out = io.BytesIO()
        rgb.resize((1280, height), Image.Resampling.LANCZOS).save(out, "WEBP", quality=quality, method=4)
    return (time.perf_counter() - started) * 1000


def timed_get(client: Any, url: str) -> float:
    started = time.perf_counter()
    response = client.get(url)
    body = b"".join(response.streaming_content) if response.streaming else response.content
    assert response.status_code == 200 and body, (url, response.status_code)
    return (time.perf_counter() - started) * 1000


def measure(runs: int) -> dict[str, Any]:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.core.management import call_command
    from django.test import Client

    from emdash.actor import Actor
    from media import renditions, services
    from media import storage as store
    from media.models import MediaRendition

    call_command("migrate", verbosity=0)
    data = photo()
    upload = SimpleUploadedFile("photo.jpg", data, content_type="image/jpeg")
    item = services.media_upload(actor=Actor.system(), file=upload, filename="photo.jpg")
    client = Client()
    url = f"/_emdash/media/{item.id}/1280x0/inside.webp"
    first, floors, hits, originals = [], [], [], []
    for _ in range(runs):
        for row in MediaRendition.objects.all():
            store.delete_quietly(row.key)
        MediaRendition.objects.all().delete()
        first.append(timed_get(client, url))
        floors.append(floor(data, renditions.quality("webp")))
    timed_get(client, f"/media/{item.storage_key}")  # warm
    for _ in range(runs * 3):
        hits.append(timed_get(client, url))
        originals.append(timed_get(client, f"/media/{item.storage_key}"))
    rendition = MediaRendition.objects.get()
    return {
        "jpeg_bytes": len(data),
        "webp_bytes": rendition.size,
        "size": [rendition.width, rendition.height],
        "first_ms": statistics.median(first),
        "floor_ms": statistics.median(floors),
        "hit_ms": statistics.median(hits),
        "original_ms": statistics.median(originals),
    }


def rows(runs: int = 7) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix="bench-renditions-") as work:
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "EMDASH_S3_BUCKET")}
        env.update(EMDASH_VAR_DIR=work, MEDIA_ROOT=f"{work}/media", DJANGO_SETTINGS_MODULE="config.settings")
        env.update(EMDASH_LOG_LEVEL="WARNING", DEBUG="0")
        done = subprocess.run(
            [sys.executable, str(HERE / "goal_renditions.py"), "--runs", str(runs)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise SystemExit(f"goal_renditions failed:\n{done.stdout}{done.stderr}")
        result = json.loads(done.stdout.strip().splitlines()[-1])
    note = f"{result['jpeg_bytes'] / 1e6:.1f} MB JPEG -> {result['webp_bytes'] / 1e3:.0f} kB WebP {result['size']}"
    first_ratio = result["first_ms"] / result["floor_ms"]
    hit_ratio = result["hit_ms"] / result["original_ms"]
    return [
        {
            "goal": GOAL,
            "measure": "first render (view, lock, store) vs Pillow alone",
            "ours": result["first_ms"],
            "unit": "ms",
            "peer": result["floor_ms"],
            "peer_name": "Pillow alone",
            "ratio": first_ratio,
            "target": f"<= {FIRST_TARGET:g}x",
            "met": first_ratio <= FIRST_TARGET,
            "note": note,
        },
        {
            "goal": GOAL,
            "measure": "cached hit vs serving the original",
            "ours": result["hit_ms"],
            "unit": "ms",
            "peer": result["original_ms"],
            "peer_name": "original",
            "ratio": hit_ratio,
            "target": f"<= {HIT_TARGET:g}x",
            "met": hit_ratio <= HIT_TARGET,
        },
    ]


def run(bench: Any) -> list[Any]:
    """The goal registry's entry point (bench/run.py's GOALS)."""
    from bench.harness import Row

    return [Row(**row) for row in rows()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    print(json.dumps(measure(args.runs)))


if __name__ == "__main__":
    main()
