"""Which consumers fetch every `kafka_answer_batch_ms` rather than every `kafka_batch_ms`: the
gateway's games log (whose records answer SubmitAction) and replies (which answer queries), and no
other service's; the gateway's views every `kafka_view_batch_ms`. (That a consumer's own batch time
replaces the log's on Kafka: tests/integration/test_kafka_log.py.)"""

import asyncio

from bus.embedded import EmbeddedLog
from runtime import app
from runtime.config import Settings

from rh_support import free_port


class RecordingLog(EmbeddedLog):
    """The embedded log, noting the batch time every consumer is made with."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.made: list[tuple[str, str | None, int | None]] = []   # (topic, group, batch_ms)

    def consumer(self, topic, *, group, on_assigned=None, on_revoked=None, partitions=None, batch_ms=None):
        self.made.append((topic, group, batch_ms))
        return super().consumer(topic, group=group, on_assigned=on_assigned, on_revoked=on_revoked,
                                partitions=partitions, batch_ms=batch_ms)


def test_the_gateways_answer_consumers_and_only_they_take_the_answer_batch_time(tmp_path, monkeypatch):
    settings = Settings(data_dir=tmp_path, port=free_port(), metrics_port=None, engine_workers=0,
                        kafka_batch_ms=50, kafka_answer_batch_ms=7, kafka_view_batch_ms=30)
    logs: list[RecordingLog] = []

    def open_log(s):
        logs.append(RecordingLog(s.data_dir / "log.sqlite3", partitions=s.partitions, topics=app.topics(s)))
        return logs[0]

    monkeypatch.setattr(app, "open_log", open_log)

    async def go():
        running = await app.start(settings, ["gateway", "scoring", "auction"])
        try:
            for _ in range(200):   # the gateway's followers start with its server
                if {t for t, _, _ in logs[0].made} >= {settings.views_topic, settings.replies_topic}:
                    break
                await asyncio.sleep(0.05)
        finally:
            await running.stop()

    asyncio.run(go())
    made = logs[0].made
    by_group = {(topic, group): batch for topic, group, batch in made}
    assert by_group[(settings.games_topic, settings.group("gateway"))] == 7
    assert by_group[(settings.views_topic, None)] == 30
    assert by_group[(settings.replies_topic, None)] == 7
    assert by_group[(settings.games_topic, settings.group("scoring"))] is None   # the log's own
    assert by_group[(settings.games_topic, settings.group("auction"))] is None
