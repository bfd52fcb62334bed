from django.apps import AppConfig


class ContentConfig(AppConfig):
    name = "content"

    def ready(self) -> None:
        from content.search import receivers

        receivers.connect()  # the search index follows content and schema changes

        from django.db.models.signals import post_migrate

        from content.entries import deleted_authors  # noqa: F401  (a deleted user's entries lose their author)
        from content.schema import table_indexes

        post_migrate.connect(table_indexes.on_post_migrate, dispatch_uid="content.schema.table_indexes")

        from content.entries.services import publish_due
        from emdash.background import register_sweep

        register_sweep("scheduled", publish_due, report="published {} scheduled item(s)", always_report=True)

        from content.changesets.publishing import publish_due_changesets

        register_sweep("scheduled_changesets", publish_due_changesets, report="published {} scheduled change set(s)")
