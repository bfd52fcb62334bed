from django.apps import AppConfig


class SettingsAppConfig(AppConfig):
    name = "settings_app"

    def ready(self) -> None:
        from content import hooks
        from media import usage_repair
        from settings_app import localtime, selectors

        def display(value: object) -> str:
            return f"{localtime.format_datetime_local(value)} ({localtime.current().zone_name})"

        hooks.register_site_time(hooks.SiteTime(display, localtime.to_input, localtime.from_input))
        # media_usage_repair reads the logo, favicon and Open Graph image from the stored document
        usage_repair.register_settings_source(selectors.stored)
        hooks.register_self_approve(lambda: selectors.stored().get("changesetsSelfApprove") is True)
