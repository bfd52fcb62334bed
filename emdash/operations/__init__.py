"""The operation table and its pipeline: each operation declared once, run the same way at every door.

See docs/architecture.md ("How to add an operation").
"""

from emdash.operations.pipeline import JSON, Call, Recorder, Shape, Source, run_operation, validate
from emdash.operations.record import TABLE, Operation, Route, declare, get, load, operations
from emdash.operations.schema import NULLABLE, WHOLE, Input, NoInput, WholeNumber, input_schema

__all__ = [
    "JSON",
    "NULLABLE",
    "TABLE",
    "WHOLE",
    "Call",
    "Input",
    "NoInput",
    "Operation",
    "Recorder",
    "Route",
    "Shape",
    "Source",
    "WholeNumber",
    "declare",
    "get",
    "input_schema",
    "load",
    "operations",
    "run_operation",
    "validate",
]
