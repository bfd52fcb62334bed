"""OAuth protocol errors: the RFC error code, a safe description, the HTTP status and extra headers."""

from __future__ import annotations


class OAuthError(Exception):
    """Answered as ``{"error": ..., "error_description": ...}`` (RFC 6749 5.2) with ``Cache-Control: no-store``."""

    def __init__(self, error: str, description: str, status: int = 400) -> None:
        super().__init__(f"{error}: {description}")
        self.error = error
        self.description = description
        self.status = status
        self.headers: dict[str, str] = {}

    def as_dict(self) -> dict[str, str]:
        return {"error": self.error, "error_description": self.description}


class RateLimited(OAuthError):
    """Too many requests: 429 with ``Retry-After`` (whole seconds)."""

    def __init__(self, retry_after: int, what: str = "requests") -> None:
        super().__init__("rate_limited", f"Too many {what}; retry in {retry_after} s", 429)
        self.retry_after = retry_after
        self.headers["Retry-After"] = str(retry_after)


def invalid_request(description: str) -> OAuthError:
    return OAuthError("invalid_request", description)


def invalid_grant(description: str) -> OAuthError:
    return OAuthError("invalid_grant", description)


def invalid_client(description: str) -> OAuthError:
    return OAuthError("invalid_client", description, 401)


def invalid_target(description: str) -> OAuthError:
    return OAuthError("invalid_target", description)


def invalid_scope(description: str) -> OAuthError:
    return OAuthError("invalid_scope", description)
