"""App config for the public site."""

from django.apps import AppConfig


class PublicSiteConfig(AppConfig):
    name = "public_site"
    verbose_name = "EmDash public site"
