"""The MCP client fixtures, shared with tests/mcp."""

from tests.mcp.conftest import make_mcp, mcp  # noqa: F401
