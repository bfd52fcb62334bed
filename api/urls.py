"""REST API routes under /_emdash/api/ (paths follow the reference), plus the OpenAPI document and docs."""

from csp.decorators import csp_update
from django.urls import path
from drf_spectacular.views import SpectacularJSONAPIView, SpectacularSwaggerSplitView

from api import content, media, operations, schema, search

C = "_emdash/api/content/<str:collection>"
ITEM = f"{C}/<str:id>"


urlpatterns = [
    # Hand-written routes first where a generated pattern would also match (".../media/<id>").
    path("_emdash/api/media", media.MediaListView.as_view(), name="media-list"),
    path("_emdash/api/media/upload-url", media.UploadUrlView.as_view(), name="media-upload-url"),
    # Content, revisions, media, settings, taxonomies, menus and tokens: generated from the operation table.
    *operations.urlpatterns(),
    path(f"{ITEM}/preview-url", content.ContentPreviewUrlView.as_view(), name="api-content-preview-url"),
    path("_emdash/api/schema/collections", schema.CollectionListView.as_view(), name="api-schema-collections"),
    path(
        "_emdash/api/schema/collections/<str:slug>", schema.CollectionDetailView.as_view(), name="api-schema-collection"
    ),
    path("_emdash/api/schema/collections/<str:slug>/fields", schema.FieldListView.as_view(), name="api-schema-fields"),
    path(
        "_emdash/api/schema/collections/<str:slug>/fields/<str:field_slug>",
        schema.FieldDetailView.as_view(),
        name="api-schema-field",
    ),
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
