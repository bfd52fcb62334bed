"""App config: connects the live-update broadcaster to the content signals."""

from django.apps import AppConfig


class AdminUiConfig(AppConfig):
    name = "admin_ui"
    label = "admin_ui"
    verbose_name = "EmDash admin UI"

    def ready(self) -> None:
        from admin_ui import live

        live.connect()
