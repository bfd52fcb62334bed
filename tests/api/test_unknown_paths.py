"""A path no route matches: the API doors answer with their JSON error (NOT_FOUND), the site with its page.

Before, ``GET /_emdash/api/nope`` got the public site's HTML 404 page: a client of a JSON API has to parse errors
it cannot read. Rendered through handler404, so DEBUG stays off as in production."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from emdash.doors import DOORS, door_for

# One unknown path per door, from the door table: an API door answers JSON, a door that serves people a page.
PATHS = {door.name: (door.prefixes[0] or "/") + "no-such-route/x" for door in DOORS}


@pytest.mark.django_db
@override_settings(DEBUG=False)
@pytest.mark.parametrize("door", sorted(PATHS))
@pytest.mark.parametrize("method", ["get", "post", "delete"])
def test_an_unknown_path_gets_its_doors_404(client: Client, door: str, method: str) -> None:
    path = PATHS[door]
    assert door_for(path).name == door
    response = getattr(client, method)(path)
    if door_for(path).pages:
        assert response.status_code in (404, 405) and response["Content-Type"].startswith("text/html")
        return
    assert response.status_code == 404, response.content[:300]
    assert response["Content-Type"] == "application/json"
    error = response.json()["error"]
    assert error["code"] == "NOT_FOUND" and "openapi.json" in error["message"]
