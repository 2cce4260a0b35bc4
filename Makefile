# Roundhouse. The two commands a newcomer needs: `make run` and `make test`.
# Every target that needs the virtualenv depends on `install`, which creates it on first use.

PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
KAFKA  := deploy/kafka/run.sh

.PHONY: install run test test-fast bench proto proto-check kafka-up kafka-down compose-check title-data trace-diff \
	evidence evidence-check

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
# Starts the local Kafka broker first (a no-op when one already answers).
test: install kafka-up
	$(PY) -m pytest

# Unit and conformance only, no broker.
test-fast: install
	$(PY) -m pytest tests/unit tests/conformance -m 'not slow'

bench: install
	$(PY) -m engine.bench

# Platform benchmark: concurrent games through the gateway of `roundhouse serve` (embedded log);
# actions/s, SubmitAction latency, games held in memory, server memory, eviction and rebuilds.
# ARGS="--games 50 --kafka 127.0.0.1:9092 ..." (python -m runtime.bench --help).
.PHONY: bench-platform
bench-platform: install
	$(PY) -m runtime.bench $(ARGS)

# Development tools (tools/; they read the repository's evidence/, the product never does):
# rebuild the titles' data files from the reference facts (all five and the tile catalogue they
# share, whatever TITLE says; `$(PY) -m tools.titledata.build --check` only says what would change),
# and find where a replay first differs from the reference trace of a recorded game.
title-data: install
	$(PY) -m tools.titledata.build $(TITLE)

trace-diff: install
	$(PY) -m tools.tracecmp $(FIXTURE) $(ARGS)

# evidence/ (recorded games, traces, reference facts) is a compressed copy of the shared folder
# ($$ROUNDHOUSE_SHARED, or ../shared beside the checkout): `evidence` copies what changed there,
# `evidence-check` lists the differences and fails if there are any (the suite runs the same check).
evidence: install
	$(PY) -m tools.evidence

evidence-check: install
	$(PY) -m tools.evidence --check

# Regenerate libs/contracts/v1 from proto/roundhouse/v1; proto-check fails when they differ.
proto: install
	$(PY) proto/generate.py

proto-check: install
	$(PY) proto/generate.py --check

# A single-node Kafka 4 broker (KRaft) on 127.0.0.1:$${KAFKA_PORT:-9092}, jars from Maven Central.
kafka-up:
	bash $(KAFKA) up

kafka-down:
	bash $(KAFKA) down

# Validate docker-compose.yml (needs a compose CLI only, no Docker engine).
compose-check:
	@if docker compose version >/dev/null 2>&1; then docker compose config --quiet; \
	else docker-compose config -q; fi && echo "docker-compose.yml is valid"
