"""Django's task framework behind one import, plus the worker's periodic sweeps.

Django 6 ships ``django.tasks``; on Django 5.2 the ``django-tasks`` backport provides the same API under
``django_tasks``. Everything else imports ``task``, ``task_backends`` and ``TaskResultStatus`` from here, so
the code does not care which Django line runs. The embedded default backend is ``django_tasks_db`` (jobs in
this database); ``EMDASH_TASKS_BACKEND`` switches to RQ, Celery or any other backend (docs/background-work.md).

Sweeps are registered by the apps that own them (``AppConfig.ready``), so the worker command needs no
import of ``mcp_endpoint`` or any other leaf app.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib.util import find_spec
from typing import Any

if find_spec("django.tasks"):  # Django 6.0+
    from django.tasks import TaskResultStatus, default_task_backend, task, task_backends
else:  # Django 5.2 with the backport
    from django_tasks import (  # type: ignore[assignment,no-redef,unused-ignore]
        TaskResultStatus,
        default_task_backend,
        task,
        task_backends,
    )


DATABASE_BACKEND = "django_tasks_db.DatabaseBackend"

__all__ = [
    "DATABASE_BACKEND",
    "Sweep",
    "TaskResultStatus",
    "default_task_backend",
    "register_sweep",
    "sweeps",
    "task",
    "task_backends",
    "uses_database_queue",
]


@dataclass
class Sweep:
    """A periodic job of the worker: ``run`` returns how many things it handled."""

    name: str
    run: Callable[[], int]
    every: Callable[[], float] = lambda: 0.0  # seconds between runs (read each time); 0 = every pass
    report: str = ""  # printed with the count, e.g. "published {} scheduled item(s)"
    always_report: bool = False  # print even a zero count (on --once)
    last_run: float = float("-inf")

    def due(self, now: float) -> bool:
        return now - self.last_run >= self.every()

    def run_safely(self) -> int:
        """One run; a failing sweep is logged and retried next time, never stops the worker."""
        from emdash.tracing import trace, unexpected

        self.last_run = time.monotonic()
        with trace():  # each run has its own trace id, in its log lines and audit rows
            try:
                return self.run()
            except Exception as exc:
                unexpected(exc, f"worker sweep {self.name}")
                return 0


_SWEEPS: dict[str, Sweep] = {}


def register_sweep(
    name: str,
    run: Callable[[], int],
    *,
    every: Callable[[], float] | None = None,
    report: str = "",
    always_report: bool = False,
) -> None:
    """Add (or replace, so a reloaded app does not run it twice) one of the worker's periodic jobs."""
    _SWEEPS[name] = Sweep(name, run, every or (lambda: 0.0), report, always_report)


def sweeps() -> list[Sweep]:
    return list(_SWEEPS.values())


def uses_database_queue(alias: str = "default") -> bool:
    """True when the backend keeps its jobs in our database, so ``emdash_worker`` must run them."""
    backend: Any = task_backends[alias]
    return f"{type(backend).__module__}.{type(backend).__qualname__}".startswith("django_tasks_db.")
