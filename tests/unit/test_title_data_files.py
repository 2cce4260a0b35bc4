"""The title data files (libs/engine/titles/*/data.json, titles/tiles.json): exactly what the builder
(tools/titledata) makes from the reference facts in evidence/, valid against the schema
(engine/titles/schema.py), and read strictly: nothing unknown is taken for None."""

import json

import pydantic
import pytest

import engine
from engine import titles
from engine.actions import Action
from engine.core.entities import ABILITY_KINDS, Ability
from engine.titles import schema
from tools.titledata import build

TITLES_DIR = build.TITLES_DIR


def test_the_checked_in_title_data_is_what_the_builder_makes():
    """`make title-data` would change nothing, for all five titles and the tile catalogue."""
    assert build.drift() == [], "run make title-data (and commit the result)"


@pytest.mark.parametrize("slug", sorted(titles.SLUGS))
def test_every_title_file_is_valid_against_the_schema(slug):
    data = schema.validate_title((TITLES_DIR / slug / "data.json").read_text())
    assert data.slug == slug and data.title == titles.SLUGS[slug]


def test_the_catalogue_is_valid_and_holds_only_tiles_several_titles_share():
    catalogue = schema.validate_catalogue((TITLES_DIR / "tiles.json").read_text()).tiles
    users = {name: [slug for slug in titles.SLUGS
                    if name in dict(titles.load_data(slug)["board"]["supply"])
                    and titles.load_data(slug)["board"]["tiles"][name] == titles.tile_catalogue()[name]]
             for name in catalogue}
    assert all(len(slugs) >= 2 for slugs in users.values()), {n: s for n, s in users.items() if len(s) < 2}
    for slug in titles.SLUGS:       # no title repeats a description the catalogue holds
        own = json.loads((TITLES_DIR / slug / "data.json").read_text())["board"]["tiles"]
        assert not [n for n, t in own.items() if titles.tile_catalogue().get(n) == t], slug


def test_1858_and_1858_india_define_their_common_tiles_once():
    own = {slug: json.loads((TITLES_DIR / slug / "data.json").read_text())["board"]["tiles"]
           for slug in ("1858", "1858_india")}
    common = [name for name, t in titles.load_data("1858")["board"]["tiles"].items()
              if titles.load_data("1858_india")["board"]["tiles"].get(name) == t]
    assert len(common) >= 95
    assert not [name for name in common if name in own["1858"] and name in own["1858_india"]]


def test_the_schema_refuses_unknown_attributes_and_wrong_types():
    text = (TITLES_DIR / "1856" / "data.json").read_text()
    data = json.loads(text)
    data["companies"][0]["abilities"][0]["hexs"] = ["L3"]            # a misspelt attribute
    with pytest.raises(pydantic.ValidationError, match="hexs"):
        schema.validate_title(json.dumps(data))
    data = json.loads(text)
    data["trains"][0]["price"] = "100"
    with pytest.raises(pydantic.ValidationError, match="trains.0.price"):
        schema.validate_title(json.dumps(data))
    data = json.loads(text)
    data["board"]["hexes"][0]["colour"] = "white"
    with pytest.raises(pydantic.ValidationError, match="colour"):
        schema.validate_title(json.dumps(data))


def test_loading_refuses_another_schema_unknown_abilities_and_undefined_tiles():
    text = (TITLES_DIR / "1856" / "data.json").read_text()
    data = titles.parse_data(text, "1856")
    with pytest.raises(titles.TitleDataError, match="1856 has schema 1, this engine reads schema 2"):
        titles.parse_data(text.replace('"schema": 2', '"schema": 1', 1), "1856")
    broken = json.loads(json.dumps(data))
    broken["companies"][1]["abilities"][0]["hexs"] = ["I12"]
    with pytest.raises(titles.TitleDataError, match="WSRC: A blocks_hexes ability has no attribute hexs"):
        titles.check_abilities(broken)
    broken["companies"][1]["abilities"][0] = {"type": "fly"}
    with pytest.raises(titles.TitleDataError, match="WSRC: Unknown kind of ability"):
        titles.check_abilities(broken)
    with pytest.raises(titles.TitleDataError, match="names tile '57'"):
        titles.with_catalogue_tiles(data, {k: v for k, v in titles.tile_catalogue().items() if k != "57"})
    complete = titles.with_catalogue_tiles(data, titles.tile_catalogue())
    assert complete["board"]["tiles"]["57"] == titles.tile_catalogue()["57"]
    assert complete["board"] is not data["board"] and "57" not in data["board"]["tiles"]


def test_an_ability_reads_its_kinds_attributes_and_nothing_else():
    lay = Ability("tile_lay", hexes=["I12"], tiles=["59"], when="track")
    assert (lay.hexes, lay.tiles, lay.free, lay.special, lay.lay_count) == (["I12"], ["59"], False, True, None)
    with pytest.raises(AttributeError, match="tile_lay ability has no attribute 'price'"):
        lay.price
    assert getattr(lay, "price", "none") == "none"
    with pytest.raises(ValueError, match="no attribute hexs"):
        Ability("tile_lay", hexs=["I12"])
    with pytest.raises(ValueError, match="Unknown kind"):
        Ability("fly")
    other = Ability("tile_lay")
    other.hexes.append("A1")                       # defaults are the ability's own, not shared
    assert Ability("tile_lay").hexes == [] and set(ABILITY_KINDS["tile_lay"]) <= set(other.attrs)


def test_an_action_resolves_its_references_and_reads_nothing_else():
    game = engine.new_game("1856", ["A", "B", "C"])
    action = Action({"type": "bid", "entity": "A", "entity_type": "player", "company": "FT", "price": 20},
                    game.state)
    assert action.company.id == "FT" and action.get("price") == 20
    with pytest.raises(AttributeError, match="Action has no attribute 'price'"):
        action.price
