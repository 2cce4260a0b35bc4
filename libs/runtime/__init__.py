"""Service bootstrap and the machinery every service shares.

- runtime.config: settings (pydantic-settings, env prefix ROUNDHOUSE_)
- runtime.logs, runtime.metrics, runtime.health: logging, Prometheus /metrics, gRPC health
- runtime.replica: one game's replicated state, rebuilt from snapshots and the log
- runtime.worker: the consumer loop (catch-up, live processing, snapshots, commits)
- runtime.decider: the owner logic shared by the round services
- runtime.app: wiring services to a log (`roundhouse serve`, `roundhouse service NAME`)
- runtime.cli: the `roundhouse` command
"""
