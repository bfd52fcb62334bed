"""Hand-written tool modules (none left: every tool is an operation of the table, ``<app>/operations.py``).

The registry imports this package once; a tool that cannot be an operation would be declared here with
``mcp_endpoint.registry.tool``.
"""
