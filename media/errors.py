"""Errors only the upload flows raise (everything else uses emdash.errors)."""

from __future__ import annotations

from emdash.errors import EmDashError


class FileTooLarge(EmDashError):
    code, status = "FILE_TOO_LARGE", 413

    def __init__(self, limit: int) -> None:
        super().__init__(f"The file is larger than the upload limit of {limit} bytes", details={"maxSize": limit})


class InvalidUploadUrl(EmDashError):
    """A signed upload URL that is forged, garbled or expired: ask for a new one."""

    code, status = "INVALID_UPLOAD_URL", 403
