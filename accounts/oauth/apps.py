"""The OAuth app: its own tables (label ``emdash_oauth``) beside the accounts app (label ``emdash``)."""

from django.apps import AppConfig


class OAuthConfig(AppConfig):
    name = "accounts.oauth"
    label = "emdash_oauth"
    verbose_name = "EmDash OAuth"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts.oauth.maintenance import prune_expired
        from emdash.background import register_sweep
        from emdash.conf import emdash_settings

        register_sweep(
            "oauth prune",
            lambda: sum(prune_expired().values()),
            every=lambda: float(emdash_settings.OAUTH_PRUNE_INTERVAL),
            report="pruned {} expired OAuth row(s)",
        )
