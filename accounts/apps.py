from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Users, personal access tokens and the token cache. The label stays ``emdash``: the tables
    (``emdash_user``...), the migration history and ``AUTH_USER_MODEL = "emdash.User"`` of existing databases
    were recorded under it, so the move changes nothing in them (docs/architecture.md, Layout)."""

    name = "accounts"
    label = "emdash"
    verbose_name = "EmDash accounts"

    def ready(self) -> None:
        _clear_tokens_on_change()


def _clear_tokens_on_change() -> None:
    """A saved or deleted user or token in this process drops the cached bearer tokens at once (role changes,
    deactivation, revocation through the admin); other processes drop theirs within AUTH_CACHE_SECONDS."""
    from django.db.models.signals import post_delete, post_save

    from accounts import token_cache
    from accounts.models import PersonalAccessToken, User
    from accounts.oauth.models import AccessToken

    for model in (User, PersonalAccessToken, AccessToken):
        post_save.connect(token_cache.clear, sender=model, dispatch_uid=f"token-cache-{model.__name__}-save")
        post_delete.connect(token_cache.clear, sender=model, dispatch_uid=f"token-cache-{model.__name__}-delete")
