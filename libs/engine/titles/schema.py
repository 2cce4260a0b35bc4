"""The schema of the title data: ``titles/<slug>/data.json`` and the tile catalogue they share,
``titles/tiles.json``, as pydantic models (every record closed: an attribute the schema does not
name is an error, as is a value of the wrong type).

The data files are built by ``make title-data`` (tools/titledata) from the reference facts, which
validates what it writes against these models; the test suite validates the checked-in files and
checks they are exactly what the builder makes (tests/unit/test_title_data_files.py). A game does
not import this module: loading pydantic alone costs more CPU than the whole start of a replay
should (about 160 ms against the 0.3 s of issue 10), so ``engine.titles.load_data`` checks only
the schema version and that every tile a title names is defined, and the abilities are checked
against ``engine.core.entities.ABILITY_KINDS`` (the same table the models below are made from)
when a game builds them.

Version history of ``SCHEMA`` (engine.titles.SCHEMA, written in every file):
1: one self-contained file per title.
2: tiles used by several titles live once in the catalogue; a title's ``board.tiles`` holds only its
   own (preprinted tiles and tiles no other title shares); abilities leave out default values.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, JsonValue, create_model

from ..core.entities import ABILITY_COMMON, ABILITY_KINDS
from . import SCHEMA

Color = str
ByPlayers = dict[str, int]          # player count ("3") -> value


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


# ------------------------------------------------------------------------------------ abilities

def _ability_model(kind: str, attrs: dict) -> type[BaseModel]:
    fields = {name: (annotation | None, None) for name, annotation in ABILITY_COMMON.items()}
    fields.update({name: (annotation | None, None) for name, (annotation, _) in attrs.items()})
    fields["type"] = (Literal[kind], ...)
    return create_model(f"{kind.title().replace('_', '')}Ability", __base__=Record, **fields)


Ability = Annotated[Union[tuple(_ability_model(k, a) for k, a in ABILITY_KINDS.items())],
                    Field(discriminator="type")]


# ------------------------------------------------------------------------------------ entities

class Company(Record):
    sym: str
    name: str
    value: int
    revenue: int
    desc: str
    abilities: list[Ability]
    min_price: int | None = None
    max_price: int | None = None
    discount: int | None = None
    type: str | None = None
    color: str | None = None
    text_color: str | None = None


class Corporation(Record):
    sym: str
    name: str
    tokens: list[int]
    abilities: list[Ability]
    coordinates: str | list[str] | None = None
    city: int | list[int] | None = None
    color: str | None = None
    text_color: str | None = None
    float_percent: int | None = None
    max_ownership_percent: int | None = None
    shares: list[int] | None = None
    type: str | None = None
    always_market_price: bool | None = None
    double_certs: list[int] | None = None
    float_includes_reserved: bool | None = None
    required_par_price: int | None = None
    destination_coordinates: str | None = None
    destination_icon: str | None = None
    hex_color: str | None = None


class Minor(Record):
    sym: str
    name: str
    coordinates: str | list[str]
    color: str
    text_color: str
    tokens: list[int]
    abilities: list[Ability]
    city: int | list[int] | None = None
    type: str | None = None


# ------------------------------------------------------------------------------------ trains, phases

class Stops(Record):
    """One part of a train's reach: it may visit ``visit`` stops of these kinds and count ``pay``."""
    nodes: list[Literal["city", "town", "offboard"]]
    pay: int
    visit: int


Distance = Union[int, list[Stops]]


class TrainEvent(Record):
    type: str
    when: int | None = None
    hidden: bool | None = None


class TrainVariant(Record):
    name: str
    distance: Distance
    price: int
    rusts_on: str | None = None
    obsolete_on: str | None = None
    available_on: str | None = None
    multiplier: int | None = None
    track_type: str | None = None
    no_local: bool | None = None


class Train(Record):
    name: str
    distance: Distance
    price: int
    num: int | Literal["unlimited"]
    rusts_on: str | None = None
    obsolete_on: str | None = None
    available_on: str | None = None
    variants: list[TrainVariant] | None = None
    events: list[TrainEvent] | None = None
    discount: dict[str, int] | None = None
    multiplier: int | None = None
    track_type: str | None = None


class Phase(Record):
    name: str
    on: str | list[str] | None = None
    operating_rounds: int
    status: list[str]
    tiles: list[Color]
    train_limit: int | dict[str, int]


class Overrides(Record):
    """Sections an optional rule or a player count replaces whole."""
    phases: list[Phase] | None = None
    trains: list[Train] | None = None


class TileLay(Record):
    lay: bool | Literal["not_if_upgraded"]
    upgrade: bool | Literal["not_if_upgraded"]
    cost: int | None = None
    cannot_reuse_same_hex: bool | None = None


# ------------------------------------------------------------------------------------ board

End = Union[Annotated[int, Field(ge=0, le=5)], Annotated[str, Field(pattern=r"^(n\d+|j)$")]]


class PathOptions(Record):
    terminal: int | None = None
    track: Literal["narrow", "dual", "future"] | None = None     # broad when not given
    lanes: list[list[int]] | None = None
    ignore: bool | None = None


Path = Union[tuple[End, End], tuple[End, End, PathOptions]]


class Node(Record):
    type: Literal["city", "town", "offboard"]
    revenue: int | dict[Color, int]
    slots: int | None = None
    groups: list[str] | None = None
    hide: bool | None = None
    visit_cost: int | None = None
    route: Literal["optional", "never"] | None = None
    to_city: bool | None = None
    halt: bool | None = None
    boom: bool | None = None
    style: str | None = None
    loc: str | float | int | None = None
    part: int | None = None


class Terrain(Record):
    cost: int
    terrains: list[str]


class Border(Record):
    edge: int
    type: str | None = None
    cost: int | None = None
    color: str | None = None


class Icon(Record):
    name: str
    image: str
    sticky: bool | None = None
    blocks_lay: bool | None = None
    large: bool | None = None


class Stub(Record):
    edge: int
    track: str


class Tile(Record):
    color: Color
    label: str | None = None
    labels: list[str] | None = None
    future_label: tuple[str, Color] | None = None
    nodes: list[Node] | None = None
    paths: list[Path] | None = None
    future_paths: list[Path] | None = None
    terrain: list[Terrain] | None = None
    borders: list[Border] | None = None
    icons: list[Icon] | None = None
    stubs: list[Stub] | None = None
    partitions: list[JsonValue] | None = None
    blocks_lay: bool | None = None
    hidden: bool | None = None
    stripes: str | None = None
    frame: dict[str, JsonValue] | None = None


class Hex(Record):
    id: str
    tile: Annotated[str, Field(pattern=r"^.+-\d+$")]      # "<tile name>-<index>"
    # the key of the tile's description, when it is not the tile's name
    def_: str | None = Field(None, alias="def")
    name: str | None = None
    blockers: list[str] | None = None
    hidden_blockers: list[str] | None = None
    hide_name: bool | None = None
    empty: bool | None = None


class Reservation(Record):
    hex: str
    entity: str
    city: int | None = None
    slot: int | None = None
    with_rules: list[str] | None = None


class Board(Record):
    layout: Literal["flat", "pointy"]
    axes: dict[Literal["x", "y"], Literal["letter", "number"]]
    color_order: list[Color]
    rotation_checks: list[str]
    tiles: dict[str, Tile]
    supply: list[tuple[str, int | Literal["unlimited"]]]
    hexes: list[Hex]
    reservations: list[Reservation]
    optional_hexes: dict[str, list[Hex]] | None = None


# ------------------------------------------------------------------------------------ the title

class OptionalRule(Record):
    sym: str
    short_name: str
    desc: str
    players: list[int] | None = None


class FormerDefault(Record):
    """An optional rule that was every game's rule on 18xx.games until `until` (YYYY-MM-DD): a game
    recorded there before that day was played with it (`engine.rules_of_record`)."""
    rule: str
    until: Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$")]


class Meta(Record):
    display_title: str
    full_title: str
    subtitle: str | None
    designer: str
    location: str
    publisher: str | None
    info_url: str | None
    player_range: tuple[int, int]
    optional_rules: list[OptionalRule]
    mutex_rules: list[list[str]]


class Rules(Record):
    """The generic rule switches the core reads (the reference's constants, lower-cased)."""
    allow_obsolete_train_buy: bool
    allow_removing_towns: bool
    allow_train_buy_from_others: bool
    allow_train_buy_from_other_players: bool
    always_buy_trains_at_face_value: bool
    bankruptcy_allowed: bool
    bankruptcy_ends_game_after: str
    buy_share_from_other_player: bool
    cert_limit_change_on_bankruptcy: bool
    cert_limit_includes_privates: bool
    cert_limit_types: list[str]
    closed_corp_reservations_removed: bool
    closed_corp_tokens_removed: bool
    closed_corp_trains_removed: bool
    discarded_trains: str
    discarded_train_discount: int
    ebuy_can_sell_shares: bool
    ebuy_can_take_player_loan: bool | str
    ebuy_depot_train_must_be_cheapest: bool
    ebuy_from_others: str
    ebuy_owner_must_help: bool
    ebuy_pres_swap: bool
    ebuy_sell_more_than_needed: bool
    ebuy_sell_more_than_needed_sets_purchase_min: bool
    game_end_lock_first_trigger: bool
    game_end_timing_priority: list[str]
    home_token_timing: str
    impassable_hex_colors: list[Color]
    layout: Literal["flat", "pointy"]
    market_share_limit: int
    min_bid_increment: int
    multiple_buy_only_from_market: bool
    multiple_buy_types: list[str]
    must_bid_increment_multiple: bool
    must_buy_train: str
    must_emergency_issue_before_ebuy: bool
    must_sell_in_blocks: bool
    next_sr_player_order: str
    obsolete_trains_count_for_limit: bool
    only_highest_bid_committed: bool
    pool_share_drop: str
    president_sales_to_market: bool
    sell_after: str
    sell_buy_order: str
    sell_movement: str
    sold_out_increase: bool
    sold_out_top_row_movement: str
    sold_shares_destination: str
    tile_reservation_blocks_others: str
    tile_type: str
    tile_upgrades_must_use_max_exits: list[str]
    token_placement_on_tile_lay_entity: str
    track_restriction: str
    turn_sell_limit: int | None


class TitleData(Record):
    schema_: Literal[SCHEMA] = Field(alias="schema")
    title: str
    slug: str
    meta: Meta
    currency: str
    bank_cash: int | ByPlayers
    starting_cash: ByPlayers
    cert_limit: ByPlayers | dict[str, ByPlayers]
    capitalization: str
    rules: Rules
    game_end_check: dict[str, str]
    tile_lays: list[TileLay]
    market: list[list[Annotated[str, Field(pattern=r"^\d+[A-Za-z]*$")] | None]]
    phases: list[Phase]
    trains: list[Train]
    companies: list[Company]
    corporations: list[Corporation]
    minors: list[Minor]
    facts: dict[str, JsonValue]         # the title's own constants, read by its rule code by name
    optional_rule_overrides: dict[str, Overrides]
    player_count_overrides: dict[str, Overrides]
    former_defaults: list[FormerDefault]
    board: Board


class TileCatalogue(Record):
    schema_: Literal[SCHEMA] = Field(alias="schema")
    tiles: dict[str, Tile]


def validate_title(text: str | bytes) -> TitleData:
    """A title's data file (its JSON text), checked: raises pydantic.ValidationError, saying where
    and what."""
    return TitleData.model_validate_json(text)


def validate_catalogue(text: str | bytes) -> TileCatalogue:
    return TileCatalogue.model_validate_json(text)
