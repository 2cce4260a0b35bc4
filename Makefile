# Roundhouse. The two commands a newcomer needs: `make run` and `make test`.
# Every target that needs the virtualenv depends on `install`, which creates it on first use.

PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
KAFKA  := deploy/kafka/run.sh

.PHONY: install run test test-fast lint lock bench proto proto-check kafka-up kafka-down compose-check title-data trace-diff \
	web web-install evidence evidence-check

install: $(STAMP)

# Exactly the versions in the lock file (hash-checked), then the project itself without resolving.
$(STAMP): pyproject.toml requirements-dev.lock
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade 'pip>=24'
	$(PY) -m pip install --quiet --require-hashes -r requirements-dev.lock
	$(PY) -m pip install --quiet --no-deps -e .
	@touch $(STAMP)

# Re-resolve the lock files after a change of dependencies in pyproject.toml (the image installs
# requirements.lock, development and CI requirements-dev.lock).
lock: install
	$(VENV)/bin/pip-compile -q --no-emit-find-links --strip-extras --generate-hashes --allow-unsafe -o requirements.lock pyproject.toml
	$(VENV)/bin/pip-compile -q --no-emit-find-links --strip-extras --generate-hashes --allow-unsafe --extra dev -o requirements-dev.lock pyproject.toml

# ruff and mypy with the settings in pyproject.toml (CI runs this before the tests).
lint: install
	$(VENV)/bin/ruff check libs services tests proto
	$(VENV)/bin/mypy

# The web client (web/): its npm toolchain, pinned by web/package-lock.json, then the build into
# web/dist (served by the gateway). Built on every `make run` and `make test`; never hand-edited.
WEB_STAMP := web/node_modules/.installed

web-install: $(WEB_STAMP)

$(WEB_STAMP): web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund --loglevel=error
	@touch $(WEB_STAMP)

web: web-install
	cd web && npm run --silent build

# The whole platform in one process on the embedded log (no broker needed); prints the gateway's
# address and the web client's URL.
run: install web
	$(VENV)/bin/roundhouse serve

# The full suite: unit, conformance (fixture replays), integration (real Kafka), e2e, and the web
# client in headless Chromium (Debian's `chromium`; .ci/run installs it).
# Starts the local Kafka broker first (a no-op when one already answers); KAFKA_PORT moves both the
# broker and the tests (default 9092). The engine suites (unit, conformance: pure CPU work) run on
# every core (pytest-xdist; TEST_WORKERS=0 runs them in the test process itself); the platform suites, which start
# servers, brokers' clients and a browser of their own, one test at a time. Each prints its slowest tests.
TEST_WORKERS ?= auto
test: install web kafka-up
	$(PY) -m pytest -n $(TEST_WORKERS) --durations=25 tests/unit tests/conformance
	$(PY) -m pytest --durations=25 tests/browser tests/e2e tests/integration

# Unit and conformance only, no broker.
test-fast: install web-install
	$(PY) -m pytest -n $(TEST_WORKERS) tests/unit tests/conformance -m 'not slow'

# Engine: import speed (CPU, actions/s per game and per title) of every recorded game, best-route
# times by phase, legal actions at every position; ARGS="--undo": undo and redo late in the largest
# games (python -m engine.bench --help).
bench: install
	$(PY) -m engine.bench $(ARGS)

# Import speed against the reference engine (a checkout of tobymao/18xx at REFERENCE, run with
# Ruby), every recorded game side by side (python -m tools.refspeed --help).
.PHONY: bench-reference
bench-reference: install
	$(PY) -m tools.refspeed --reference "$(REFERENCE)" $(ARGS)

# Tournament library: CPU time of seating each round of 1,000 players (250 tables), and standings.
# ARGS="--players 60 --table-size 4 --rounds 3" (python -m tournament.bench --help).
.PHONY: bench-tournament
bench-tournament: install
	$(PY) -m tournament.bench $(ARGS)

# Platform benchmark: the platform as child processes (embedded `roundhouse serve`, or every service
# its own process on Kafka) driven with the recorded games of every title: open loop (live games,
# think times, GetGame before every move), closed loop, CreateGame bursts, games held and a restart.
# ARGS="open --games 1000 --rate 200 [--kafka 127.0.0.1:9092 --instances 2]" (python -m runtime.bench --help).
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

# Regenerate libs/contracts/v1 and web/src/gen from proto/roundhouse/v1; proto-check fails when
# they differ.
proto: install web-install
	$(PY) proto/generate.py

proto-check: install web-install
	$(PY) proto/generate.py --check

# A single-node Kafka 4 broker (KRaft) on 127.0.0.1:$${KAFKA_PORT:-9092}, jars from Maven Central.
kafka-up:
	bash $(KAFKA) up

kafka-down:
	bash $(KAFKA) down

# Validate docker-compose.yml (needs a compose CLI only, no Docker engine).
compose-check:
	@if docker compose version >/dev/null 2>&1; then docker compose config --quiet; \
	elif command -v docker-compose >/dev/null 2>&1; then docker-compose config -q; \
	else echo "compose-check needs Docker Compose: install the Compose plugin (Debian: docker-compose-plugin, or docker-compose)" >&2; exit 2; \
	fi && echo "docker-compose.yml is valid"
