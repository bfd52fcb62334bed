"""Tool modules of the areas not yet in the operation table; importing them fills the registry.

Content, revisions, media, search and settings are operations (``<app>/operations.py``); the registry adds
them itself.
"""

from mcp_endpoint.tools import schema  # noqa: F401

from mcp_endpoint.tools import menus, taxonomy  # noqa: F401  # isort: skip
