from django.apps import AppConfig


class BylinesConfig(AppConfig):
    name = "bylines"

    def ready(self) -> None:
        from bylines import receivers  # noqa: F401  (entry and collection deletions drop credits)
        from bylines.hooks import EntryBylines
        from content import hooks

        hooks.register_bylines(EntryBylines())  # content reaches credits through it
