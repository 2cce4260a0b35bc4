"""The log: one interface (bus.base.Log), two implementations.

- bus.kafka.KafkaLog: Apache Kafka through aiokafka (producer, consumers, admin).
- bus.embedded.EmbeddedLog: an in-process log persisted in SQLite, for `roundhouse serve`.

Both partition by key the same way (Kafka's murmur2 partitioner), so a game lands in partition
`partition_for(game_id, n)` of `roundhouse.games` and of `roundhouse.snapshots` alike.
"""

from bus.base import Consumer, Log, Record, partition_for

__all__ = ["Consumer", "Log", "Record", "partition_for"]
