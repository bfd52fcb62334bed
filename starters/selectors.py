"""Whether the dashboard offers the starters."""

from __future__ import annotations

from content.schema import specs as schema
from starters.models import StarterChoice


def starters_offered() -> bool:
    """A site nobody has set up yet: no collection and no starter chosen (``empty`` included)."""
    return not schema.current().collections and not StarterChoice.objects.exists()
