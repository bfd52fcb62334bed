"""HTTP caching and CDN purging are configured like everything else, by environment variable (README,
docs/caching.md): EMDASH_HTTP_CACHE_MAX_AGE, EMDASH_HTTP_CACHE_S_MAXAGE and EMDASH_CACHE_PURGE (a JSON object).
Before, only an edit of config/settings.py could turn purging on."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.deploy.test_settings import _env
from tests.e2e.admin_helpers import ROOT

CODE = (
    "import json, django; django.setup(); from emdash.conf import emdash_settings as s; from emdash import purge; "
    "print(json.dumps([s.HTTP_CACHE_MAX_AGE, s.HTTP_CACHE_S_MAXAGE, s.CACHE_PURGE, purge.config()]))"
)


def _run(extra: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", CODE], cwd=ROOT, env=_env(extra), capture_output=True, text=True)


def test_the_purger_and_cache_lifetimes_come_from_the_environment() -> None:
    conf = {"backend": "http", "url": "http://127.0.0.1:6081/", "method": "PURGE"}
    out = _run(
        {"EMDASH_HTTP_CACHE_MAX_AGE": "0", "EMDASH_HTTP_CACHE_S_MAXAGE": "900", "EMDASH_CACHE_PURGE": json.dumps(conf)}
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [0, 900, conf, conf]
    default = _run({})
    assert json.loads(default.stdout.strip().splitlines()[-1]) == [60, 300, None, None], default.stderr[-2000:]


def test_a_purger_that_is_not_a_json_object_stops_the_start_with_its_name() -> None:
    for bad in ("varnish", "[1]", "{"):
        out = _run({"EMDASH_CACHE_PURGE": bad})
        assert out.returncode != 0 and "EMDASH_CACHE_PURGE must be a JSON object" in out.stderr, out.stderr[-500:]
