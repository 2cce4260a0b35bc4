"""Which tile may replace which, and in which rotations.

Generic rules (a title adds its own through its game class):

* ``upgrades_to``: the new colour follows the old one in the colour order; the old tile's track is
  kept under some rotation (every old path lies inside a new path: same edges, a city stays a city,
  a town a town (a halt any town, a town marked ``to_city`` may become a city), an offboard an
  offboard, gauge kept); and, unless the lay is a special (private company) lay, the label rule and
  the city/town counts.
* ``rotation_problem``: for a tile at a given rotation on a given hex, the first generic track-step
  check that fails (``ROTATION_CHECKS``), or None.
"""

from __future__ import annotations

# The checks a track step applies to a rotation, in order (titles list theirs in the data file):
#   exits       every new exit leads to a hex track may enter
#   reach       the laying company reaches at least one exit of the new tile
#   old_paths   every path of the old tile lies inside a path of the new tile at this rotation
#   new_cities  no more cities/towns unconnected to the old ones than cities/towns added
#   city_map    (both tiles with several cities) each old city fits into exactly one new city
#   city_sizes  no city loses token slots (where the old cities' sizes differ)
#   stubs       the new tile has an exit at every track stub printed on the hex
#   gray_towns  while gray tiles are available, a tile with towns need only keep its exits
ROTATION_CHECKS = ("exits", "reach", "old_paths", "new_cities", "city_map", "city_sizes", "stubs")

TRACKS_CONTAIN = {"broad": ("broad", "dual"), "narrow": ("narrow", "dual"), "dual": ("dual",)}


def _end_fits(end, other, shift):
    kind, value = end
    okind, ovalue = other
    if kind == "e":
        return okind == "e" and (value + shift) % 6 == ovalue
    if kind == "town":
        return okind == "town" or (value and okind == "city")
    if kind == "halt":
        return okind in ("town", "halt")
    return kind == okind


def _rotate_ends(ends, rotation):
    return [(k, (v + rotation) % 6) if k == "e" else (k, v) for k, v in ends]


def path_fits(ends, track, other_ends, other_track, shift=0) -> bool:
    """Whether a path (ends, track) turned by ``shift`` lies inside another path."""
    if other_track not in TRACKS_CONTAIN.get(track, ()):
        return False
    for end in ends:
        for o in other_ends:
            if _end_fits(end, o, shift):
                break
        else:
            return False
    return True


def paths_kept(old_def, new_def, old_rotation=0, new_rotation=0) -> bool:
    """Every path of ``old_def`` (at ``old_rotation``) fits into a path of ``new_def`` (at
    ``new_rotation``)."""
    new_ends = [(_rotate_ends(e, new_rotation), t) for e, t in new_def.path_ends()]
    for ends, track in old_def.path_ends():
        ends = _rotate_ends(ends, old_rotation)
        if not any(path_fits(ends, track, oe, ot) for oe, ot in new_ends):
            return False
    return True


def paths_kept_some_rotation(old_def, new_def) -> bool:
    if old_def.junction and new_def.junction:
        # junction (Lawson) tiles: only exits are compared
        old_exits = set(old_def.exits(0))
        return any(old_exits <= {(e + r) % 6 for e in new_def.exits(0)} for r in range(6))
    new_ends = new_def.path_ends()
    old_ends = old_def.path_ends()
    for shift in range(6):
        if all(any(path_fits(ends, track, oe, ot, shift) for oe, ot in new_ends) for ends, track in old_ends):
            return True
    return False


def city_town_edges_fit(old_edges: list, new_edges: list) -> bool:
    """Under some rotation every old city/town edge set lies inside a new one."""
    for r in range(6):
        if all(any(all((e + r) % 6 in n for e in o) for n in new_edges) for o in old_edges):
            return True
    return False


def label_kept(old, new) -> bool:
    """The label rule: a tile of a future label's colour carries that label, any other the old
    tile's label."""
    if old.future_label is not None and new.color == old.future_label[1]:
        return new.label == old.future_label[0]
    return old.label == new.label


def upgrades_to(old, new, color_order, special=False) -> bool:
    """The generic upgrade rule; ``old`` and ``new`` are tiles (``Tile``)."""
    try:
        if color_order.index(new.color) != color_order.index(old.color) + 1:
            return False
    except ValueError:
        return False
    if not paths_kept_some_rotation(old.tdef, new.tdef):
        return False
    if special:
        return True
    if not label_kept(old, new):
        return False
    # cities and towns
    od, nd = old.tdef, new.tdef
    if od.n_towns != nd.n_towns:
        return False
    if not old.label and od.n_cities != nd.n_cities:
        return False
    if od.n_cities > 1 and nd.n_cities > 1 and not city_town_edges_fit(od.city_town_edges(0), nd.city_town_edges(0)):
        return False
    if old.label and od.n_cities and not nd.n_cities:
        return False
    if old.color == "white" and old.label == "OO" and od.n_cities != nd.n_cities:
        return False
    return True


def city_map(old_tile, new_tile) -> dict:
    """Which city of the new tile each city of the old tile becomes (by the edges they reach)."""
    old_cities, new_cities = old_tile.cities, new_tile.cities
    if not any(c.paths for c in old_cities) and len(old_cities) == len(new_cities):
        return dict(zip(old_cities, new_cities))
    mapping = {}
    for old in old_cities:
        old_exits = set(old.exits)
        found = None
        if old_exits:
            for city in new_cities:
                if old_exits <= set(city.exits):
                    found = city
                    break
        mapping[old] = found
    used = [c for c in mapping.values() if c is not None]
    for i, old in enumerate(old_cities):
        if mapping[old] is not None:
            continue
        new = new_cities[i] if i < len(new_cities) else None
        if new is not None and new in used:
            new = next((c for c in new_cities if c not in used), None)
        mapping[old] = new
        if new is not None:
            used.append(new)
    return mapping


def rotation_problem(hex_, new_tile, checks, reach_edges, *, gray_towns=False, old_paths=None):
    """The first failing check for ``new_tile`` at its current rotation on ``hex_`` (a short reason),
    or None. ``reach_edges`` is the set of edges of the hex the laying company reaches (None: any).
    ``old_paths(hex_, new_tile)``, when given, may judge the old track itself: a reason, "" when it
    is kept, or None to fall back on the generic rule."""
    old = hex_.tile
    new_exits = new_tile.exits
    for check in checks:
        if check == "exits":
            if any(hex_.neighbors[e] is None for e in new_exits):
                return "track would run off the map or into an impassable hex"
        elif check == "reach":
            if reach_edges is not None and not any(e in reach_edges for e in new_exits):
                return "no new track is connected to the company's network"
        elif check == "old_paths":
            special = old_paths(hex_, new_tile) if old_paths is not None else None
            if special is not None:
                if special:
                    return special
            elif gray_towns and any(p.nodes and any(n.is_town for n in p.nodes) for p in old.paths):
                if not set(e for p in old.paths for e in p.edges) <= set(new_exits):
                    return "existing track must be kept"
            elif not paths_kept(old.tdef, new_tile.tdef, old.rotation, new_tile.rotation):
                return "existing track must be kept"
        elif check == "new_cities":
            old_ct, new_ct = old.city_town_edges, new_tile.city_town_edges
            added = max(0, len(new_ct) - len(old_ct))
            if sum(1 for n in new_ct if all(not (n & o) for o in old_ct)) > added:
                return "cities and towns must stay connected to their track"
        elif check == "city_map":
            if len(new_tile.cities) > 1 and len(old.cities) > 1:
                new_ct = new_tile.city_town_edges
                if not all(sum(1 for n in new_ct if o <= n) == 1 for o in old.city_town_edges):
                    return "each city must stay a separate city"
        elif check == "city_sizes":
            if len({c.slots for c in old.cities}) > 1:
                mapping = city_map(old, new_tile)
                if any(n is None or n.slots < o.slots for o, n in mapping.items()):
                    return "a city cannot lose token spaces"
        elif check == "stubs":
            if any(s["edge"] not in new_exits for s in old.stubs):
                return "the tile must connect to the track stubs on the hex"
    return None
