"""REST API routes under /_emdash/api/ (paths follow the reference), plus the OpenAPI document and docs."""

from csp.decorators import csp_update
from django.urls import path
from drf_spectacular.views import SpectacularJSONAPIView, SpectacularSwaggerSplitView

from api import content, media, operations, search

C = "_emdash/api/content/<str:collection>"
ITEM = f"{C}/<str:id>"


urlpatterns = [
    # Hand-written routes first where a generated pattern would also match (".../media/<id>").
    path("_emdash/api/media", media.MediaListView.as_view(), name="media-list"),
    path("_emdash/api/media/upload-url", media.UploadUrlView.as_view(), name="media-upload-url"),
    # Everything else that is an operation: generated from the operation table (<app>/operations.py).
    *operations.urlpatterns(),
    path(f"{ITEM}/preview-url", content.ContentPreviewUrlView.as_view(), name="api-content-preview-url"),
    path("_emdash/api/search", search.SearchView.as_view(), name="api-search"),
    path("_emdash/api/openapi.json", SpectacularJSONAPIView.as_view(), name="api-openapi"),
    # The split view serves its script from ?script (no inline script); Swagger UI's page carries an inline
    # <style> block without a nonce, so this page alone allows inline styles.
    path(
        "_emdash/api/docs/",
        csp_update({"style-src": ["'unsafe-inline'"]})(SpectacularSwaggerSplitView.as_view(url_name="api-openapi")),
        name="api-docs",
    ),
]
