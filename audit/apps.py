from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "audit"
    verbose_name = "EmDash audit log"
    default_auto_field = "django.db.models.BigAutoField"
