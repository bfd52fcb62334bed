"""A number setting the server cannot read stops the start with the variable's name and what it takes (like
EMDASH_CACHE_PURGE): before, `EMDASH_IMAGE_SIZES=640px` or `EMDASH_MAX_BODY=4MiB!` died with Python's "invalid
literal for int() with base 10" naming neither, and a negative image size was silently dropped."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.deploy.test_settings import _env
from tests.e2e.admin_helpers import ROOT

CODE = (
    "import json, django; django.setup(); from emdash.conf import emdash_settings as s; "
    "print(json.dumps([s.IMAGE_SIZES, s.MAX_BODY, s.MAX_UPLOAD, s.LOGIN_LOCKOUT, s.AUTH_CACHE_SECONDS]))"
)


def _run(extra: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", CODE], cwd=ROOT, env=_env(extra), capture_output=True, text=True)


def test_well_formed_numbers_are_read() -> None:
    out = _run(
        {
            "EMDASH_IMAGE_SIZES": "320, 640,0",
            "EMDASH_MAX_BODY": "2M",
            "EMDASH_MAX_UPLOAD": "512KiB",
            "EMDASH_LOGIN_LOCKOUT": "60",
            "EMDASH_AUTH_CACHE_SECONDS": "0.5",
        }
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [[320, 640, 0], 2 * 1024**2, 512 * 1024, 60, 0.5]


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("EMDASH_IMAGE_SIZES", "640px,960", "EMDASH_IMAGE_SIZES must be"),
        ("EMDASH_IMAGE_SIZES", "640,-1", "EMDASH_IMAGE_SIZES must be"),
        ("EMDASH_MAX_BODY", "four megabytes", "EMDASH_MAX_BODY must be"),
        ("EMDASH_MAX_UPLOAD", "lots", "EMDASH_MAX_UPLOAD must be"),
        ("EMDASH_LOGIN_LOCKOUT", "15m", "EMDASH_LOGIN_LOCKOUT must be"),
        ("EMDASH_AUTH_CACHE_SECONDS", "one", "EMDASH_AUTH_CACHE_SECONDS must be"),
        ("EMDASH_HSTS_SECONDS", "1y", "EMDASH_HSTS_SECONDS must be"),
    ],
)
def test_a_malformed_number_stops_the_start_with_its_name(name: str, value: str, expected: str) -> None:
    out = _run({name: value})
    assert out.returncode != 0
    assert expected in out.stderr, out.stderr[-800:]
    assert "invalid literal" not in out.stderr


def test_an_empty_var_dir_means_the_default_not_the_working_directory(tmp_path) -> None:
    code = "import django; django.setup(); from django.conf import settings; print(settings.VAR_DIR)"
    env = _env({"EMDASH_VAR_DIR": ""})
    env.pop("DATABASE_URL", None)
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == str(ROOT / "var")


def test_a_proxy_count_that_is_not_plain_digits_means_one_proxy() -> None:
    """EMDASH_TRUST_PROXY takes a count, or yes/true for one: "²" passed str.isdigit(), then stopped the start in
    int()."""
    code = "import django; django.setup(); from django.conf import settings; print(settings.EMDASH_TRUST_PROXY)"
    for value, hops in (("\u00b2", "1"), ("2", "2"), ("yes", "1")):
        env = _env({"EMDASH_TRUST_PROXY": value})
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr[-2000:]
        assert out.stdout.strip().splitlines()[-1] == hops
