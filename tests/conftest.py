import os
import socket

import pytest


def _kafka_answers(address: str) -> bool:
    host, _, port = address.rpartition(":")
    try:
        with socket.create_connection((host, int(port)), timeout=2):
            return True
    except OSError:
        return False


@pytest.fixture(scope="session")
def kafka_bootstrap() -> str:
    """The local broker (`make kafka-up`, on KAFKA_PORT; ROUNDHOUSE_TEST_KAFKA names another). Absent:
    skip, unless ROUNDHOUSE_REQUIRE_KAFKA=1 (CI)."""
    address = os.environ.get("ROUNDHOUSE_TEST_KAFKA") or f"127.0.0.1:{os.environ.get('KAFKA_PORT', '9092')}"
    if not _kafka_answers(address):
        message = f"no Kafka broker answers on {address} (run `make kafka-up`)"
        if os.environ.get("ROUNDHOUSE_REQUIRE_KAFKA") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return address
