from django.apps import AppConfig
from django.db.models.signals import post_migrate


class TaxonomyConfig(AppConfig):
    name = "taxonomy"

    def ready(self) -> None:
        from content import hooks
        from taxonomy import receivers  # noqa: F401  (entry and collection deletions drop assignments)
        from taxonomy.defaults import seed_when_empty
        from taxonomy.selectors import assigned_column, assigned_terms, tagged_entries, taxonomies_for, terms_of_rows
        from taxonomy.services import replace_entry_terms

        # content reaches terms through these
        hooks.register_terms(
            replace=replace_entry_terms,
            assigned=assigned_terms,
            taxonomies=taxonomies_for,
            tagged=tagged_entries,
            column=assigned_column,
            of_column=terms_of_rows,
        )

        post_migrate.connect(seed_when_empty, sender=self, dispatch_uid="taxonomy.seed_when_empty")
