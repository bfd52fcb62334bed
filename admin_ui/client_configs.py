"""Ready-to-paste MCP client set-ups for a new token: what the README shows, filled in with this site's URL."""

from __future__ import annotations

import json
import shlex
from typing import NamedTuple

SERVER_NAME = "emdash"


class ClientConfig(NamedTuple):
    key: str  # element ids on the page
    client: str
    where: str  # what to do with the text
    text: str

    @property
    def rows(self) -> int:
        return self.text.count("\n") + 2  # the whole text in view, the long command wrapped once


def client_configs(endpoint: str, token: str) -> list[ClientConfig]:
    """Claude Code's command, Cursor's ``.cursor/mcp.json`` and VS Code's ``.vscode/mcp.json`` (which names its
    servers ``servers`` and wants the transport ``type``), each with the token as a bearer header."""
    header = {"Authorization": f"Bearer {token}"}
    add = ["claude", "mcp", "add", "--transport", "http", SERVER_NAME, endpoint]
    command = shlex.join([*add, "--header", f"Authorization: Bearer {token}"])
    cursor = {"mcpServers": {SERVER_NAME: {"url": endpoint, "headers": header}}}
    vscode = {"servers": {SERVER_NAME: {"type": "http", "url": endpoint, "headers": header}}}
    return [
        ClientConfig("claude", "Claude Code", "Run in a terminal", command),
        ClientConfig("cursor", "Cursor", "Save as .cursor/mcp.json in your project", json.dumps(cursor, indent=2)),
        ClientConfig("vscode", "VS Code", "Save as .vscode/mcp.json in your project", json.dumps(vscode, indent=2)),
    ]
