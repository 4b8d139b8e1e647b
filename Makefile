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
HOST ?= 127.0.0.1
PORT ?= 8000
# Served beyond this machine (HOST=0.0.0.0): the development server answers any host name.
RUN_HOSTS = $(if $(filter 127.0.0.1 localhost ::1,$(HOST)),,DJANGO_ALLOWED_HOSTS=$${DJANGO_ALLOWED_HOSTS:-*})

.PHONY: help setup run serve demo static test test-sqlite screenshots lint bench bench-full bench-load bench-faults check-deploy compose-check clean

help:
	@echo "make run    - set up, migrate, load demo data and serve http://127.0.0.1:8000 (PORT=, HOST=)"
	@echo "make test   - run the whole test suite (PostgreSQL, Redis, Chromium when this machine has them;"
	@echo "              the summary at the end names any group that did not run)"
	@echo "make screenshots - regenerate docs/screenshots/ from the demo"
	@echo "make bench  - print the engine, seating and analytics benchmarks (bench-full: 100,000 games)"
	@echo "make bench-load   - a 50-table night under locust against gunicorn + PostgreSQL + a worker"
	@echo "make bench-faults - kill the worker, restart PostgreSQL, stop a Redis of its own, timed"
	@echo "              (BENCH_ARGS=--skip-postgres: without the PostgreSQL restart)"
	@echo "make lint   - ruff and the import layers (lint-imports)"

$(BIN)/.installed: pyproject.toml
	@test -n "$(PYTHON)" || { echo "Python 3.12 or newer is needed (Django 6.1)."; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	@touch $@

setup: $(BIN)/.installed

demo: setup
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py demo

static: setup
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0

run: demo static
	@echo ""
	@echo "  Hand and Foot League is running at http://$(HOST):$(PORT)/"
	@echo "  Demo director login: director / handfoot-demo   (admin: http://$(HOST):$(PORT)/admin/)"
	@echo ""
	$(RUN_HOSTS) $(BIN)/python manage.py runserver $(HOST):$(PORT)

# PostgreSQL and Redis when they answer (or can be started here: .ci/services.sh), else embedded.
test: setup
	@eval "$$(DATABASE_URL=$${DATABASE_URL-$(TEST_DATABASE_URL)} CELERY_BROKER_URL=$${CELERY_BROKER_URL-$(TEST_BROKER_URL)} \
		.ci/services.sh)" && $(BIN)/pytest -n 2 --dist loadfile $(PYTEST_ARGS)

test-sqlite: setup
	DATABASE_URL= CELERY_BROKER_URL= $(BIN)/pytest -n 2 --dist loadfile $(PYTEST_ARGS)

screenshots: setup
	$(BIN)/python scripts/screenshots.py

lint: setup
	$(BIN)/ruff check .
	$(BIN)/lint-imports

bench: setup
	$(BIN)/python bench/engine_bench.py
	$(BIN)/python bench/seating_bench.py
	$(BIN)/python bench/fuzz_bench.py
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} CELERY_BROKER_URL=$${CELERY_BROKER_URL:-$(TEST_BROKER_URL)} \
		$(BIN)/python bench/analytics_bench.py

bench-full: setup
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} CELERY_BROKER_URL=$${CELERY_BROKER_URL:-$(TEST_BROKER_URL)} \
		$(BIN)/python bench/analytics_bench.py --full

# Both use their own database (hf_load_bench on DATABASE_URL's server); see docs/benchmarks.md.
bench-load: setup
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} CELERY_BROKER_URL=$${CELERY_BROKER_URL:-$(TEST_BROKER_URL)} \
		$(BIN)/python bench/load_bench.py $(BENCH_ARGS)

# Restarts the machine's PostgreSQL (BENCH_ARGS=--skip-postgres leaves that out); Redis is a
# redis-server of its own on port 6390.
bench-faults: setup
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(BIN)/python bench/faults.py $(BENCH_ARGS)

check-deploy: setup
	DJANGO_ENV=production DJANGO_SECRET_KEY=$$(python3 -c 'import secrets; print(secrets.token_urlsafe(60))') \
		DJANGO_ALLOWED_HOSTS=league.example.org $(BIN)/python manage.py check --deploy --fail-level WARNING

compose-check:
	DJANGO_SECRET_KEY=$${DJANGO_SECRET_KEY:-placeholder-for-config-check} docker-compose config -q

clean:
	rm -rf $(VENV) data .pytest_cache .ruff_cache
