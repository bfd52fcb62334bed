"""The admin's fixtures, for the doors tests that post admin forms."""

from tests.admin.conftest import as_role, kitchen_sink  # noqa: F401  (fixtures)
