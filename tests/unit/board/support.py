"""Helpers for the board tests: tiny hand-built maps, a fake game, and positions read from the
reference traces of the repository's evidence (evidence/)."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace

from engine.board import Board
from engine.board.bonuses import assignment_bonus, hex_bonus_abilities
from engine.core.entities import Ability, Corporation, Token
from engine.core.trains import Train
from tools import evidence
from tools.tracecmp import read_trace

ROOT = Path(__file__).resolve().parents[3]

TITLES = ["1856", "1822", "1847_ae", "1858", "1858_india"]


# ------------------------------------------------------------------------------------------------
# a fake game


class FakeGame:
    """What the board needs from a game: rules, phase, entities, and the title hooks under test."""

    def __init__(self, rules=None, phase=None, corporations=(), companies=(), optional_rules=(), bonuses=None):
        self.rules = {"impassable_hex_colors": ["blue", "gray", "red"], "track_restriction": "semi_restrictive",
                      "allow_removing_towns": False, "tile_reservation_blocks_others": "never",
                      **(rules or {})}
        self.phase = phase or phase_of("2", ["yellow"])
        self.corporations = list(corporations)
        self.companies = list(companies)
        self.minors = []
        self.optional_rules = list(optional_rules)
        self.board = None
        self._bonuses = bonuses

    def route_bonuses(self, corporation):
        if self._bonuses is None:
            return []
        return self._bonuses(self, corporation)


def bonuses_1856(game, corporation):
    """1856: +20 with the port (GLSC assignment), +10 per bridge/tunnel hex (hex_bonus abilities)."""
    return assignment_bonus(game.board, corporation, "GLSC", 20) + hex_bonus_abilities(corporation)


def phase_of(name, tiles):
    return SimpleNamespace(name=name, tiles=list(tiles))


def corporation(sym, tokens=(0, 40, 100), coordinates=None, city=None):
    return Corporation(sym, sym, tokens=list(tokens), coordinates=coordinates, city=city)


def train(name, distance, index=0, **kw):
    return Train(name, distance, 100, index, **kw)


def give_train(corp, t):
    t.owner = corp
    corp.trains.append(t)
    return t


def token_in(board, corp, city, price=0):
    """Put one of ``corp``'s unused tokens (or a new one) into ``city`` without rule checks."""
    token = next((t for t in corp.tokens if not t.used), None)
    if token is None:
        token = Token(corp, price=price)
        corp.tokens.append(token)
    board.place_token(corp, city, token, check_tokenable=False)
    return token


# ------------------------------------------------------------------------------------------------
# hand-built boards


def tiny_board(hexes, tiles=None, supply=(), layout="flat", reservations=(), game=None, rotation_checks=None):
    """A board from a list of (hex id, tile key or inline tile dict, location name?) and tile
    descriptions in our data schema."""
    defs = dict(STANDARD_TILES)
    defs.update(tiles or {})
    records = []
    for i, entry in enumerate(hexes):
        hid, tile = entry[0], entry[1]
        if isinstance(tile, dict):
            key = f"{hid}"
            defs[key] = tile
        else:
            key = tile
        rec = {"id": hid, "tile": f"{hid}-0", "def": key}
        if len(entry) > 2 and entry[2]:
            rec["name"] = entry[2]
        records.append(rec)
    data = {"schema": 1, "layout": layout, "tiles": defs, "supply": [list(s) for s in supply],
            "hexes": records, "reservations": list(reservations)}
    if rotation_checks is not None:
        data["rotation_checks"] = rotation_checks
    game = game or FakeGame()
    board = Board(data, game)
    game.board = board
    return board


def city(revenue, slots=1):
    return {"type": "city", "revenue": revenue, **({"slots": slots} if slots != 1 else {})}


def town(revenue):
    return {"type": "town", "revenue": revenue}


def offboard(revenue, **kw):
    return {"type": "offboard", "revenue": revenue, **kw}


STANDARD_TILES = {
    "blank": {"color": "white"},
    "wcity": {"color": "white", "nodes": [city(0)]},
    "wtown": {"color": "white", "nodes": [town(0)]},
    # yellow
    "7": {"color": "yellow", "paths": [[0, 1]]},
    "8": {"color": "yellow", "paths": [[0, 2]]},
    "9": {"color": "yellow", "paths": [[0, 3]]},
    "3": {"color": "yellow", "nodes": [town(10)], "paths": [[0, "n0"], ["n0", 1]]},
    "4": {"color": "yellow", "nodes": [town(10)], "paths": [[0, "n0"], ["n0", 3]]},
    "5": {"color": "yellow", "nodes": [city(20)], "paths": [[0, "n0"], [1, "n0"]]},
    "6": {"color": "yellow", "nodes": [city(20)], "paths": [[0, "n0"], [2, "n0"]]},
    "57": {"color": "yellow", "nodes": [city(20)], "paths": [[0, "n0"], ["n0", 3]]},
    # green
    "14": {"color": "green", "nodes": [city(30, 2)], "paths": [[0, "n0"], [1, "n0"], [3, "n0"], [4, "n0"]]},
    "15": {"color": "green", "nodes": [city(30, 2)], "paths": [[0, "n0"], [1, "n0"], [2, "n0"], [3, "n0"]]},
    "23": {"color": "green", "paths": [[0, 3], [0, 4]]},
    "24": {"color": "green", "paths": [[0, 3], [0, 2]]},
    "26": {"color": "green", "paths": [[0, 3], [0, 5]]},
}


# ------------------------------------------------------------------------------------------------
# reference material


@lru_cache(maxsize=None)
def reference(slug):
    return evidence.reference(slug)


@lru_cache(maxsize=None)
def board_section(slug):
    from tools.titledata import board as builder
    return builder.build(reference(slug), slug)


def fixture_names(slug):
    """The recorded games of a title in the suite (evidence/fixtures)."""
    return evidence.game_names(slug)


RIGHT_COMPANIES = {"St. Clair Frontier Tunnel Company": "tunnel", "Niagara Falls Suspension Bridge Company": "bridge"}
RIGHT_HEXES = {"tunnel": ["B13"], "bridge": ["P17", "P19"]}


def positions_1856(name):
    """For each processed run_routes action of an 1856 fixture: (index, action, trace line, state
    before the action, rights, port) where rights maps corporation -> set of "tunnel"/"bridge" and port
    is (corporation id, hex id) or None, both as the game stands before the action."""
    fixture = evidence.load_game("1856", name)
    header, steps = read_trace(evidence.trace_path("1856", name))
    rights, port = {}, None
    prev = header["state"]
    out = []
    for i, (line, state) in enumerate(steps):
        action = fixture["actions"][i]
        if line.get("skip"):
            prev = state
            continue
        if line["type"] == "run_routes":
            out.append((i, action, line, prev, {k: set(v) for k, v in rights.items()}, port))
        if line["type"] == "assign" and action.get("entity") == "GLSC":
            port = (prev["companies"]["GLSC"]["owner"], action["target"])
        for msg in line.get("log") or ():
            m = re.match(r"^(\S+) buys (St\. Clair Frontier Tunnel Company|Niagara Falls Suspension Bridge Company) "
                         r"from", msg)
            if m and m.group(1) in state["corps"]:
                rights.setdefault(m.group(1), set()).add(RIGHT_COMPANIES[m.group(2)])
            m = re.match(r"^(\S+) buys a (tunnel|bridge) token", msg)
            if m:
                rights.setdefault(m.group(1), set()).add(m.group(2))
            m = re.match(r"^(\S+) gets (\S+)'s (tunnel|bridge) token", msg)
            if m:
                rights.setdefault(m.group(1), set()).add(m.group(3))
            if re.match(r"^-- Event: .*Great Lakes Shipping Company token removed", msg):
                port = None
        prev = state
    return header, out


def build_position(state, rights=None, port=None, optional_rules=()):
    """A fresh 1856 board with the trace state's tiles and tokens, the corporations (with their trains,
    rights and port) and the phase. Returns (game, board, corporations by id)."""
    ref = reference("1856")
    phases = {p["name"]: p for p in ref["phases"]}
    distances = {t["name"]: t["distance"] for t in ref["trains"]["types"]}
    corps = {}
    for c in ref["corporations"]:
        corp = corporation(c["id"], tokens=[], coordinates=c["coordinates"], city=c["city"])
        corps[c["id"]] = corp
    game = FakeGame(rules={k.lower(): v for k, v in ref["rules_flags"].items()},
                    phase=phase_of(state["phase"], phases[state["phase"]]["tiles"]),
                    corporations=list(corps.values()), optional_rules=optional_rules, bonuses=bonuses_1856)
    board = Board(board_section("1856"), game)
    game.board = board
    for hex_id, spec in state.get("tiles", {}).items():
        tile_id, rot = spec.split("@")
        board.lay_tile(board.hex_by_id(hex_id), board.tile_by_id(tile_id, make=True), int(rot))
    for cid, info in state["corps"].items():
        corp = corps[cid]
        if info.get("closed"):
            board.remove_corporation(corp)
            continue
        for ref_token in info.get("tokens") or ():
            where = ref_token.split(":")[0].split("@")[0]
            hex_id, _, k = where.partition("/")
            tile = board.hex_by_id(hex_id).tile
            token_in(board, corp, tile.cities[int(k) if k else 0])
        for _ in range(info.get("tokens_left") or 0):
            corp.tokens.append(Token(corp))
        for tid in info.get("trains") or ():
            tid = tid.rstrip("~")
            name, _, idx = tid.split(":")[0].rpartition("-")
            give_train(corp, train(name, distances[name], int(idx)))
        for kind in sorted((rights or {}).get(cid, ())):
            corp.add_ability(Ability("hex_bonus", hexes=RIGHT_HEXES[kind], amount=10))
    if port is not None and port[0] in corps:
        corps[port[0]].assign("GLSC")
        board.hex_by_id(port[1]).assign("GLSC")
    return game, board, corps
