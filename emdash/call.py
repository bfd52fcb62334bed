"""``Call``: one call through one door — who, with which token or OAuth client, from which program.

Every door builds one (MCP, REST, admin, the task worker, commands) and hands it to the pipeline and to
``audit.record.record``, so an audit row (and, with SPEC 9.3, a revision) can say how a change was made without
each door spelling it out. Token and client names come from the token lookup (``Actor``), so a call costs no query.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from emdash.actor import Actor
from emdash.tracing import current_trace_id

if TYPE_CHECKING:
    from accounts.models import User

# The door's name as audit rows and revisions store it (Provenance.source); SPEC 9.3's list ("cli": management
# commands and services run outside any door, "import": the transfer imports).
Door = Literal["mcp", "rest", "admin", "cli", "worker", "import"]


@dataclass(frozen=True, slots=True)
class Call:
    """The caller's provenance: ``door``, the actor (user, token, OAuth client) and the calling program
    (``client``: MCP clientInfo's name, else the User-Agent; ``client_version``)."""

    actor: Actor
    door: Door
    trace_id: str
    client: str = ""
    client_version: str = ""

    def __post_init__(self) -> None:
        # Every way a Call is made or replaced (clientInfo replaces the User-Agent's name) passes through here.
        object.__setattr__(self, "client", shown(self.client))
        object.__setattr__(self, "client_version", shown(self.client_version))

    @classmethod
    def at(cls, door: Door, actor: Actor, client: str = "", client_version: str = "") -> Call:
        """A call of the running request or job (its trace id)."""
        return cls(actor, door, current_trace_id(), client, client_version)

    @classmethod
    def from_user_agent(cls, door: Door, actor: Actor, user_agent: str) -> Call:
        """A call named by its User-Agent (REST, and MCP before clientInfo in ``_meta``)."""
        user_agent = shown(user_agent)
        return cls(actor, door, current_trace_id(), user_agent, agent_version(user_agent))

    @property
    def user(self) -> User | None:
        return self.actor.user

    @property
    def token_id(self) -> str:
        """``pat:<id>`` or ``oauth:<id>``; "" for a session or the system."""
        return str(self.actor.token_id or "")

    @property
    def token_name(self) -> str:
        return self.actor.token_name

    @property
    def oauth_client_id(self) -> str:
        return self.actor.client_id or ""

    @property
    def oauth_client_name(self) -> str:
        return self.actor.client_name

    def through(self, door: Door) -> Call:
        """The same caller through another door (an import run by an MCP call records door "import")."""
        return replace(self, door=door)


# The call being served (SPEC 9.3): set by the operation pipeline, the admin, the worker, commands and imports,
# read where a change is recorded (revisions) so a service need not pass provenance down by hand.
_current: ContextVar[Call | None] = ContextVar("emdash_call", default=None)


def current() -> Call | None:
    return _current.get()


@contextmanager
def calling(call: Call) -> Iterator[Call]:
    """Make ``call`` the current call for the block (nested blocks restore the outer one on exit)."""
    token = _current.set(call)
    try:
        yield call
    finally:
        _current.reset(token)


def for_actor(actor: Actor, door: Door = "cli") -> Call:
    """The call a change by ``actor`` belongs to: the current one (a change made while serving a call is that
    call's, whoever the service acts as, e.g. an import writing as the post's author), else a call through
    ``door`` built from the actor alone (a service run outside any door: a management command)."""
    found = _current.get()
    return found if found is not None else Call.at(door, actor)


def shown(text: str) -> str:
    """A program's self-chosen name as the audit log and revision lists show it: without control and format
    characters (bidi overrides and isolates, zero-width spaces, escapes), which would reorder or hide the rest of
    the line people read ("by Alice via X (MCP)")."""
    if text.isascii() and text.isprintable():
        return text
    # NUL is left to the audit writer, which shows it as U+FFFD (the name stays recognisably altered).
    return "".join(ch for ch in text if ch == "\x00" or unicodedata.category(ch) not in ("Cc", "Cf"))


def agent_version(user_agent: str) -> str:
    """The version of a User-Agent's first product (``claude-code/1.2.3 (...)`` → ``1.2.3``; a name with spaces,
    ``Claude Code/2.1.0``, too), else ""."""
    name, slash, rest = user_agent.partition("/")
    if not slash or "(" in name:
        return ""
    return rest.split(" ", 1)[0].split("(", 1)[0][:50]


def for_door(actor: Actor, door: Door) -> Call:
    """The current call of ``actor`` (or a new one) through ``door``: an import keeps who ran it (user, token,
    program) and records door "import"."""
    return for_actor(actor, door).through(door)
