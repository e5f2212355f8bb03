# Two commands do everything on a fresh machine: `make run` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: run test install install-test lint

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

# Without a token (environment or .env) the bot runs in the playground instead.
run: install
	@if [ -n "$$BOT_TOKEN" ] || grep -qs '^BOT_TOKEN=..*' .env; then $(VENV)/bin/tourbot run; \
	else echo "make run: no BOT_TOKEN set, so starting tourbot playground (Telegram in your browser)"; \
	  $(VENV)/bin/tourbot playground; fi

lint: install-test
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy --strict engine bot db charts playground paper

# pytest-xdist: one worker per core, a test handed to whichever is free (the e2e tests
# mostly wait on the bot, the simulation mostly computes); under xdist every worker has
# a PostgreSQL database of its own (tests/e2e/conftest.py).
test: install-test system-deps lint
	$(VENV)/bin/pytest -q -n auto --dist worksteal
