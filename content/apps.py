from django.apps import AppConfig


class ContentConfig(AppConfig):
    name = "content"

    def ready(self) -> None:
        from content.search import receivers

        receivers.connect()  # the search index follows content and schema changes
