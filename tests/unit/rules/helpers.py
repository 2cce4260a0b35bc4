"""Small helpers for engine unit tests: fresh games and compact state comparison."""

from __future__ import annotations

import engine
from engine.views import state_fingerprint

PLAYERS4 = [{"id": i + 1, "name": f"P{i + 1}"} for i in range(4)]


def new_1856(players=PLAYERS4, **kw):
    return engine.new_game("1856", players, seed=kw.pop("seed", 1), **kw)


def act(game, entity, kind, entity_type="player", **fields):
    return game.process({"type": kind, "entity": entity, "entity_type": entity_type, **fields})


def fingerprint(game):
    return state_fingerprint(game.state)


def player(game, pid):
    return game.state.player_by_id(pid)
