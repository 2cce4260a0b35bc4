"""Small helpers for engine unit tests: fresh games, positions from recorded games, acting for
players and corporations, and compact state comparison."""

from __future__ import annotations

import copy
import functools
import pickle
from functools import lru_cache

import pytest
from tools import evidence

import engine
from engine import GameError
from engine.views import state_fingerprint

PLAYERS4 = [{"id": i + 1, "name": f"P{i + 1}"} for i in range(4)]

# A quick private auction for four players: everything sold at face value.
# Afterwards: P1 FT+NFSBC ($255), P2 WSRC+SCFTC ($235), P3 TCC ($325), P4 GLSC ($305); P3 has priority.
FACE_VALUE_AUCTION = [(1, "FT", 20), (2, "WSRC", 40), (3, "TCC", 50), (4, "GLSC", 70),
                      (1, "NFSBC", 100), (2, "SCFTC", 100)]


def new_1856(players=PLAYERS4, **kw):
    return engine.new_game("1856", players, seed=kw.pop("seed", 1), **kw)


def act(game, entity, action_type, entity_type=None, **fields):
    """Submit an action; the entity type is guessed from the id (ints are players, strings are
    corporations) unless given."""
    if entity_type is None:
        entity_type = "player" if isinstance(entity, int) else "corporation"
    return game.process({"type": action_type, "entity": entity, "entity_type": entity_type, **fields})


def fingerprint(game):
    return state_fingerprint(game.state)


def player(game, pid):
    return game.state.player_by_id(pid)


def corp(game, cid):
    return game.state.corporation_by_id(cid)


def company(game, cid):
    return game.state.company_by_id(cid)


def rejected(game, entity, action_type, entity_type=None, **fields) -> str:
    """Submit an action that must be refused: the game (state and log) stays exactly as it was and
    the error explains why. Returns the reason."""
    before, seq = fingerprint(game), game.seq
    with pytest.raises(GameError) as err:
        act(game, entity, action_type, entity_type, **fields)
    assert err.value.reason
    assert fingerprint(game) == before and game.seq == seq
    return err.value.reason


def new_1847(players=PLAYERS4, **kw):
    return engine.new_game("1847 AE", players, seed=kw.pop("seed", 1), **kw)


# 1847 AE: a whole draft for four players (the first pass runs P4..P1, then P1 again: snake order);
# everything at face value. P1 cannot afford what is left at his second turn and passes by himself.
# Afterwards: P1 LFKC+SPR (70M), P2 H+R+SCR (5M), P3 K+VIW+MNR (105M), P4 PLP+W (83M); L has floated
# with 430M, P4 is its president (30%); Saar is parred (P1 20%); LFK belongs to P1.
DRAFT_1847 = [(4, "PLP"), (3, "K"), (2, "H"), (1, "LFKC"), (1, "SPR"), (2, "R"), (3, "VIW"), (4, "W"),
              (2, "SCR"), (3, "MNR")]


def draft_1847(draft=DRAFT_1847, **kw):
    """A new 4-player 1847 AE game drafted as in ``draft`` ([(player, company)], face value)."""
    game = new_1847(**kw)
    for pid, cid in draft:
        act(game, pid, "bid", company=cid, price=company(game, cid).value)
    return game


def to_stock_round(auction=FACE_VALUE_AUCTION, **kw):
    game = new_1856(**kw)
    for pid, name, price in auction:
        act(game, pid, "bid", company=name, price=price)
    assert game.round_kind == "stock_round"
    return game


def finish_stock_round(game):
    """Everyone still to act in the stock round passes."""
    while game.round_kind == "stock_round" and not game.finished:
        act(game, game.acting_players()[0], "pass")
    return game


def to_operating_round(pars, **kw):
    """A new 4-player game: the face-value auction, then ``pars`` ([(player, corporation, price
    cell)]) made in turn order from P3 on (each player pars at most once), the rest pass."""
    game = to_stock_round(**kw)
    wanted = {pid: (cid, cell) for pid, cid, cell in pars}
    while game.round_kind == "stock_round":
        pid = game.acting_players()[0]
        if pid in wanted:
            cid, cell = wanted.pop(pid)
            act(game, pid, "par", corporation=cid, share_price=cell)
        else:
            act(game, pid, "pass")
    assert not wanted, f"pars not made: {wanted}"
    return game


def legal(game, entity=None) -> dict:
    """The legal_actions() entry of ``entity`` (an id), by default of the entity the game waits for."""
    if entity is None:
        entity = game.state.round.active_entities()[0].id
    entries = [e for e in game.legal_actions() if e["entity"] == entity]
    assert len(entries) == 1, game.legal_actions()
    return entries[0]


def lays(game, entity=None, hex_id=None) -> list:
    """The tile lays the entity (an id; by default the one the game waits for) may make now, as a
    client learns them: the hexes its legal actions offer, then each hex's ``tile_lays``."""
    entry = legal(game, entity)
    return [lay for h in entry.get("lay_hexes", ()) if hex_id in (None, h)
            for lay in game.tile_lays(entry["entity"], entry["entity_type"], h)]


def operator(game):
    return game.state.round.current_operator


def scenario(build):
    """Decorator: the situation ``build(*args)`` makes is built once; each call returns a fresh,
    independent copy of it."""
    @lru_cache(maxsize=None)
    def built(*args, **kwargs):
        return pickle.dumps(build(*args, **kwargs), protocol=pickle.HIGHEST_PROTOCOL)

    @functools.wraps(build)
    def fresh(*args, **kwargs):
        return pickle.loads(built(*args, **kwargs))
    return fresh


# ------------------------------------------------------------------ default play


def default_move(game):
    """One unremarkable move for whoever must act: run the suggested best routes, pay out, buy the
    cheapest train when one must be bought, or pass."""
    entry = legal(game)
    entity, entity_type, types = entry["entity"], entry["entity_type"], entry["types"]
    if entry.get("must_buy") and "buy_train" in types:
        train = game.state.depot.min_depot_train()
        return act(game, entity, "buy_train", entity_type, train=train.id, price=train.price(), variant=train.name)
    if "run_routes" in types:
        return act(game, entity, "run_routes", entity_type, routes=game.best_routes(entity))
    if "dividend" in types:
        return act(game, entity, "dividend", entity_type, kind="payout")
    if "pass" in types:
        return act(game, entity, "pass", entity_type)
    raise AssertionError(f"no default move for {entity}: {types}")


def play_until(game, reached, limit=300):
    """Default moves until ``reached(game)`` holds."""
    for _ in range(limit):
        if reached(game):
            return game
        default_move(game)
    raise AssertionError("position not reached")


def operating(cid):
    """A condition for play_until: ``cid`` is the operating corporation."""
    def reached(game):
        current = operator(game) if game.round_kind == "operating_round" else None
        return current is not None and current.id == cid
    return reached


# ------------------------------------------------------------------ recorded games


@lru_cache(maxsize=None)
def _export(name: str, slug: str | None = None) -> dict:
    """A recorded game by name: "51745" (1856), or "<slug>/<name>" (or ``slug``) for another title
    (evidence/fixtures, or fixtures-new for the games recorded since)."""
    if slug is None:
        slug, _, name = name.rpartition("/")
    return evidence.load_game(slug or "1856", name)


def recorded(name: str) -> dict:
    """A recorded 18xx.games export from the repository's evidence: ``name`` is an 1856
    fixture's name, or ``<slug>/<name>`` for another title's."""
    return copy.deepcopy(_export(name))


@scenario
def position(name: str, n: int, start: int | None = None):
    """The exact recorded position after the first ``n`` entries of a recorded game; further
    actions are played live (validated by the engine, which computes revenue itself). With
    ``start``, the position after ``start`` entries is imported and the rest played live (a position
    other tests share, and quicker than importing another long prefix)."""
    if start is not None:
        game = position(name, start)
        play_recorded(game, name, *range(start, n))
        return game
    export = _export(name)
    return engine.import_game({**export, "actions": copy.deepcopy(export["actions"][:n])})


def recorded_action(name: str, index: int, slug: str | None = None) -> dict:
    """Entry ``index`` of a recorded game, as a move (record fields dropped)."""
    raw = copy.deepcopy(_export(name, slug)["actions"][index])
    return {k: v for k, v in raw.items() if k not in ("id", "original_id", "auto_actions", "created_at", "user")}


def play_recorded(game, name: str, *indexes, slug: str | None = None):
    """Play entries ``indexes`` of a recorded game live (the engine checks them and runs their
    automatic consequences itself). Returns the last action as stored."""
    stored = None
    for index in indexes:
        move = recorded_action(name, index, slug)
        fields = {k: v for k, v in move.items() if k not in ("type", "entity", "entity_type")}
        stored = act(game, move["entity"], move["type"], move["entity_type"], **fields)
    return stored
