"""Websocket routes of the admin UI."""

from django.urls import path

from admin_ui.consumers import ContentChangesConsumer

websocket_urlpatterns = [path("_emdash/admin/ws/changes/", ContentChangesConsumer.as_asgi())]
