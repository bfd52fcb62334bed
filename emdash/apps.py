from django.apps import AppConfig


class EmDashConfig(AppConfig):
    """The core library. It has no tables; its label leaves ``emdash`` to the accounts app, whose tables and
    migration history have always been recorded under that label (docs/architecture.md, Layout)."""

    name = "emdash"
    label = "emdash_core"
    verbose_name = "EmDash core"

    def ready(self) -> None:
        from django.core import checks

        from emdash.edge import door_limits, login_throttle

        login_throttle.connect()
        checks.register(door_limits.check_config)
