"""Migrate and fill the peer: PAGES (default 1,000) published BlogPages under the site's root page.
Prints {"id": <a page id>, "url": <its path>}."""

import json
import os
import sys
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wagtail_peer.settings")

import django

django.setup()

from django.core.management import call_command  # noqa: E402

call_command("makemigrations", "peer_pages", verbosity=0)
call_command("migrate", verbosity=0, interactive=False)

from wagtail.models import Site  # noqa: E402

from wagtail_peer.peer_pages.models import BlogPage  # noqa: E402

root = Site.objects.get(is_default_site=True).root_page
count = int(os.environ.get("PAGES", "1000"))
if not BlogPage.objects.exists():
    body = "".join(f"<p>Paragraph {n} of a page about content, editors and publishing.</p>" for n in range(8))
    for n in range(count):
        root.add_child(
            instance=BlogPage(
                title=f"Post {n}",
                slug=f"post-{n}",
                date=date(2026, 1, 1) + timedelta(days=n % 300),
                body=body,
                show_in_menus=n < 5,
            )
        )
page = BlogPage.objects.order_by("id")[count // 2]
print(json.dumps({"id": page.id, "url": page.url}))
