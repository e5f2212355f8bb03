# Two commands do everything on a fresh machine: `make run` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: run test install system-deps lint

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q -U pip
	$(PY) -m pip install -q -e '.[test]'
	touch $@

install: $(VENV)/.installed

# A CJK font so that charts draw Chinese names (Debian package; skipped when present).
system-deps:
	@fc-list 2>/dev/null | grep -qi 'wenquanyi\|noto sans cjk' || \
	  { apt-get update -qq && apt-get install -y -qq fonts-wqy-microhei >/dev/null; }

run: install
	$(VENV)/bin/tourbot run

lint: install
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy --strict engine bot db charts

test: install system-deps lint
	$(VENV)/bin/pytest -q
