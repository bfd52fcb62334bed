from django.apps import AppConfig


class SettingsAppConfig(AppConfig):
    name = "settings_app"

    def ready(self) -> None:
        from content import hooks
        from settings_app import localtime

        def display(value: object) -> str:
            return f"{localtime.format_datetime_local(value)} ({localtime.current().zone_name})"

        hooks.register_site_time(hooks.SiteTime(display, localtime.to_input, localtime.from_input))

        from settings_app import selectors

        hooks.register_self_approve(lambda: selectors.stored().get("changesetsSelfApprove") is True)
