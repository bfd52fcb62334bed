"""The media library sets the focal point (SPEC 11): the image to click, the two number fields that back it, and
the save through media_update (out of range: the field's message, nothing changed)."""

from __future__ import annotations

import pytest

from emdash.actor import Actor
from emdash.roles import Role
from tests.admin.conftest import login
from tests.media.helpers import PDF, image_bytes, make_media

pytestmark = pytest.mark.django_db


def test_the_library_offers_the_focal_point_for_images_only() -> None:
    client, _user = login(Role.EDITOR)
    image = make_media(Actor.system(), content=image_bytes("PNG", (400, 200)))
    pdf = make_media(Actor.system(), content=PDF, mime_type="application/pdf")
    html = client.get("/_emdash/admin/media/").content.decode()
    assert f'id="fx-{image.id}"' in html and f'id="fy-{image.id}"' in html and "data-focal-image" in html
    assert f'id="fx-{pdf.id}"' not in html
    assert " style=" not in html  # the mark is placed by admin.js (no style attributes under the CSP)


def test_saving_the_focal_point_and_refusing_one_out_of_range() -> None:
    client, _user = login(Role.EDITOR)
    image = make_media(Actor.system(), content=image_bytes("PNG", (400, 200)))
    form = {"alt": "A", "caption": "", "focal_x": "0.2", "focal_y": "0.75"}
    assert client.post(f"/_emdash/admin/media/{image.id}/", form).status_code == 302
    image.refresh_from_db()
    assert (image.focal_x, image.focal_y, image.alt) == (0.2, 0.75, "A")
    client.post(f"/_emdash/admin/media/{image.id}/", {**form, "focal_x": "7"}, follow=True)
    image.refresh_from_db()
    assert image.focal_x == 0.2
