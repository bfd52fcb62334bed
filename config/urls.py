from django.urls import include, path, re_path

from accounts import discovery

handler404 = "config.views.not_found"
handler500 = "config.views.server_error"

urlpatterns = [
    re_path(
        r"^\.well-known/oauth-protected-resource(?:/_emdash/api/mcp)?$",
        discovery.protected_resource,
        name="oauth-protected-resource",
    ),
    path(
        ".well-known/oauth-authorization-server/_emdash",
        discovery.authorization_server,
        name="oauth-authorization-server",
    ),
    path("", include("accounts.oauth.urls")),
    path("", include("mcp_endpoint.urls")),
    path("", include("media.urls")),
    path("_emdash/admin/", include("admin_ui.urls")),
    path("", include("api.urls")),
    path("", include("public_site.urls")),
]
