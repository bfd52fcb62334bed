from django.apps import AppConfig


class ProjectConfig(AppConfig):
    """Installed only so Django finds the project-wide commands (``emdash_seed_demo``)."""

    name = "config"
    verbose_name = "EmDash project"
