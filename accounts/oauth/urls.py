"""OAuth routes (paths from SPEC 4, named once in ``metadata``) and, until the admin UI provides one, a login page."""

from django.apps import apps
from django.urls import path

from accounts.oauth import metadata, views
from emdash.edge.login_throttle import ThrottledLoginView


def _route(full_path: str) -> str:
    return full_path.lstrip("/")


urlpatterns = [
    path(_route(metadata.AUTHORIZE_PATH), views.authorize, name="oauth-authorize"),
    path(_route(metadata.TOKEN_PATH), views.token, name="oauth-token"),
    path(_route(metadata.REVOKE_PATH), views.revoke, name="oauth-revoke"),
    path(_route(metadata.REGISTER_PATH), views.register, name="oauth-register"),
    path(_route(metadata.DEVICE_CODE_PATH), views.device_code, name="oauth-device-code"),
    path(_route(metadata.USERINFO_PATH), views.userinfo, name="oauth-userinfo"),
    path(_route(metadata.DEVICE_PAGE_PATH), views.device_page, name="oauth-device"),
]

if not apps.is_installed("admin_ui"):  # the admin UI serves its own login at the same path
    urlpatterns.append(
        path(
            _route(metadata.LOGIN_PATH),
            ThrottledLoginView.as_view(template_name="oauth/login.html", next_page="/"),
            name="emdash-login",
        )
    )
