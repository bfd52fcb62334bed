"""``config.settings`` with persistent database connections on SQLite too (an experiment for the benchmark).

``config.settings`` forces ``CONN_MAX_AGE = 0`` for SQLite, so every request opens and closes its
connection. ``bench/run.py --ours-settings bench.settings_persistent_db`` measures what keeping them costs
or saves; the SDK reference keeps one connection per worker thread anyway.
"""

from config.settings import *  # noqa: F403
from config.settings import DATABASES

DATABASES["default"]["CONN_MAX_AGE"] = None
