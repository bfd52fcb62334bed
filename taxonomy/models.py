"""Taxonomy definitions (category, tag, ...), their terms, and which entries carry which terms."""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from emdash.models import Timestamped


class TaxonomyDefinition(Timestamped):
    name = models.CharField(max_length=63, unique=True)
    label = models.CharField(max_length=200)
    label_singular = models.CharField(max_length=200, blank=True)
    hierarchical = models.BooleanField(default=False)
    collections = models.JSONField(default=list, blank=True)  # collection slugs the taxonomy applies to

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def applies_to(self, collection: str) -> bool:
        return collection in (self.collections or [])


class Term(Timestamped):
    id = models.CharField(max_length=26, primary_key=True)  # ULID
    taxonomy = models.ForeignKey(TaxonomyDefinition, on_delete=models.CASCADE, related_name="terms")
    slug = models.CharField(max_length=200)
    label = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    # RESTRICT: a term with children cannot be deleted alone, but a whole taxonomy can go at once.
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.RESTRICT, related_name="children")
    # i18n as content has it (SPEC 10): the variants of one term in other locales share a translation group
    # (the first variant's id). Slugs are unique per taxonomy and locale, as in EmDash (a French "news" beside an
    # English one); taxonomy/lookups.py says which term a slug alone means.
    locale = models.CharField(max_length=16, default="")
    translation_group = models.CharField(max_length=26, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["taxonomy", "slug", "locale"], name="taxonomy_term_unique_slug_locale"),
            models.UniqueConstraint(
                fields=["translation_group", "locale"],
                condition=~models.Q(translation_group=""),
                name="taxonomy_term_one_per_locale",
            ),
        ]
        indexes = [models.Index(fields=["taxonomy", "label", "id"], name="taxonomy_term_list_idx")]

    def __str__(self) -> str:
        return f"{self.taxonomy_id}:{self.slug}"


class TermAssignment(models.Model):
    """An entry (``collection`` slug + entry ULID) carries a term. Entries live in dynamic tables, so no FK."""

    term = models.ForeignKey(Term, on_delete=models.CASCADE, related_name="assignments")
    collection = models.CharField(max_length=63)
    entry_id = models.CharField(max_length=26)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["term", "collection", "entry_id"], name="taxonomy_assignment_unique")
        ]
        indexes = [models.Index(fields=["collection", "entry_id"], name="taxonomy_assignment_entry_idx")]

    def __str__(self) -> str:
        return f"{self.collection}/{self.entry_id} -> {self.term_id}"
