"""Media routes outside the REST API: the signed PUT upload target, and the uploaded files themselves
(filesystem storage; served in production too, see media.serving)."""

from django.conf import settings
from django.urls import path

from media import rendition_views, serving, views

urlpatterns = [
    path("_emdash/api/media/upload/<str:token>", views.upload, name="media-upload"),
    path("_emdash/media/<str:id>/<str:size>/<str:name>", rendition_views.rendition, name="media-rendition"),
]

if str(settings.MEDIA_URL).startswith("/"):  # a local path; an absolute URL means another host serves them
    urlpatterns.append(path(f"{str(settings.MEDIA_URL).strip('/')}/<path:key>", serving.serve, name="media-file"))
