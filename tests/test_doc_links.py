"""The README and docs/ link only to files in the repository (a clone has nothing beside it), and the README
does not state a tool count that drifts from what tools/list serves."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
CODE_PATH = re.compile(r"`(\.\./[^`\s]+)`")  # a path in backticks that climbs out of the repository


def _relative_links(doc: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", doc.read_text(encoding="utf-8"), flags=re.S)  # code blocks are not links
    return [t for t in LINK.findall(text) if not re.match(r"^[a-z][a-z0-9+.-]*:|^#", t)]


def test_every_relative_link_in_the_readme_and_docs_names_a_file_in_the_repository():
    broken = []
    for doc in DOCS:
        for target in _relative_links(doc):
            path = (doc.parent / target.split("#", 1)[0]).resolve()
            if not path.is_relative_to(ROOT) or not path.exists():
                broken.append(f"{doc.relative_to(ROOT)}: {target}")
        broken += [f"{doc.relative_to(ROOT)}: `{p}`" for p in CODE_PATH.findall(doc.read_text(encoding="utf-8"))]
    assert not broken, "links outside the repository or to missing files:\n" + "\n".join(broken)


def test_the_link_check_sees_links():
    assert "docs/production.md" in _relative_links(ROOT / "README.md")


def test_the_readme_states_no_tool_count():
    """tools/list is the source of truth; a number in prose is stale the day a tool is added."""
    assert not re.search(r"\b\d+\s+(?:MCP\s+)?tools\b", (ROOT / "README.md").read_text(encoding="utf-8"))
