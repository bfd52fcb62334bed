from django.apps import AppConfig


class EmDashConfig(AppConfig):
    name = "emdash"
    verbose_name = "EmDash"
