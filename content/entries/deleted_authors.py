"""A deleted user's entries lose their author. The ``ec_<slug>`` tables are built at run time outside Django's app
registry, so their ``author_id`` is a plain column no ``on_delete`` reaches (revisions' author is a real foreign key
and is set to NULL by Django); without this, items would keep naming a user who is gone, and the author-only
rights of whoever is given that id next (SQLite may reuse it) would reach them."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models.signals import pre_delete
from django.dispatch import receiver

from content import stamps
from content.schema import specs as schema


def entries_unauthor(*, user_id: int) -> list[str]:
    """Clear ``user_id`` as the author of every collection's entries (trashed ones too) and raise the stamps of
    the collections that had any, so cached items and ETags move; returns those collections' slugs."""
    touched = []
    for spec in schema.current(fresh=True).collections.values():
        if spec.model.objects.filter(author_id=user_id).update(author_id=None):
            touched.append(spec.slug)
            stamps.bump(stamps.public(spec.slug), stamps.drafts(spec.slug))
    return touched


@receiver(pre_delete, sender=settings.AUTH_USER_MODEL, dispatch_uid="content.user_deleting")
def user_deleting(sender: Any, instance: Any, **kwargs: Any) -> None:
    # Every door that deletes a user goes through the ORM's delete, inside its transaction: the entries change and
    # the stamps move with the deletion, or not at all.
    entries_unauthor(user_id=instance.pk)
