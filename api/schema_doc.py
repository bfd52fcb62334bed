"""Small helpers for describing the API views in the OpenAPI document."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema

from emdash.operations.shapes import STRING, obj

ERROR = obj(
    {"error": obj({"code": STRING, "message": STRING, "details": {"type": "object"}}, ["code", "message"])}, ["error"]
)
ERRORS = {
    status: OpenApiResponse(ERROR, description=text)
    for status, text in [
        (400, "Invalid input (VALIDATION_ERROR, INVALID_CURSOR, ...)"),
        (401, "Missing or invalid credentials"),
        (403, "Insufficient scope or role, or CSRF failure"),
        (404, "Not found (also for unpublished items the caller may not see)"),
        (409, "Conflict (stale _rev, duplicate slug, ...)"),
    ]
}


def doc(
    summary: str,
    *,
    response: dict[str, Any],
    ok: int = 200,
    body: Any = None,
    params: Any = None,
    tags: list[str] | None = None,
) -> Any:
    """``extend_schema`` with our error envelope on every operation; ``response`` (a JSON Schema) types the success
    body, and is required: a hand-written view cannot fall back to "any object" (tests/api/test_openapi_typed.py)."""
    return extend_schema(
        summary=summary,
        request=body,
        parameters=params,
        tags=tags,
        responses={ok: OpenApiResponse(response, description="Success"), **ERRORS},
    )
