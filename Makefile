# EmDash for Django. `make run` serves the demo site; `make test` runs the suite.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run test test-postgres lint migrate seed worker clean editor editor-check

$(STAMP): pyproject.toml
	@echo "==> creating $(VENV) with $(PYTHON)"
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@echo "==> installing dependencies: the first run takes 3-4 minutes on a 2-core machine (README)"
	@$(PY) -m pip install -qq --upgrade pip
	@$(PY) -m pip install -qq -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

migrate: install
	@$(PY) manage.py migrate --no-input -v 0

seed: migrate
	@$(PY) manage.py emdash_seed_demo

run: seed
	@echo "==> starting the worker and the server on http://$(HOST):$(PORT)/"
	@export DEBUG=$${DEBUG:-1}; $(PY) manage.py emdash_worker & worker=$$!; \
	  trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	  $(PY) manage.py runserver $(HOST):$(PORT)

worker: migrate
	@$(PY) manage.py emdash_worker

# The suite runs in parallel (pytest-xdist): WORKERS processes, one per CPU by default, each with its own test
# database and var directory (tests/xdist_var.py). Tests are dealt out one by one in collection order (--dist
# load), so each worker keeps pytest-django's order: every plain `db` test before the first transactional test,
# whose flush empties the rows that data migrations made (grouping by file, loadfile, broke that). `make test
# WORKERS=0` runs it serially in one process; PYTEST_ARGS="tests/media -x" narrows it down.
# "logical": one per logical CPU ("auto" would count physical cores if psutil were installed).
WORKERS ?= logical
PYTEST_XDIST := -n $(WORKERS) --dist load

test: install
	@$(PY) -m pytest $(PYTEST_XDIST) $(PYTEST_ARGS)

# Run the suite on PostgreSQL (the local server CI uses).
test-postgres: install
	@DATABASE_URL=$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test} $(PY) -m pytest $(PYTEST_XDIST) $(PYTEST_ARGS)

lint: install
	@$(VENV)/bin/ruff check .
	@$(VENV)/bin/ruff format --check .
	@$(VENV)/bin/mypy .
	@$(VENV)/bin/lint-imports --no-cache

clean:
	rm -rf $(VENV) var/*.sqlite3* .pytest_cache

# The admin's rich-text editor: Tiptap bundled by esbuild from admin_ui/editor/ (versions pinned by its
# package-lock.json) into admin_ui/static/admin_ui/editor.js, which is committed so installs need no Node.
# `make editor` rebuilds it after a change in admin_ui/editor/src/; `make editor-check` proves the committed
# bundle is what the lock file and sources build, and runs the conversion's own tests.
admin_ui/editor/node_modules/.package-lock.json: admin_ui/editor/package.json admin_ui/editor/package-lock.json
	@echo "==> installing the editor's build dependencies (npm ci)"
	@cd admin_ui/editor && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

editor: admin_ui/editor/node_modules/.package-lock.json
	@cd admin_ui/editor && node build.mjs

editor-check: admin_ui/editor/node_modules/.package-lock.json
	@cd admin_ui/editor && node --test test/ && OUTFILE=/tmp/emdash-editor-check.js node build.mjs
	@cmp admin_ui/static/admin_ui/editor.js /tmp/emdash-editor-check.js && echo "editor.js is up to date"

# The official MCP conformance suite (@modelcontextprotocol/conformance, released and the alpha with
# --requirements 2026-07-28) and the TypeScript SDK client under every protocol version, run by the Node 22 that
# conformance/package-lock.json pins against a server started on a free port with a throw-away database.
# CONFORMANCE_ARGS="--suite released --keep" narrows it down; see conformance/run.py.
conformance/node_modules/.package-lock.json: conformance/package.json conformance/package-lock.json
	@echo "==> installing the conformance suite and Node 22 (npm ci)"
	@cd conformance && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

conformance: install conformance/node_modules/.package-lock.json
	@$(PY) conformance/run.py $(CONFORMANCE_ARGS)

# Benchmark (on demand, not part of `make test`): every goal module registered in bench/run.py (GOALS), one table
# per goal (ours, the floor or peer, the ratio, the target, met?). Uses wrk (installed with apt-get when running as
# root), else an httpx load generator. BENCH_ARGS="--goals reads --rounds 1 --duration 3" narrows it down;
# results and method: docs/benchmarks.md.
BENCH_STAMP := $(VENV)/.bench-installed

$(BENCH_STAMP): pyproject.toml $(STAMP)
	@echo "==> installing the benchmark dependencies (.[bench])"
	@$(PY) -m pip install -qq -e '.[dev,bench]'
	@touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	@if ! command -v wrk >/dev/null && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "==> installing wrk (apt-get)"; \
		apt-get install -y -qq wrk >/dev/null 2>&1 || echo "==> could not install wrk; using the httpx load generator"; \
	fi
	@$(PY) bench/run.py $(BENCH_ARGS)

.PHONY: conformance bench
