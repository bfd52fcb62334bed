"""A progress line for long transfers: redrawn in place on a terminal, silent otherwise (cron, tests, pipes)."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """``step(kind, done, total)`` is called often; the line is redrawn at most ten times a second."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty()
        self._drawn = 0.0
        self._kind = ""

    def step(self, kind: str, done: int, total: int | None = None) -> None:
        now = time.monotonic()
        if not self.enabled or (kind == self._kind and now - self._drawn < 0.1 and done != total):
            return
        if kind != self._kind and self._kind:
            self.stream.write("\n")
        self._kind, self._drawn = kind, now
        if total:
            width = 30
            filled = width * min(done, total) // total
            self.stream.write(f"\r{kind:<18} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        else:
            self.stream.write(f"\r{kind:<18} {done}")
        self.stream.flush()

    def done(self) -> None:
        if self.enabled and self._kind:
            self.stream.write("\n")
            self.stream.flush()


class Silent(Progress):
    def __init__(self) -> None:
        super().__init__()
        self.enabled = False
