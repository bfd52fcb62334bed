"""Both media storages for the same tests: the filesystem under a temporary MEDIA_ROOT, and S3 through a local
S3-compatible server (moto's, started once on 127.0.0.1 on a free port)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from tests.servers import free_port

KEYS = {"access_key": "testing", "secret_key": "testing"}
_buckets = itertools.count(1)


@pytest.fixture(scope="session")
def s3_endpoint() -> Iterator[str]:
    from moto.server import ThreadedMotoServer

    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    yield f"http://127.0.0.1:{port}"
    server.stop()


def s3_options(endpoint: str, bucket: str, **extra: Any) -> dict[str, Any]:
    """The options our settings give django-storages' S3Storage (config/settings.py), for a test bucket."""
    return {
        "bucket_name": bucket,
        "endpoint_url": endpoint,
        "region_name": "us-east-1",
        "querystring_auth": False,
        "file_overwrite": False,
        **KEYS,
        **extra,
    }


def new_bucket(endpoint: str) -> str:
    import boto3

    name = f"emdash-test-{next(_buckets)}-{free_port()}"
    client = boto3.client(
        "s3",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id=KEYS["access_key"],
        aws_secret_access_key=KEYS["secret_key"],
    )
    client.create_bucket(Bucket=name)
    return name


def use_s3(settings: Any, endpoint: str, bucket: str | None = None, **extra: Any) -> str:
    bucket = bucket or new_bucket(endpoint)
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {"BACKEND": "storages.backends.s3.S3Storage", "OPTIONS": s3_options(endpoint, bucket, **extra)},
    }
    return bucket


@pytest.fixture(params=["filesystem", "s3"])
def media_storage(request: pytest.FixtureRequest, settings: Any) -> str:
    """Run the test once per storage; the value names it."""
    if request.param == "s3":
        use_s3(settings, request.getfixturevalue("s3_endpoint"))
    return str(request.param)
