"""The title registry: which titles exist, their data and the class that plays them.

A title lives in ``titles/<slug>/``: ``data.json`` (the facts: map, tiles, market, trains, companies,
corporations, in our own schema) and a module whose ``GAME`` is the Game subclass with the rules
that differ from the common core.
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


@lru_cache(maxsize=None)
def load_data(slug: str) -> dict:
    """A title's data, parsed once and shared by every game of the title: it is read-only (a game
    copies the parts it changes: companies, corporations, phases, trains), so many games in one
    process cost its memory once. tests/unit/rules/test_title_data.py checks nothing writes to it."""
    text = resources.files(f"{__name__}.{slug}").joinpath("data.json").read_text(encoding="utf-8")
    return json.loads(text)


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
