"""Tool modules of the areas not yet in the operation table; importing them fills the registry.

Content, revisions, taxonomies and menus are operations (``<app>/operations.py``); the registry adds
them itself.
"""

from mcp_endpoint.tools import schema  # noqa: F401

from mcp_endpoint.tools import search  # noqa: F401  # isort: skip

from mcp_endpoint.tools import media, settings  # noqa: F401  # isort: skip
