"""App config for the REST API."""

from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
    label = "emdash_api"
    verbose_name = "EmDash REST API"
