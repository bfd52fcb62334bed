from django.apps import AppConfig


class SettingsAppConfig(AppConfig):
    name = "settings_app"
