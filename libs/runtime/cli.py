"""The `roundhouse` command: a dispatcher of subcommands.

  roundhouse serve [--port P] [--web-port W] [--data DIR]  every service in one process, embedded log
  roundhouse service NAME --kafka HOST:PORT         one service against Kafka
  roundhouse client ... --target HOST:PORT          a gateway client (runtime.client)
  roundhouse replay FILE [--json]                   replay an 18xx.games export in the engine
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from runtime.commandline import SERVICES, BadInput, ClientError, PortInUse, read_json

if TYPE_CHECKING:
    from runtime.config import Settings

# Each subcommand's parser is built only when that subcommand runs (or for the full help), and the
# modules a subcommand needs are imported by it: `roundhouse replay` loads no settings model, gRPC
# or protobuf.
SUBCOMMANDS = ("serve", "service", "client", "replay")


def _settings(args, **fixed) -> Settings:
    from runtime.config import Settings

    given = {
        "kafka": getattr(args, "kafka", None),
        "data_dir": getattr(args, "data", None),
        "port": getattr(args, "port", None),
        "web_port": getattr(args, "web_port", None),
        "host": getattr(args, "host", None),
        "metrics_port": getattr(args, "metrics_port", None),
        "health_port": getattr(args, "health_port", None),
        "partitions": getattr(args, "partitions", None),
        "topic_prefix": getattr(args, "topic_prefix", None),
        "instance": getattr(args, "instance", None),
        "engine_workers": getattr(args, "engine_workers", None),
        **fixed,
    }
    return Settings(**{k: v for k, v in given.items() if v is not None})


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--metrics-port", type=int, help="Prometheus /metrics port (0: any free)")
    parser.add_argument("--partitions", type=int,
                        help="partitions of the topics (default: as the log has them, else 12)")
    parser.add_argument("--engine-workers", type=int, help="engine processes (default one per core for serve, 1 for a service; 0: none)")
    parser.add_argument("--topic-prefix", help="prefix of the topic and group names")
    parser.add_argument("--instance", help="instance name in logs and producer ids")


def cmd_serve(args) -> int:
    from runtime import app, logs

    settings = _settings(args)
    logs.setup(settings.log_level, "serve")
    app.run(app.serve_forever(settings, list(SERVICES), announce=lambda m: print(m, flush=True)), settings.event_loop)
    return 0


def cmd_service(args) -> int:
    from runtime import app, logs

    settings = _settings(args)
    logs.setup(settings.log_level, args.name)
    app.run(app.serve_forever(settings, [args.name], announce=lambda m: print(m, flush=True)), settings.event_loop)
    return 0


def cmd_replay(args) -> int:
    """Replay an 18xx.games export in the engine (no services) and print the outcome."""
    import engine

    export = read_json(args.file)
    try:
        game = engine.import_game(export)
    except engine.GameError as exc:
        print(
            f"replay failed at action index {exc.index} (id {exc.action_id}): {exc.reason}",
            file=sys.stderr,
        )
        return 1
    except Exception as exc:  # the engine promises GameError only; say so when it breaks that
        print(f"replay failed: the engine raised {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    out = {
        "title": game.title,
        "actions": game.seq,
        "finished": bool(game.finished),
        "game_end_reason": game.game_end_reason,
        "result": game.result,
    }
    mismatches = game.revenue_mismatches
    if mismatches:
        out["revenue_mismatches"] = mismatches
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{game.title}: {game.seq} actions, finished={game.finished} "
              f"({game.game_end_reason}); result {json.dumps(game.result)}")
    for m in mismatches:
        print(f"note: recorded revenue {m['recorded']} for train {m['train']} differs from our computation "
              f"{m['computed']}" + (f" ({m['error']})" if m.get("error") else ""), file=sys.stderr)
    return 0


def parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser: with `command`, only that subcommand (a command's options and
    help need no other); without, every one (the top-level help)."""
    top = argparse.ArgumentParser(prog="roundhouse", description="Roundhouse: 18xx games over one game log")
    sub = top.add_subparsers(dest="command", required=True)
    wanted = SUBCOMMANDS if command is None else (command,)

    if "serve" in wanted:
        _serve_parser(sub)
    if "service" in wanted:
        _service_parser(sub)
    if "client" in wanted:
        from runtime import client

        client.add_parser(sub)
    if "replay" in wanted:
        s = sub.add_parser("replay", help="replay an 18xx.games export in the engine and print the result")
        s.add_argument("file")
        s.add_argument("--json", action="store_true")
        s.set_defaults(func=cmd_replay)
    return top


def _serve_parser(sub) -> None:
    s = sub.add_parser("serve", help="the whole platform in one process (embedded log by default)")
    s.add_argument("--port", type=int, help="gateway gRPC port (default 50051)")
    s.add_argument("--web-port", type=int, help="web client and Connect API port (default 8080; 0: any free)")
    s.add_argument("--data", type=Path, help="state folder for the embedded log (default ./var)")
    s.add_argument("--kafka", help="use Kafka at HOST:PORT instead of the embedded log")
    _common(s)
    s.set_defaults(func=cmd_serve)


def _service_parser(sub) -> None:
    s = sub.add_parser("service", help="one service, against Kafka")
    s.add_argument("name", choices=SERVICES)
    s.add_argument("--kafka", required=True, help="Kafka bootstrap HOST:PORT")
    s.add_argument("--port", type=int, help="gateway gRPC port (default 50051)")
    s.add_argument("--web-port", type=int, help="gateway only: web client and Connect API port (default 8080)")
    s.add_argument("--health-port", type=int, help="gRPC health port of a non-gateway service (0: any)")
    _common(s)
    s.set_defaults(func=cmd_service)


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    command = words[0] if words and words[0] in SUBCOMMANDS else None
    args = parser(command).parse_args(argv)
    try:
        return args.func(args)
    except (BadInput, PortInUse) as exc:   # the command line's fault: one line, status 2
        print(f"roundhouse {args.command}: {exc}", file=sys.stderr)
        return 2
    except ClientError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
