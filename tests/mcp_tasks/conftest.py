"""The in-process MCP client fixtures (tests/mcp/conftest.py) for the task tests."""

from tests.mcp.conftest import make_mcp, mcp

__all__ = ["make_mcp", "mcp"]
