from django.apps import AppConfig
from django.db.models.signals import post_migrate


class TaxonomyConfig(AppConfig):
    name = "taxonomy"

    def ready(self) -> None:
        from content import hooks
        from taxonomy import receivers  # noqa: F401  (entry and collection deletions drop assignments)
        from taxonomy.defaults import seed_when_empty
        from taxonomy.hooks import EntryTerms

        hooks.register_terms(EntryTerms())  # content reaches terms through it

        post_migrate.connect(seed_when_empty, sender=self, dispatch_uid="taxonomy.seed_when_empty")
