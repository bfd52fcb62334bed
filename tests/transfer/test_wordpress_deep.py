"""Gutenberg containers (group, columns, a list of list items) are unwrapped into their inner blocks. They nest
as deep as the file says: 5,000 nested groups (a hostile or broken export) overflowed Python's recursion and
stopped the whole import with a traceback. The post imports, its text kept, in document order."""

from __future__ import annotations

import io
from pathlib import Path

from django.core.management import call_command

from content.schema import specs as schema

DEPTH = 5000


def test_blocks_nested_past_python_s_recursion_limit_import(cms: None, tmp_path: Path) -> None:
    inner = "<!-- wp:paragraph --><p>Deep inside</p><!-- /wp:paragraph -->"
    deep = "<!-- wp:group -->" * DEPTH + inner + "<!-- /wp:group -->" * DEPTH
    unclosed = "<!-- wp:list -->" * DEPTH + "<p>never closed</p>"
    after = "<!-- wp:paragraph --><p>After</p><!-- /wp:paragraph -->"
    path = tmp_path / "deep.xml"
    path.write_text(
        '<rss xmlns:wp="http://wordpress.org/export/1.2/" xmlns:content="http://purl.org/rss/1.0/modules/content/">'
        "<channel><wp:wxr_version>1.2</wp:wxr_version>"
        "<item><title>Deep</title><wp:post_id>1</wp:post_id><wp:post_type>post</wp:post_type>"
        f"<wp:status>publish</wp:status><wp:post_name>deep</wp:post_name><content:encoded><![CDATA[{deep}{after}]]>"
        "</content:encoded></item>"
        "<item><title>Open</title><wp:post_id>2</wp:post_id><wp:post_type>post</wp:post_type>"
        f"<wp:status>publish</wp:status><wp:post_name>open</wp:post_name><content:encoded><![CDATA[{unclosed}]]>"
        "</content:encoded></item></channel></rss>"
    )
    out = io.StringIO()
    call_command("emdash_import_wordpress", str(path), "--no-fetch", stdout=out)
    assert "created 2 posts" in out.getvalue(), out.getvalue()
    rows = {row.slug: row for row in schema.current(fresh=True).get("posts").model.objects.all()}
    texts = [span["text"] for block in rows["deep"].f_body for span in block.get("children", [])]
    assert texts == ["Deep inside", "After"], texts
