"""The editorialGuide setting (SPEC 10): Markdown for writers, kept with its line breaks, capped, and edited on the
admin's settings page (assistants read it as the MCP resource emdash://guide)."""

from __future__ import annotations

import pytest
from django.test import Client

from emdash.errors import ValidationError
from settings_app import selectors, services
from tests.factories import SYSTEM, make_user

GUIDE = "# House style\n\n- Metric units\n- Short headings\n"


@pytest.mark.django_db
def test_the_guide_keeps_its_lines_and_is_capped() -> None:
    assert services.settings_update(actor=SYSTEM, changes={"editorialGuide": GUIDE})["editorialGuide"] == GUIDE
    with pytest.raises(ValidationError) as refused:
        services.settings_update(actor=SYSTEM, changes={"editorialGuide": "x" * 20_001})
    assert "editorialGuide" in refused.value.details["fields"]
    assert services.settings_update(actor=SYSTEM, changes={"editorialGuide": ""}).get("editorialGuide") is None


@pytest.mark.django_db
def test_the_admin_settings_page_edits_the_guide() -> None:
    client = Client()
    client.force_login(make_user("admin"))
    page = client.get("/_emdash/admin/settings/").content.decode()
    assert 'name="editorialGuide"' in page and "emdash://guide" in page
    response = client.post("/_emdash/admin/settings/", {"title": "Cookbook", "editorialGuide": GUIDE})
    assert response.status_code == 302
    assert selectors.stored()["editorialGuide"] == GUIDE.strip()
