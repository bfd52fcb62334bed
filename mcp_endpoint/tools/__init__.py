"""Tool modules of the areas not yet in the operation table; importing them fills the registry.

Content and revisions are operations (``content/operations.py``); the registry adds them itself.
"""

from mcp_endpoint.tools import search  # noqa: F401  # isort: skip
from mcp_endpoint.tools import menus, taxonomy  # noqa: F401

from mcp_endpoint.tools import media, settings  # noqa: F401  # isort: skip
