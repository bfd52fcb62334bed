"""The OAuth app: its own tables (label ``emdash_oauth``) beside the core ``emdash`` app."""

from django.apps import AppConfig


class OAuthConfig(AppConfig):
    name = "emdash.oauth"
    label = "emdash_oauth"
    verbose_name = "EmDash OAuth"
    default_auto_field = "django.db.models.BigAutoField"
