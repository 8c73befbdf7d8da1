# The commands of the README. Each installs what is missing (uv, then the locked
# dependencies) before it runs.
SHELL := /bin/bash
PYTHON ?= python3
UV := $(PYTHON) -m uv

.PHONY: run test lint bench uv

uv:
	@$(PYTHON) -m uv --version >/dev/null 2>&1 || $(PYTHON) -m pip install --quiet --user uv \
		|| $(PYTHON) -m pip install --quiet --user --break-system-packages uv

run: uv
	@$(UV) sync --frozen --quiet
	@$(UV) run --frozen cardavia serve

test: uv
	@$(UV) sync --frozen --quiet
	@# axe-core for the browser tests' accessibility checks, pinned by tests/browser/package-lock.json
	@npm ci --prefix tests/browser --no-audit --no-fund --silent
	$(UV) run --frozen ruff check src tests bench training
	$(UV) run --frozen ruff format --check src tests bench training
	$(UV) run --frozen mypy
	$(UV) run --frozen lint-imports
	$(UV) run --frozen python -m doctest README.md
	@# The browser tests apart: Playwright's synchronous API keeps an event loop running in its
	@# worker for the whole session, where the other tests start loops of their own.
	$(UV) run --frozen pytest -n 2 --durations=15 --ignore=tests/browser
	$(UV) run --frozen pytest -n 2 --durations=15 tests/browser

# Every benchmark, its figures collected in docs/benchmarks.md with the machine and the date
# (BENCH_OPTIONS="--quick" checks the collection on tiny sizes; "--only deals,solver" some).
bench: uv
	@$(UV) sync --frozen --quiet
	$(UV) run --frozen python bench/collect.py $(BENCH_OPTIONS)
