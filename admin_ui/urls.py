"""Routes of the admin UI under /_emdash/admin/ (the device-approval page is routed by emdash.oauth.urls)."""

from django.urls import path

from admin_ui.views import (
    audit,
    auth,
    dashboard,
    entries,
    entry_actions,
    media,
    menus,
    oauth_apps,
    schema,
    settings,
    taxonomies,
    tokens,
    users,
)

app_name = "admin_ui"

urlpatterns = [
    path("login/", auth.login_view, name="login"),
    path("logout/", auth.logout_view, name="logout"),
    path("", dashboard.dashboard, name="dashboard"),
    path("content/<str:collection>/", entries.entry_list, name="entries"),
    path("content/<str:collection>/rows/", entries.entry_rows, name="entry_rows"),
    path("content/<str:collection>/new/", entries.entry_new, name="entry_new"),
    path("content/<str:collection>/trash/", entries.trash, name="trash"),
    path("content/<str:collection>/<str:id>/", entries.entry_edit, name="entry_edit"),
    path("content/<str:collection>/<str:id>/state/", entries.entry_state, name="entry_state"),
    path("content/<str:collection>/<str:id>/revisions/", entry_actions.revisions, name="revisions"),
    path("content/<str:collection>/<str:id>/compare/", entry_actions.compare, name="compare"),
    path("content/<str:collection>/<str:id>/<str:action>/", entry_actions.entry_action, name="entry_action"),
    path("revisions/<str:revision_id>/restore/", entry_actions.revision_restore, name="revision_restore"),
    path("media/", media.library, name="media"),
    path("media/upload/", media.upload, name="media_upload"),
    path("media/<str:id>/", media.edit, name="media_edit"),
    path("media/<str:id>/delete/", media.delete, name="media_delete"),
    path("schema/", schema.collections, name="schema"),
    path("schema/<str:slug>/", schema.collection, name="schema_collection"),
    path("schema/<str:slug>/delete/", schema.collection_delete, name="schema_collection_delete"),
    path("schema/<str:slug>/fields/<str:field>/delete/", schema.field_delete, name="schema_field_delete"),
    path("taxonomies/", taxonomies.taxonomy_list, name="taxonomies"),
    # Definitions live under their own prefix: any term slug is valid below taxonomies/<name>/.
    path("taxonomy-settings/<str:name>/", taxonomies.taxonomy_edit, name="taxonomy_edit"),
    path("taxonomy-settings/<str:name>/delete/", taxonomies.taxonomy_delete, name="taxonomy_delete"),
    path("taxonomies/<str:name>/", taxonomies.terms, name="terms"),
    path("taxonomies/<str:name>/<str:term>/", taxonomies.term_edit, name="term_edit"),
    path("taxonomies/<str:name>/<str:term>/delete/", taxonomies.term_delete, name="term_delete"),
    path("menus/", menus.menu_list, name="menus"),
    path("menus/<str:name>/", menus.menu_edit, name="menu_edit"),
    path("menus/<str:name>/delete/", menus.menu_delete, name="menu_delete"),
    path("settings/", settings.site_settings, name="settings"),
    path("users/", users.user_list, name="users"),
    path("users/<int:user_id>/", users.user_edit, name="user_edit"),
    path("tokens/", tokens.token_list, name="tokens"),
    path("tokens/<int:token_id>/revoke/", tokens.token_revoke, name="token_revoke"),
    path("audit/", audit.audit_log, name="audit"),
    path("oauth-apps/", oauth_apps.app_list, name="oauth_apps"),
    path("oauth-apps/<str:client_id>/revoke/", oauth_apps.app_revoke, name="oauth_app_revoke"),
]
