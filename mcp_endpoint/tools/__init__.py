"""Tool modules, one per area; importing them fills the registry."""

from mcp_endpoint.tools import content, revisions, schema  # noqa: F401

from mcp_endpoint.tools import search  # noqa: F401  # isort: skip
from mcp_endpoint.tools import menus, taxonomy  # noqa: F401

from mcp_endpoint.tools import media, settings  # noqa: F401  # isort: skip
