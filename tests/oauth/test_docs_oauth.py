from pathlib import Path

from accounts.oauth.grants import role_scopes_markdown

DOC = Path(__file__).resolve().parents[2] / "docs" / "oauth.md"


def test_role_scope_table_in_docs_matches_the_code():
    assert role_scopes_markdown() in DOC.read_text(), "regenerate docs/oauth.md from role_scopes_markdown()"
