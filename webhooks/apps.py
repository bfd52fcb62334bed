from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "webhooks"

    def ready(self) -> None:
        from emdash.background import register_sweep
        from webhooks import delivery, events

        events.connect()  # content, media and schema signals become deliveries
        register_sweep("webhook retries", delivery.requeue_due, report="re-queued {} webhook delivery(ies)")
