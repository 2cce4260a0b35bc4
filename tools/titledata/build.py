"""Build the title data (libs/engine/titles/<slug>/data.json and the tile catalogue they share,
libs/engine/titles/tiles.json) from the reference facts.

Development tool only: it reads evidence/reference/<slug>/game.json.xz (the facts of a title as
18xx.games holds them; `make evidence` copies them from the shared folder) and writes our own schema
(engine/titles/schema.py), validating what it writes. The engine reads only the generated files.

    make title-data [TITLE=1856]       (python -m tools.titledata.build [SLUG ...] [--check] [--reference DIR])

Every title is rebuilt whatever TITLE says (they share the catalogue: a tile two titles define
alike is written there once); files whose text does not change are left alone. ``--check`` writes
nothing and exits 1 if a checked-in file differs from what would be written (the test suite runs
the same check).

Sections written here: meta, money, rules, market, phases, trains, companies, corporations, minors,
game end, tile lays, optional-rule overrides, former defaults and title facts. The map and tile sections come from
tools/titledata/board.py.

The files are JSON written for reading and reviewing: sections one member per line, collections
(companies, tiles, hexes ...) one record per line, short values inline.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.core.entities import ABILITY_KINDS
from engine.core.market import TYPE_LETTERS
from engine.titles import SCHEMA
from tools import evidence

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_REFERENCE = evidence.EVIDENCE / "reference"

# Generic rule switches the core reads (our names are lower-case versions of the reference's).
RULE_KEYS = [
    "ALLOW_OBSOLETE_TRAIN_BUY", "ALLOW_REMOVING_TOWNS", "ALLOW_TRAIN_BUY_FROM_OTHERS",
    "ALLOW_TRAIN_BUY_FROM_OTHER_PLAYERS", "ALWAYS_BUY_TRAINS_AT_FACE_VALUE", "BANKRUPTCY_ALLOWED",
    "BANKRUPTCY_ENDS_GAME_AFTER", "BUY_SHARE_FROM_OTHER_PLAYER", "CERT_LIMIT_CHANGE_ON_BANKRUPTCY",
    "CERT_LIMIT_INCLUDES_PRIVATES", "CERT_LIMIT_TYPES", "CLOSED_CORP_RESERVATIONS_REMOVED",
    "CLOSED_CORP_TOKENS_REMOVED", "CLOSED_CORP_TRAINS_REMOVED", "DISCARDED_TRAINS", "DISCARDED_TRAIN_DISCOUNT",
    "EBUY_CAN_SELL_SHARES", "EBUY_CAN_TAKE_PLAYER_LOAN", "EBUY_DEPOT_TRAIN_MUST_BE_CHEAPEST", "EBUY_FROM_OTHERS",
    "EBUY_OWNER_MUST_HELP", "EBUY_PRES_SWAP", "EBUY_SELL_MORE_THAN_NEEDED",
    "EBUY_SELL_MORE_THAN_NEEDED_SETS_PURCHASE_MIN", "GAME_END_LOCK_FIRST_TRIGGER", "GAME_END_TIMING_PRIORITY",
    "HOME_TOKEN_TIMING", "IMPASSABLE_HEX_COLORS", "LAYOUT", "MARKET_SHARE_LIMIT", "MIN_BID_INCREMENT",
    "MULTIPLE_BUY_ONLY_FROM_MARKET", "MULTIPLE_BUY_TYPES", "MUST_BID_INCREMENT_MULTIPLE", "MUST_BUY_TRAIN",
    "MUST_EMERGENCY_ISSUE_BEFORE_EBUY", "MUST_SELL_IN_BLOCKS", "NEXT_SR_PLAYER_ORDER",
    "OBSOLETE_TRAINS_COUNT_FOR_LIMIT", "ONLY_HIGHEST_BID_COMMITTED", "POOL_SHARE_DROP",
    "PRESIDENT_SALES_TO_MARKET", "SELL_AFTER", "SELL_BUY_ORDER", "SELL_MOVEMENT", "SOLD_OUT_INCREASE",
    "SOLD_OUT_TOP_ROW_MOVEMENT", "SOLD_SHARES_DESTINATION", "TILE_RESERVATION_BLOCKS_OTHERS", "TILE_TYPE",
    "TILE_UPGRADES_MUST_USE_MAX_EXITS", "TOKEN_PLACEMENT_ON_TILE_LAY_ENTITY", "TRACK_RESTRICTION",
    "TURN_SELL_LIMIT",
]

# Optional rules that were every game's rules on 18xx.games until a day (our own record of its
# history, not in the reference's facts): a game recorded there before that day was played with them.
# 1856: every game had what are today the "alternate destinations" (WGB's Lake Huron, not Goderich)
# until they became an optional rule on 2021-05-05.
FORMER_DEFAULTS = {
    "1856": [{"rule": "alternate_destinations", "until": "2021-05-05"}],
}

# Title facts kept per title (constant name in the reference -> our key).
TITLE_FACTS = {
    "1856": {
        "DESTINATIONS": "destinations",
        "ALTERNATE_DESTINATIONS": "alternate_destinations",
        "PORT_HEXES": "port_hexes",
        "TUNNEL_TOKEN_HEX": "tunnel_token_hex",
        "BRIDGE_TOKEN_HEX": "bridge_token_hex",
        "HAMILTON_HEX": "hamilton_hex",
        "BROWN_OO_TILES": "brown_oo_tiles",
        "POST_NATIONALIZATION_CERT_LIMIT": "post_nationalization_cert_limit",
        "RIGHT_COST": "right_cost",
    },
    "1822": {
        "STARTING_COMPANIES": "starting_companies",
        "STARTING_COMPANIES_PLUS": "starting_companies_plus",
        "STARTING_CORPORATIONS": "starting_corporations",
        "STARTING_CORPORATIONS_PLUS": "starting_corporations_plus",
        "BIDDING_TOKENS": "bidding_tokens",
        "BIDDING_TOKENS_PER_ACTION": "bidding_tokens_per_action",
        "BIDDING_BOX_MINOR_COUNT": "bidbox_minor_count",
        "BIDDING_BOX_CONCESSION_COUNT": "bidbox_concession_count",
        "BIDDING_BOX_PRIVATE_COUNT": "bidbox_private_count",
        "BIDDING_BOX_START_MINOR": "bidbox_start_minor",
        "BIDDING_BOX_START_CONCESSION": "bidbox_start_concession",
        "BIDDING_BOX_START_PRIVATE": "bidbox_start_private",
        "PLUS_EXPANSION_BIDBOX_1": "plus_bidbox_1",
        "PLUS_EXPANSION_BIDBOX_2": "plus_bidbox_2",
        "PLUS_EXPANSION_BIDBOX_3": "plus_bidbox_3",
        "EXCHANGE_TOKENS": "exchange_tokens",
        "PRIVATE_COMPANIES_ACQUISITION": "private_acquisition",
        "PRIVATE_MAIL_CONTRACTS": "mail_contracts",
        "PRIVATE_REMOVE_REVENUE": "remove_revenue_on_acquire",
        "PRIVATE_PHASE_REVENUE": "phase_revenue_companies",
        "PRIVATE_TRAINS": "train_companies",
        "COMPANY_DOUBLE_CASH_REVENUE": "double_cash_revenue",
        "COMPANY_SHORT_NAMES": "short_names",
        "COMPANY_HSBC_TILE_LAYS": "hsbc_tile_lays",
        "COMPANY_HSBC_TILES": "hsbc_hexes",
        "COMPANY_GSWR_DISCOUNT": "gswr_discount",
        "MAJOR_TILE_LAYS": "major_tile_lays",
        "EXTRA_TRAINS": "extra_trains",
        "EXTRA_TRAIN_PERMANENTS": "extra_train_permanents",
        "EXTRA_TRAIN_PULLMAN": "pullman_train",
        "LOCAL_TRAINS": "local_trains",
        "E_TRAIN": "e_train",
        "DOUBLE_HEX": "double_hexes",
        "LONDON_HEX": "london_hex",
        "ENGLISH_CHANNEL_HEX": "english_channel_hex",
        "FRANCE_HEX": "france_hex",
        "CARDIFF_HEX": "cardiff_hex",
        "MERTHYR_TYDFIL_PONTYPOOL_HEX": "merthyr_pontypool_hex",
        "MINOR_14_ID": "minor_14",
        "MINOR_14_HOME_HEX": "minor_14_home_hex",
        "TWO_HOME_CORPORATION": "two_home_corporation",
        "MINOR_START_PAR_PRICE": "minor_start_par_price",
        "MINOR_BIDBOX_PRICE": "minor_bidbox_price",
        "MINOR_GREEN_UPGRADE": "minor_green_upgrade",
        "TRACK_PLAIN": "track_plain",
        "TRACK_TOWN": "track_town",
        "PLAIN_SYMBOL_UPGRADES": "plain_symbol_upgrades",
        "UPGRADEABLE_S_HEX_NAME": "s_hex",
        "UPGRADEABLE_S_YELLOW_CITY_TILE": "s_yellow_tile",
        "UPGRADEABLE_S_YELLOW_ROTATIONS": "s_yellow_rotations",
        "UPGRADE_COST_L_TO_2": "upgrade_cost_l_to_2",
        "TOKEN_PRICE": "token_price",
        "LIMIT_TOKENS_AFTER_MERGER": "limit_tokens_after_merger",
        "PLAYER_LOAN_INTEREST_RATE": "player_loan_interest_rate",
        "PLAYER_LOAN_ENDGAME_PENALTY": "player_loan_endgame_penalty",
        "TAX_HAVEN_MULTIPLE": "tax_haven_multiple",
        "GAME_END_ON_NOTHING_SOLD_IN_SR1": "end_if_nothing_sold_in_sr1",
    },
    "1858": {
        "MINOR_TILE_LAYS": "minor_tile_lays",
        "GREY_TRAINS": "grey_trains",
        "PHASE4_TRAINS_RUST": "phase4_trains_rust",
        "PRIVATE_ORDER": "private_order",
        "QUICK_START_PACKETS_A": "quick_start_packets_a",
        "QUICK_START_PACKETS_B": "quick_start_packets_b",
        "TOKEN_DISTANCES": "token_distances",
    },
    "1847_ae": {
        "COAL_HEXES": "coal_hexes",
        "Z_HEXES": "z_hexes",
        "A_HEXES": "a_hexes",
        "B_HEXES": "b_hexes",
        "INVESTOR_COMPANIES": "investor_companies",
        "COMPANIES_PURCHASABLE_BY_PLAYERS": "companies_purchasable_by_players",
        "LAST_TRANCH_CORPORATIONS": "last_tranche_corporations",
        "DOUBLE_TOWN_TILES": "double_town_tiles",
        "DOUBLE_SLOT_GREEN_CITIES": "double_slot_green_cities",
        "TWO_YELLOW": "two_yellow_lays",
        "YELLOW_OR_UPGRADE": "yellow_or_upgrade_lays",
        "TWO_YELLOW_OR_YELLOW_AND_UPGRADE": "first_operation_lays",
    },
}

# Title-specific corporation attributes kept in the corporation records.
TITLE_CORPORATION_FIELDS = {
    "1847_ae": ("hex_color",),
}
TITLE_FACTS["1858_india"] = dict(TITLE_FACTS["1858"], **{
    "MINE_HEXES": "mine_hexes", "OIL_HEXES": "oil_hexes", "PORT_HEXES": "port_hexes",
    "MINE_BONUS_HEX": "mine_bonus_hex", "OIL_BONUS_HEX": "oil_bonus_hex", "PORT_BONUS_HEX": "port_bonus_hex",
    "TOKEN_COST": "token_cost",
})

# Titles whose companies and corporations come from their definitions (all of them, in definition
# order) rather than from the state after set-up: their set-up shuffles the companies and adds
# tokens and abilities, which our game does itself.
FROM_DEFINITIONS = {"1822"}

# Ability attributes that are state, not definition.
ABILITY_STATE = {"class", "count_this_or", "used", "start_count", "laid_hexes"}


def clean_ability(raw: dict) -> dict:
    """An ability as our data holds it: its kind first, then the attributes whose value is not what
    the engine assumes when they are left out (ABILITY_KINDS, and the common defaults: usable across
    operating rounds, removed when used up, passive when it has no ``when``)."""
    kind = ABILITY_KINDS[raw["type"]]
    defaults = {"use_across_ors": True, "remove_when_used_up": True, "passive": not raw.get("when")}
    out = {"type": raw["type"]}
    for key, value in sorted(raw.items()):
        if key in ABILITY_STATE or key == "type" or value is None or value == [] or value == {}:
            continue
        if key in kind and value == kind[key][1] and type(value) is type(kind[key][1]):
            continue
        if key in defaults and value == defaults[key]:
            continue
        out[key] = value
    return out


def market_rows(stock_market: dict) -> list:
    letters = {name: letter for letter, name in TYPE_LETTERS.items()}
    rows = []
    for row in stock_market["grid"]:
        out = []
        for cell in row:
            if cell is None:
                out.append(None)
            else:
                out.append(str(cell["price"]) + "".join(letters[t] for t in cell["types"]))
        rows.append(out)
    return rows


def train_definitions(types: list) -> list:
    out = []
    for t in types:
        d = dict(t["definition"])
        if "num" not in d:   # counted by the title's code (per player count): the count built
            d["num"] = t["count"]
        out.append({k: d[k] for k in sorted(d)})
    return out


def company_record(c: dict) -> dict:
    rec = {
        "sym": c["sym"], "name": c["name"], "value": c["value"], "revenue": c["revenue"], "desc": c["desc"],
        "min_price": c["min_price"], "max_price": c["max_price"],
        "abilities": [clean_ability(a) for a in c["abilities"]],
    }
    if c.get("discount"):
        rec["discount"] = c["discount"]
    if c.get("type"):
        rec["type"] = c["type"]
    return rec


def corporation_record(c: dict, definition: dict, slug: str) -> dict:
    """Our record of one corporation: its definition plus the share facts the engine sets up from it
    (certificates that count as one although they are double, reserved certificates are the title's
    set-up, a par price the corporation must use)."""
    rec = {
        "sym": c["id"], "name": c["full_name"], "tokens": [t["price"] for t in c["tokens"]],
        "coordinates": c["coordinates"], "city": c["city"], "color": c["color"], "text_color": c["text_color"],
        "float_percent": c["float_percent"], "max_ownership_percent": c["max_ownership_percent"],
        "shares": [s["percent"] for s in c["shares"]],
        "abilities": [clean_ability(a) for a in c["abilities"]],
    }
    if c.get("type"):
        rec["type"] = c["type"]
    if c.get("always_market_price"):
        rec["always_market_price"] = True
    doubles = [s["index"] for s in c["shares"] if s.get("double_cert")]
    if doubles:
        rec["double_certs"] = doubles
    if c.get("float_includes_reserved"):
        rec["float_includes_reserved"] = True
    if definition.get("required_par_price") is not None:
        rec["required_par_price"] = definition["required_par_price"]
    for key in TITLE_CORPORATION_FIELDS.get(slug, ()):
        if c.get(key) is not None:
            rec[key] = c[key]
    return {k: v for k, v in rec.items() if v is not None}


def minor_record(m: dict) -> dict:
    rec = {
        "sym": m["id"], "name": m["full_name"], "coordinates": m["coordinates"], "city": m["city"],
        "color": m["color"], "text_color": m["text_color"], "tokens": [t["price"] for t in m["tokens"]],
        "abilities": [clean_ability(a) for a in m["abilities"]],
    }
    if m.get("type"):
        rec["type"] = m["type"]
    return {k: v for k, v in rec.items() if v is not None}


def definition_company_record(c: dict) -> dict:
    rec = {"sym": c["sym"], "name": c["name"], "value": c["value"], "revenue": c["revenue"], "desc": c["desc"],
           "abilities": [clean_ability(a) for a in c.get("abilities") or []]}
    for key in ("color", "text_color", "type"):
        if c.get(key):
            rec[key] = c[key]
    return rec


def definition_corporation_record(c: dict) -> dict:
    rec = {"sym": c["sym"], "name": c["name"], "tokens": c["tokens"], "coordinates": c.get("coordinates"),
           "city": c.get("city"), "color": c.get("color"), "text_color": c.get("text_color"),
           "float_percent": c.get("float_percent"), "max_ownership_percent": c.get("max_ownership_percent"),
           "shares": c.get("shares"), "abilities": [clean_ability(a) for a in c.get("abilities") or []],
           "type": c.get("type"), "always_market_price": c.get("always_market_price"),
           "destination_coordinates": c.get("destination_coordinates"),
           "destination_icon": c.get("destination_icon")}
    return {k: v for k, v in rec.items() if v is not None and v != ""}


def build(slug: str, reference_dir: Path) -> dict:
    plain = reference_dir / slug / "game.json"
    ref = evidence.read_json(plain if plain.is_file() else plain.with_suffix(".json.xz"))
    consts = ref["constants"]["plain"]
    flags = ref["rules_flags"]
    meta = ref["meta"]
    definitions = {d["sym"]: d for d in consts.get("CORPORATIONS") or () if isinstance(d, dict) and "sym" in d}
    data = {
        "schema": SCHEMA,
        "title": ref["title"],
        "slug": slug,
        "meta": {
            "display_title": meta["display_title"], "full_title": meta["full_title"],
            "subtitle": meta.get("subtitle"), "designer": meta["designer"], "location": meta["location"],
            "publisher": meta.get("publisher"), "info_url": meta.get("info_url"),
            "player_range": meta["player_range"], "optional_rules": meta["optional_rules"],
            "mutex_rules": meta.get("mutex_rules", []),
        },
        "currency": consts["CURRENCY_FORMAT_STR"],
        "bank_cash": consts["BANK_CASH"],
        "starting_cash": consts["STARTING_CASH"],
        "cert_limit": consts["CERT_LIMIT"],
        "capitalization": consts["CAPITALIZATION"],
        "rules": {k.lower(): flags[k] for k in RULE_KEYS if k in flags},
        "game_end_check": consts["GAME_END_CHECK"],
        "tile_lays": consts["TILE_LAYS"],
        "market": market_rows(ref["stock_market"]),
        "phases": ref["phases"],
        "trains": train_definitions(ref["trains"]["types"]),
        "companies": ([definition_company_record(c) for c in consts["COMPANIES"]] if slug in FROM_DEFINITIONS
                      else [company_record(c) for c in ref["companies"]]),
        "corporations": ([definition_corporation_record(c) for c in consts["CORPORATIONS"]]
                         if slug in FROM_DEFINITIONS
                         else [corporation_record(c, definitions.get(c["id"], {}), slug) for c in ref["corporations"]]),
        "minors": [minor_record(m) for m in ref["minors"]],
        "facts": {ours: consts[theirs] for theirs, ours in TITLE_FACTS.get(slug, {}).items()},
        "optional_rule_overrides": {},
        "player_count_overrides": {},
        "former_defaults": FORMER_DEFAULTS.get(slug, []),
    }
    for count, diff in sorted(ref.get("player_count_overrides", {}).items()):
        if "trains" in diff and "types" in diff["trains"]:
            data["player_count_overrides"][count] = {"trains": train_definitions(diff["trains"]["types"])}
    for rule, info in ref["optional_rule_overrides"].items():
        diff = info["differences"]
        over = {}
        if "phases" in diff:
            over["phases"] = diff["phases"]
        if "trains" in diff and "types" in diff["trains"]:
            over["trains"] = train_definitions(diff["trains"]["types"])
        if over:
            data["optional_rule_overrides"][rule] = over

    try:
        from tools.titledata import board
    except ImportError:  # pragma: no cover - board section not available
        board = None
    if board is not None:
        data["board"] = board.build(ref, slug, definitions=slug in FROM_DEFINITIONS)
    return data


# ------------------------------------------------------------------------------------ all titles

TITLES_DIR = ROOT / "libs" / "engine" / "titles"
CATALOGUE = TITLES_DIR / "tiles.json"
WIDTH = 100     # records shorter than this stay on one line even where a section is opened up


def _natural(name: str):
    return (0, int(name), "") if name.isdigit() else (1, 0, name)


def share_tiles(titles: dict) -> dict:
    """Move the tiles several titles define alike into a catalogue: a supply tile whose description
    two or more titles share under one name is kept once there and dropped from those titles'
    ``board.tiles`` (a title defining the name otherwise keeps its own). Returns the catalogue."""
    uses = {}       # name -> description (as JSON text) -> the titles defining it so
    for slug, data in titles.items():
        tiles = data["board"]["tiles"]
        for name, _ in data["board"]["supply"]:
            uses.setdefault(name, {}).setdefault(json.dumps(tiles[name], sort_keys=True), []).append(slug)
    catalogue = {}
    for name in sorted(uses, key=_natural):
        slugs = max(uses[name].values(), key=len)
        if len(slugs) >= 2:
            catalogue[name] = titles[slugs[0]]["board"]["tiles"][name]
    for data in titles.values():
        tiles = data["board"]["tiles"]
        for name in list(tiles):
            if name in catalogue and tiles[name] == catalogue[name]:
                del tiles[name]
    return catalogue


def _compact(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _records(value) -> bool:
    items = value.values() if isinstance(value, dict) else value
    return len(value) > 1 and all(isinstance(v, (dict, list)) for v in items)


def render(value, indent: str = "") -> str:
    """JSON text for reading: the top object and the sections holding sections are opened one
    member per line; a collection of records (a list or object of objects or lists) one record per
    line; everything else, and anything short, on one line."""
    flat = _compact(value)
    if not isinstance(value, (dict, list)) or not value or (indent and len(indent) + len(flat) <= WIDTH):
        return flat
    inner = indent + " "
    if _records(value):
        parts = ([f"{inner}{_compact(k)}: {_compact(v)}" for k, v in value.items()] if isinstance(value, dict)
                 else [inner + _compact(v) for v in value])
    elif isinstance(value, dict):
        parts = [f"{inner}{_compact(k)}: {render(v, inner)}" for k, v in value.items()]
    else:
        return flat
    opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
    return opening + "\n" + ",\n".join(parts) + "\n" + indent + closing


def build_all(reference_dir: Path = DEFAULT_REFERENCE) -> dict[Path, str]:
    """Every file of the title data, path -> text, validated against the schema."""
    from engine.titles import SLUGS, schema

    titles = {slug: json.loads(json.dumps(build(slug, reference_dir))) for slug in SLUGS}
    catalogue = share_tiles(titles)
    files = {TITLES_DIR / slug / "data.json": render(data) + "\n" for slug, data in titles.items()}
    files[CATALOGUE] = render({"schema": SCHEMA, "tiles": catalogue}) + "\n"
    for path, text in files.items():
        (schema.validate_catalogue if path == CATALOGUE else schema.validate_title)(text)
    return files


def drift(reference_dir: Path = DEFAULT_REFERENCE) -> list[str]:
    """The checked-in files that differ from what the builder makes (empty: none)."""
    out = []
    for path, text in build_all(reference_dir).items():
        if not path.is_file():
            out.append(f"{path.relative_to(ROOT)} is missing")
        elif path.read_text(encoding="utf-8") != text:
            out.append(f"{path.relative_to(ROOT)} differs from what make title-data builds")
    return out


def main(argv=None) -> int:
    from engine.titles import slug_for

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("slug", nargs="*", help="accepted for habit; every title is rebuilt (they share the catalogue)")
    ap.add_argument("--reference", type=Path, default=DEFAULT_REFERENCE)
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if a checked-in file differs")
    args = ap.parse_args(argv)
    for slug in args.slug:
        slug_for(slug)              # an unknown title is an error, not silently ignored
    if args.check:
        problems = drift(args.reference)
        for line in problems:
            print(line)
        print("title data in step with the builder" if not problems else "run make title-data", file=sys.stderr)
        return 1 if problems else 0
    for path, text in build_all(args.reference).items():
        name = path.relative_to(ROOT)
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            print(f"unchanged {name}", file=sys.stderr)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {name} ({len(text.encode())} bytes, {text.count(chr(10))} lines)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
