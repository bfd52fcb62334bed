"""Navigation menus and their items (a flat, ordered list; ``parent`` nests items)."""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from emdash.models import Timestamped


class Menu(Timestamped):
    name = models.CharField(max_length=63)  # ^[a-z][a-z0-9_]*$, immutable: templates use it; unique per locale
    label = models.CharField(max_length=200)
    # i18n as content has it (SPEC 10): the variants of one menu share a translation group (the first one's id).
    locale = models.CharField(max_length=16, default="")
    translation_group = models.CharField(max_length=26, default="")

    class Meta:
        ordering = ["name", "locale"]
        constraints = [
            models.UniqueConstraint(fields=["name", "locale"], name="menus_menu_unique_name_per_locale"),
            models.UniqueConstraint(
                fields=["translation_group", "locale"],
                condition=~models.Q(translation_group=""),
                name="menus_menu_one_per_locale",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class MenuItem(models.Model):
    TYPES = ("custom", "page", "post", "taxonomy", "collection")
    TARGETS = ("_self", "_blank")

    id = models.CharField(max_length=26, primary_key=True)  # ULID
    menu = models.ForeignKey(Menu, on_delete=models.CASCADE, related_name="items")
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.CASCADE, related_name="children")
    position = models.PositiveIntegerField()
    label = models.CharField(max_length=200)
    type = models.CharField(max_length=16, choices=[(t, t) for t in TYPES])
    custom_url = models.CharField(max_length=2048, blank=True)
    reference_collection = models.CharField(max_length=63, blank=True)  # collection slug, or taxonomy name
    reference_id = models.CharField(max_length=26, blank=True)  # entry or term ULID
    title_attr = models.CharField(max_length=200, blank=True)
    target = models.CharField(max_length=16, blank=True)
    css_classes = models.CharField(max_length=200, blank=True)
    # Kept when menu_set_items gets the item back with its id: the item's variants in the menu's other locales.
    translation_group = models.CharField(max_length=26, default="")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["menu_id", "position"]
        constraints = [models.UniqueConstraint(fields=["menu", "position"], name="menus_item_unique_position")]

    def __str__(self) -> str:
        return f"{self.menu_id}#{self.position} {self.label}"
