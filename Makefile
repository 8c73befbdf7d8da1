# The commands of the README. Each installs what is missing (uv, then the locked
# dependencies) before it runs.
SHELL := /bin/bash
PYTHON ?= python3
UV := $(PYTHON) -m uv

# Compiled bytecode: these machines (CI's too) set PYTHONDONTWRITEBYTECODE, so nothing is ever
# compiled once and kept. The install compiles the dependencies (uv), `sync` compiles src/ (only
# what changed since), and the tests keep pytest's compiled test modules: every process then
# starts in half the time or less (bench/start.py).
LINTED := src tests bench training

.PHONY: run test check lint js sync bench uv

uv:
	@$(PYTHON) -m uv --version >/dev/null 2>&1 || $(PYTHON) -m pip install --quiet --user uv \
		|| $(PYTHON) -m pip install --quiet --user --break-system-packages uv

sync: uv
	@$(UV) sync --frozen --quiet --compile-bytecode
	@$(UV) run --frozen python -m compileall -q src >/dev/null

run: sync
	@$(UV) run --frozen cardavia serve

# Ruff, the format, mypy --strict and the import contracts (the docs' examples and links are
# tests: tests/test_docs.py).
lint: sync
	$(UV) run --frozen ruff check $(LINTED)
	$(UV) run --frozen ruff format --check $(LINTED)
	$(UV) run --frozen mypy
	$(UV) run --frozen lint-imports

# What to run while working (under a minute): the lint and every test not marked slow (no
# browser, no second process, no long search: tests/conftest.py). Three workers on two cores:
# a test waiting on a socket or a timer leaves its core to another.
check: lint
	PYTHONDONTWRITEBYTECODE= $(UV) run --frozen pytest -n 3 -m "not slow"

# Every test (what CI runs): the browser tests in a session of their own, run beside the others
# (Playwright's synchronous API keeps an event loop running in its worker for the whole session,
# where the other tests start loops of their own); tests/sessions.py prints each as it ends.
test: lint js
	PYTHONDONTWRITEBYTECODE= $(UV) run --frozen python tests/sessions.py

# The pages' scripts checked by TypeScript (tsc --checkJs: names, arity, properties; the pages
# and the service worker each with their own globals, tests/js), after the npm packages the
# tests take: axe-core for the browser tests' accessibility checks, and TypeScript, both pinned
# by tests/browser/package-lock.json.
TSC := tests/browser/node_modules/.bin/tsc
js:
	@npm ci --prefix tests/browser --no-audit --no-fund --silent
	$(TSC) -p tests/js/tsconfig.json
	$(TSC) -p tests/js/tsconfig.worker.json

# Every benchmark, its figures collected in docs/benchmarks.md with the machine and the date
# (BENCH_OPTIONS="--quick" checks the collection on tiny sizes; "--only deals,solver" some).
bench: sync
	$(UV) run --frozen python bench/collect.py $(BENCH_OPTIONS)
