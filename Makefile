# Two commands do everything on a fresh machine: `make run` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: run test install install-test lint system-deps services

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q -U pip
	$(PY) -m pip install -q -e .
	touch $@

# The test and lint tools (pytest, ruff, mypy, selenium…) only for `make test`/`make lint`.
$(VENV)/.installed-test: $(VENV)/.installed
	$(PY) -m pip install -q -e '.[test]'
	touch $@

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

# Debian packages, skipped when present: headless Chromium and its driver for the
# playground's browser test, and nats-server (JetStream) for the scale-out tests.
# (The CJK font for charts comes with the Python package.)
system-deps:
	@{ command -v chromium && command -v chromedriver; } >/dev/null || \
	  { apt-get update -qq && apt-get install -y -qq chromium chromium-driver >/dev/null; }
	@{ command -v nats-server || test -x /usr/sbin/nats-server; } >/dev/null || \
	  { apt-get update -qq && apt-get install -y -qq nats-server >/dev/null; }

# The services the whole suite talks to, started where this machine has them and they
# have stopped (CI's machine is of this kind): PostgreSQL, and NATS with JetStream for the
# scale-out tests. Where it cannot start them, their tests are skipped, saying why.
services: system-deps
	@if command -v pg_isready >/dev/null && ! pg_isready -q -h 127.0.0.1 -p 5432; then \
	  pg_ctlcluster --skip-systemctl-redirect "$$(ls /etc/postgresql | head -1)" main start \
	    || true; fi
	@if command -v start-stop-daemon >/dev/null && test -x /usr/sbin/nats-server; then \
	  start-stop-daemon --start --quiet --oknodo --background --exec /usr/sbin/nats-server -- \
	    -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log \
	    || true; fi

# Without a token (environment or .env) the bot runs in the playground instead.
run: install
	@if [ -n "$$BOT_TOKEN" ] || grep -qs '^BOT_TOKEN=..*' .env; then $(VENV)/bin/tourbot run; \
	else echo "make run: no BOT_TOKEN set, so starting tourbot playground (Telegram in your browser)"; \
	  $(VENV)/bin/tourbot playground; fi

lint: install-test
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy --strict engine bot db charts playground paper

# pytest-xdist: two workers per core, a test handed to whichever is free. The e2e tests
# mostly wait on the bot (timers, retries, long polls: about four fifths of their time
# idle) while the simulation computes, so one worker per core left a core idle for most
# of the run (115% CPU on 2 cores; two per core: 170%, the run 1.4x shorter). Under xdist
# every worker has a PostgreSQL database of its own (tests/e2e/conftest.py). Without
# TEST_DATABASE_URL, the local PostgreSQL's database `test` is used when it answers.
LOCAL_PG := postgresql+asyncpg://postgres@127.0.0.1:5432/test
TEST_WORKERS ?= $(shell echo $$(( 2 * $$(nproc) )))
test: install-test services lint
	@if [ -z "$$TEST_DATABASE_URL" ] && command -v psql >/dev/null \
	  && psql -qAtX -h 127.0.0.1 -U postgres -d test -c 'select 1' >/dev/null 2>&1; then \
	  export TEST_DATABASE_URL=$(LOCAL_PG); fi; \
	$(VENV)/bin/pytest -q -n $(TEST_WORKERS) --dist worksteal
