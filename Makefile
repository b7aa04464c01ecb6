# Tablescribe: `make run` serves the app on the LAN, `make test` runs every test.
# `make run` installs only what serving needs; `make test` and `make bench` add the
# test extras. None of them leaves anything git tracks changed.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 0.0.0.0
PORT ?= 5000
version = $(shell sed -n 's/.*"$(1)": "\(.*\)".*/\1/p' package.json)
HTMX := static/vendor/htmx-$(call version,htmx.org).min.js
SSE := static/vendor/htmx-ext-sse-$(call version,htmx-ext-sse).min.js
MORPH := static/vendor/idiomorph-ext-$(call version,idiomorph).min.js

.PHONY: setup run test bench chromium postgresql

setup: $(VENV)/.installed $(HTMX) $(SSE) $(MORPH) instance/.ready

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e .
	touch $@

$(VENV)/.test-installed: $(VENV)/.installed
	$(PY) -m pip install -q -e ".[test]"
	touch $@

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund

$(HTMX): node_modules/.package-lock.json
	mkdir -p static/vendor
	cp node_modules/htmx.org/dist/htmx.min.js $@

$(SSE): node_modules/.package-lock.json
	mkdir -p static/vendor
	cp node_modules/htmx-ext-sse/dist/sse.min.js $@

$(MORPH): node_modules/.package-lock.json
	mkdir -p static/vendor
	cp node_modules/idiomorph/dist/idiomorph-ext.min.js $@

instance/.ready: $(VENV)/.installed
	$(PY) -m flask --app app init-db
	touch $@

run: setup
	$(PY) -m scripts.announce $(HOST) $(PORT)
	$(VENV)/bin/gunicorn -c gunicorn.conf.py --bind $(HOST):$(PORT) \
		--access-logfile - "app:create_app()"

chromium:
	@command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium)

# The tests start a throwaway PostgreSQL cluster from Debian's binaries (tests/conftest.py).
postgresql:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq postgresql)

test: setup $(VENV)/.test-installed chromium postgresql
	$(PY) -m pytest -n 2 --dist loadfile

bench: setup $(VENV)/.test-installed postgresql
	$(PY) -m bench.run
