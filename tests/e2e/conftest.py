"""Browser-test fixtures: the daphne server for journeys that need websockets."""

from tests.e2e.admin_helpers import daphne_server  # noqa: F401
