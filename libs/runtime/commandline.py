"""What every `roundhouse` subcommand shares, importing nothing heavy (no settings model, gRPC or
protobuf), so that a command which needs none of them (`roundhouse replay`) starts fast: the
services' names, the command line's errors and reading an export file."""

from __future__ import annotations

from pathlib import Path

SERVICES = ("gateway", "auction", "stock_round", "operating_round", "scoring")


class ClientError(Exception):
    """A failed call, already phrased for the user."""


class BadInput(Exception):
    """A file or argument the command cannot use (exit status 2)."""


class PortInUse(OSError):
    """A port this process was told to listen on is taken (the command line says so in one line)."""

    def __init__(self, what: str, host: str, port: int):
        super().__init__(f"the {what} port {port} on {host} is in use (choose another, or stop what holds it)")


def read_json(path: str) -> dict:
    """An export file's JSON object; BadInput (one line) when it is missing or not JSON."""
    import orjson

    try:
        data = orjson.loads(Path(path).read_bytes())
    except FileNotFoundError:
        raise BadInput(f"no file {path}") from None
    except IsADirectoryError:
        raise BadInput(f"{path} is a folder, not an 18xx.games export") from None
    except OSError as exc:
        raise BadInput(f"cannot read {path}: {exc.strerror}") from None
    except orjson.JSONDecodeError as exc:
        raise BadInput(f"{path} is not JSON (line {exc.lineno}, column {exc.colno})") from None
    if not isinstance(data, dict):
        raise BadInput(f"{path} is not an 18xx.games export (a JSON object)")
    return data
