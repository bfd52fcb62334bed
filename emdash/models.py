"""The abstract bases the apps' tables share; the core itself has no tables (users live in ``accounts``)."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils import timezone

from emdash.call import Call
from emdash.text import scrub

DOOR_LABELS = {
    "mcp": "MCP",
    "rest": "REST API",
    "admin": "admin",
    "cli": "command line",
    "worker": "worker",
    "import": "import",
}


def via_text(door: str | None, client: str | None, token: str | None = None) -> str:
    """ "Claude Code (MCP)", "laptop (REST API)", "the admin": what people read after "by Alice via"."""
    label = DOOR_LABELS.get(door or "", door or "")
    program = (client or "").split("/", 1)[0].strip() or (token or "")
    if program:
        return f"{program} ({label})" if label else program
    return f"the {label}" if label else "an unknown door"


class Timestamped(models.Model):
    """When a row was created and last changed; the writing code sets ``updated_at`` (it is not auto_now, so
    an import can keep the original times)."""

    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        abstract = True


class Provenance(models.Model):
    """How a change was made (SPEC 9.3): the door, the token (id and name) or OAuth client (id and name), and the
    calling program (MCP clientInfo, else the User-Agent) with its version. Columns of audit rows and revisions,
    filled from the door's :class:`~emdash.call.Call` by :meth:`fields_of`; the user is each table's own column.
    ``source`` is the door and ``token_ref`` the token id, the names the audit log has always used."""

    source = models.CharField(max_length=16, blank=True)  # mcp, rest, admin, cli, worker, import
    token_ref = models.CharField(max_length=64, blank=True)  # "pat:<id>" or "oauth:<id>", never the secret
    token_name = models.CharField(max_length=200, blank=True)
    oauth_client_id = models.CharField(max_length=200, blank=True)
    oauth_client_name = models.CharField(max_length=200, blank=True)
    client = models.CharField(max_length=200, blank=True)  # the program: MCP clientInfo name, else User-Agent
    client_version = models.CharField(max_length=50, blank=True)

    class Meta:
        abstract = True

    @staticmethod
    def fields_of(call: Call) -> dict[str, Any]:
        """The provenance columns of a change made by ``call`` (text scrubbed and cut to the columns)."""
        return {
            "source": call.door,
            "token_ref": call.token_id[:64],
            "token_name": scrub(call.token_name[:200]),
            "oauth_client_id": scrub(call.oauth_client_id[:200]),
            "oauth_client_name": scrub(call.oauth_client_name[:200]),
            "client": scrub(call.client[:200]),
            "client_version": scrub(call.client_version[:50]),
        }

    @property
    def via(self) -> dict[str, str | None]:
        """``{door, client, token}`` as revision_list returns it: the program (else the OAuth client) and the
        credential's name (a token's name, else the OAuth client's)."""
        return {
            "door": self.source or None,
            "client": self.client or self.oauth_client_name or None,
            "token": self.token_name or self.oauth_client_name or None,
        }

    def via_text(self) -> str:
        """ "Claude Code (MCP)", "the REST API", "the admin": how people read it after "by Alice via"."""
        door = DOOR_LABELS.get(self.source, self.source)
        program = self.client.split("/", 1)[0].strip() or self.oauth_client_name or self.token_name
        if program:
            return f"{program} ({door})" if door else program
        return f"the {door}" if door else "an unknown door"
