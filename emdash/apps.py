from django.apps import AppConfig


class EmDashConfig(AppConfig):
    name = "emdash"
    verbose_name = "EmDash"

    def ready(self) -> None:
        from django.core import checks

        from emdash import door_limits, login_throttle

        login_throttle.connect()
        _clear_tokens_on_change()
        checks.register(door_limits.check_config)


def _clear_tokens_on_change() -> None:
    """A saved or deleted user or token in this process drops the cached bearer tokens at once (role changes,
    deactivation, revocation through the admin); other processes drop theirs within AUTH_CACHE_SECONDS."""
    from django.db.models.signals import post_delete, post_save

    from emdash import token_cache
    from emdash.models import PersonalAccessToken, User
    from emdash.oauth.models import AccessToken

    for model in (User, PersonalAccessToken, AccessToken):
        post_save.connect(token_cache.clear, sender=model, dispatch_uid=f"token-cache-{model.__name__}-save")
        post_delete.connect(token_cache.clear, sender=model, dispatch_uid=f"token-cache-{model.__name__}-delete")
