"""The operation table and its pipeline: each operation declared once, run the same way at every door.

See docs/architecture.md ("How to add an operation").
"""

from emdash.call import Call, Door
from emdash.operations.forms import DELETED, READ, Draft, Endpoint, Family, audit_as, deleted, family, under
from emdash.operations.pipeline import JSON, Shape, run_operation, validate
from emdash.operations.record import TABLE, Operation, Route, declare, get, load, operations
from emdash.operations.schema import (
    NULLABLE,
    WHOLE,
    Cursor,
    Input,
    NoInput,
    WholeNumber,
    input_schema,
    limit,
    reference,
)

__all__ = [
    "DELETED",
    "JSON",
    "NULLABLE",
    "READ",
    "TABLE",
    "WHOLE",
    "Call",
    "Cursor",
    "Door",
    "Draft",
    "Endpoint",
    "Family",
    "Input",
    "NoInput",
    "Operation",
    "Route",
    "Shape",
    "WholeNumber",
    "audit_as",
    "declare",
    "deleted",
    "family",
    "get",
    "input_schema",
    "limit",
    "load",
    "operations",
    "reference",
    "run_operation",
    "under",
    "validate",
]
