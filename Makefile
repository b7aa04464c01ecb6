# Tablescribe: `make run` serves the app on the LAN, `make test` runs every test but the long
# variants, which `make test-slow` runs (the tests marked `slow`).
# `make run` installs only what serving needs (requirements.txt); `make test` and `make bench`
# add the test extras (requirements-test.txt). Both files are the whole tree, locked with
# hashes by `make lock` from pyproject.toml. None of them leaves anything git tracks changed.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 0.0.0.0
PORT ?= 5000
version = $(shell sed -n 's/.*"$(1)": "\(.*\)".*/\1/p' package.json)
HTMX := static/vendor/htmx-$(call version,htmx.org).min.js
SSE := static/vendor/htmx-ext-sse-$(call version,htmx-ext-sse).min.js
MORPH := static/vendor/idiomorph-ext-$(call version,idiomorph).min.js
NOSLEEP := static/vendor/nosleep-$(call version,nosleep.js).min.js

.PHONY: setup run test test-slow bench bench-alone lock chromium postgresql gettext messages

# Each language's catalog (translations/<lang>/LC_MESSAGES/messages.po, committed) compiled
# to its .mo beside it (git ignores it), again whenever the .po changes.
CATALOGS := $(wildcard translations/*/LC_MESSAGES/messages.po)
COMPILED := $(CATALOGS:.po=.mo)
PYBABEL := $(VENV)/bin/pybabel
EXTRACT = $(PYBABEL) extract -F babel.cfg -k msg -k msgn:1,2 -k msgp:1c,2 --add-location=file \
	--sort-by-file --no-wrap --project=Tablescribe --copyright-holder=Tablescribe

setup: $(VENV)/.installed $(HTMX) $(SSE) $(MORPH) $(NOSLEEP) $(COMPILED) instance/.ready

# Every package from the lock, each file checked against its hash; then the app itself,
# editable, adding nothing (--no-deps); `pip check`: every requirement is met by what is installed.
$(VENV)/.installed: requirements.txt pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "Tablescribe needs Python 3.11 or newer: this is " + sys.version.split()[0] + " (choose one with PYTHON=python3.12 make ...)")'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --require-hashes -r requirements.txt
	$(PY) -m pip install -q --no-deps -e .
	$(PY) -m pip check
	touch $@

$(VENV)/.test-installed: $(VENV)/.installed requirements-test.txt
	$(PY) -m pip install -q --require-hashes -r requirements-test.txt
	$(PY) -m pip check
	touch $@

# The locks again from pyproject.toml (after changing a pin there): versions already locked
# stay unless pyproject.toml asks otherwise; `make lock LOCK_ARGS=--upgrade` takes the newest
# of everything that pyproject.toml does not pin. The test lock keeps the runtime lock's versions.
LOCK_ARGS ?=
COMPILE = $(VENV)/bin/uv pip compile --quiet --no-config --universal --python-version 3.11 \
	--generate-hashes --custom-compile-command "make lock" $(LOCK_ARGS) pyproject.toml

lock: $(VENV)/.test-installed
	$(COMPILE) -o requirements.txt
	$(COMPILE) --extra test --constraint requirements.txt -o requirements-test.txt

translations/%/LC_MESSAGES/messages.mo: translations/%/LC_MESSAGES/messages.po $(VENV)/.installed
	$(PYBABEL) -q compile -l $* -i $< -o $@

# After changing a text in a template or a game: every catalog gets the new messages (to
# translate) and loses the ones no code says any more (docs/translating.md).
messages: $(VENV)/.installed
	$(EXTRACT) -o translations/messages.pot .
	$(PYBABEL) -q update -i translations/messages.pot -d translations --no-wrap --ignore-obsolete --no-fuzzy-matching

node_modules/.package-lock.json: package.json package-lock.json
	@command -v npm >/dev/null || { echo "npm is missing: install Node.js with npm (Debian: apt-get install npm)"; exit 1; }
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

$(NOSLEEP): node_modules/.package-lock.json
	mkdir -p static/vendor
	cp node_modules/nosleep.js/dist/NoSleep.min.js $@

instance/.ready: $(VENV)/.installed
	$(PY) -m flask --app app init-db
	touch $@

# gunicorn.conf.py prints the address, its QR code and the organiser's link once it serves
run: export TABLESCRIBE_ANNOUNCE := 1
run: setup
	$(VENV)/bin/gunicorn -c gunicorn.conf.py --bind $(HOST):$(PORT) \
		--access-logfile - "app:create_app()"

# Debian's packages, installed once when missing: as root, or through sudo for a user.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

chromium:
	@command -v chromium >/dev/null || ($(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium)

# The tests start a throwaway PostgreSQL cluster from Debian's binaries (tests/conftest.py).
postgresql:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || ($(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq postgresql)

# GNU gettext's msgfmt: the tests check every catalog with `msgfmt -c` (tests/test_translations.py).
gettext:
	@command -v msgfmt >/dev/null || ($(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq gettext)

test: setup $(VENV)/.test-installed chromium postgresql gettext
	$(PY) -m pytest -n 2 --dist loadfile

# The long variants `make test` leaves out (pyproject.toml's addopts: -m 'not slow'): 100
# kill -9s, 20,000 fuzzed API requests, 600 rule sequences per game, a whole game on phones…
test-slow: setup $(VENV)/.test-installed chromium postgresql gettext
	$(PY) -m pytest -n 2 --dist loadfile -m slow

# `make bench BASE=<commit or tag>`: that commit's code and today's, measured by turns in one run
# on this machine, each figure as new ÷ base with both values and the load (bench/compare.py;
# default BASE: the previous release, 6421a71; default PARTS: issue 38's items 2–5 — a tap's
# append and answer, history pages cold, sustained appends, other tables during imports).
# The base gets a worktree and venv of its own under instance/bench-base/, kept for the next
# run. BENCH_ARGS: more of bench.compare's options (`--quick --sizes 10,30`: a smoke run).
# `make bench-alone` runs every part of today's code once, without a base.
BASE ?= 6421a71
PARTS ?= taps,history,max,imports
ROUNDS ?= 2
BENCH_ARGS ?=
bench: setup $(VENV)/.test-installed postgresql
	$(PY) -m bench.compare $(if $(BASE),--base $(BASE)) --parts $(PARTS) --rounds $(ROUNDS) $(BENCH_ARGS)

bench-alone: setup $(VENV)/.test-installed postgresql
	$(PY) -m bench.run
