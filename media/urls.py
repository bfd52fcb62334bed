"""Media routes: the REST API under /_emdash/api/media, and the files themselves in DEBUG."""

from django.conf import settings
from django.conf.urls.static import static
from django.urls import path

from media import views

urlpatterns = [
    path("_emdash/api/media", views.media_collection, name="media-list"),
    path("_emdash/api/media/upload-url", views.upload_url, name="media-upload-url"),
    path("_emdash/api/media/upload/<str:token>", views.upload, name="media-upload"),
    path("_emdash/api/media/confirm", views.confirm, name="media-confirm"),
    path("_emdash/api/media/<str:id>", views.media_detail, name="media-detail"),
    *static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT),
]
