"""URLs for the site's browser tests: the project's, plus the media files (live_server runs with DEBUG off)."""

from django.conf import settings
from django.urls import include, path, re_path
from django.views.static import serve

handler404 = "public_site.views.not_found"


def media(request, path):  # type: ignore[no-untyped-def]
    """Read MEDIA_ROOT per request: each test points it at its own temporary directory."""
    return serve(request, path, document_root=settings.MEDIA_ROOT)


urlpatterns = [
    re_path(r"^media/(?P<path>.*)$", media),
    path("", include("config.urls")),
]
