# Two commands for a fresh machine (see README): `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint messages messages-update system-deps system-deps-run bench bench-perimeters clean

# A venv without pip (Debian's python3 lacking python3-venv) is removed rather than reused.
$(BIN)/pip:
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); \
	  echo "python3 -m venv failed: install python3-venv (scripts/system-deps.sh does, as root)"; \
	  exit 1; }

$(VENV)/.installed: pyproject.toml | $(BIN)/pip
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test,server]"
	touch $@

# Debian packages: gettext to compile translations; for the tests also Chromium, poppler, CJK fonts,
# PostgreSQL.
system-deps-run:
	bash scripts/system-deps.sh run

system-deps:
	bash scripts/system-deps.sh test

messages: $(VENV)/.installed
	DJANGO_DEBUG=1 $(BIN)/python manage.py compilemessages --verbosity 0 --ignore=.venv

# After changing user-facing text: refresh the catalogue, then translate the new entries.
messages-update: $(VENV)/.installed
	DJANGO_DEBUG=1 $(BIN)/python manage.py makemessages -l ja --no-location --ignore=.venv --ignore=tests --ignore=bench

run: system-deps-run $(VENV)/.installed messages
	DJANGO_DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DJANGO_DEBUG=1 $(BIN)/python manage.py demo --url http://$(HOST):$(PORT)/
	DJANGO_DEBUG=1 $(BIN)/python manage.py runserver $(HOST):$(PORT)

# The whole suite twice: on SQLite (ignoring any DATABASE_URL), then on a throw-away PostgreSQL
# server that scripts/test-postgres.sh starts on a free loopback port and removes afterwards.
# The browser tests (the flows played in Chromium, the 390 px and axe-core walks) run once, on
# SQLite, which keeps CI well under its half hour: they drive the same views and services the rest
# of the suite tests on both databases, and SQLite's test database is a file whose connections
# wait on each other's locks, as PostgreSQL's do.
# Each run spreads the tests over one worker per core (pytest-xdist); every worker has its own
# test database and its own Chromium.
BROWSER := --ignore=tests/browser
WORKERS ?= auto
test: system-deps $(VENV)/.installed messages
	$(BIN)/ruff check .
	env -u DATABASE_URL $(BIN)/python -m pytest -n $(WORKERS)
	PYTHON=$(BIN)/python bash scripts/test-postgres.sh -n $(WORKERS) $(BROWSER)

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# Every main page against a bare Django view at the demo and "big" sizes (docs/performance.md);
# SIZES=demo,big,huge for the ten-times campaign too. A given DATABASE_URL is never written to.
# It runs with production's settings (DEBUG off); DJANGO_DEBUG=1 measures the development server.
SIZES ?= demo,big
bench: $(VENV)/.installed messages
	$(BIN)/python bench/pages.py --sizes $(SIZES)

# The perimeter searches and the sheets of many campaigns (bench/run.py).
bench-perimeters: $(VENV)/.installed
	DJANGO_DEBUG=1 $(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) staticfiles db.sqlite3
