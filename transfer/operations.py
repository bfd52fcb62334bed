"""Transfer operations: ``import_wordpress`` (SPEC 12), an MCP tool for assistants migrating a site.

It can take minutes, so clients call it as a task (SPEC 5.6): the worker runs it through the same pipeline.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from emdash.operations import Input, family
from emdash.operations.schema import reference
from emdash.operations.shapes import STRING, array, obj
from emdash.permissions import Perm
from transfer import services

COUNTS = {"type": "object", "additionalProperties": {"type": "integer"}, "description": "How many, by kind"}
REPORT = obj(
    {
        "site": STRING,
        "created": COUNTS,
        "alreadyImported": COUNTS,
        "skipped": array(obj({"what": STRING, "why": STRING}, ["what", "why"])),
        "notes": array(STRING),
    },
    ["site", "created", "alreadyImported", "skipped", "notes"],
)


class ImportWordPressInput(Input):
    media_id: Annotated[str, reference("Media id of a WXR file uploaded with media_upload", 26)] | None = None
    url: Annotated[
        str | None,
        Field(None, description="Public http(s) URL of a WXR file", max_length=2000),
    ]
    create_users: Annotated[bool | None, Field(None, description="Create users for authors who have none")]


# Category "content" (SPEC 5.5's categories): what it brings in is content.
run = family("content", Perm.SITE_IMPORT, atomic=False, output=REPORT, idempotent=True)
run("import_wordpress", "Import a WordPress site", ImportWordPressInput, services.wordpress_import).describe(
    "Import a WordPress export (WXR): posts, pages, custom types, terms, media, menus, SEO, redirects. Safe to "
    "repeat (creates nothing twice). Slow: call it as a task. Answers what was created, and what was skipped and why."
)
