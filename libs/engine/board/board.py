"""The map of one game: hexes, tiles on them, the tile supply, tokens in cities; laying track."""

from __future__ import annotations

import contextlib

from ..errors import GameError
from ..journal import Tracked
from . import upgrades as up
from .bonuses import bonus_total
from .geometry import DELTAS, invert, xy
from .graph import Graph, hexes_connected, may_reach, paths_reached, token_starts
from .parts import Hex, Tile, TileDef, own_list
from .routes import build_route, build_routes

DEFAULT_COLOR_ORDER = ("white", "yellow", "green", "brown", "gray")

# Tile descriptions as parsed, shared by every board built from the same data (a title's data is
# loaded once per process and never written): (name, id of the raw description) -> (raw, TileDef).
# A TileDef only ever adds facts it derives from its description.
_PARSED_DEFS = {}
# What the board learnt of which tiles may replace which, and in which rotations, shared by the
# boards of the games of one title played alike (the states an undo rebuilds too): (game class, id of
# the board data, optional rules, player count) -> (board data, {key: answer}). The answers are
# those of pure rules (``Board.upgrades_to`` and ``remembered_upgrade``, keyed by the two tiles;
# ``replacements`` and ``_fitting``, keys led by their names).
_LAYS_KNOWN = {}
DEFAULT_IMPASSABLE = ("blue", "gray", "red")


def shared_tile_def(key: str, raw: dict) -> TileDef:
    """The tile description ``raw`` (named ``key``) as parsed, the same object for every board."""
    parsed = _PARSED_DEFS.get((key, id(raw)))
    if parsed is None or parsed[0] is not raw:
        parsed = _PARSED_DEFS[(key, id(raw))] = (raw, TileDef(key, raw))
    return parsed[1]


class Board(Tracked):
    """See the package docstring (``engine.board``) for the public API."""

    # What the board computes and remembers (networks, chains read, what lays it learnt): never
    # journaled, forgotten when a journal puts the state back (engine.journal).
    JOURNAL_CACHES = frozenset(("_graphs", "_graph_key", "chains_read", "_lays_known", "_unusual_in"))

    def forget_caches(self) -> None:
        self._graphs = {}
        self._graph_key = None
        self.chains_read = {}
        self._lays_known = self._unusual_in = None

    def __getstate__(self):
        """What a copy of the board holds (an undo's kept state, a dump): all but the chains read
        for routes, a cache that a copy makes again as it reads routes, and what it learnt of
        upgrades and rotations (``_lays_memory``, found again by the copy). Its slots go too: a
        journaled state's board is sealed (``Tracked._born``), and a board read from its dump
        without that mark would be taken for one made in the first move after it, whose changes
        the journal then does not record (an undo of that move would leave them in place)."""
        fields = super().__getstate__()
        state, slots = fields if isinstance(fields, tuple) else (fields, None)
        state = state.copy()
        state["chains_read"] = {}
        state["_lays_known"] = state["_unusual_in"] = None
        return state if slots is None else (state, slots)

    def parts(self) -> list:
        """The board's own objects, found without a walk: its hexes, every tile made so far with its
        nodes, paths and junction, and the networks it holds (``statecopy.let_go`` empties them
        without walking what they hold: every other object of the state they point at is reached
        from elsewhere, or freed by reference counts once they are emptied)."""
        out = list(self.hexes)
        for tile in self._tiles.values():
            out.append(tile)
            out += tile.nodes
            out += tile.paths
            if tile.junction is not None:
                out.append(tile.junction)
        out += self._graphs.values()
        return out

    def __init__(self, data: dict, game=None):
        self.game = game
        self.data = data
        self.layout = data.get("layout", "flat")
        self.axes = data.get("axes") or ({"x": "letter", "y": "number"} if self.layout == "flat"
                                         else {"x": "number", "y": "letter"})
        self.color_order = tuple(data.get("color_order") or DEFAULT_COLOR_ORDER)
        checks = list(data.get("rotation_checks") or up.ROTATION_CHECKS)
        self.gray_town_rule = "gray_towns" in checks
        self.rotation_checks = tuple(c for c in checks if c != "gray_towns")
        self._raw_defs = data.get("tiles", {})
        self._defs = {}
        self.supply_order = []
        self.supply_counts = {}
        for name, count in data.get("supply", ()):
            self.supply_order.append(name)
            self.supply_counts[name] = None if count == "unlimited" else int(count)
        self._copies = {name: (1 if c is None else c) for name, c in self.supply_counts.items()}
        self._tiles = {}
        self.version = 0
        # route connections read as track: hex sequence -> (its hexes, the tiles read on and their
        # rotations, the chains; routes.py)
        self.chains_read = {}
        self._graphs = {}
        self._graph_key = None
        self._copy_ids = {}   # supply tile name -> ids of its copies so far
        self._supply = None   # supply_tiles while they cannot change (supply_unchanged)
        self._reach_held = None   # meanwhile, corporation -> its connected hexes (reach_edges)
        self._lays_known = None   # what lay_candidates learnt: ``_lays_memory``
        self._unusual_in = None   # (supply, names): ``unusual_supply``

        records = list(data.get("hexes", ()))
        optional = data.get("optional_hexes") or {}
        for rule in (getattr(game, "optional_rules", None) or ()):
            overrides = {h["id"]: h for h in optional.get(rule, ())}
            if overrides:
                records = [overrides.get(h["id"], h) for h in records]
                known = {h["id"] for h in records}
                records += [h for hid, h in overrides.items() if hid not in known]
        self.hexes = []
        self._hexes = {}
        for i, rec in enumerate(records):
            tile_id = rec["tile"]
            name, _, index = tile_id.rpartition("-")
            tdef = self.tile_def(rec.get("def", name))
            tile = Tile(name, int(index), tdef, preprinted=True)
            if rec.get("blockers"):
                tile.blockers = list(rec["blockers"])
            if rec.get("hidden_blockers"):
                tile.hidden_blockers = list(rec["hidden_blockers"])
            x, y = xy(rec["id"], self.axes)
            hex_ = Hex(rec["id"], x, y, i, tile, rec.get("name"))
            hex_.hide_location_name = bool(rec.get("hide_name"))
            hex_.empty = bool(rec.get("empty"))
            self.hexes.append(hex_)
            self._hexes[hex_.id] = hex_
            self._tiles[tile.id] = tile
        self._connect_hexes()
        self._map_cities = [c for h in self.hexes for c in h.tile.cities]
        for res in data.get("reservations", ()):
            self._add_reservation(res)

    # ================================================================ set-up helpers
    def tile_def(self, key: str) -> TileDef:
        found = self._defs.get(key)
        if found is None:
            raw = self._raw_defs.get(key)
            if raw is None:
                raise GameError(f"Unknown tile {key}")
            found = self._defs[key] = shared_tile_def(key, raw)
        return found

    @property
    def rules(self) -> dict:
        return getattr(self.game, "rules", None) or {}

    @property
    def impassable_colors(self):
        return self.rules.get("impassable_hex_colors", DEFAULT_IMPASSABLE)

    def _connect_hexes(self) -> None:
        by_xy = {(h.x, h.y): h for h in self.hexes}
        deltas = DELTAS[self.layout]
        impassable = self.impassable_colors
        for hex_ in self.hexes:
            x, y = hex_.x, hex_.y
            walls = {b.get("edge") for b in hex_.tile.borders if b.get("type") == "impassable"} \
                if hex_.tile.borders else ()
            all_n, passable = hex_.all_neighbors, hex_.neighbors
            for e, (dx, dy) in enumerate(deltas):
                other = by_xy.get((x + dx, y + dy))
                if other is None:
                    continue
                all_n[e] = other
                if other.tile.color in impassable and (e + 3) % 6 not in other.tile.exits:
                    continue
                if e in walls:
                    continue
                passable[e] = other

    def _entity(self, ident):
        game = self.game
        for group in ("corporations", "companies", "minors"):
            for entity in getattr(game, group, None) or ():
                if getattr(entity, "id", None) == ident:
                    return entity
        return ident

    def _add_reservation(self, res: dict) -> None:
        hex_ = self._hexes.get(res["hex"])
        if hex_ is None:
            return
        needs = res.get("with_rules")
        if needs and not set(needs) <= set(getattr(self.game, "optional_rules", None) or ()):
            return   # the holder comes with optional rules this game does not use
        entity = self._entity(res["entity"])
        tile = hex_.tile
        city_index = res.get("city")
        if city_index is None and len(tile.cities) == 1:
            city_index = 0
        if city_index is not None and city_index < len(tile.cities):
            city = tile.cities[city_index]
            slot = res.get("slot")
            if slot is None:
                slot = city.get_slot(entity)
            if slot is not None:
                city.add_reservation(entity, slot)
                return
        own_list(tile, "reservations").append(entity)

    # ================================================================ lookups
    def hex_by_id(self, hex_id):
        return self._hexes.get(hex_id)

    def all_hexes(self) -> list:
        return self.hexes

    def tile_by_id(self, tile_id, *, make=False):
        """A tile by id ("57-1"): a preprinted tile or a copy of the supply (made on first use). An
        unlimited tile has one copy more than it has been laid; ``make=True`` makes copies up to the
        given index (to set up a position whose history is not replayed)."""
        found = self._tiles.get(tile_id)
        if found is not None:
            return found
        if not isinstance(tile_id, str):
            return None
        name, _, index = tile_id.rpartition("-")
        if name not in self.supply_counts or not index.isdigit():
            return None
        index = int(index)
        if make and self.supply_counts[name] is None:
            self._copies[name] = max(self._copies[name], index + 1)
        if index >= self._copies[name]:
            return None
        tile = Tile(name, index, self.tile_def(name), unlimited=self.supply_counts[name] is None)
        self._tiles[tile_id] = tile
        return tile

    def city_by_id(self, city_id):
        """A city by id ("<tile id>-<part index>", e.g. "15-0-0")."""
        if not isinstance(city_id, str):
            return None
        tile_id, _, part = city_id.rpartition("-")
        tile = self.tile_by_id(tile_id)
        if tile is None or not part.isdigit():
            return None
        part = int(part)
        for city in tile.cities:
            if city.index == part:
                return city
        return None

    def node_by_id(self, node_id):
        tile_id, _, part = node_id.rpartition("-")
        tile = self.tile_by_id(tile_id)
        if tile is None or not part.isdigit():
            return None
        return next((n for n in tile.nodes if n.index == int(part)), None)

    def cities(self) -> list:
        """Cities of the tiles on the map."""
        return list(self._map_cities)

    # ================================================================ the tile supply
    def tile_available(self, tile) -> bool:
        """Whether ``tile`` is a supply copy lying in the supply (not on the map)."""
        return (tile is not None and not tile.preprinted and tile.hex is None
                and self._tiles.get(tile.id) is tile)

    def supply_tiles(self) -> list:
        """One available copy (the lowest index) of each supply tile name, in supply order."""
        if self._supply is not None:
            return self._supply
        out = []
        tiles, ids = self._tiles, self._copy_ids
        for name in self.supply_order:
            names = ids.get(name)
            if names is None or len(names) < self._copies[name]:
                names = ids[name] = [f"{name}-{index}" for index in range(self._copies[name])]
            for tile_id in names:
                tile = tiles.get(tile_id) or self.tile_by_id(tile_id)
                if tile.hex is None:
                    out.append(tile)
                    break
        return out

    @contextlib.contextmanager
    def supply_unchanged(self):
        """While the tiles stay where they are (offering lays, which only look): ``supply_tiles``
        is computed once, and so is each network ``reach_edges`` reads."""
        self._supply = self.supply_tiles()
        self._reach_held = {}
        try:
            yield
        finally:
            self._supply = self._reach_held = None

    def supply_count(self, name):
        """Copies of ``name`` left in the supply (None: unlimited)."""
        if self.supply_counts.get(name, 0) is None:
            return None
        on_map = sum(1 for t in self._tiles.values() if t.name == name and t.hex is not None and not t.preprinted)
        return self._copies.get(name, 0) - on_map

    def rotate(self, tile, rotation: int) -> None:
        tile.rotate(rotation % 6)

    # ================================================================ upgrades
    def upgrades_to(self, from_tile, to_tile, special=False) -> bool:
        """The generic rule (colour, track kept, label, city/town counts); titles add theirs in
        ``game.upgrades_to``. It reads only the tiles' descriptions, colours and labels, so each
        answer is remembered."""
        key = (from_tile.tdef.key, from_tile.color, from_tile.label, from_tile.future_label,
               to_tile.tdef.key, to_tile.color, to_tile.label, special)
        known = self._lays_memory()
        found = known.get(key)
        if found is None:
            found = known[key] = up.upgrades_to(from_tile, to_tile, self.color_order, special)
        return found

    def remembered_upgrade(self, from_tile, to_tile, rule, decide) -> bool:
        """``decide()``, remembered per ``rule`` and per what an upgrade rule that reads only the two
        tiles' descriptions, colours and labels can see of them (as ``upgrades_to`` remembers the
        generic rule's answers)."""
        key = (from_tile.tdef.key, from_tile.color, from_tile.label, from_tile.future_label,
               to_tile.tdef.key, to_tile.color, to_tile.label, rule)
        known = self._lays_memory()
        found = known.get(key)
        if found is None:
            found = known[key] = decide()
        return found

    def _title_upgrades_to(self, from_tile, to_tile, special=False) -> bool:
        hook = getattr(self.game, "upgrades_to", None)
        if hook is None:
            return self.upgrades_to(from_tile, to_tile, special)
        return hook(from_tile, to_tile, special)

    def _gray_towns(self, gray_town_rule):
        if gray_town_rule is not None:
            return gray_town_rule
        if not self.gray_town_rule:
            return False
        phase = getattr(self.game, "phase", None)
        return phase is not None and "gray" in phase.tiles

    def reach_edges(self, entity, hex_):
        """Edges of ``hex_`` the entity's network reaches (empty set if none); None for no entity."""
        if entity is None or getattr(entity, "is_company", False):
            # a company's special lay: any exit toward a hex track may enter
            return None
        corp = self._operator(entity)
        if corp is None:
            return None
        held = self._reach_held
        if held is None:
            return self.connected_hexes(corp).get(hex_, set())
        network = held.get(corp)
        if network is None:
            network = held[corp] = self.connected_hexes(corp)
        return network.get(hex_, set())

    def rotation_problem(self, entity, hex_, tile, *, gray_town_rule=None, reach=True):
        edges = self.reach_edges(entity, hex_) if reach else None
        return up.rotation_problem(hex_, tile, self.rotation_checks, edges,
                                   gray_towns=self._gray_towns(gray_town_rule),
                                   old_paths=getattr(self.game, "old_paths_problem", None))

    def legal_tile_rotation(self, entity, hex_, tile, *, gray_town_rule=None, reach=True) -> bool:
        """Whether ``tile`` at its current rotation may be laid on ``hex_`` by ``entity`` (the track
        step's rotation checks of the title; ``reach=False`` skips the connection requirement)."""
        return self.rotation_problem(entity, hex_, tile, gray_town_rule=gray_town_rule, reach=reach) is None

    def legal_rotations(self, entity, hex_, tile, *, gray_town_rule=None, reach=True, first=False) -> list:
        """Rotations (0..5) in which ``tile`` may be laid on ``hex_`` (``first``: the first of them
        only); the tile keeps its rotation."""
        edges = self.reach_edges(entity, hex_) if reach else None
        return self._legal_rotations(hex_, tile, edges, self._gray_towns(gray_town_rule), first)

    def _legal_rotations(self, hex_, tile, edges, gray_towns, first, old_key=None, checks=None) -> list:
        """Rotations of ``tile`` on ``hex_`` passing the rotation ``checks`` (the board's unless
        given; ``edges``: what the layer reaches, None for anything; ``old_key``: ``_old_key(hex_)``
        when the caller has it). The tile keeps its rotation."""
        checks = self.rotation_checks if checks is None else checks
        fitting = self._fitting(hex_, tile, gray_towns, old_key or self._old_key(hex_), checks)
        if edges is not None and "reach" in checks:
            out = [r for r, exits in fitting if any(e in edges for e in exits)]
        else:
            out = [r for r, _ in fitting]
        return out[:1] if first else out

    def rotations_passing(self, hex_, tile, edges, checks, *, first=False) -> list:
        """Rotations of ``tile`` on ``hex_`` passing the rotation ``checks`` (``ROTATION_CHECKS``
        names; ``edges``: the edges the layer reaches, None for any; no gray town rule), as a title
        with checks of its own asks ``upgrades.rotation_problem``, remembered like ``legal_rotations``."""
        return self._legal_rotations(hex_, tile, edges, False, first, checks=tuple(checks))

    def _lays_memory(self) -> dict:
        """The answers the upgrade and rotation rules remember, shared with the boards of the games
        of the same title played alike (``_LAYS_KNOWN``)."""
        known = self._lays_known
        if known is None:
            game = self.game
            key = (type(game), id(self.data), tuple(getattr(game, "optional_rules", None) or ()),
                   len(getattr(game, "players", None) or ()))
            shared = _LAYS_KNOWN.get(key)
            if shared is None or shared[0] is not self.data:
                from .. import statecopy   # (statecopy reads this module)
                shared = _LAYS_KNOWN[key] = (self.data, {})
                statecopy.share(shared[1])   # (every board of the title's games reads it: never a state's own)
            known = self._lays_known = shared[1]
        return known

    def _old_key(self, hex_) -> tuple:
        """What the rotation checks read of the hex and of its tile besides the layer's reach: which
        neighbours track may enter, the tile's description, rotation, colour, labels, remaining stubs
        and city sizes (the title's ``old_paths_problem`` hook reads no more than the upgrade hooks:
        see ``Game.upgrades_to``)."""
        old = hex_.tile
        return (hex_.id, tuple(n is None for n in hex_.neighbors), old.name, old.tdef.key, old.rotation,
                old.color, old.label, old.future_label, tuple(s["edge"] for s in old.stubs),
                tuple(c.slots for c in old.cities))

    def _fitting(self, hex_, tile, gray_towns, old_key, checks) -> tuple:
        """((rotation, exits), ...) of ``tile`` on ``hex_`` passing every rotation check of ``checks``
        but the reach, remembered per ``old_key``, the checks and what they read of the new tile."""
        key = ("fitting", old_key, tile.tdef.key, tile.color, tile.label, tile.future_label, gray_towns, checks)
        known = self._lays_memory()
        found = known.get(key)
        if found is None:
            keep = tile.rotation
            old_paths = getattr(self.game, "old_paths_problem", None)
            others = tuple(c for c in checks if c != "reach")
            found = []
            for r in range(6):
                tile.rotate(r)
                if up.rotation_problem(hex_, tile, others, None, gray_towns=gray_towns, old_paths=old_paths) is None:
                    found.append((r, tile.exits))
            tile.rotate(keep)
            found = known[key] = tuple(found)
        return found

    def check_lay(self, entity, hex_, tile, rotation, *, special=False, gray_town_rule=None, reach=True) -> None:
        """Raise GameError (changing nothing) unless ``tile`` may be laid on ``hex_`` at ``rotation``
        by ``entity``: tile in the supply, colour available in the phase, upgrade rule (title hook
        ``game.upgrades_to``), rotation rules. Company abilities (blocking, special lays, costs) are
        the track step's business."""
        if not isinstance(rotation, int) or not 0 <= rotation <= 5:
            raise GameError(f"Rotation must be 0 to 5, not {rotation!r}")
        if not self.tile_available(tile):
            raise GameError(f"Tile {getattr(tile, 'id', tile)} is not available")
        phase = getattr(self.game, "phase", None)
        if phase is not None and tile.color not in phase.tiles:
            raise GameError(f"{tile.color.capitalize()} tiles cannot be laid in phase {phase.name}")
        old = hex_.tile
        if old.blocks_lay:
            raise GameError(f"Tiles cannot be laid on {hex_.id}")
        keep = tile.rotation
        tile.rotate(rotation)
        try:
            if not self._title_upgrades_to(old, tile, special):
                raise GameError(f"{old.name} is not upgradeable to {tile.name}")
            problem = self.rotation_problem(entity, hex_, tile, gray_town_rule=gray_town_rule, reach=reach)
            if problem is not None:
                raise GameError(f"{old.name} is not legally rotated for {tile.name}: {problem}")
        finally:
            tile.rotate(keep)

    def upgradeable_tiles(self, entity, hex_, *, gray_town_rule=None, reach=True) -> list:
        """(tile, rotations) for each supply tile that may be laid on ``hex_`` now (one copy per name),
        honouring the phase's colours and the title's max-exits rule."""
        return self.max_exits_only(hex_.tile, list(self.lay_candidates(entity, hex_, gray_town_rule=gray_town_rule,
                                                                        reach=reach)))

    def lay_candidates(self, entity, hex_, *, gray_town_rule=None, reach=True, first=False):
        """``upgradeable_tiles`` one tile at a time, before the max-exits rule (which only narrows
        them): enough to learn whether anything at all may be laid on the hex (``first``: each tile
        with its first legal rotation only)."""
        supply = self.supply_tiles()
        phase = getattr(self.game, "phase", None)
        colors = None if phase is None else phase.tiles
        upgrades = self._title_upgrades_to
        old = hex_.tile
        allowed = self.replacements(hex_, colors)
        unusual = self.unusual_supply(supply)
        edges = gray = old_key = None
        for tile in supply:
            name = tile.name
            if name in unusual:
                if (colors is not None and tile.color not in colors) or tile.blocks_lay or not upgrades(old, tile):
                    continue
            elif name not in allowed:
                continue
            if gray is None:   # (the same for every tile: asked once)
                edges = self.reach_edges(entity, hex_) if reach else None
                gray = self._gray_towns(gray_town_rule)
                old_key = self._old_key(hex_)
            rotations = self._legal_rotations(hex_, tile, edges, gray, first, old_key)
            if rotations:
                yield tile, rotations

    def replacements(self, hex_, colors) -> frozenset:
        """Names of the supply tiles that, as their descriptions make them, may replace the hex's tile
        in a normal lay: of ``colors`` (None: any), not blocking lays, and upgrades by the title's
        rule (``Game.upgrades_to``, which reads no more than the key). Remembered per hex, its tile,
        the phase and the colours. A supply tile of ``unusual_supply`` is to be asked about itself."""
        old = hex_.tile
        phase = getattr(self.game, "phase", None)
        key = ("replacements", hex_.id, old.name, old.tdef.key, old.color, old.label, old.future_label,
               None if phase is None else (phase.name, tuple(phase.tiles)), None if colors is None else tuple(colors))
        known = self._lays_memory()
        found = known.get(key)
        if found is None:
            upgrades = self._title_upgrades_to
            found = known[key] = frozenset(
                name for name, tile in self._described().items()
                if (colors is None or tile.color in colors) and not tile.blocks_lay and upgrades(old, tile))
        return found

    def _described(self) -> dict:
        """Per supply tile name, a tile as its description makes it (on no hex; never laid): what
        ``replacements`` asks the upgrade rule about."""
        known = self._lays_memory()
        found = known.get("described")
        if found is None:
            found = known["described"] = {
                name: Tile(name, 0, self.tile_def(name)) for name in self.supply_order}
        return found

    def unusual_supply(self, supply) -> frozenset:
        """Names of the ``supply`` tiles that differ from their description in what the upgrade rule
        reads (a label a title moved with a lay): ``replacements`` does not answer for them."""
        last = self._unusual_in
        if last is not None and last[0] is supply:
            return last[1]
        found = frozenset(t.name for t in supply
                          if t.color != t.tdef.color or t.label != t.tdef.label or t.future_label != t.tdef.future_label)
        self._unusual_in = (supply, found)
        return found

    def max_exits_only(self, old, out) -> list:
        """The title's max-exits rule on (tile, rotations) options for replacing ``old``: where it
        applies, only the tiles with the most exits of each colour stay."""
        rule = self.rules.get("tile_upgrades_must_use_max_exits") or ()
        if (old.cities and "cities" in rule) or (old.cities and not old.labels and "unlabeled_cities" in rule) or \
                (not old.cities and not old.towns and "track" in rule):
            best = {}
            for tile, _ in out:
                best[tile.color] = max(best.get(tile.color, 0), len(tile.exits))
            out = [(t, r) for t, r in out if len(t.exits) == best[t.color]]
        return out

    # ================================================================ costs
    @staticmethod
    def terrain_cost(tile) -> int:
        return tile.terrain_cost

    @staticmethod
    def terrain_types(tile) -> list:
        return tile.terrain_types

    def upgrade_cost(self, old_tile, hex_, entity) -> int:
        """Terrain cost of replacing ``old_tile`` on ``hex_``, less the entity's ``tile_discount``
        abilities (those without a terrain, or for a terrain of the tile)."""
        entity = self._operator(entity) or entity
        cost = old_tile.terrain_cost
        types = old_tile.terrain_types
        discount = 0
        for a in getattr(entity, "all_abilities", ()) or ():
            if a.type != "tile_discount" or (a.hexes and hex_.id not in a.hexes):
                continue
            if not a.terrain or a.terrain in types:
                discount += a.discount or 0
        return cost - min(cost, discount)

    def border_cost(self, hex_, tile, entity=None) -> int:
        """What crossing the hex's costed borders would cost if ``tile`` (at its rotation) were laid
        there; nothing changes."""
        return self._borders(hex_, tile, entity, None, remove=False)

    def remove_borders(self, hex_, tile, entity=None, spender=None) -> int:
        """After a lay: pay for each costed border the new track now crosses and remove it (from the
        neighbour's side too when its track meets there). Returns the cost less terrain discounts
        (logged as received by ``spender`` when given)."""
        return self._borders(hex_, tile, entity, spender, remove=True)

    def _borders(self, hex_, tile, entity, spender, remove) -> int:
        """Costed borders of the hex that ``tile`` crosses: an exit toward the neighbour and, unless
        the game pays a border as soon as its track points across (``game.border_paid_one_side``),
        one of the neighbour's tile meeting it."""
        one_side = getattr(self.game, "border_paid_one_side", False)
        borders = tile.borders if tile.hex is hex_ else hex_.tile.borders
        total = 0
        for border in list(borders):
            cost = border.get("cost")
            if not cost:
                continue
            edge = border["edge"]
            neighbor = hex_.neighbors[edge]
            if neighbor is None or edge not in tile.exits:
                continue
            facing = invert(edge)
            joined = facing in neighbor.tile.exits
            if not (joined or one_side):
                continue
            if remove:
                borders.remove(border)
                if joined and neighbor.tile.borders:
                    neighbor.tile.borders[:] = [b for b in neighbor.tile.borders if b.get("edge") != facing]
            total += cost - self.border_discount(entity, spender, border, cost, hex_)
        return total

    def border_discount(self, entity, spender, border, cost, hex_) -> int:
        """The first ``tile_discount`` ability for the border's terrain (of the entity, or of the
        corporation owning it) that applies to the hex, at most the cost."""
        if entity is None:
            return 0
        owner = getattr(entity, "owner", None)
        if not entity.is_corporation and owner is not None and owner.is_corporation:
            entity = owner
        for a in getattr(entity, "all_abilities", ()) or ():
            if a.type != "tile_discount" or not a.terrain or border.get("type") != a.terrain or \
                    (a.hexes is not None and hex_.id not in a.hexes):
                continue
            discount = min(a.discount or 0, cost)
            if discount > 0 and spender is not None and self.game is not None:
                self.game.log.append(f"{spender.name} receives a discount of {self.game.fmt(discount)} from "
                                     f"{a.owner.name}")
            return discount
        return 0

    # ================================================================ laying
    def lay_tile(self, hex_, tile, rotation=None) -> Tile:
        """Put ``tile`` on ``hex_`` (no rule checks: see ``check_lay``). The old tile returns to the
        supply (preprinted tiles do not); tokens and reservations move to the corresponding new cities,
        sticky icons, tile reservations, borders and the location name move to the new tile, a future
        label passes on until its colour is reached, and a formerly impassable hex opens toward the
        new exits. Returns the old tile."""
        if tile.hex is not None:
            raise GameError(f"Cannot lay tile {tile.id}; it is already on hex {tile.hex.id}")
        if tile.preprinted or self._tiles.get(tile.id) is not tile:
            raise GameError(f"Tile {tile.id} is not in the supply")
        if rotation is not None:
            tile.rotate(rotation % 6)
        old = hex_.tile
        mapping = up.city_map(old, tile)
        for old_city, new_city in mapping.items():
            if new_city is None and (any(t is not None for t in old_city.tokens) or old_city.extra_tokens):
                raise GameError(f"No city found on new tile {tile.id} for tokens from {old.id}")
        if tile.unlimited:
            self._copies[tile.name] += 1
        # reservations
        for old_city, new_city in mapping.items():
            if new_city is not None:
                new_city.reservations.extend(old_city.reservations)
                new_city.groups = old_city.groups
            old_city.reservations = []
        old.hex = None
        tile.hex = hex_
        # tokens
        if len(mapping) == 1:
            (old_city, new_city), = mapping.items()
            for i, token in enumerate(old_city.tokens if new_city is not None else ()):
                if token is not None:
                    self._exchange_token(new_city, token, cheater=i >= old_city.slots)
            for token in old_city.extra_tokens:
                self._exchange_token(new_city, token, extra_slot=True)
            old_city.reset()
        elif len(mapping) > 1:
            grouped = {}
            for old_city, new_city in mapping.items():
                tokens = [t for t in old_city.tokens if t is not None]
                if new_city is None:
                    continue
                grouped.setdefault(new_city, []).extend(tokens)
            for new_city, tokens in grouped.items():
                reserved = len(new_city.reservations)
                for i, token in enumerate(tokens):
                    self._exchange_token(new_city, token, cheater=reserved + i >= new_city.slots)
            for old_city, new_city in mapping.items():
                for token in old_city.extra_tokens if new_city is not None else ():
                    self._exchange_token(new_city, token, extra_slot=True)
                old_city.reset()
        # icons
        names = {}
        for icon in tile.icons:
            names[icon["name"]] = names.get(icon["name"], 0) + 1
        for icon in old.icons:
            if not icon.get("sticky"):
                continue
            if names.get(icon["name"]):
                names[icon["name"]] -= 1
                continue
            moved = dict(icon)
            moved["preprinted"] = False
            own_list(tile, "icons").append(moved)
        if old.icons:
            old.icons = [i for i in old.icons if i.get("preprinted", True)] or ()
        # future label, tile reservations, borders, partitions, name
        if old.future_label is not None and old.future_label[1] != tile.color:
            tile.future_label = old.future_label
        old.future_label = old.tdef.future_label
        tile.reservations = old.reservations
        old.reservations = ()
        if old.borders:
            own_list(tile, "borders").extend(old.borders)
            old.borders = ()
        tile.location_name = hex_.location_name
        old.location_name = None
        hex_.tile = tile
        if old.cities or tile.cities:
            self._replace_map_cities(old, tile)
        # a formerly impassable hex opens toward the new exits
        if old.color in self.impassable_colors:
            for e in range(6):
                other = hex_.all_neighbors[e]
                if other is None or e not in tile.exits:
                    continue
                if any(b.get("edge") == e and b.get("type") == "impassable" for b in tile.borders):
                    continue
                other.neighbors[invert(e)] = hex_
                hex_.neighbors[e] = other
            self.clear_graph()   # (the neighbours' crossings change: walks that never looked here too)
        else:
            self._forget_graphs((hex_,), ())   # (the tokens move to the new tile: as many on the map)
        return old

    def _replace_map_cities(self, old, tile) -> None:
        """The board's list of map cities (in map order) with ``tile``'s cities in place of ``old``'s:
        spliced where the old ones stood, or listed again from the hexes when ``old`` had none."""
        listed = self._map_cities
        if old.cities:
            first = old.cities[0]
            for i, city in enumerate(listed):
                if city is first:   # (a new list: a copy of the state may share the old one)
                    self._map_cities = listed[:i] + list(tile.cities) + listed[i + len(old.cities):]
                    return
        self._map_cities = [c for h in self.hexes for c in h.tile.cities]

    def _exchange_token(self, city, token, cheater=False, extra_slot=False) -> None:
        token.place(city)
        if extra_slot:
            city.extra_tokens.append(token)
            return
        slot = city.get_slot(token.corporation, cheater=cheater)
        if slot is None:
            slot = len(city.tokens)
        if slot == 1 and city.slots == 1 and sum(1 for r in city.reservations if r is not None) == 2:
            slot = 0
            city.reservations.reverse()
        while slot >= len(city.tokens):
            city.tokens.append(None)
        city.tokens[slot] = token

    def check_track_restrictions(self, entity, old_tile, new_tile) -> None:
        """After a lay by an operating company: the title's track restriction (``rules.track_restriction``)
        and, unless towns may be removed, that every old city/town keeps its track."""
        corp = self._operator(entity)
        if corp is None:
            return
        problems = [self._restriction_problem(old_tile, new_tile, g.connected_paths) for g in self.networks(corp)]
        if all(problems):
            raise GameError(problems[0])

    def track_restriction_problem(self, entity, hex_, tile):
        """Before a lay: what ``check_track_restrictions`` would say once ``tile`` (at its rotation)
        lay on ``hex_``, or None. The corporation's network is walked with the tile put in place for
        the moment (its token on the old tile standing in the matching new city); nothing changes."""
        corp = self._operator(entity)
        if corp is None:
            return None
        if tile.hex is not None:
            return f"Tile {tile.id} is already on the map"
        old = hex_.tile
        reason, wanted = self._restriction_rule(old, tile)
        if not wanted:   # decided whatever the network reaches: no walk needed
            return reason
        starts, blocked = self.upgrade_token_cities(old, tile, corp)
        hook = getattr(self.game, "graph_specs", None)
        specs = hook(corp) if hook is not None else (None,)
        # Only walks that looked at this hex on the board as it is can reach the new tile: the others
        # would be the same with it in place (and their tokens stay where they are). The walks from
        # tokens on the hex go first, and the walking stops at the first path that satisfies the rule.
        footprints = [self.graph(corp, spec).footprints for spec in specs]
        wanted = set(wanted)
        hex_.tile, tile.hex = tile, hex_
        try:
            for spec, looked in zip(specs, footprints):
                nodes = token_starts(self, corp, starts, spec[1] if spec else False)
                walk = [n for h, n in nodes if h is hex_] + \
                    [n for h, n in nodes if h is not hex_ and hex_ in looked.get(n, ())]
                skip_track = spec[0] if spec else None
                # plain reachability first: when no track at all leads there, no walk need try its ways
                barred = {n for _, n in nodes if n not in walk}.union(blocked)
                if not may_reach(walk, wanted.__contains__, corp, barred, skip_track):
                    continue
                if paths_reached(corp, [n for _, n in nodes], walk, skip_track=skip_track,
                                 blocked_cities=blocked, stop=wanted) & wanted:
                    return None
        finally:
            hex_.tile, tile.hex = old, None
        return reason

    @staticmethod
    def upgrade_token_cities(old_tile, new_tile, corp) -> tuple:
        """For ``new_tile`` replacing ``old_tile``: (its cities that will hold ``corp``'s tokens, its
        cities the old cities' tokens will leave full of other companies' tokens)."""
        mapping = up.city_map(old_tile, new_tile)
        starts = [new for old_city, new in mapping.items() if new is not None and old_city.tokened_by(corp)]
        held = {}
        for old_city, new in mapping.items():
            if new is not None:
                held.setdefault(new, []).extend(t for t in old_city.tokens if t is not None)
        blocked = [new for new, tokens in held.items() if new not in starts and len(tokens) >= new.slots
                   and not any(t.type == "neutral" for t in tokens)]
        return starts, blocked

    def _restriction_problem(self, old_tile, new_tile, connected):
        reason, wanted = self._restriction_rule(old_tile, new_tile)
        if wanted and any(p in connected for p in wanted):
            return None
        return reason

    def _restriction_rule(self, old_tile, new_tile) -> tuple:
        """What the title's track restriction asks of ``new_tile`` (at its rotation) replacing
        ``old_tile``: (reason, paths). The lay is refused for ``reason`` unless the network reaches
        one of ``paths`` (new track, or track whose city value changes, as the restriction counts
        them); with no ``paths`` the answer is ``reason`` (None: allowed) whatever it reaches."""
        if not self.rules.get("allow_removing_towns", False):
            for old_ct in old_tile.city_towns:
                old_exits = set(old_ct.exits)
                if not any(old_exits <= set(n.exits) for n in new_tile.city_towns):
                    return "New track must override old one", ()
        old_paths = old_tile.paths
        restriction = self.rules.get("track_restriction", "semi_restrictive")
        if not old_paths or (restriction == "city_permissive" and new_tile.cities) or \
                (restriction == "station_restrictive" and new_tile.nodes):
            return None, ()
        new_track, changed_city = [], []
        old_ends = [(up._rotate_ends(e, old_tile.rotation), t) for e, t in old_tile.tdef.path_ends()]
        new_ends = new_tile.tdef.path_ends()
        for i, np in enumerate(new_tile.paths):
            ends, track = new_ends[i]
            ends = up._rotate_ends(ends, new_tile.rotation)
            op = next((old_paths[j] for j, (oe, ot) in enumerate(old_ends) if up.path_fits(ends, track, oe, ot)),
                      None)
            if op is None:
                new_track.append(np)
            elif sorted(n.max_revenue for n in op.nodes) != sorted(n.max_revenue for n in np.nodes):
                changed_city.append(np)
        if restriction == "city_permissive":
            return "Must be city tile or use new track", new_track
        if restriction in ("restrictive", "station_restrictive"):
            return "Must use new track", new_track
        if restriction == "semi_restrictive":
            return "Must use new track or change city value", new_track + changed_city
        return None, ()

    # ================================================================ icons
    def add_icon(self, hex_id, name, image=None, *, sticky=True, blocks_lay=False) -> None:
        hex_ = self._hex(hex_id)
        own_list(hex_.tile, "icons").append({"name": name, "image": image or f"/icons/{name}.svg", "sticky": sticky,
                                "blocks_lay": blocks_lay, "preprinted": True})

    def remove_icon(self, hex_id, name) -> bool:
        """Remove one icon called ``name`` from the hex's tile; False if there is none."""
        icons = self._hex(hex_id).tile.icons
        for i, icon in enumerate(icons):
            if icon["name"] == name:
                del icons[i]
                return True
        return False

    def has_icon(self, hex_id, name) -> bool:
        return self._hex(hex_id).tile.has_icon(name)

    def _hex(self, hex_or_id):
        if isinstance(hex_or_id, Hex):
            return hex_or_id
        found = self._hexes.get(hex_or_id)
        if found is None:
            raise GameError(f"Unknown hex {hex_or_id}")
        return found

    # ================================================================ graphs
    @staticmethod
    def _operator(entity):
        """The corporation whose network an entity uses (a company's owning corporation)."""
        if entity is None:
            return None
        if getattr(entity, "is_company", False):
            owner = getattr(entity, "owner", None)
            return owner if owner is not None and getattr(owner, "is_corporation", False) else None
        return entity

    def _token_key(self):
        """Changes whenever tokens are added to or removed from the map (a safety net for changes made
        through the tokens themselves; the board's own changes bump ``version``)."""
        count = 0
        for c in self._map_cities:
            tokens = c.tokens
            count += len(tokens) - tokens.count(None) + len(c.extra_tokens)
        return (self.version, count)

    def clear_graph(self) -> None:
        """Forget every computed network (call after any change of tiles or tokens made elsewhere)."""
        self.version += 1
        self._graphs.clear()
        self._graph_key = None

    def _forget_graphs(self, hexes, corporations, tokens_added=0) -> None:
        """After a change of the tiles, tokens or reservations on ``hexes`` and of the tokens of
        ``corporations`` (a lay, a token placed; the board's own changes): forget the networks it can
        alter, those of ``corporations`` and those whose walks looked at one of ``hexes`` (a walk
        reads nothing of a hex it did not look at, ``Graph.looked``), and keep the others. The token
        key the networks were computed under moves by the ``tokens_added`` to the map, so that a
        change of tokens made elsewhere and not told (``graph``'s check) still forgets them all."""
        if self._graph_key is None:   # (nothing is held)
            return
        graphs = self._graphs
        dropped = set(corporations)
        for key, g in list(graphs.items()):
            if type(g) is Graph and (g.corporation in dropped or not g.looked.isdisjoint(hexes)):
                dropped.add(g.corporation)
                del graphs[key]
        for key, g in list(graphs.items()):
            if type(g) is not Graph and key[0] in dropped:   # (a union of the corporation's networks)
                del graphs[key]
        if tokens_added:
            self._graph_key = (self._graph_key[0], self._graph_key[1] + tokens_added)

    def graph(self, corporation, spec=None) -> Graph:
        """One network of the corporation (cached; recomputed after tiles or tokens change). ``spec``
        is None (all track) or ``(skip_track, home_as_token)``: a network that ignores one gauge
        and/or starts from the entity's home hexes as if they held its tokens."""
        key = self._token_key()
        if key != self._graph_key:
            self._graphs.clear()
            self._graph_key = key
        g = self._graphs.get((corporation, spec))
        if g is None:
            if spec is None:
                g = Graph(self, corporation)
            else:
                g = Graph(self, corporation, skip_track=spec[0], home_as_token=spec[1])
            self._graphs[(corporation, spec)] = g
        return g

    def networks(self, entity) -> list:
        """The graphs whose union is the entity's network for the rules (track, tokens): one graph
        over all track unless the title lays several (``game.graph_specs(entity)``, e.g. one per
        gauge)."""
        corp = self._operator(entity)
        hook = getattr(self.game, "graph_specs", None)
        specs = hook(corp) if hook is not None else (None,)
        return [self.graph(corp, spec) for spec in specs]

    def _union(self, entity, attr):
        graphs = self.networks(entity)
        if len(graphs) == 1:
            return getattr(graphs[0], attr)
        key = (self._operator(entity), attr)
        found = self._graphs.get(key)
        if found is None:
            found = {}
            for g in graphs:
                for k, v in getattr(g, attr).items():
                    if isinstance(v, set):
                        found.setdefault(k, set()).update(v)
                    else:
                        found[k] = v
            self._graphs[key] = found
        return found

    def connected_hexes(self, entity) -> dict:
        return self._union(entity, "connected_hexes")

    def connected_nodes(self, entity) -> dict:
        return self._union(entity, "connected_nodes")

    def connected_paths(self, entity) -> dict:
        return self._union(entity, "connected_paths")

    def reachable_hexes(self, entity) -> dict:
        return self._union(entity, "reachable_hexes")

    def can_token(self, entity, **kw) -> bool:
        return any(g.can_token(**kw) for g in self.networks(entity))

    def tokenable_cities(self, entity) -> list:
        out = []
        for g in self.networks(entity):
            out.extend(c for c in g.tokenable_cities() if c not in out)
        return out

    def route_info(self, entity) -> dict:
        info = {"route_available": False, "route_train_purchase": False}
        for g in self.networks(entity):
            for k, v in g.route_info.items():
                info[k] = info[k] or v
        return info

    def hexes_connected(self, start_hex_id, goal_hex_ids) -> bool:
        """Whether any track joins a city of ``start_hex_id`` to one of ``goal_hex_ids``, whoever's
        tokens stand in between (1856 destinations)."""
        start = self._hexes.get(start_hex_id)
        if start is None:
            return False
        return hexes_connected(self, start, set(goal_hex_ids))

    # ================================================================ tokens
    _TOKEN_REASONS = {
        "no_tokens": "{name} cannot lay token - has no tokens left",
        "no_slots": "{name} cannot lay token - no token slots available on {where}",
        "no_money": "{name} cannot lay token - cannot afford token on {where}",
        "existing_token": "{name} cannot lay token - already has a token on {where}",
        "blocked_reservation": "{name} cannot lay token - remaining token slots are reserved on {where}",
        "generic": "{name} cannot lay token on {city} {where}",
    }

    def token_problem(self, corporation, city, *, tokens=None, free=False, cheater=False, extra_slot=False,
                      same_hex_allowed=False, cash=None):
        """Why ``corporation`` cannot put a token into ``city`` (a player-facing reason), or None."""
        code = self._token_code(corporation, city, tokens, free, cheater, extra_slot, same_hex_allowed, cash)
        if code is None:
            return None
        where = city.hex.id if city.hex is not None else city.tile.id
        return self._TOKEN_REASONS[code].format(name=getattr(corporation, "name", corporation), where=where,
                                                city=city.id)

    def _token_code(self, corporation, city, tokens, free, cheater, extra_slot, same_hex_allowed, cash):
        if tokens is None:
            tokens = corporation.tokens_by_type() if hasattr(corporation, "tokens_by_type") else []
        elif not isinstance(tokens, (list, tuple)):
            tokens = [tokens]
        if not extra_slot and not tokens:
            return "no_tokens"
        code = "generic"
        for token in tokens:
            owner = getattr(token, "corporation", corporation)
            if not extra_slot and city.get_slot(owner, cheater=cheater) is None:
                code = "no_slots"
                continue
            if not free:
                money = cash if cash is not None else getattr(corporation, "cash", None)
                if money is not None and getattr(token, "price", 0) > money:
                    code = "no_money"
                    continue
            if not same_hex_allowed and any(c.tokened_by(owner) for c in city.tile.cities):
                code = "existing_token"
                continue
            if city.reserved_by(corporation):
                return None
            if not cheater and city.tile.reservations and city.tile.token_blocked_by_reservation(
                    corporation, self.rules.get("tile_reservation_blocks_others", "never")):
                code = "blocked_reservation"
                continue
            return None
        return code

    def tokenable(self, city, corporation, **kw) -> bool:
        """Whether ``corporation`` may put a token into ``city`` (free slot or its reservation, not
        already in that hex, tile reservations respected); ``free=True`` ignores the price."""
        return self.token_problem(corporation, city, **kw) is None

    def place_token(self, corporation, city, token, *, free=False, check_tokenable=True, cheater=False,
                    extra_slot=False, same_hex_allowed=False, connected=False, cash=None) -> None:
        """Put ``token`` into ``city`` (its reservation or first free slot) and drop the corporation's
        reservations there. Raises GameError first if not allowed (``connected=True`` also requires the
        city to be on the corporation's network). Payment is the caller's."""
        if connected and city not in self.connected_nodes(corporation):
            which = f" city {city.index}" if len(city.tile.cities) > 1 else ""
            raise GameError(f"Cannot place token on {city.hex.id}{which} because it is not connected")
        if check_tokenable:
            problem = self.token_problem(corporation, city, tokens=[token], free=free, cheater=cheater,
                                         extra_slot=extra_slot, same_hex_allowed=same_hex_allowed, cash=cash)
            if problem is not None:
                raise GameError(problem)
        elif not extra_slot and city.get_slot(token.corporation, cheater=cheater) is None and not cheater:
            if not any(t is None for t in city.tokens):
                raise GameError(f"{getattr(corporation, 'name', corporation)} cannot lay token - no token slots "
                                f"available on {city.hex.id if city.hex else city.tile.id}")
        self._exchange_token(city, token, cheater=cheater, extra_slot=extra_slot)
        tile = city.tile
        if tile.reservations:
            tile.reservations = [r for r in tile.reservations if r is not corporation]
        city.remove_reservation(corporation)
        if tile.hex is None:
            self.clear_graph()
        else:
            self._forget_graphs((tile.hex,), (corporation, token.corporation), tokens_added=1)

    def home_token_city(self, corporation):
        """Where the corporation's home token goes: a city, a list of cities to choose from (tile
        reservation on a hex whose tile has track and several cities), or None (no home)."""
        coords = corporation.coordinates
        if not coords:
            return None
        coords = coords if isinstance(coords, (list, tuple)) else [coords]
        hex_ = self._hexes.get(coords[0])
        if hex_ is None:
            return None
        tile = hex_.tile
        if tile.reserved_by(corporation) and tile.paths:
            return list(tile.cities)
        city_index = corporation.city
        if isinstance(city_index, (list, tuple)):
            city_index = city_index[0]
        reserved = next((c for c in tile.cities if c.reserved_by(corporation)), None)
        if reserved is not None:
            return reserved
        if city_index is not None and city_index < len(tile.cities):
            return tile.cities[city_index]
        return tile.cities[0] if tile.cities else None

    def place_home_token(self, corporation, *, cheater_ok=False, same_hex_allowed=False):
        """Place the home token if the home city is clear. Returns the city used, a list of cities when
        the corporation must choose (the caller queues that choice), or None when nothing was placed."""
        token = corporation.find_token_by_type() if hasattr(corporation, "find_token_by_type") else None
        if token is None:
            return None
        where = self.home_token_city(corporation)
        if where is None or isinstance(where, list):
            return where
        city = where
        if self.tokenable(city, corporation, tokens=[token], free=True, same_hex_allowed=same_hex_allowed):
            self.place_token(corporation, city, token, free=True, same_hex_allowed=same_hex_allowed)
            return city
        if cheater_ok:
            self.place_token(corporation, city, token, free=True, check_tokenable=False, cheater=True)
            return city
        return None

    def remove_corporation(self, corporation, *, tokens=True, reservations=True) -> None:
        """A closing corporation leaves the map: its tokens (and/or reservations) are removed."""
        for hex_ in self.hexes:
            tile = hex_.tile
            for city in tile.cities:
                if tokens:
                    for token in list(city.tokens) + list(city.extra_tokens):
                        if token is not None and token.corporation is corporation:
                            self._take_token(city, token)
                if reservations and city.reserved_by(corporation):
                    city.reservations = [r for r in city.reservations if r is not corporation]
            if reservations:
                tile.reservations = [r for r in tile.reservations if r is not corporation]
        self.clear_graph()

    def vacate_corporation_tokens(self, corporation) -> None:
        """Empty the slots holding the corporation's tokens (the tokens keep pointing at their cities)
        and drop its city reservations (1856 merger into the national)."""
        for hex_ in self.hexes:
            for city in hex_.tile.cities:
                if city.tokened_by(corporation):
                    city.tokens = [None if t is not None and t.corporation is corporation else t
                                   for t in city.tokens]
                    city.reservations = [r for r in city.reservations if r is not corporation]
        self.clear_graph()

    def swap_token(self, old, new, *, check_tokenable=True) -> None:
        """Put ``new`` where ``old`` stands (``old`` leaves the map); with ``check_tokenable`` the new
        token's corporation must be allowed there, else ``new`` is simply not placed."""
        city = old.city
        extra = old in city.extra_tokens if city is not None else False
        self.remove_token(old)
        if city is None:
            return
        corp = new.corporation
        if not extra and check_tokenable and not self.tokenable(city, corp, tokens=[new], free=True):
            return
        self.place_token(corp, city, new, free=True, check_tokenable=check_tokenable, extra_slot=extra)

    def move_tokens_to_surviving(self, surviving, others, *, price=0, check_tokenable=True, limit=None) -> list:
        """A merger: each placed token of ``others`` is replaced by a new token of ``surviving`` (placed
        tokens first, then unplaced ones by price, at most ``limit``). Returns the hex ids of the new
        tokens (None for unplaced ones)."""
        from ..core.entities import Token
        used = [t for t in surviving.tokens if t.used]
        unused = [t for t in surviving.tokens if not t.used]
        out = []
        for other in others:
            for token in list(other.tokens):
                new = Token(surviving, price=price)
                if token.hex is not None:
                    used.append(new)
                    self.swap_token(token, new, check_tokenable=check_tokenable)
                else:
                    unused.append(new)
                out.append(new.hex.id if new.hex is not None else None)
        if limit is not None and len(used) > limit:
            raise GameError("Used token above limit")
        tokens = used + sorted(unused, key=lambda t: t.price)
        surviving.tokens[:] = tokens[:limit] if limit is not None else tokens
        self.clear_graph()
        return out

    def remove_token(self, token) -> None:
        """Take a token off the map (it stays with its corporation, unused)."""
        city = token.city
        if city is not None:
            self._take_token(city, token)
        self.clear_graph()

    @staticmethod
    def _take_token(city, token) -> None:
        if token in city.extra_tokens:
            city.extra_tokens.remove(token)
        if hasattr(token, "remove"):
            token.remove()
        else:
            city.tokens = [None if t is token else t for t in city.tokens]

    # ================================================================ routes
    def route(self, corporation, route_json, phase=None, *, train=None, other_routes=()):
        return build_route(self, corporation, route_json, phase or self.game.phase, train=train,
                           other_routes=other_routes)

    def build_routes(self, corporation, routes_json, phase=None, *, strict=True) -> list:
        return build_routes(self, corporation, routes_json, phase or self.game.phase, strict=strict)

    def best_routes(self, corporation, trains=None, phase=None, **kw) -> list:
        from .search import best_routes
        return best_routes(self, corporation, trains, phase or self.game.phase, **kw)

    def route_bonuses(self, corporation) -> list:
        hook = getattr(self.game, "route_bonuses", None)
        return list(hook(corporation)) if hook is not None else []

    def revenue_for(self, route, stops) -> int:
        """Stop revenues for the route's phase and train plus ``game.route_bonuses`` (the default when
        the game defines no ``revenue_for``)."""
        phase, train = route.phase, route.train
        revenue = sum(s.route_revenue(phase, train) for s in stops) + \
            bonus_total(self.route_bonuses(route.corporation), stops, train)
        stop_bonus = getattr(self.game, "train_stop_bonus", None)
        if stop_bonus is not None:
            revenue += sum(stop_bonus(train, s) for s in stops)
        adjust = getattr(self.game, "train_revenue", None)
        return adjust(train, revenue) if adjust is not None else revenue

    # ================================================================ views
    def city_ref(self, city) -> str:
        """The trace-style reference of a city: hex id, plus "/k" on tiles with several cities."""
        tile = city.tile
        ref = tile.hex.id if tile.hex is not None else tile.id
        return f"{ref}/{city.kind_index}" if len(tile.cities) > 1 else ref

    def view(self) -> dict:
        """A JSON-safe view of the map state: ``tiles`` (hex -> "tile id@rotation" where the tile is not
        the printed one), ``tokens`` (city ref -> slot contents, corporation ids or None),
        ``reservations`` (city ref or hex -> holders), ``icons`` (hex -> icon names where they differ
        from the printed tile), ``assignments`` (hex -> keys)."""
        tiles, tokens, reservations, icons, assignments = {}, {}, {}, {}, {}
        ident = self._ident
        for hex_ in self.hexes:   # (read after every move: the common cases are tested first)
            tile = hex_.tile
            printed = tile is hex_.original_tile
            if not printed:
                tiles[hex_.id] = f"{tile.id}@{tile.rotation}"
            for city in tile.cities:
                slots = city.tokens
                if city.extra_tokens or slots.count(None) != len(slots):
                    tokens[self.city_ref(city)] = [None if t is None else t.corporation.id
                                                   for t in slots + city.extra_tokens]
                if city.reservations:
                    held = [ident(r) for r in city.reservations if r is not None]
                    if held:
                        reservations[self.city_ref(city)] = held
            if tile.reservations:
                reservations[hex_.id] = [ident(r) for r in tile.reservations]
            shown = tile.icons
            if shown or (printed and tile.tdef.icons):
                names = [i["name"] for i in shown]
                if names and (not printed or names != [i["name"] for i in tile.tdef.icons]):
                    icons[hex_.id] = names
            if hex_.assignments:
                assignments[hex_.id] = sorted(map(str, hex_.assignments))
        return {"tiles": tiles, "tokens": tokens, "reservations": reservations, "icons": icons,
                "assignments": assignments}

    @staticmethod
    def _ident(entity):
        return getattr(entity, "id", entity)
