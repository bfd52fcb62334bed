"""A URL conf with only the fallback login page (the one served while the admin UI is not installed)."""

from django.urls import path

from emdash.edge.login_throttle import ThrottledLoginView

urlpatterns = [path("login/", ThrottledLoginView.as_view(template_name="oauth/login.html", next_page="/"))]
