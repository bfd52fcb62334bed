"""The tool registry: a view over the operation table.

Operations (``emdash.operations``) become tools here, built once per process. ``@tool`` registers a handler
that is not an operation (only tests do: a tool that blocks, for the task worker's tests). A tool's scope and
minimum role are not restated: each names a permission from ``emdash.permissions.RULES``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import jsonschema
from jsonschema import Draft202012Validator

from emdash.actor import Actor
from emdash.operations import Operation, operations, run_operation
from emdash.operations.record import CATEGORIES
from emdash.permissions import RULES, Perm, access

Handler = Callable[[Actor, dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class Tool:
    name: str
    title: str
    description: str
    category: str
    perm: Perm
    input_schema: dict[str, Any]
    handler: Handler
    output_schema: dict[str, Any] | None = None
    read_only: bool = False
    destructive: bool = False
    idempotent: bool = False
    operation: Operation | None = None  # set when the tool is an operation of the table (run by the pipeline)
    validator: Draft202012Validator = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "validator", Draft202012Validator(self.input_schema))

    @classmethod
    def of(cls, op: Operation) -> Tool:
        def handler(actor: Actor, arguments: dict[str, Any]) -> dict[str, Any]:
            return run_operation(op, actor, arguments, source="mcp")

        return cls(
            name=op.name,
            title=op.title,
            description=f"{op.description} {access(op.perm)}",  # the model is told what the call needs
            category=op.category,
            perm=op.perm,
            input_schema=op.schema,
            handler=handler,
            output_schema=op.listed_output,
            read_only=op.read_only,
            destructive=op.destructive,
            idempotent=op.idempotent,
            operation=op,
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

    def argument_problems(self, arguments: dict[str, Any]) -> dict[str, str]:
        """Every problem with the arguments, keyed by the argument's path."""
        problems: dict[str, str] = {}
        for error in sorted(self.validator.iter_errors(arguments), key=lambda e: list(map(str, e.absolute_path))):
            path = ".".join(str(p) for p in error.absolute_path)
            if error.validator == "additionalProperties":
                known = ", ".join(error.schema.get("properties", {})) or "none"
                for key in error.instance.keys() - error.schema.get("properties", {}).keys():
                    problems[f"{path}.{key}" if path else key] = f"unknown argument (accepted: {known})"
            elif error.validator == "required":
                missing = error.message.split("'")[1] if "'" in error.message else error.message
                problems[f"{path}.{missing}" if path else missing] = "is required"
            else:
                problems.setdefault(path or "arguments", _message(error))
        return problems


def _message(error: jsonschema.ValidationError) -> str:
    validator, expected = error.validator, error.validator_value
    if validator == "type":
        return f"must be of type {expected}"
    if validator == "enum":
        return "must be one of: " + ", ".join(map(str, expected))
    if validator in {"minimum", "maximum"}:
        return f"must be {'at least' if validator == 'minimum' else 'at most'} {expected}"
    if validator in {"minLength", "maxLength"}:
        return f"must have {'at least' if validator == 'minLength' else 'at most'} {expected} characters"
    if validator == "pattern":
        return f"must match {expected}"
    return error.message[:200]


REGISTRY: dict[str, Tool] = {}


def tool(
    name: str,
    *,
    title: str,
    description: str,
    category: str,
    perm: Perm,
    input: dict[str, Any],
    output: dict[str, Any] | None = None,
    read_only: bool = False,
    destructive: bool = False,
    idempotent: bool = False,
) -> Callable[[Handler], Handler]:
    """Register the decorated function as the handler of tool ``name``."""

    def register(handler: Handler) -> Handler:
        if name in REGISTRY:
            raise ValueError(f"Duplicate tool name: {name}")
        if category not in CATEGORIES:
            raise ValueError(f"Tool {name}: unknown category {category!r}")
        Draft202012Validator.check_schema(input)
        if input.get("type") != "object" or input.get("additionalProperties") is not False:
            raise ValueError(f"Tool {name}: inputSchema must be an object schema with additionalProperties false")
        if output is not None:
            Draft202012Validator.check_schema(output)
            if output.get("type") != "object":
                raise ValueError(f"Tool {name}: outputSchema must describe an object")
        REGISTRY[name] = Tool(
            name=name,
            title=title,
            description=description,
            category=category,
            perm=perm,
            input_schema=input,
            handler=handler,
            output_schema=output,
            read_only=read_only,
            destructive=destructive,
            idempotent=idempotent,
        )
        return handler

    return register


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
