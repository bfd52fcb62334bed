"""The admin UI for editors: server-rendered pages over the same services as MCP and REST."""
