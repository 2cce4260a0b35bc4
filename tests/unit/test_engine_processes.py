"""Engine processes (runtime.engines): requests and answers over the child's pipes."""

import asyncio

import orjson

from runtime.engines import EngineHost
from tools import evidence


def test_a_request_larger_than_one_pipe_read_reaches_the_engine_process():
    # an import carries the whole export (1822/33845: about 400 KB), which the child reads in
    # several pieces; it must wait for the rest rather than take the pipe for closed
    export = orjson.dumps(evidence.load_game("1822", "33845"))
    assert len(export) > 1 << 16

    async def run():
        host = EngineHost(1, "test")
        await host.start()
        try:
            first = await host.job("import", target="g1", export=export, producer="test")
            second = await host.job("import", target="g2", export=export, producer="test")
            return first, second, host.pids()
        finally:
            await host.stop()

    first, second, pids = asyncio.run(run())
    assert first["seq"] == second["seq"] == len(orjson.loads(export)["actions"])
    assert first["digest"] == second["digest"]
    assert len(pids) == 1
