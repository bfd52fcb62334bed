"""Domain errors with stable codes. Each front door (MCP, REST, admin) maps them once."""

from __future__ import annotations

from typing import Any


class EmDashError(Exception):
    """Base class: a message safe to show to users and models, plus a stable code."""

    code = "INTERNAL_ERROR"
    status = 500

    def __init__(self, message: str, *, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def as_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details:
            body["details"] = self.details
        return body


def known(names: Any, *, none: str, limit: int = 25) -> str:
    """What would work, for a refusal: "known: a, b, c" (the first ``limit``, then how many more), or ``none``
    when there is nothing to name (e.g. "no menus yet: menu_create adds one")."""
    listed = [str(name) for name in names]
    if not listed:
        return none
    more = f" and {len(listed) - limit} more" if len(listed) > limit else ""
    return "known: " + ", ".join(listed[:limit]) + more


def shown(value: Any, limit: int = 100) -> str:
    """A caller's value echoed in a message: strings up to ``limit`` characters, anything else as "?"."""
    return value if isinstance(value, str) and len(value) <= limit else "?"


class NotFound(EmDashError):
    code, status = "NOT_FOUND", 404


class CollectionNotFound(EmDashError):
    code, status = "COLLECTION_NOT_FOUND", 404


class FieldNotFound(EmDashError):
    code, status = "FIELD_NOT_FOUND", 404


class ValidationError(EmDashError):
    """Bad input. ``details["fields"]`` maps every bad field to what is wrong with it."""

    code, status = "VALIDATION_ERROR", 400

    @classmethod
    def for_fields(cls, problems: dict[str, str], prefix: str = "Invalid value") -> ValidationError:
        listed = "; ".join(f"{name}: {problem}" for name, problem in problems.items())
        noun = "field" if len(problems) == 1 else "fields"
        return cls(f"{prefix} for {len(problems)} {noun}: {listed}", details={"fields": problems})


class Conflict(EmDashError):
    code, status = "CONFLICT", 409


class PreconditionFailed(EmDashError):
    """A write's If-Match / If-Unmodified-Since no longer holds (RFC 9110 13.1): nothing was written."""

    code, status = "PRECONDITION_FAILED", 412


class SlugConflict(EmDashError):
    code, status = "SLUG_CONFLICT", 409


class CollectionExists(EmDashError):
    code, status = "COLLECTION_EXISTS", 409


class FieldExists(EmDashError):
    code, status = "FIELD_EXISTS", 409


class CollectionHasContent(EmDashError):
    code, status = "COLLECTION_HAS_CONTENT", 409


class ReservedSlug(EmDashError):
    code, status = "RESERVED_SLUG", 400


class InvalidSlug(EmDashError):
    code, status = "INVALID_SLUG", 400


class InvalidCursor(EmDashError):
    code, status = "INVALID_CURSOR", 400


class InsufficientScope(EmDashError):
    code, status = "INSUFFICIENT_SCOPE", 403

    def __init__(self, required_scope: str, *, reason: str = "") -> None:
        # The first sentence is the stable part; the rest tells a model (or its user) what would work.
        # ``reason`` (SPEC 9.1) says why and what else would do, e.g. proposing the change in a change set.
        why = f" {reason[:1].upper()}{reason[1:]}." if reason else ""
        super().__init__(
            f"Insufficient scope: requires {required_scope}.{why} Re-authorise with the {required_scope} scope "
            "(or use a token that has it).",
            details={"requiredScope": required_scope},
        )
        self.required_scope = required_scope


class InsufficientPermissions(EmDashError):
    code, status = "INSUFFICIENT_PERMISSIONS", 403

    def __init__(self, needed: str) -> None:
        super().__init__(f"Insufficient permissions: {needed}")
