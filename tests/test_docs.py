from pathlib import Path

from emdash.permissions import as_markdown

DOC = Path(__file__).resolve().parent.parent / "docs" / "content-model.md"


def test_permission_table_in_docs_matches_the_code():
    assert as_markdown() in DOC.read_text(), "regenerate the table in docs/content-model.md from as_markdown()"
