"""The field-type table (moving into one class per family)."""

from content.field_types.base import (
    CONTENT_SLUG_RE,
    FIELD_TYPES,
    INT64_MAX,
    INT64_MIN,
    PATTERN_MAX_LENGTH,
    FieldRules,
    FieldType,
    check_constraints,
    compile_pattern,
    json_problem,
)

__all__ = [
    "CONTENT_SLUG_RE",
    "FIELD_TYPES",
    "INT64_MAX",
    "INT64_MIN",
    "PATTERN_MAX_LENGTH",
    "FieldRules",
    "FieldType",
    "check_constraints",
    "compile_pattern",
    "json_problem",
]
