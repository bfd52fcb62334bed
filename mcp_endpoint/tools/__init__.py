"""Tool modules of the areas not yet in the operation table; importing them fills the registry.

Content, revisions, media, search, settings, taxonomies and menus are operations (``<app>/operations.py``); the
registry adds them itself.
"""

from mcp_endpoint.tools import schema  # noqa: F401
