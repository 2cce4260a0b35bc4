"""The ``board`` section of a title's data file: map layout, hexes, preprinted tiles, the tile supply.

Development tool only (called by ``tools.titledata.build``). It turns the reference facts of a title
(``game.json``: ``map``, ``tiles``, ``corporations``, ``companies``, ``optional_rule_overrides``)
into our own schema, which ``engine.board`` reads.

Schema (``board``)::

    {
      "layout": "flat" | "pointy",
      "axes": {"x": "letter" | "number", "y": "letter" | "number"},
      "color_order": ["white", "yellow", "green", "brown", "gray"],   # upgrade colour sequence
      "rotation_checks": [...],         # which generic rotation checks the title's track step applies
      "tiles": {key: TILE},             # every tile description (supply tiles by name; preprinted ones by key;
                                        # tools.titledata.build moves those titles share to titles/tiles.json)
      "supply": [[name, count], ...],   # supply order; count is an int or "unlimited"
      "hexes": [HEX, ...],              # map order
      "reservations": [{"hex", "entity", "city"?, "slot"?, "with_rules"?}],   # home / ability reservations
                                        # at setup (with_rules: only when the game uses those optional rules)
      "optional_hexes": {rule: [HEX, ...]}                      # hexes an optional rule replaces
    }

    HEX = {"id": "M38", "tile": "<tile id>", "def": key?, "name": location?, "blockers": [...]?,
           "hidden_blockers": [...]?, "hide_name": true?}
        ``tile`` is the id of the preprinted tile ("<name>-<index>"); ``def`` names its description in
        ``tiles`` when that key is not the tile's name.

    TILE = {"color": ..., "label"?, "labels"?, "future_label": [label, color]?,
            "nodes": [NODE, ...]?, "paths": [PATH, ...]?, "future_paths": [PATH, ...]?,
            "terrain": [{"cost", "terrains"}]?, "borders": [{"edge", "type"?, "cost"?, "color"?}]?,
            "icons": [{"name", "image", "sticky"?, "blocks_lay"?, "large"?}]?,
            "stubs": [{"edge", "track"}]?, "partitions": [...]?, "blocks_lay"?, "hidden"?,
            "stripes"?, "frame"?}
    NODE = {"type": "city" | "town" | "offboard", "revenue": int | {colour: int},
            "slots"? (cities, default 1), "groups"?, "hide"?, "visit_cost"? (default 1),
            "route"? ("optional" | "never"), "to_city"?, "halt"?, "boom"?, "style"?, "loc"?,
            "part"? (index of the part in the tile's part list when it differs from the node's position)}
    PATH = [end_a, end_b] or [end_a, end_b, {"terminal"?, "track"?, "lanes"?, "ignore"?}]
        an end is an edge number 0..5, "n<i>" (node i of ``nodes``) or "j" (the tile's junction).
"""

from __future__ import annotations

import json

COLOR_ORDER = ["white", "yellow", "green", "brown", "gray"]

# Checks of the generic track step (see engine.board.upgrades.ROTATION_CHECKS). 1856's track step
# applies only the first four and lets towns lose their track in the gray phase ("gray_towns").
GENERIC_ROTATION_CHECKS = ["exits", "reach", "old_paths", "new_cities", "city_map", "city_sizes", "stubs"]
TITLE_ROTATION_CHECKS = {
    "1856": ["exits", "reach", "old_paths", "new_cities", "gray_towns"],
}


def _end(end: dict, node_pos: dict):
    if "edge" in end:
        return end["edge"]
    if "junction" in end:
        return "j"
    (kind, index), = end.items()
    return "n%d" % node_pos[(kind, index)]


def _path(p: dict, node_pos: dict) -> list:
    out = [_end(p["a"], node_pos), _end(p["b"], node_pos)]
    opts = {}
    if p.get("terminal"):
        opts["terminal"] = int(p["terminal"])
    if p.get("track") not in (None, "broad"):
        opts["track"] = p["track"]
    if p.get("lanes") and p["lanes"] != [[1, 0], [1, 0]]:
        opts["lanes"] = p["lanes"]
    if p.get("ignore"):
        opts["ignore"] = True
    if opts:
        out.append(opts)
    return out


def _node(kind: str, n: dict, position: int) -> dict:
    out = {"type": {"cities": "city", "towns": "town", "offboards": "offboard"}[kind], "revenue": n["revenue"]}
    if kind == "cities" and n.get("slots", 1) != 1:
        out["slots"] = n["slots"]
    if n.get("groups"):
        out["groups"] = n["groups"]
    if n.get("hide"):
        out["hide"] = True
    if n.get("visit_cost", 1) != 1:
        out["visit_cost"] = n["visit_cost"]
    default_route = "optional" if n.get("halt") else "mandatory"
    if n.get("route", default_route) != "mandatory":
        out["route"] = n["route"]
    for key in ("to_city", "boom", "style", "loc"):
        if n.get(key) not in (None, False):
            out[key] = n[key]
    if n.get("halt"):
        out["halt"] = n["halt"]
    if n["part_index"] != position:
        out["part"] = n["part_index"]
    return out


def tile_def(t: dict) -> dict:
    """Our description of one reference tile record (state such as tokens and reservations dropped)."""
    raw_nodes = []
    for kind in ("cities", "towns", "offboards"):
        for i, n in enumerate(t.get(kind) or []):
            raw_nodes.append((n["part_index"], kind, i, n))
    raw_nodes.sort(key=lambda x: x[0])
    singular = {"cities": "city", "towns": "town", "offboards": "offboard"}
    node_pos = {(singular[kind], i): pos for pos, (_, kind, i, _) in enumerate(raw_nodes)}
    d = {"color": t["color"]}
    if t.get("label"):
        d["label"] = t["label"]
    if t.get("labels") and t["labels"] != ([t["label"]] if t.get("label") else []):
        d["labels"] = t["labels"]
    if t.get("future_label"):
        d["future_label"] = [t["future_label"]["label"], t["future_label"]["color"]]
    if raw_nodes:
        d["nodes"] = [_node(kind, n, pos) for pos, (_, kind, _, n) in enumerate(raw_nodes)]
    if t.get("paths"):
        d["paths"] = [_path(p, node_pos) for p in t["paths"]]
    if t.get("future_paths"):
        d["future_paths"] = [_path(p, node_pos) for p in t["future_paths"]]
    if t.get("terrain_upgrades"):
        d["terrain"] = [{"cost": u["cost"], "terrains": u["terrains"]} for u in t["terrain_upgrades"]]
    if t.get("borders"):
        d["borders"] = [{k: v for k, v in b.items() if v is not None} for b in t["borders"]]
    if t.get("icons"):
        icons = []
        for i in t["icons"]:
            icon = {"name": i["name"], "image": i["image"]}
            for key in ("sticky", "blocks_lay", "large"):
                if i.get(key):
                    icon[key] = True
            icons.append(icon)
        d["icons"] = icons
    if t.get("stubs"):
        d["stubs"] = [{"edge": s["edge"], "track": s["track"]} for s in t["stubs"]]
    if t.get("partitions"):
        d["partitions"] = t["partitions"]
    for key in ("blocks_lay", "hidden"):
        if t.get(key):
            d[key] = True
    if t.get("stripes"):
        s = t["stripes"]
        d["stripes"] = s.get("color") if isinstance(s, dict) else s
    if t.get("frame"):
        d["frame"] = t["frame"]
    return d


class _Defs:
    """Tile descriptions keyed by name; preprinted descriptions share a key when they are identical."""

    def __init__(self):
        self.defs = {}
        self._by_json = {}

    def add(self, name: str, d: dict, fallback: str) -> str:
        blob = json.dumps(d, sort_keys=True)
        if blob in self._by_json:
            return self._by_json[blob]
        key = name if name not in self.defs else fallback
        n = 2
        while key in self.defs:
            key = f"{fallback}~{n}"
            n += 1
        self.defs[key] = d
        self._by_json[blob] = key
        return key


def _hex_record(h: dict, defs: _Defs) -> dict:
    t = dict(h["tile"])
    # Icons added by the title's set-up (e.g. destination markers) follow the printed ones; keep only
    # the printed ones, which the tile's definition lists.
    printed = sum(1 for part in (t.get("code") or "").split(";") if part.startswith("icon="))
    t["icons"] = (t.get("icons") or [])[:printed]
    name = t["name"]
    key = defs.add(name, tile_def(t), h["coord"])
    rec = {"id": h["coord"], "tile": t["id"]}
    if key != name:
        rec["def"] = key
    if h.get("location_name"):
        rec["name"] = h["location_name"]
    if h.get("hide_location_name"):
        rec["hide_name"] = True
    if t.get("blockers"):
        rec["blockers"] = list(t["blockers"])
    if t.get("hidden_blockers"):
        rec["hidden_blockers"] = list(t["hidden_blockers"])
    if h.get("empty"):
        rec["empty"] = True
    return rec


def _reservations(ref: dict, definitions: bool = False) -> list:
    """Home reservations in corporation order (with ``definitions``: every corporation the title
    defines, including those only some optional rules bring; the game drops the absent ones)."""
    out = []
    corporations = ref["constants"]["plain"]["CORPORATIONS"] if definitions else ref["corporations"]
    base = {c["id"] for c in ref["corporations"]}
    with_rules = {}
    for info in ref.get("optional_rule_overrides", {}).values():
        for cid in info["differences"].get("corporations", {}).get("changed_or_added", {}):
            if cid not in base:
                used = set(info["optional_rules_used"])
                with_rules[cid] = with_rules[cid] & used if cid in with_rules else used
    for corp in corporations:
        coords = corp.get("coordinates")
        if not coords:
            continue
        coords = coords if isinstance(coords, list) else [coords]
        for i, coord in enumerate(coords):
            city = corp.get("city")
            city = city[i] if isinstance(city, list) else city
            ident = corp.get("id") or corp["sym"]
            rec = {"hex": coord, "entity": ident}
            if city is not None:
                rec["city"] = city
            if ident in with_rules:
                rec["with_rules"] = sorted(with_rules[ident])
            out.append(rec)
    for holder in list(ref["corporations"]) + list(ref["companies"]):
        for ability in holder.get("abilities") or []:
            if ability.get("type") != "reservation":
                continue
            out.append({"hex": ability["hex"], "entity": holder.get("id") or holder.get("sym"),
                        "city": int(ability.get("city") or 0), "slot": int(ability.get("slot") or 0)})
    return out


def build(ref: dict, slug: str, definitions: bool = False) -> dict:
    """The board section for one title."""
    m = ref["map"]
    defs = _Defs()
    supply = []
    for name in ref["tiles"]["order"]:
        defs.defs[name] = tile_def(ref["tiles"]["definitions"][name])
        defs._by_json.setdefault(json.dumps(defs.defs[name], sort_keys=True), name)
        supply.append([name, ref["tiles"]["counts"][name]])
    hexes = [_hex_record(h, defs) for h in m["hexes"]]
    by_id = {h["id"]: h for h in hexes}
    optional = {}
    for rule, info in sorted(ref.get("optional_rule_overrides", {}).items()):
        changed = info["differences"].get("map", {}).get("hexes", {}).get("changed_or_added", {})
        records = [_hex_record(h, defs) for _, h in sorted(changed.items())]
        # set-up markers (e.g. other destinations) are the title's business: keep real map changes only
        records = [r for r in records if by_id.get(r["id"]) != r]
        if records:
            optional[rule] = records
    board = {
        "layout": m["layout"],
        "axes": m["axes"],
        "color_order": COLOR_ORDER,
        "rotation_checks": TITLE_ROTATION_CHECKS.get(slug, GENERIC_ROTATION_CHECKS),
        "tiles": defs.defs,
        "supply": supply,
        "hexes": hexes,
        "reservations": _reservations(ref, definitions),
    }
    if optional:
        board["optional_hexes"] = optional
    return board
