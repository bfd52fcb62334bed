from django.apps import AppConfig


class StartersConfig(AppConfig):
    name = "starters"
    verbose_name = "Site starters"
    default_auto_field = "django.db.models.BigAutoField"
