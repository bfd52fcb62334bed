from django.apps import AppConfig


class EmDashConfig(AppConfig):
    name = "emdash"
    verbose_name = "EmDash"

    def ready(self) -> None:
        from django.core import checks

        from emdash import door_limits, login_throttle

        login_throttle.connect()
        checks.register(door_limits.check_config)
