"""Byline tests reuse the in-process MCP client fixtures."""

from tests.mcp.conftest import make_mcp, mcp  # noqa: F401
