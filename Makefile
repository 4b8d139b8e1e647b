# Hand and Foot League — the two commands that matter: `make run` and `make test`.
SHELL := /bin/bash
VENV := .venv
BIN := $(VENV)/bin
# Django 6.1 needs Python 3.12+: take the newest one this machine has.
PYTHON ?= $(shell for p in python3.13 python3.12 $(HOME)/.pyenv/versions/3.13*/bin/python3 $(HOME)/.pyenv/versions/3.12*/bin/python3 python3; do \
	if command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then command -v $$p; break; fi; done)
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/handfoot
TEST_BROKER_URL ?= redis://127.0.0.1:6379/0
PYTEST_ARGS ?=
# One test process per core (a third one, measured on this 2-core machine, made the suite slower).
TEST_WORKERS ?= 2
HOST ?= 127.0.0.1
PORT ?= 8000
# Served beyond this machine (HOST=0.0.0.0): the development server answers any host name.
RUN_HOSTS = $(if $(filter 127.0.0.1 localhost ::1,$(HOST)),,DJANGO_ALLOWED_HOSTS=$${DJANGO_ALLOWED_HOSTS:-*})

.PHONY: help setup setup-dev run serve demo static test test-sqlite screenshots lint bench bench-check bench-simulator bench-bots bench-ratings bench-full bench-load bench-faults bench-import-night check-deploy compose-check duplicates clean

help:
	@echo "make run          - set up, migrate, load the demo club and serve http://127.0.0.1:8000"
	@echo "                    (PORT=8080 HOST=0.0.0.0 to choose; HANDFOOT_TODAY=YYYY-MM-DD moves the demo's clock)"
	@echo "make test         - the whole test suite (PostgreSQL, Redis, Chromium when this machine has"
	@echo "                    them; the summary at the end names any group that did not run)"
	@echo "make test-sqlite  - the suite embedded on purpose (SQLite, tasks in-process)"
	@echo "make setup        - only the virtual environment with the service's packages (.venv)"
	@echo "make setup-dev    - the same with the test and lint tools"
	@echo "make demo         - migrate and load the demo club, without serving"
	@echo "make static       - collect the static files (hashed names, compressed), as production does"
	@echo "make screenshots  - regenerate docs/screenshots/ from the demo"
	@echo "make lint         - ruff, the import layers (lint-imports) and the types (mypy)"
	@echo "make bench-check  - the laboratory's own checks (bench/tests: the compiled engine copy plays the same games)"
	@echo "make bench        - bench-check, then the engine, simulator (50 seeds a case), seating, hostile-input, analytics,"
	@echo "                    move-log import (5,000 logs), what-if (20,000 games) and import-during-a-night benchmarks"
	@echo "make bench-simulator - every preset, table and strategy over 10,000 seeds (about 4-6 hours;"
	@echo "                       FIRST_SEED=S SEEDS=N plays a part of them; COMPILED=1 on a copy of the"
	@echo "                       engine compiled by mypyc, checked to play the same games: about half)"
	@echo "make bench-bots   - the computer players: decision time per level (one core) and a ladder of duplicate"
	@echo "                    matches between the levels on six tables (BENCH_ARGS=\"--deals 4 --rounds 4\"; default"
	@echo "                    2 deal pairs of 1 round: some 30 minutes with expert, docs/bots.md)"
	@echo "make bench-full   - analytics on 2,000 players and 100,000 games; the fanned-out"
	@echo "                    recompute of 20 clubs x 10,000 games with 1 and 2 worker processes"
	@echo "make bench-ratings - the ratings backtest job of a 100,000-game club on a real worker (target < 5 min;"
	@echo "                    some 5 minutes, docs/ratings.md)"
	@echo "make bench-load   - a club night under locust against nginx + gunicorn + PostgreSQL + a worker"
	@echo "                    (BENCH_ARGS=\"--tables 100\" for 100 tables; 50 by default)"
	@echo "make bench-faults - kill the worker, restart PostgreSQL, stop a Redis of its own, timed"
	@echo "                    (BENCH_ARGS=--skip-postgres: without the PostgreSQL restart)"
	@echo "make bench-import-night - a 2,000-game import while a 20-table night confirms its games: how soon"
	@echo "                    each reaches the standings, with the bulk queue and with one queue; then the same"
	@echo "                    games in two files imported at once (some 5 minutes)"
	@echo "make check-deploy - production settings pass Django's check --deploy"
	@echo "make compose-check - docker-compose.yml is valid (the Compose schema and its references; no docker needed)"
	@echo "make duplicates   - where the app code repeats itself: the pairs of places sharing 6+ lines of the same"
	@echo "                    shape (the 'duplicates' command; tests, bench, research, scripts, docs, migrations left out)"
	@echo "make clean        - remove .venv, data/ and the caches"

# uv (from PyPI, put into the venv) installs in seconds what pip takes a minute for; pip does it
# when uv cannot be had. `make run` needs only the service's packages, `make test` the tools too.
# Bytecode is compiled at install (as pip does; uv does not by default): every start is faster.
define install
	@$(BIN)/python -m pip install --quiet --disable-pip-version-check uv 2>/dev/null \
		&& $(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python -e "$(1)" \
		|| $(BIN)/python -m pip install --quiet --disable-pip-version-check -e "$(1)"
endef

$(BIN)/python:
	@test -n "$(PYTHON)" || { echo "Python 3.12 or newer is needed (Django 6.1)."; exit 1; }
	@echo "Creating the virtual environment in $(VENV) with $(PYTHON)"
	@$(PYTHON) -m venv $(VENV)

$(BIN)/.installed: pyproject.toml | $(BIN)/python
	@echo "Installing the service's packages into $(VENV)"
	$(call install,.)
	@touch $@

$(BIN)/.installed-dev: $(BIN)/.installed
	@echo "Installing the test and lint tools into $(VENV)"
	$(call install,.[dev])
	@touch $@

setup: $(BIN)/.installed

setup-dev: $(BIN)/.installed-dev

demo: setup
	$(BIN)/python manage.py migrate --noinput --verbosity 0
	$(BIN)/python manage.py demo

# Production's static files (hashed names, gzip and brotli copies); the development server of
# `make run` serves the files from static/ as they are and does not need this.
static: setup
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0

run: setup
	@$(RUN_HOSTS) DJANGO_RUNSERVER_HIDE_WARNING=true $(BIN)/python manage.py serve --demo $(HOST):$(PORT)

# PostgreSQL and Redis when they answer (or can be started here: .ci/services.sh), else embedded.
# A DATABASE_URL or CELERY_BROKER_URL you set is used as it is and never started; a Redis that
# this started for the tests is stopped again afterwards.
test: setup-dev
	@eval "$$(.ci/services.sh)" && status=0 && { $(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS) || status=$$?; } \
		&& .ci/services.sh --stop && exit $$status

test-sqlite: setup-dev
	DATABASE_URL= CELERY_BROKER_URL= $(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

screenshots: setup-dev
	$(BIN)/python scripts/screenshots.py

lint: setup-dev
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/mypy

# The laboratory's own checks (bench/tests/: the mypyc-compiled copy of the engine plays the same
# games as the source), with the benchmarks rather than in `make test`: they need a C compiler
# and minutes of CPU, and check a benchmark's tool, not the service.
bench-check: setup-dev
	$(BIN)/pytest bench/tests -q -p no:cacheprovider --no-header -o addopts=""

bench: setup-dev bench-check
	$(BIN)/python bench/engine_bench.py
	$(BIN)/python bench/simulator_bench.py --seeds 50
	$(BIN)/python bench/seating_bench.py
	$(BIN)/python bench/fuzz_bench.py
	$(BIN)/python bench/submission_bench.py
	$(BIN)/python bench/pace_forecast_bench.py
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} CELERY_BROKER_URL=$${CELERY_BROKER_URL:-$(TEST_BROKER_URL)} \
		$(BIN)/python bench/hostile_bench.py
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} CELERY_BROKER_URL=$${CELERY_BROKER_URL:-$(TEST_BROKER_URL)} \
		$(BIN)/python bench/analytics_bench.py
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} CELERY_BROKER_URL=$${CELERY_BROKER_URL:-$(TEST_BROKER_URL)} \
		$(BIN)/python bench/import_logs_bench.py --logs 5000
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} CELERY_BROKER_URL=$${CELERY_BROKER_URL:-$(TEST_BROKER_URL)} \
		$(BIN)/python bench/whatif_bench.py --games 20000
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} CELERY_BROKER_URL=$${CELERY_BROKER_URL:-$(TEST_BROKER_URL)} \
		$(BIN)/python bench/import_night_bench.py

# Every preset, table size and strategy over 10,000 seeds each: about 4-6 hours on 2 cores (2.5-3 with COMPILED=1).
# A part of the seeds at a time: make bench-simulator FIRST_SEED=1000 SEEDS=250
# COMPILED=1: on a copy of the engine compiled by mypyc and checked to play the same games
# (bench/compile_engine.py), about twice as fast.
FIRST_SEED ?= 0
SEEDS ?= 10000
COMPILED ?=
COMPILED_ENGINE := data/bench/compiled-engine
bench-simulator: setup-dev
ifneq ($(COMPILED),)
	nice -n 10 $(BIN)/python bench/compile_engine.py --out $(COMPILED_ENGINE)
	BENCH_ENGINE=$(CURDIR)/$(COMPILED_ENGINE) nice -n 10 $(BIN)/python bench/simulator_bench.py --first-seed $(FIRST_SEED) --seeds $(SEEDS)
else
	nice -n 10 $(BIN)/python bench/simulator_bench.py --first-seed $(FIRST_SEED) --seeds $(SEEDS)
endif

# The computer players (issue 44, docs/bots.md): decision times, then the ladder; niced, as it
# keeps one core busy for a long while.
bench-bots: setup-dev
	nice -n 10 $(BIN)/python bench/bots_bench.py $(BENCH_ARGS)

bench-full: setup-dev
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} CELERY_BROKER_URL=$${CELERY_BROKER_URL:-$(TEST_BROKER_URL)} \
		$(BIN)/python bench/analytics_bench.py --full
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} CELERY_BROKER_URL=$${CELERY_BROKER_URL:-$(TEST_BROKER_URL)} \
		$(BIN)/python bench/fanout_bench.py --clubs 20 --games 10000

# The ratings backtest job at 100,000 games on a real worker (its own database, hf_backtest_bench).
bench-ratings: setup-dev
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} CELERY_BROKER_URL=$${CELERY_BROKER_URL:-$(TEST_BROKER_URL)} \
		$(BIN)/python bench/ratings_backtest_bench.py $(BENCH_ARGS)

# Both use their own database (hf_load_bench on DATABASE_URL's server); see docs/benchmarks.md.
bench-load: setup-dev
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} CELERY_BROKER_URL=$${CELERY_BROKER_URL:-$(TEST_BROKER_URL)} \
		$(BIN)/python bench/load_bench.py $(BENCH_ARGS)

# Restarts the machine's PostgreSQL (BENCH_ARGS=--skip-postgres leaves that out); Redis is a
# redis-server of its own on port 6390.
bench-faults: setup-dev
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(BIN)/python bench/faults.py $(BENCH_ARGS)

# Its own database (hf_import_night) and Redis db (13); each mode on a fresh database, one after
# the other: one import of the 2,000 games, then two files of 1,000 imported at once.
bench-import-night: setup-dev
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} CELERY_BROKER_URL=$${CELERY_BROKER_URL:-$(TEST_BROKER_URL)} \
		$(BIN)/python bench/import_night_bench.py --compare $(BENCH_ARGS)
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} CELERY_BROKER_URL=$${CELERY_BROKER_URL:-$(TEST_BROKER_URL)} \
		$(BIN)/python bench/import_night_bench.py --compare --imports 2 $(BENCH_ARGS)

check-deploy: setup
	DJANGO_ENV=production DJANGO_SECRET_KEY=$$(python3 -c 'import secrets; print(secrets.token_urlsafe(60))') \
		DJANGO_ALLOWED_HOSTS=league.example.org $(BIN)/python manage.py check --deploy --fail-level WARNING

compose-check: setup-dev
	DJANGO_SECRET_KEY=$${DJANGO_SECRET_KEY:-placeholder-for-config-check} $(BIN)/python scripts/check_compose.py

duplicates:
	@scripts/app_duplicates.sh

clean:
	rm -rf $(VENV) data .pytest_cache .ruff_cache
