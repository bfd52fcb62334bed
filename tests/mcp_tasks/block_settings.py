"""Settings for a worker subprocess that knows the test-only ``test_block`` tool and uses a short lease."""

from config.settings import *  # noqa: F403
from config.settings import EMDASH, INSTALLED_APPS

INSTALLED_APPS = [*INSTALLED_APPS, "tests.mcp_tasks.block_tool.BlockToolConfig"]
EMDASH = {**EMDASH, "TASKS_LEASE": 3}
