"""REST API routes under /_emdash/api/ (paths follow the reference), plus the OpenAPI document and docs."""

from csp.decorators import csp_update
from django.urls import path
from drf_spectacular.views import SpectacularJSONAPIView, SpectacularSwaggerSplitView

from api import content, media, menus, operations, search, site_settings, taxonomies, tokens

C = "_emdash/api/content/<str:collection>"
ITEM = f"{C}/<str:id>"


urlpatterns = [
    # Content, revisions and schema: generated from the operation table (content/operations.py,
    # content/schema_operations.py).
    *operations.urlpatterns(),
    path(f"{ITEM}/preview-url", content.ContentPreviewUrlView.as_view(), name="api-content-preview-url"),
    path(f"{ITEM}/terms/<str:taxonomy>", content.ContentTermsView.as_view(), name="api-content-terms"),
    path("_emdash/api/media", media.MediaListView.as_view(), name="media-list"),
    path("_emdash/api/media/upload-url", media.UploadUrlView.as_view(), name="media-upload-url"),
    path("_emdash/api/media/confirm", media.ConfirmView.as_view(), name="media-confirm"),
    path("_emdash/api/media/<str:id>", media.MediaDetailView.as_view(), name="media-detail"),
    path("_emdash/api/taxonomies", taxonomies.TaxonomyListView.as_view(), name="api-taxonomies"),
    path("_emdash/api/taxonomies/<str:taxonomy>/terms", taxonomies.TermListView.as_view(), name="api-terms"),
    path(
        "_emdash/api/taxonomies/<str:taxonomy>/terms/<str:term>", taxonomies.TermDetailView.as_view(), name="api-term"
    ),
    path("_emdash/api/menus", menus.MenuListView.as_view(), name="api-menus"),
    path("_emdash/api/menus/<str:name>", menus.MenuDetailView.as_view(), name="api-menu"),
    path("_emdash/api/menus/<str:name>/items", menus.MenuItemsView.as_view(), name="api-menu-items"),
    path("_emdash/api/settings", site_settings.SettingsView.as_view(), name="api-settings"),
    path("_emdash/api/search", search.SearchView.as_view(), name="api-search"),
    path("_emdash/api/tokens", tokens.TokenListView.as_view(), name="api-tokens"),
    path("_emdash/api/tokens/<str:token_id>", tokens.TokenDetailView.as_view(), name="api-token"),
    path("_emdash/api/openapi.json", SpectacularJSONAPIView.as_view(), name="api-openapi"),
    # The split view serves its script from ?script (no inline script); Swagger UI's page carries an inline
    # <style> block without a nonce, so this page alone allows inline styles.
    path(
        "_emdash/api/docs/",
        csp_update({"style-src": ["'unsafe-inline'"]})(SpectacularSwaggerSplitView.as_view(url_name="api-openapi")),
        name="api-docs",
    ),
]
