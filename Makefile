# Two commands do everything on a fresh machine: `make run` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: run test install lint

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q -U pip
	$(PY) -m pip install -q -e '.[test]'
	touch $@

install: $(VENV)/.installed

run: install
	$(VENV)/bin/tourbot run

lint: install
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy --strict engine

test: install lint
	$(VENV)/bin/pytest -q
