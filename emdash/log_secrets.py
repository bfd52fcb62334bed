"""Capability URLs kept out of the logs: the token in a signed upload URL, a preview link or a share link is the
whole credential, and Django's request logger (``Not Found: /_emdash/share/<token>/``) and the servers' access
logs write the path as it came. The console handler's filter replaces the token segment before any line is
written, whoever logged it (config/logging.json)."""

from __future__ import annotations

import logging
import re

# The paths whose next segment is a bearer capability (media/urls.py, public_site/urls.py).
_CAPABILITY = re.compile(r"(/_emdash/(?:api/media/upload|preview|share)/)[^/\s?#\"']+")
REDACTED = "[redacted]"


def redact(text: str) -> str:
    return _CAPABILITY.sub(r"\1" + REDACTED, text) if "/_emdash/" in text else text


class CapabilityPathFilter(logging.Filter):
    """Redacts capability tokens in a record's message and its arguments (the path is usually an argument)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: redact(v) if isinstance(v, str) else v for k, v in record.args.items()}
        return True
