"""Browser tests reuse the public site fixtures."""

from tests.site.conftest import media_root, site  # noqa: F401  (fixtures)
