"""Property-based run of schemathesis against our own OpenAPI document: no request may cause a 5xx.

In-process over WSGI, bounded (a handful of examples per operation) so it fits in the suite's time.
"""

from __future__ import annotations

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, Phase, settings

from accounts.tokens import token_create
from tests.factories import make_collection, make_user

EXAMPLES_PER_OPERATION = 5


# Loading the document touches no database, so it can happen at collection time.
schema = schemathesis.openapi.from_wsgi("/_emdash/api/openapi.json", get_wsgi_application())


@pytest.fixture
def admin_bearer(cms) -> str:
    make_collection("posts")
    return token_create(user=make_user("admin"), name="fuzz", scopes="admin").raw


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
def test_no_request_causes_a_server_error(case, admin_bearer) -> None:
    response = case.call(headers={"Authorization": f"Bearer {admin_bearer}"})
    assert response.status_code < 500, f"{case.method} {case.formatted_path}: {response.text[:500]}"
    if response.status_code >= 400:
        assert set(response.json()["error"]) <= {"code", "message", "details"}
