"""The map: hexes, tiles, track, tokens in cities, networks and routes.

Everything here is pure and deterministic. Bad input raises ``engine.errors.GameError`` (a
player-facing ``reason``) before anything changes.

Building
--------
``Board(data, game)``
    ``data`` is the ``board`` section of a title's data (``engine.titles.load_data``; schema:
    ``engine/titles/schema.py``, built by ``tools/titledata/board.py``).
    ``game`` provides ``rules`` (lower-cased switches: ``impassable_hex_colors``, ``track_restriction``,
    ``allow_removing_towns``, ``tile_reservation_blocks_others``, ``tile_upgrades_must_use_max_exits``),
    ``phase`` (``.name``, ``.tiles`` = colours available), ``optional_rules`` (hexes replaced by optional
    rules are applied at construction), and ``corporations`` / ``companies`` / ``minors`` (holders of the
    home reservations, matched by ``id``). The title's game may also define the hooks listed below.

Lookups
-------
``board.hexes`` (map order), ``board.hex_by_id("M38")``, ``board.all_hexes()``
``board.tile_by_id("57-1")``: a preprinted tile or a supply copy (None if no such copy exists; an
    unlimited tile has one more copy than it has been laid). ``board.city_by_id("15-0-0")`` (tile id +
    part index), ``board.node_by_id(...)`` (any stop), ``board.cities()`` (cities on the map).
``board.supply_tiles()`` (one free copy per name, supply order), ``board.supply_count(name)`` (None =
    unlimited), ``board.tile_available(tile)``.

Objects (``parts``): ``Hex`` (``id``, ``tile``, ``original_tile``, ``neighbors[e]`` / ``all_neighbors[e]``
for edges 0..5, ``location_name``, ``assignments`` with ``assign/assigned/unassign``), ``Tile`` (``id``,
``name``, ``index``, ``color``, ``rotation``, ``hex``, ``label``, ``future_label`` (label, colour),
``nodes``, ``cities``, ``towns``, ``offboards``, ``paths``, ``exits``, ``borders``, ``icons``, ``stubs``,
``reservations`` (tile level), ``blockers``, ``terrain_cost``, ``terrain_types``, ``city_town_edges``),
``City``/``Town``/``Offboard`` (``id``, ``index`` = part index, ``kind_index``, ``tile``, ``hex``,
``revenue``, ``route_revenue(phase, train)``, ``groups``, ``visit_cost``, ``paths``, ``exits``; cities
also ``slots``, ``tokens`` (one entry per slot), ``reservations`` (per slot), ``tokened_by(corp)``,
``blocks(corp)``, ``get_slot(corp)``), ``Path`` (``a``/``b``: edge number, node or junction;
``edges``, ``nodes``, ``terminal``, ``track``, ``lanes``).

Laying track
------------
``board.upgrades_to(from_tile, to_tile, special=False) -> bool``
    The generic rule: next colour in ``color_order``; old track kept under some rotation; unless
    ``special``: labels / future labels, same towns, same cities unless labelled, OO rules.
``board.rotate(tile, r)``; ``board.legal_tile_rotation(entity, hex, tile, *, gray_town_rule=None,
reach=True) -> bool`` (tile at its current rotation); ``board.legal_rotations(entity, hex, tile, ...)
-> [r]``; ``board.rotation_problem(...) -> reason | None``
    The title's track-step checks (data ``rotation_checks``): new exits lead onto the map, the entity
    reaches a new exit (``reach=False`` or a company entity: no reach needed), old paths kept (or, with
    the gray town rule, only their exits), cities stay attached, multi-city and city-size rules, stubs.
    ``gray_town_rule=None`` takes it from the phase when the title uses it (1856).
``board.check_lay(entity, hex, tile, rotation, *, special=False, gray_town_rule=None, reach=True)``
    Raises GameError unless the lay is legal (supply, phase colour, blocks_lay, ``game.upgrades_to``
    hook, rotation). Company abilities (blocking, special lays, lay counts) stay with the track step.
``board.upgradeable_tiles(entity, hex, ...) -> [(tile, rotations)]`` (phase colours, max-exits rule).
``board.replacements(hex, colors) -> frozenset`` (names of the supply tiles that may replace the hex's
tile, of ``colors``), ``board.unusual_supply(supply)`` (supply tiles to be asked about themselves: a
label a title moved), ``board.rotations_passing(hex, tile, edges, checks)``: what ``upgradeable_tiles``
is made of, remembered by the board (see the ``upgrades_to`` hook below).
``board.lay_tile(hex, tile, rotation=None) -> old_tile``
    No checks. Old tile back to the supply, unlimited tiles get a next copy, tokens and reservations
    move to the corresponding new cities, sticky icons / tile reservations / borders / name move, a
    future label passes on until its colour, impassable hexes open toward the new exits, graphs reset.
``board.check_track_restrictions(entity, old_tile, new_tile)`` (after the lay; raises GameError)
``board.terrain_cost(tile)``, ``board.terrain_types(tile)``, ``board.upgrade_cost(old_tile, hex, entity)``
(terrain less ``tile_discount`` abilities), ``board.border_cost(hex, tile, entity)`` (what a lay would
pay for costed borders), ``board.remove_borders(hex, tile, entity, spender=None) -> cost`` (after the
lay; a border counts when the neighbour's track meets the new track across it, or as soon as the new
track points across it where ``game.border_paid_one_side``; discounts logged for ``spender``).
``board.add_icon(hex_id, name, image=None)``, ``board.remove_icon(hex_id, name) -> bool`` (one),
``board.has_icon(hex_id, name)``.

Networks (cached per corporation; a lay or a token placed forgets the networks whose walks looked at
its hex, and the placing corporation's; ``board.clear_graph()`` forgets all)
---------------------------------------------------------------------------------------------------
``board.graph(corp)`` -> ``Graph`` with ``connected_hexes`` {hex: set(edges)} (where it may lay track),
``connected_nodes`` (stops it reaches; dict used as an ordered set), ``connected_paths``,
``reachable_hexes``, ``token_cities``, ``route_info`` {"route_available", "route_train_purchase"},
``can_token()``, ``tokenable_cities()``. Shortcuts taking any entity (a company uses its owning
corporation): ``board.connected_hexes(e)``, ``connected_nodes``, ``connected_paths``,
``reachable_hexes``, ``can_token``, ``tokenable_cities``, ``route_info``. ``board.clear_graph()``.
``board.hexes_connected(start_hex_id, goal_hex_ids) -> bool`` (any track, tokens ignored: 1856
destinations).

Tokens
------
``board.tokenable(city, corp, *, tokens=None, free=False, cheater=False, extra_slot=False,
same_hex_allowed=False, cash=None) -> bool`` / ``board.token_problem(corp, city, ...) -> reason | None``
``board.place_token(corp, city, token, *, free=False, check_tokenable=True, cheater=False,
extra_slot=False, same_hex_allowed=False, connected=False, cash=None)``: into its reservation or the
first free slot; drops the corporation's reservations there; payment is the caller's.
``board.home_token_city(corp)`` -> city | [cities to choose from] | None;
``board.place_home_token(corp)`` -> the city used | [cities] (caller queues the choice) | None.
``board.remove_token(token)``, ``board.remove_corporation(corp, *, tokens=True, reservations=True)``,
``board.vacate_corporation_tokens(corp)`` (slots emptied, tokens keep their city: 1856 merger).

Routes
------
``board.build_routes(corp, routes_json, phase=None, *, strict=True) -> [Route]``
    A ``run_routes`` action's routes read together (no track shared) and validated; with
    ``strict=False`` invalid routes carry ``error`` and ``revenue`` None instead of raising.
``board.route(corp, route_json, phase=None, *, train=None, other_routes=()) -> Route`` (raises)
``Route``: ``train``, ``corporation``, ``phase``, ``chains`` [(left, right, paths)], ``visited_stops``,
``stops`` (paying), ``hexes``, ``connections``, ``revenue`` (settable), ``revenue_str`` ("O16-P17"),
``distance``, ``paths``, ``error``, ``to_json()`` (run_routes format with ``nodes``).
``board.best_routes(corp, trains=None, phase=None) -> [Route]``
    The most paying legal set of routes (one per train at most; default trains: the corporation's
    runnable ones). Exact (branch and bound over all legal routes).
``board.revenue_for(route, stops)`` (stop revenues + ``game.route_bonuses``), ``board.route_bonuses(corp)``.

Hooks the game may define (all optional)
----------------------------------------
``upgrades_to(from_tile, to_tile, special=False)`` - title upgrade rules (used by ``check_lay`` and
    ``upgradeable_tiles``; a title calls ``board.upgrades_to`` for the generic part). It may read only
    the two tiles' descriptions, colours and labels, the hex of ``from_tile`` and the phase: the board
    remembers its answers per those (``Game.upgrades_to``); ``old_paths_problem(hex, tile)`` alike.
``revenue_for(route, stops) -> int`` - authoritative route revenue (default ``board.revenue_for``).
``route_bonuses(corporation) -> [RouteBonus]`` - bonuses as data (``engine.board.bonuses``): lets the
    route search price routes quickly; without it a game that defines ``revenue_for`` is searched by
    calling ``revenue_for`` per candidate.
``check_other(route)``, ``check_route_combination(routes)`` - extra route rules (raise GameError).
``check_distance(route, visits)``, ``check_overlap(routes)`` - replace the generic distance and
    track-sharing rules when validating routes (the route search still uses the generic ones).
``train_by_id(id)`` - train lookup for routes naming a train the corporation does not hold.

View
----
``board.view()`` -> {"tiles": {hex: "57-1@2"}, "tokens": {"N11/0": ["CV", None]}, "reservations": {...},
"icons": {...}, "assignments": {...}} (JSON-safe; only what differs from the printed map).
``board.city_ref(city)`` -> "N11/0" style reference.
"""

from .board import Board
from .bonuses import RouteBonus
from .graph import Graph
from .parts import City, Hex, Node, Offboard, Path, Tile, TileDef, Town
from .routes import Route, RouteError

__all__ = ["Board", "Graph", "Route", "RouteError", "RouteBonus", "Hex", "Tile", "TileDef", "Path", "Node", "City",
           "Town", "Offboard"]
