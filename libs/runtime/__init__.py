"""Service bootstrap and the machinery every service shares.

- runtime.config: settings (pydantic-settings, env prefix ROUNDHOUSE_)
- runtime.logs, runtime.metrics, runtime.health: logging, Prometheus /metrics, gRPC health
- runtime.ledger: what every service knows of a game without its engine (a function of its records)
- runtime.worker: the consumer loop (catch-up, live processing, commits behind checkpoints)
- runtime.engines, runtime.shard: engine processes holding the games, and what is asked of them
- runtime.owner: the owner logic of the round services (decide, views, queries, checkpoints)
- runtime.seats: tokens and who may send what
- runtime.service: what a service package gives the runtime (`services.<name>.build`)
- runtime.app: running services by name (`roundhouse serve`, `roundhouse service NAME`)
- runtime.cli, runtime.client, runtime.bench: the `roundhouse` command, its client, the benchmark
"""
