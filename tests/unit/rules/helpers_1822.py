"""Helpers for 1822 unit tests: fresh games and exact positions of the recorded 1822 games."""

from __future__ import annotations

import copy
import sys

import engine

from . import helpers
from .helpers import act, scenario

# positions are copied by pickling (see helpers.scenario); 1822's map is a deep web of objects
sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))

PLAYERS3 = [{"id": i + 1, "name": f"P{i + 1}"} for i in range(3)]
PLAYERS4 = [{"id": i + 1, "name": f"P{i + 1}"} for i in range(4)]


def new_1822(players=PLAYERS4, seed=1, **kw):
    return engine.new_game("1822", players, seed=seed, **kw)


def _export(name: str) -> dict:
    return helpers._export(name, "1822")


@scenario
def position(name: str, n: int):
    """The exact recorded position after the first ``n`` entries of a recorded 1822 game."""
    export = _export(name)
    return engine.import_game({**export, "actions": copy.deepcopy(export["actions"][:n])})


def recorded_action(name: str, index: int) -> dict:
    return helpers.recorded_action(name, index, "1822")


def play_recorded(game, name: str, *indexes):
    """Play entries of a recorded 1822 game live (checked by the engine). Returns the last stored action."""
    return helpers.play_recorded(game, name, *indexes, slug="1822")


def bid(game, pid, company, price):
    return act(game, pid, "bid", company=company, price=price)


def current_player(game):
    return game.acting_players()[0]


def pass_stock_round(game):
    """Everyone still to act in the stock round passes."""
    while game.round_label.startswith("SR") and not game.finished:
        act(game, current_player(game), "pass")
    return game
