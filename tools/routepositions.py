"""Positions for the best-route search: the moments a corporation runs its trains in a game.

A position is a game state just before one of its ``run_routes`` actions, with the corporation about
to run. They come from any game export (the recorded games in ../shared/fixtures) or from games played
on the spot by random railway-building players (``tools.randomplay``, deterministic per seed), so no
game needs to be stored:

    from tools.routepositions import builder_export, positions
    for index, state, corporation in positions(builder_export(9, 4)):
        state.best_routes(corporation)

The state handed out is live: it moves on to the next position when the iteration continues.

``compact(state, corporation)`` describes a position in a few kilobytes (the map's tiles, every
corporation's tokens, the trains, rights and port of the one running, the phase), in the reference
trace format the board tests rebuild boards from (``tests/unit/board/support.build_position``).
``brute_force`` is the slow reference the search is checked against: every legal route of every train
listed, every combination without shared track tried. To write positions of builder games (seed,
players, index of the ``run_routes`` action) for the tests:

    .venv/bin/python -m tools.routepositions 25:4:1110 14:5:1124 > positions.json
"""

from __future__ import annotations

import argparse
import json
import sys

import engine
from engine.actions import live_entries
from engine.board.bonuses import bonus_total

# Builder games (seed, players) whose late operating rounds run phase 5, 6 and D trains on large
# networks: the benchmark's corpus. All reach phase D but the second (phase 5); 29/4, 14/5 and 1/5
# hold the hardest positions found (a 6 or 5 with a D, two D trains competing for the same lines).
LATE_GAMES = ((9, 4), (2, 5), (29, 4), (14, 5), (1, 5))


def positions(export: dict, *, phases=None):
    """(action index, state, corporation) before each live ``run_routes`` of ``export``, in game
    order; ``phases``: only positions whose phase name is listed."""
    settings = export.get("settings") or {}
    game = engine.new_game(export["title"], export["players"], seed=settings.get("seed"),
                           game_id=export.get("id", ""), optional_rules=settings.get("optional_rules") or ())
    state = game.state
    state.loading = True
    actions = export["actions"]
    for index, (action, live) in enumerate(zip(actions, live_entries(actions))):
        if not live:
            continue
        if action.get("type") == "run_routes" and (phases is None or state.phase.name in phases):
            corporation = state.corporation_by_id(action.get("entity"))
            if corporation is not None:
                yield index, state, corporation
        state.process(action, auto_actions=list(action.get("auto_actions") or ()))


def builder_export(seed: int, players: int) -> dict:
    """The export of the game random railway builders play from ``seed``."""
    from .randomplay import play
    game, _ = play(seed, players, style="builder")
    return game.export()


RIGHT_HEXES = {"B13": "tunnel", "P17": "bridge", "P19": "bridge"}


def compact(state, corporation) -> dict:
    """The position as {"phase", "tiles", "corps": {id: {"tokens", "trains"?}}, "rights", "port",
    "corporation"}: enough to rebuild its board and the running corporation's trains."""
    board = state.board
    corps = {}
    for corp in state.corporations:
        tokens = [board.city_ref(c) for c in board.cities() if c.tokened_by(corp)]
        if tokens or corp is corporation:
            corps[corp.id] = {"tokens": tokens}
    corps[corporation.id]["trains"] = [t.id for t in state.route_trains(corporation)]
    rights = sorted({RIGHT_HEXES[h] for a in corporation.all_abilities if a.type == "hex_bonus"
                     for h in a.hexes or () if h in RIGHT_HEXES})
    port_hexes = [h.id for h in board.hexes if "GLSC" in h.assignments]
    port = port_hexes[0] if port_hexes and "GLSC" in (getattr(corporation, "assignments", None) or {}) else None
    return {"corporation": corporation.id, "phase": state.phase.name, "tiles": board.view()["tiles"],
            "corps": corps, "rights": rights, "port": port}


def brute_force(board, corporation, trains, phase) -> int:
    """The best total of routes for ``trains``, at most one each, without shared track: every legal
    route listed (the search's own enumeration of arms from the token cities, checked route by route
    here), priced stop by stop, and every combination tried."""
    from engine.board.search import RouteSet, route_network

    net = route_network(board, corporation)
    reach = max(t.distance for t in trains)
    routes = RouteSet(net, reach)
    bonuses = board.route_bonuses(corporation)
    lists = []
    for train in trains:
        options = []
        for route in routes.routes:
            if routes.cost(route) > train.distance:
                continue
            stops = routes.stops(route)
            revenue = sum(s.route_revenue(phase, train) for s in stops) + bonus_total(bonuses, stops)
            _, a, b = route
            options.append((revenue, a.mask | (b.mask if b is not None else 0)))
        options.sort(key=lambda o: -o[0])
        lists.append(options)
    tops = [o[0][0] if o else 0 for o in lists]
    best = 0

    def pack(i, used, total):
        nonlocal best
        best = max(best, total)
        if i == len(lists) or total + sum(tops[i:]) <= best:
            return
        rest = sum(tops[i + 1:])
        for revenue, mask in lists[i]:
            if total + revenue + rest <= best:
                break
            if not mask & used:
                pack(i + 1, used | mask, total + revenue)
        pack(i + 1, used, total)

    pack(0, 0, 0)
    return best


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Compact positions of builder games as JSON.")
    ap.add_argument("positions", nargs="+", help="SEED:PLAYERS:ACTION_INDEX of builder games")
    args = ap.parse_args(argv)
    wanted = {}
    for spec in args.positions:
        seed, players, index = (int(x) for x in spec.split(":"))
        wanted.setdefault((seed, players), set()).add(index)
    out = []
    for (seed, players), indices in sorted(wanted.items()):
        for index, state, corporation in positions(builder_export(seed, players)):
            if index in indices:
                position = compact(state, corporation)
                position["source"] = f"builder {seed}/{players} before action {index}"
                out.append(position)
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
