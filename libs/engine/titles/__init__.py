"""The title registry: which titles exist, their data and the class that plays them.

A title lives in ``titles/<slug>/``: ``data.json`` (the facts: map, tiles, market, trains, companies,
corporations, in our own schema, ``titles/schema.py``) and a module whose ``GAME`` is the Game
subclass with the rules that differ from the common core. Tiles used by several titles are defined
once, in ``titles/tiles.json``. Both files are built by ``make title-data`` (tools/titledata).
"""

from __future__ import annotations

import importlib
import json
from functools import lru_cache
from importlib import resources

from ..errors import GameError

# slug -> the 18xx.games title string
SLUGS = {
    "1856": "1856",
    "1822": "1822",
    "1858": "1858",
    "1858_india": "1858India",
    "1847_ae": "1847 AE",
}
ALIASES = {title.lower().replace(" ", ""): slug for slug, title in SLUGS.items()}
ALIASES.update({slug: slug for slug in SLUGS})


def slug_for(title: str) -> str:
    key = str(title or "").lower().replace(" ", "").replace("_", "")
    for alias, slug in ALIASES.items():
        if alias.replace("_", "") == key:
            return slug
    known = ", ".join(sorted(SLUGS.values()))
    raise GameError(f"Unknown title {title!r}; available titles: {known}")


# The version of the data files' schema this engine reads (titles/schema.py keeps the history).
SCHEMA = 2


class TitleDataError(RuntimeError):
    """A title's data file is not one this engine can read (rebuild it: make title-data)."""


def _read(package: str, name: str, what: str) -> dict:
    return parse_data(resources.files(package).joinpath(name).read_text(encoding="utf-8"), what)


def parse_data(text: str, what: str) -> dict:
    """A data file's JSON, refused (TitleDataError) unless written for this engine's SCHEMA."""
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        found = data.get("schema") if isinstance(data, dict) else None
        raise TitleDataError(f"{what} has schema {found!r}, this engine reads schema {SCHEMA} "
                             "(rebuild it: make title-data)")
    return data


@lru_cache(maxsize=None)
def tile_catalogue() -> dict:
    """The tiles several titles share: name -> description (titles/tiles.json)."""
    return _read(__name__, "tiles.json", "titles/tiles.json")["tiles"]


@lru_cache(maxsize=None)
def load_data(slug: str) -> dict:
    """A title's data, parsed once and shared by every game of the title: it is read-only (a game
    copies the parts it changes: companies, corporations, phases, trains), so many games in one
    process cost its memory once. tests/unit/rules/test_title_data.py checks nothing writes to it.

    Checked here, cheaply: the schema version, every ability's kind and attributes, and every tile
    the title names; the board's ``tiles`` come back complete (the title's own descriptions plus
    those it names from the catalogue). The whole schema (titles/schema.py) is checked when the file
    is built and by the test suite, not here: importing pydantic alone costs a replay's start-up."""
    what = f"titles/{slug}/data.json"
    data = _read(f"{__name__}.{slug}", "data.json", what)
    check_abilities(data, what)
    return with_catalogue_tiles(data, tile_catalogue(), what)


def check_abilities(data: dict, what: str = "the title data") -> None:
    """Every ability of the data's companies, corporations and minors is of a known kind and carries
    only the attributes of its kind (engine.core.entities.ABILITY_KINDS): a TitleDataError otherwise."""
    from ..core.entities import Ability

    for section in ("companies", "corporations", "minors"):
        for record in data.get(section) or ():
            for raw in record.get("abilities") or ():
                attrs = dict(raw)
                try:
                    Ability(attrs.pop("type", None), **attrs)
                except ValueError as exc:
                    raise TitleDataError(f"{what}: {record.get('sym')}: {exc}") from None


def with_catalogue_tiles(data: dict, catalogue: dict, what: str = "the title data") -> dict:
    """``data`` with its board's ``tiles`` completed from the catalogue: every tile it names (supply,
    preprinted) that it does not define itself. A name defined in neither is a TitleDataError."""
    board = data["board"]
    own = board["tiles"]
    named = [name for name, _ in board["supply"]]
    for rec in board["hexes"] + [h for hexes in (board.get("optional_hexes") or {}).values() for h in hexes]:
        named.append(rec.get("def") or rec["tile"].rpartition("-")[0])
    tiles = {}
    for name in named:
        if name not in own and name not in tiles:
            if name not in catalogue:
                raise TitleDataError(f"{what} names tile {name!r}, defined neither there nor in titles/tiles.json")
            tiles[name] = catalogue[name]
    return {**data, "board": {**board, "tiles": {**tiles, **own}}}


def game_class(slug: str):
    return importlib.import_module(f"{__name__}.{slug}").GAME


def describe(slug: str) -> dict:
    data = load_data(slug)
    meta = data["meta"]
    low, high = meta["player_range"]
    return {"title": data["title"], "slug": slug, "display": meta.get("full_title") or data["title"],
            "min_players": low, "max_players": high,
            "optional_rules": [{"sym": r["sym"], "short_name": r.get("short_name", r["sym"]), "desc": r.get("desc", "")}
                               for r in meta.get("optional_rules", [])]}
