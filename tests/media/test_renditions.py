"""Renditions (SPEC 11) on both storages: sizes from the list only, fits, formats and negotiation, EXIF
orientation, stripped metadata, focal-point crops, caching headers and 304, deletion with the original."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.test import Client
from PIL import Image

from emdash.actor import Actor
from media import presenters, services
from media import storage as store
from media.models import MediaItem, MediaRendition
from tests.media.helpers import PDF, make_media, place, swapped_rgb_profile

SYSTEM = Actor.system()
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("media_storage")]
MODERN = "image/avif,image/webp,image/apng,image/*,*/*;q=0.8"


def jpeg(size: tuple[int, int] = (2000, 1000), colour: Any = (40, 120, 200), **save: Any) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, colour).save(buffer, "JPEG", quality=90, **save)
    return buffer.getvalue()


def photo(content: bytes | None = None, mime_type: str = "image/jpeg") -> MediaItem:
    return make_media(SYSTEM, content=content or jpeg(), mime_type=mime_type)


def get(item: MediaItem, path: str, accept: str = MODERN, **headers: Any) -> Any:
    return Client().get(f"/_emdash/media/{item.id}/{path}", HTTP_ACCEPT=accept, **headers)


def body(response: Any) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def opened(response: Any) -> Image.Image:
    assert response.status_code == 200, response.content
    return Image.open(io.BytesIO(body(response)))


@pytest.mark.parametrize(
    ("path", "size"),
    [
        ("640x0/inside.webp", (640, 320)),
        ("0x320/inside.webp", (640, 320)),
        ("320x320/cover.webp", (320, 320)),
        ("640x640/contain.png", (640, 640)),
        ("1200x630/cover.jpeg", (1200, 630)),
        ("2560x0/inside.webp", (2000, 1000)),  # never upscaled
        ("1920x1920/cover.webp", (1000, 1000)),  # the largest square the original holds, not enlarged
    ],
)
def test_rendition_sizes_follow_the_fit_and_never_upscale(path: str, size: tuple[int, int]) -> None:
    assert opened(get(photo(), path)).size == size


@pytest.mark.parametrize(
    ("path", "field"),
    [
        ("333x0/inside.webp", "size"),
        ("640x0/stretch.webp", "fit"),
        ("640x0/inside.gif", "format"),
        ("x/a.b", "size"),
        # One URL per rendition: zero-padded numbers would be aliases a cache in front keeps apart.
        ("0640x0/inside.webp", "size"),
        ("640x00/inside.webp", "size"),
    ],
)
def test_a_size_fit_or_format_outside_the_lists_is_400_and_renders_nothing(path: str, field: str) -> None:
    item = photo()
    response = get(item, path)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"
    assert field in response.json()["error"]["details"]["fields"]
    assert not MediaRendition.objects.exists()


def test_image_sizes_come_from_the_setting(settings) -> None:
    settings.EMDASH = {**settings.EMDASH, "IMAGE_SIZES": [100, 500]}
    item = photo()
    assert opened(get(item, "500x0/inside.webp")).size == (500, 250)
    assert get(item, "640x0/inside.webp").status_code == 400


@pytest.mark.parametrize(
    ("fmt", "mime", "pillow"),
    [
        ("webp", "image/webp", "WEBP"),
        ("avif", "image/avif", "AVIF"),
        ("jpeg", "image/jpeg", "JPEG"),
        ("png", "image/png", "PNG"),
    ],
)
def test_each_format_is_encoded_as_named(fmt: str, mime: str, pillow: str) -> None:
    response = get(photo(), f"320x0/inside.{fmt}")
    assert response["Content-Type"] == mime
    assert opened(response).format == pillow
    assert "Vary" not in response


def transparent_png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGBA", (400, 200), (255, 0, 0, 0)).save(buffer, "PNG")
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("accept", "transparent", "expected"),
    [
        (MODERN, False, "image/avif"),
        ("image/webp,*/*", False, "image/webp"),
        ("image/png,image/jpeg,*/*", False, "image/jpeg"),
        ("", False, "image/jpeg"),
        ("*/*", True, "image/png"),
        ("image/webp,*/*", True, "image/webp"),
    ],
)
def test_auto_negotiates_from_accept(accept: str, transparent: bool, expected: str) -> None:
    item = photo(transparent_png(), "image/png") if transparent else photo()
    response = get(item, "320x0/inside.auto", accept=accept)
    assert response.status_code == 200
    assert response["Content-Type"] == expected
    assert response["Vary"] == "Accept"


def exif_bytes(orientation: int = 1, gps: bool = False) -> bytes:
    exif = Image.Exif()
    exif[0x0112] = orientation
    exif[0x010F] = "CameraMaker"
    if gps:
        exif[0x8825] = {1: "N", 2: (48.0, 51.0, 30.0), 3: "E", 4: (2.0, 17.0, 40.0)}
    return exif.tobytes()


def two_halves(size: tuple[int, int] = (400, 200)) -> Image.Image:
    """Left half red, right half blue."""
    image = Image.new("RGB", size, (0, 0, 255))
    image.paste((255, 0, 0), (0, 0, size[0] // 2, size[1]))
    return image


def test_exif_orientation_is_applied_to_renditions_and_to_the_measured_size() -> None:
    buffer = io.BytesIO()
    two_halves().save(buffer, "JPEG", exif=exif_bytes(orientation=6), quality=95)  # 6: rotate 90° clockwise
    item = photo(buffer.getvalue())
    assert (item.width, item.height) == (200, 400)  # the displayed size
    image = opened(get(item, "0x0/inside.png")).convert("RGB")
    assert image.size == (200, 400)
    top, bottom = image.getpixel((100, 20)), image.getpixel((100, 380))
    assert top[0] > 200 and top[2] < 60, top  # red (the left half) is on top once upright
    assert bottom[2] > 200 and bottom[0] < 60, bottom


@pytest.mark.parametrize("fmt", ["jpeg", "webp", "png", "avif"])
def test_metadata_and_gps_are_stripped_from_every_rendition(fmt: str) -> None:
    from PIL import ImageCms

    icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    original = jpeg(exif=exif_bytes(gps=True), icc_profile=icc)
    assert Image.open(io.BytesIO(original)).getexif().get_ifd(0x8825)  # the original does carry GPS
    image = opened(get(photo(original), f"320x0/inside.{fmt}"))
    assert not image.getexif(), dict(image.getexif())
    assert not image.info.get("icc_profile")
    assert not image.info.get("exif") and not image.info.get("xmp")


def test_a_colour_profile_is_converted_to_srgb() -> None:
    buffer = io.BytesIO()
    Image.new("RGB", (64, 64), (255, 0, 0)).save(buffer, "PNG", icc_profile=swapped_rgb_profile())
    image = opened(get(photo(buffer.getvalue(), "image/png"), "160x0/inside.png")).convert("RGB")
    red, green, _blue = image.getpixel((10, 10))
    assert green > 200 and red < 60, (red, green)  # the profile's red is sRGB's green: converted, not copied


def focal_image() -> bytes:
    """800x200: the left eighth red, the rest blue."""
    image = Image.new("RGB", (800, 200), (0, 0, 255))
    image.paste((255, 0, 0), (0, 0, 100, 200))
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def red_share(response: Any) -> float:
    image = opened(response).convert("RGB")
    pixels = [image.getpixel((x, y)) for x in range(0, image.width, 4) for y in range(0, image.height, 4)]
    return sum(1 for r, _g, b in pixels if r > 200 and b < 60) / len(pixels)


def test_cover_keeps_the_focal_point_in_frame() -> None:
    item = photo(focal_image(), "image/png")
    assert red_share(get(item, "160x160/cover.png")) == 0  # centred: the red edge is cut away
    services.media_update(actor=SYSTEM, id=item.id, focal_point={"x": 0.05, "y": 0.5})
    item.refresh_from_db()
    moved = presenters.item(item)["renditions"]["thumbnail"]
    share = red_share(Client().get(moved.replace(".webp", ".png").replace("320x320", "160x160")))
    assert share > 0.4


def test_versioned_urls_are_immutable_and_answer_304() -> None:
    item = photo()
    url = presenters.item(item)["renditions"]["medium"]
    first = Client().get(url, HTTP_ACCEPT=MODERN)
    assert first.status_code == 200
    assert first["Cache-Control"] == "public, max-age=31536000, immutable"
    assert first["X-Content-Type-Options"] == "nosniff"
    assert first["Content-Security-Policy"] == "sandbox"
    assert first["ETag"].startswith('"') and first["Content-Disposition"] == "inline"
    again = Client().get(url, HTTP_ACCEPT=MODERN, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and not again.content
    assert again["ETag"] == first["ETag"] and "Content-Type" not in again
    plain = get(item, "960x0/inside.auto")
    assert plain["Cache-Control"] == "public, max-age=3600"
    assert plain["ETag"] == first["ETag"]  # the same stored rendition


def test_a_stale_version_redirects_to_the_current_one() -> None:
    item = photo()
    old = presenters.item(item)["renditions"]["thumbnail"]
    services.media_update(actor=SYSTEM, id=item.id, focal_point={"x": 0.2, "y": 0.3})
    item.refresh_from_db()
    new = presenters.item(item)["renditions"]["thumbnail"]
    assert new != old
    response = Client().get(old)
    assert response.status_code == 302 and response["Location"] == new


def test_each_rendition_is_stored_once_under_a_content_addressed_key() -> None:
    item = photo()
    first = get(item, "640x0/inside.webp")
    second = get(item, "640x0/inside.webp")
    assert body(first) == body(second)
    rows = list(MediaRendition.objects.filter(media=item))
    assert len(rows) == 1 and rows[0].state == "ready"
    assert rows[0].key.startswith(f"renditions/{item.id.lower()}/") and store.is_file(rows[0].key)
    assert (rows[0].width, rows[0].height) == (640, 320)


def test_renditions_are_deleted_with_their_original(django_capture_on_commit_callbacks) -> None:
    item = photo()
    for path in ("640x0/inside.webp", "320x320/cover.avif"):
        assert get(item, path).status_code == 200
    keys = list(MediaRendition.objects.values_list("key", flat=True))
    assert len(keys) == 2 and all(store.is_file(k) for k in keys)
    with django_capture_on_commit_callbacks(execute=True):
        services.media_delete(actor=SYSTEM, id=item.id)
    assert not MediaRendition.objects.exists()
    assert not any(store.is_file(k) for k in keys)
    assert get(item, "640x0/inside.webp").status_code == 404


def test_a_moved_focal_point_drops_only_the_cover_renditions(django_capture_on_commit_callbacks) -> None:
    item = photo()
    get(item, "640x0/inside.webp")
    get(item, "320x320/cover.webp")
    cover = MediaRendition.objects.get(fit="cover").key
    with django_capture_on_commit_callbacks(execute=True):
        services.media_update(actor=SYSTEM, id=item.id, focal_point={"x": 0.9, "y": 0.9})
    assert list(MediaRendition.objects.values_list("fit", flat=True)) == ["inside"]
    assert not store.is_file(cover)


def animated_gif() -> bytes:
    frames = [Image.new("RGB", (40, 40), colour) for colour in ((255, 0, 0), (0, 255, 0), (0, 0, 255))]
    buffer = io.BytesIO()
    frames[0].save(buffer, "GIF", save_all=True, append_images=frames[1:], duration=100, loop=0)
    return buffer.getvalue()


def test_animated_images_and_other_files_are_refused_clearly() -> None:
    gif = make_media(SYSTEM, content=animated_gif(), mime_type="image/gif")
    pdf = make_media(SYSTEM, content=PDF, mime_type="application/pdf")
    for item in (gif, pdf):
        response = get(item, "160x0/inside.webp")
        assert response.status_code == 415
        assert response.json()["error"]["code"] == "UNSUPPORTED_IMAGE"
    assert not MediaRendition.objects.exists()
    for item in (gif, pdf):  # nothing is offered that would answer 415: pages use the file's url instead
        assert presenters.item(item)["renditions"] is None and presenters.item(item)["srcset"] is None
    assert gif.animated and presenters.value(gif)["renditions"] is None


def test_an_animated_image_uploaded_before_animation_was_noted_stops_offering_renditions() -> None:
    gif = make_media(SYSTEM, content=animated_gif(), mime_type="image/gif")
    MediaItem.objects.filter(id=gif.id).update(animated=False)  # as rows written before the column existed
    gif.refresh_from_db()
    assert presenters.item(gif)["renditions"] is not None
    assert get(gif, "160x0/inside.webp").status_code == 415
    gif.refresh_from_db()
    assert gif.animated and presenters.item(gif)["renditions"] is None


def test_an_image_too_large_to_render_offers_no_renditions() -> None:
    # A 40,000 x 10 panorama is a valid upload (a few hundred bytes) but every rendition of it is refused (a side
    # over 30,000 px): its results must not hand pages srcsets and thumbnails that all answer 415.
    buffer = io.BytesIO()
    Image.new("1", (40_000, 10)).save(buffer, "PNG")
    wide = make_media(SYSTEM, content=buffer.getvalue(), mime_type="image/png")
    assert (wide.width, wide.height) == (40_000, 10)
    assert get(wide, "160x0/inside.webp").status_code == 415
    item, value = presenters.item(wide), presenters.value(wide)
    assert item["renditions"] is None and item["srcset"] is None
    assert value["renditions"] is None and value["srcset"] is None
    assert item["url"]  # the original is still offered


def test_a_truncated_png_is_415_for_auto_too_not_500() -> None:
    # `auto` first looks for transparency (PNG or JPEG?), which decodes the image: a truncated file failed
    # there with an OSError and answered 500 (the admin's media library asks for `auto` thumbnails).
    buffer = io.BytesIO()
    Image.new("RGBA", (50, 40), (0, 0, 255, 128)).save(buffer, "PNG")
    item = make_media(SYSTEM, content=buffer.getvalue()[:60], mime_type="image/png")
    for path in ("160x0/inside.auto", "160x0/inside.webp"):
        response = get(item, path, accept="image/png")
        assert response.status_code == 415, (path, response.status_code)
        assert response.json()["error"] == {"code": "UNSUPPORTED_IMAGE", "message": "The image could not be decoded"}
    assert not MediaRendition.objects.exists()


def test_a_decompression_bomb_is_refused_before_decoding() -> None:
    buffer = io.BytesIO()
    Image.new("1", (12_000, 10_000)).save(buffer, "PNG")  # 120 Mpx, a few KB compressed
    key = place(buffer.getvalue())
    item = MediaItem.objects.create(
        id="01JB0MB0000000000000000000", filename="bomb.png", mime_type="image/png", storage_key=key
    )
    response = get(item, "160x0/inside.webp")
    assert response.status_code == 415
    assert "too many pixels" in response.json()["error"]["message"]


def test_unknown_media_is_404() -> None:
    response = Client().get("/_emdash/media/01JN0SVCH00000000000000000/640x0/inside.webp")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "NOT_FOUND"
