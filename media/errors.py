"""Errors only the upload flows raise (everything else uses emdash.errors)."""

from __future__ import annotations

from typing import Any

from emdash.errors import EmDashError


class FileTooLarge(EmDashError):
    code, status = "FILE_TOO_LARGE", 413

    def __init__(self, limit: int) -> None:
        super().__init__(f"The file is larger than the upload limit of {limit} bytes", details={"maxSize": limit})


class InvalidUploadUrl(EmDashError):
    """A signed upload URL that is forged, garbled or expired: ask for a new one."""

    code, status = "INVALID_UPLOAD_URL", 403


class MediaInUse(EmDashError):
    """Deleting a media item that content or settings still use: say where, and how to delete anyway."""

    code, status = "MEDIA_IN_USE", 409

    def __init__(self, media_id: str, uses: list[dict[str, Any]]) -> None:
        shown = "; ".join(_place(u) for u in uses[:10]) + ("; ..." if len(uses) > 10 else "")
        super().__init__(
            f"Media item '{media_id}' is used in {len(uses)} place(s): {shown}. Remove those references first, "
            "or pass force: true to delete it anyway (the references are left dangling).",
            details={"usage": uses},
        )


def _place(use: dict[str, Any]) -> str:
    if "id" not in use:
        return f"{use['collection']}.{use['field']}"
    title = f' "{use["title"]}"' if use.get("title") else ""
    return f"{use['collection']}/{use['id']}{title} ({use['field']})"
