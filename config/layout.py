"""The project's own apps, named once. Settings installs them; tests/test_layout.py checks import-linter's
packages, the code-size rule, the packaged modules and operation discovery against them, so a new app cannot
slip past any of those."""

# Django apps in INSTALLED_APPS order (their ready() hooks run in this order: the core and accounts first).
APPS = (
    "emdash",
    "accounts",
    "accounts.oauth",
    "audit",
    "content",
    "media",
    "taxonomy",
    "menus",
    "bylines",
    "settings_app",
    "webhooks",
    "starters",
    "transfer",
    "mcp_endpoint",
    "admin_ui",
    "api",
    "public_site",
    "config",
)
# The top-level packages holding them: what lint-imports, the size rule and setuptools look at.
PACKAGES = tuple(dict.fromkeys(app.split(".")[0] for app in APPS))
