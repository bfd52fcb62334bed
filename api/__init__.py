"""The REST API under /_emdash/api/: DRF views over the same services and selectors as MCP."""
