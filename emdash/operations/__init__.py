"""The operation table and its pipeline: each operation declared once, run the same way at every door.

See docs/architecture.md ("How to add an operation").
"""

from emdash.operations.pipeline import JSON, Call, Recorder, Shape, Source, run_operation, validate
from emdash.operations.record import TABLE, Operation, Route, declare, family, get, load, operations
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
    "JSON",
    "NULLABLE",
    "TABLE",
    "WHOLE",
    "Call",
    "Cursor",
    "Input",
    "NoInput",
    "Operation",
    "Recorder",
    "Route",
    "Shape",
    "Source",
    "WholeNumber",
    "declare",
    "family",
    "get",
    "input_schema",
    "limit",
    "load",
    "operations",
    "reference",
    "run_operation",
    "validate",
]
