# Roundhouse. The two commands a newcomer needs: `make run` and `make test`.
# Every target that needs the virtualenv depends on `install`, which creates it on first use.

PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: install run test test-fast bench

install: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

# The whole platform in one process on the embedded log (no broker needed).
run: install
	$(VENV)/bin/roundhouse serve

# The full suite: unit, conformance (fixture replays), integration (real Kafka), e2e.
test: install
	$(PY) -m pytest

# Unit and conformance only, no broker.
test-fast: install
	$(PY) -m pytest tests/unit tests/conformance -m 'not slow'

bench: install
	$(PY) -m engine.bench
