"""docs/production.md's checklist, run as written (issue 21.7, SPEC 13): its commands are read from the
document and run against daphne with DEBUG=0 behind a TLS-terminating proxy, whose public name is the only
allowed host. Only the example host names are swapped for the test's addresses (and curl gets -k for the
throwaway certificate)."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.deploy.test_settings import PRODUCTION, _env
from tests.deploy.tls_proxy import TLSProxy, self_signed_cert
from tests.servers import daphne, database_url

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "production.md"


def checklist_commands() -> list[str]:
    """The backticked commands of the checklist section (curl and manage.py lines)."""
    section = re.split(r"^## \d+\. Checklist$", DOC.read_text(), maxsplit=1, flags=re.MULTILINE)[1]
    commands = re.findall(r"`((?:curl|python manage\.py) [^`]+)`", section)
    assert commands, "the checklist names no command"
    return commands


def test_the_checklist_names_the_commands_this_test_runs() -> None:
    commands = checklist_commands()
    assert "python manage.py check --deploy" in commands
    assert any(c.startswith("curl -I https://cms.example.com/") for c in commands)
    assert any(c.startswith("curl http://backend:8000/_emdash/health") for c in commands)


def test_the_checklist_commands_work_as_written(cms: None, tmp_path: Path) -> None:
    if shutil.which("curl") is None:
        pytest.skip("needs the curl command")
    proxy = TLSProxy(*self_signed_cert(tmp_path))
    env = {"EMDASH_SITE_URL": proxy.url, "EMDASH_TRUST_PROXY": "1", "ALLOWED_HOSTS": "127.0.0.1"}
    env["EMDASH_VAR_DIR"] = str(tmp_path)
    with daphne(env) as (backend, _process):
        proxy.start(int(backend.rsplit(":", 1)[1]))
        # The backend is probed by "localhost": a name ALLOWED_HOSTS does not list, as a load balancer's IP is not.
        names = {"https://cms.example.com": proxy.url, "http://backend:8000": backend.replace("127.0.0.1", "localhost")}
        try:
            for command in checklist_commands():
                if command.startswith("curl"):
                    _curl(command, names)
        finally:
            proxy.shutdown()
            proxy.server_close()
    # The production variables, on the test's own database (migrate runs for real; it has nothing left to do).
    production = _env({**PRODUCTION, "DATABASE_URL": database_url(), "EMDASH_VAR_DIR": str(tmp_path)})
    for command in checklist_commands():
        if command.startswith("python manage.py"):
            argv = [sys.executable, *shlex.split(command)[1:]]
            done = subprocess.run(argv, cwd=ROOT, env=production, capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, (command, done.stderr[-2000:])
            if "check" in argv:
                assert "no issues" in done.stdout + done.stderr and "WARNING" not in done.stderr, done.stderr


def _curl(command: str, names: dict[str, str]) -> None:
    for example, real in names.items():
        command = command.replace(example, real)
    argv = shlex.split(command)
    done = subprocess.run([argv[0], "-k", "-sS", "--max-time", "20", *argv[1:]], capture_output=True, text=True)
    assert done.returncode == 0, (command, done.stderr)
    out = done.stdout
    if "-I" in argv:
        headers = out.lower()
        assert out.startswith("HTTP/1.1 200"), (command, out)
        assert "strict-transport-security:" in headers and "content-security-policy:" in headers, out
        assert re.search(r"^set-cookie: .*; secure", headers, re.MULTILINE), out
    else:
        assert out.strip() == '{"status": "ok"}', (command, out)
