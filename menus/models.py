"""Navigation menus and their items (a flat, ordered list; ``parent`` nests items)."""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from emdash.models import Timestamped


class Menu(Timestamped):
    name = models.CharField(max_length=63, unique=True)  # ^[a-z][a-z0-9_]*$, immutable: templates use it
    label = models.CharField(max_length=200)

    class Meta:
        ordering = ["name"]

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
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["menu_id", "position"]
        constraints = [models.UniqueConstraint(fields=["menu", "position"], name="menus_item_unique_position")]

    def __str__(self) -> str:
        return f"{self.menu_id}#{self.position} {self.label}"
