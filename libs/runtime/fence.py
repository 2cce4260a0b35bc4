"""Fencing a game's owner: whose decisions of a game readers take (OwnerClaimed in log.proto).

An owner claims a game before it decides anything of it, with an owner epoch (its consumer group's
generation and a count); its decisions and checkpoints carry that epoch. A `Fence` is the claims a
reader took, a function of the game's records alone: every ledger keeps one (runtime.ledger, in its
snapshot too), and an engine loading a game takes the records after its engine state through one
that starts where the state was written (runtime.shard). So every reader, at every point of the
log, agrees on whose decisions count: an instance that lost the game cannot append one anyone takes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from contracts.envelopes import Envelope
from contracts.v1 import log_pb2

GENERATION_BITS = 32
# A claim of an earlier group generation than its service's latest claim is taken only this long
# after that claim: a consumer group the broker forgot (empty for its offsets' retention, or deleted
# by hand) starts its generations again at 1, and an instance the group dropped is long gone by then.
STALE_CLAIM_MS = 600_000


class Claim(NamedTuple):
    epoch: int
    producer: str
    claimed_ms: int


@dataclass(slots=True)
class Fence:
    owner: str = ""                                   # the service whose claim was taken last
    claims: dict[str, Claim] = field(default_factory=dict)   # service -> its latest claim taken

    @classmethod
    def from_proto(cls, msg: log_pb2.OwnerFence) -> "Fence":
        return cls(msg.owner, {c.service: Claim(c.owner_epoch, c.producer, c.claimed_ms) for c in msg.claims})

    def to_proto(self) -> log_pb2.OwnerFence:
        return log_pb2.OwnerFence(owner=self.owner, claims=[
            log_pb2.ClaimTaken(service=s, owner_epoch=c.epoch, producer=c.producer, claimed_ms=c.claimed_ms)
            for s, c in sorted(self.claims.items())])

    def current(self) -> Claim | None:
        """The game's owner's claim (None: no claim yet)."""
        return self.claims.get(self.owner) if self.owner else None

    def take_claim(self, env: Envelope, round_kind: str) -> bool:
        """Take an OwnerClaimed when it holds, `round_kind` being the game's round as the log has it
        there; False when it is fenced (nothing changes)."""
        service = env.owner_claimed.service
        if not self.would_hold(service, env.owner_epoch, env.timestamp_ms, round_kind):
            return False
        self.claims[service] = Claim(env.owner_epoch, env.producer, env.timestamp_ms)
        self.owner = service
        return True

    def would_hold(self, service: str, epoch: int, at_ms: int, round_kind: str) -> bool:
        """Whether a claim of `service` with `epoch`, made at `at_ms`, holds after the claims taken."""
        if service != round_kind:
            return False   # only the owner of the game's current round may claim it
        known = self.claims.get(service)
        if known is None or epoch > known.epoch:
            return True
        earlier_generation = epoch >> GENERATION_BITS < known.epoch >> GENERATION_BITS
        return earlier_generation and at_ms - known.claimed_ms > STALE_CLAIM_MS

    def admits(self, env: Envelope) -> bool:
        """Whether a decision or checkpoint (FENCED_BODIES) counts: it comes from the game's latest
        claim (every one does before the first claim)."""
        claim = self.current()
        return claim is None or (env.owner_epoch == claim.epoch and env.producer == claim.producer)

    def next_epoch(self, service: str, generation: int) -> int:
        """The owner epoch `service` claims the game with from group generation `generation`."""
        known = self.claims.get(service)
        if known is not None and known.epoch >> GENERATION_BITS == generation:
            return known.epoch + 1
        return (generation << GENERATION_BITS) | 1
