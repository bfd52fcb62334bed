"""Imports started from the admin's Tools page, run by the worker (``emdash_worker``) as background tasks.

The upload is copied under ``<var>/transfer-uploads/`` (the worker shares the var directory in every documented
set-up), a :class:`~transfer.models.ImportJob` row records it, and the task runs the same code as the commands
(``emdash_import_wordpress``, ``emdash_import``), writing its progress to the row at most once a second and its
report (what was created, what was skipped and why) when it ends. The job is claimed with a conditional UPDATE,
so a task delivered twice runs once.
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from emdash.actor import Actor
from emdash.background import task
from emdash.errors import EmDashError, ValidationError
from emdash.permissions import Perm, require
from transfer.archive import ArchiveError
from transfer.models import ImportJob
from transfer.progress import Progress
from transfer.restore import SiteNotEmpty, site_import
from transfer.wordpress.importer import import_wordpress
from transfer.wordpress.wxr import WxrError

log = logging.getLogger("emdash.transfer")
SUFFIX = {ImportJob.WORDPRESS: ".xml", ImportJob.ARCHIVE: ".tar.gz"}
WRITE_EVERY = 1.0  # seconds between progress writes


def upload_dir() -> Path:
    path = Path(settings.VAR_DIR) / "transfer-uploads"
    path.mkdir(parents=True, exist_ok=True)
    return path


def start(*, actor: Actor, kind: str, upload: Any, filename: str) -> ImportJob:
    """Keep the uploaded file and queue its import; the job row says how it goes."""
    require(actor, Perm.SITE_IMPORT)
    if kind not in SUFFIX:
        raise ValidationError.for_fields({"kind": "must be wordpress or archive"})
    if upload is None:
        raise ValidationError.for_fields({"file": "choose a file to import"})
    with transaction.atomic():
        job = ImportJob.objects.create(kind=kind, filename=filename[:255], path="", user_id=actor.user_id)
        path = upload_dir() / f"job-{job.pk}{SUFFIX[kind]}"
        with open(path, "wb") as out:
            for chunk in upload.chunks() if hasattr(upload, "chunks") else iter(lambda: upload.read(1 << 20), b""):
                out.write(chunk)
        ImportJob.objects.filter(pk=job.pk).update(path=str(path))
        job.path = str(path)
        transaction.on_commit(lambda: run_import_job.enqueue(job.pk))
    return job


class JobProgress(Progress):
    """The commands' progress line, written to the job row instead of a terminal."""

    def __init__(self, job_id: int) -> None:
        super().__init__()
        self.enabled = True
        self.job_id = job_id
        self._written = 0.0

    def step(self, kind: str, done: int, total: int | None = None) -> None:
        now = time.monotonic()
        if now - self._written < WRITE_EVERY and done != total:
            return
        self._written = now
        progress = {"step": kind, "done": done, "total": total}
        ImportJob.objects.filter(pk=self.job_id).update(progress=progress, updated_at=timezone.now())

    def done(self) -> None:
        pass


def _finish(job_id: int, status: str, *, report: Any = None, error: str = "") -> None:
    ImportJob.objects.filter(pk=job_id).update(status=status, report=report, error=error, updated_at=timezone.now())


def run(job_id: int) -> str:
    """Claim and run one job (the task's body); its final status."""
    claimed = ImportJob.objects.filter(pk=job_id, status=ImportJob.QUEUED).update(
        status=ImportJob.RUNNING, updated_at=timezone.now()
    )
    if not claimed:
        return "not queued"
    job = ImportJob.objects.get(pk=job_id)
    user = User.objects.filter(pk=job.user_id, is_active=True).first() if job.user_id else None
    try:
        if user is None:
            raise ValidationError("The admin who started this import no longer exists or was deactivated")
        actor = Actor.for_user(user)
        require(actor, Perm.SITE_IMPORT)  # again at run time: the role may have changed since
        progress = JobProgress(job_id)
        if job.kind == ImportJob.WORDPRESS:
            report = import_wordpress(job.path, actor=actor, progress=progress).to_dict()
        else:
            report = {"imported": site_import(job.path, progress=progress)}
        _finish(job_id, ImportJob.DONE, report=report)
        return ImportJob.DONE
    except (WxrError, ArchiveError, SiteNotEmpty) as exc:
        _finish(job_id, ImportJob.FAILED, error=f"Nothing was imported: {exc}")
    except EmDashError as exc:
        _finish(job_id, ImportJob.FAILED, error=exc.message)
    except Exception:
        log.exception("import job %s failed", job_id)
        _finish(job_id, ImportJob.FAILED, error="The import stopped on an unexpected error (see the server log).")
    finally:
        if job.path and os.path.exists(job.path):
            os.remove(job.path)
    return ImportJob.FAILED


@task()
def run_import_job(job_id: int) -> str:
    return run(job_id)


def export_to_temporary() -> Any:
    """Write the site's archive to an unnamed temporary file (bounded memory; the file goes when closed)."""
    import tempfile

    from transfer.export import site_export

    handle = tempfile.TemporaryFile(dir=upload_dir())  # noqa: SIM115  (the download response closes it)
    try:
        site_export(handle)
    except BaseException:
        handle.close()
        raise
    handle.seek(0)
    return handle
