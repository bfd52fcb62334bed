"""Media routes outside the REST API: the signed PUT upload target, and the files themselves in DEBUG."""

from django.conf import settings
from django.conf.urls.static import static
from django.urls import path

from media import views

urlpatterns = [
    path("_emdash/api/media/upload/<str:token>", views.upload, name="media-upload"),
    *static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT),
]
