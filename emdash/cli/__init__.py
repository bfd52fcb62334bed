"""The ``emdash`` command line: log in with the device flow, show who you are, log out, bridge MCP over stdio."""
