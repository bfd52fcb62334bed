from django.apps import AppConfig


class EmDashConfig(AppConfig):
    name = "emdash"
    verbose_name = "EmDash"

    def ready(self) -> None:
        from emdash import login_throttle

        login_throttle.connect()
