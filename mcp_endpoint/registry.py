"""The tool registry: a view over the operation table.

Operations (``emdash.operations``) become tools here, built once per process; there is no other kind of tool
(tests declare theirs with ``emdash.operations.declare`` too). A tool's scope and minimum role are not
restated: each names a permission from ``emdash.permissions.RULES``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from emdash.operations import Operation, operations
from emdash.operations.record import CATEGORIES
from emdash.permissions import RULES, Perm, access


@dataclass(frozen=True)
class Tool:
    name: str
    title: str
    description: str
    category: str
    perm: Perm
    input_schema: dict[str, Any]
    operation: Operation  # run by the pipeline (emdash.operations.run_operation)
    output_schema: dict[str, Any] | None = None
    read_only: bool = False
    destructive: bool = False
    idempotent: bool = False

    @classmethod
    def of(cls, op: Operation) -> Tool:
        return cls(
            name=op.name,
            title=op.title,
            description=f"{op.description} {access(op.perm)}",  # the model is told what the call needs
            category=op.category,
            perm=op.perm,
            input_schema=op.schema,
            operation=op,
            output_schema=op.listed_output,
            read_only=op.read_only,
            destructive=op.destructive,
            idempotent=op.idempotent,
        )

    @property
    def scope(self) -> str:
        return RULES[self.perm].scope.value

    @property
    def min_role(self) -> str:
        return RULES[self.perm].min_role.label

    def definition(self) -> dict[str, Any]:
        """The entry in tools/list."""
        body: dict[str, Any] = {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "inputSchema": self.input_schema,
        }
        if self.output_schema is not None:
            body["outputSchema"] = self.output_schema
        body["annotations"] = {
            "title": self.title,
            "readOnlyHint": self.read_only,
            "destructiveHint": self.destructive,
            "idempotentHint": self.idempotent,
            "openWorldHint": False,
        }
        body["_meta"] = {"emdash/scope": self.scope, "emdash/minRole": self.min_role, "emdash/category": self.category}
        return body


REGISTRY: dict[str, Tool] = {}


_definitions: list[dict[str, Any]] | None = None


def definitions() -> list[dict[str, Any]]:
    """tools/list, built once per process."""
    global _definitions
    if _definitions is None:
        load_tools()
        _definitions = [
            t.definition() for t in sorted(REGISTRY.values(), key=lambda t: (CATEGORIES.index(t.category), t.name))
        ]
    return _definitions


def get(name: Any) -> Tool | None:
    load_tools()
    return REGISTRY.get(name) if isinstance(name, str) else None


_loaded = False


def load_tools() -> None:
    """Add the operations of the table to the registry, once."""
    global _loaded
    if _loaded:
        return
    for op in operations():
        if op.mcp:
            if op.name in REGISTRY:
                raise ValueError(f"Duplicate tool name: {op.name}")
            REGISTRY[op.name] = Tool.of(op)
    _loaded = True
