"""A varied site to export, and helpers to run the transfer commands against another database in a subprocess."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any

from bylines.services import byline_create
from content.changesets import services as changesets
from content.entries import services
from content.redirects.services import redirect_create
from media.ingest import media_upload
from menus.services import menu_create, menu_set_items
from settings_app.services import settings_update
from taxonomy.services import term_create
from tests.factories import SYSTEM, actor, make_collection, make_user
from tests.media.helpers import image_bytes
from webhooks.services import webhook_create

ROOT = Path(__file__).resolve().parents[2]


def build_site(settings: Any) -> dict[str, Any]:
    """Users, two collections, entries in every state, terms with a parent, a nested menu, settings, SEO,
    a redirect, an image, a webhook, a byline credited on an item, and a change set proposing the draft."""
    settings.EMDASH = {**settings.EMDASH, "WEBHOOKS_ALLOW_PRIVATE": True}  # the test's receiver is local
    author = make_user("author", email="ann@example.com")
    make_user("admin", email="root@example.com")
    make_collection("posts")
    make_collection("pages", fields=[{"slug": "title", "label": "Title", "type": "string", "required": True}])
    image = media_upload(actor=SYSTEM, filename="red.png", data=base64.b64encode(image_bytes()).decode(), alt="Red")
    parent = term_create(actor=SYSTEM, taxonomy="category", slug="news", label="News")
    term_create(actor=SYSTEM, taxonomy="category", slug="local", label="Local", parent_id=parent.id)
    body = [{"_type": "block", "style": "normal", "children": [{"_type": "span", "text": "Héllo", "marks": ["em"]}]}]
    by = actor(author)
    draft = services.entry_create(actor=by, collection="posts", data={"title": "Draft", "body": body})
    live = services.entry_create(
        actor=by,
        collection="posts",
        data={"title": "Live", "body": body},
        status="published",
        terms={"category": ["local"]},
        seo={"title": "Live SEO", "description": "About it"},
    )
    credit = byline_create(actor=SYSTEM, slug="ann", display_name="Ann Writer", user_id=author.pk)
    guest = byline_create(actor=SYSTEM, slug="guest", display_name="A Guest")
    services.entry_update(
        actor=by,
        collection="posts",
        id=live.id,
        data={"title": "Live, edited"},
        bylines=[{"bylineId": credit.id}, {"bylineId": guest.id, "roleLabel": "Photos"}],
    )
    proposal = changesets.changeset_create(actor=by, title="Spring", description="The draft, for review")
    changesets.changeset_add(actor=by, id=proposal.id, collection="posts", item=draft.id)
    page = services.entry_create(actor=SYSTEM, collection="pages", data={"title": "About"}, status="published")
    menu_create(actor=SYSTEM, name="primary", label="Primary")
    menu_set_items(
        actor=SYSTEM,
        name="primary",
        items=[
            {"label": "About", "type": "page", "referenceCollection": "pages", "referenceId": page.id},
            {"label": "Docs", "type": "custom", "customUrl": "https://example.com/docs", "parentIndex": 0},
        ],
    )
    settings_update(actor=SYSTEM, changes={"title": "Round trip", "logo": {"mediaId": image.id}})
    redirect_create(actor=SYSTEM, source="/old-about", target="/pages/about")
    webhook_create(actor=SYSTEM, url="http://127.0.0.1:9/in", events=["content.published"])
    return {"draft": draft.id, "live": live.id, "page": page.id, "image": image.id}


def members(path: Path) -> dict[str, bytes]:
    """Every member but the manifest (its creation time differs), with the manifest's counts."""
    with tarfile.open(path, "r:gz") as tar:
        found = {m.name: tar.extractfile(m).read() for m in tar if m.isfile()}  # type: ignore[union-attr]
    found.pop("manifest.json")
    return found


def manage(*args: str, database_url: str, media_root: Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": database_url, "MEDIA_ROOT": str(media_root), "DJANGO_SETTINGS_MODULE": ""}
    env.pop("DJANGO_SETTINGS_MODULE")
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    if check and done.returncode != 0:
        raise AssertionError(f"manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done


def still_empty(tmp_path: Path, where: dict[str, Any]) -> None:
    """The site at ``where`` holds nothing (exported to check: no rows but the defaults, no media files)."""
    check = tmp_path / "check.tar.gz"
    manage("emdash_export", str(check), **where)
    with tarfile.open(check, "r:gz") as tar:
        manifest = json.load(tar.extractfile("manifest.json"))  # type: ignore[arg-type]
    written = {kind: n for kind, n in manifest["counts"].items() if n and kind not in ("taxonomies",)}
    assert written == {}, f"a refused import wrote {written}"
    assert not any(where["media_root"].rglob("*.png"))
