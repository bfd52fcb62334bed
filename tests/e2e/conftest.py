"""Browser-test fixtures: the daphne server for journeys that need websockets, and the public site's fixtures."""

from tests.e2e.admin_helpers import daphne_server  # noqa: F401
from tests.site.conftest import media_root, site  # noqa: F401  (fixtures)
