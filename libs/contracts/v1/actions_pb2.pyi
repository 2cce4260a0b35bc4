from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class StringList(_message.Message):
    __slots__ = ("items",)
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, items: _Optional[_Iterable[str]] = ...) -> None: ...

class Route(_message.Message):
    __slots__ = ("train", "connections", "hexes", "revenue", "revenue_str", "nodes", "subsidy", "halts", "abilities", "extra_json")
    TRAIN_FIELD_NUMBER: _ClassVar[int]
    CONNECTIONS_FIELD_NUMBER: _ClassVar[int]
    HEXES_FIELD_NUMBER: _ClassVar[int]
    REVENUE_FIELD_NUMBER: _ClassVar[int]
    REVENUE_STR_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    SUBSIDY_FIELD_NUMBER: _ClassVar[int]
    HALTS_FIELD_NUMBER: _ClassVar[int]
    ABILITIES_FIELD_NUMBER: _ClassVar[int]
    EXTRA_JSON_FIELD_NUMBER: _ClassVar[int]
    train: str
    connections: _containers.RepeatedCompositeFieldContainer[StringList]
    hexes: _containers.RepeatedScalarFieldContainer[str]
    revenue: int
    revenue_str: str
    nodes: _containers.RepeatedScalarFieldContainer[str]
    subsidy: int
    halts: int
    abilities: int
    extra_json: str
    def __init__(self, train: _Optional[str] = ..., connections: _Optional[_Iterable[_Union[StringList, _Mapping]]] = ..., hexes: _Optional[_Iterable[str]] = ..., revenue: _Optional[int] = ..., revenue_str: _Optional[str] = ..., nodes: _Optional[_Iterable[str]] = ..., subsidy: _Optional[int] = ..., halts: _Optional[int] = ..., abilities: _Optional[int] = ..., extra_json: _Optional[str] = ...) -> None: ...

class Bid(_message.Message):
    __slots__ = ("company", "price", "corporation", "minor")
    COMPANY_FIELD_NUMBER: _ClassVar[int]
    PRICE_FIELD_NUMBER: _ClassVar[int]
    CORPORATION_FIELD_NUMBER: _ClassVar[int]
    MINOR_FIELD_NUMBER: _ClassVar[int]
    company: str
    price: int
    corporation: str
    minor: str
    def __init__(self, company: _Optional[str] = ..., price: _Optional[int] = ..., corporation: _Optional[str] = ..., minor: _Optional[str] = ...) -> None: ...

class Par(_message.Message):
    __slots__ = ("corporation", "share_price", "slot")
    CORPORATION_FIELD_NUMBER: _ClassVar[int]
    SHARE_PRICE_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    corporation: str
    share_price: str
    slot: int
    def __init__(self, corporation: _Optional[str] = ..., share_price: _Optional[str] = ..., slot: _Optional[int] = ...) -> None: ...

class BuyShares(_message.Message):
    __slots__ = ("shares", "percent", "share_price", "swap", "borrow_from")
    SHARES_FIELD_NUMBER: _ClassVar[int]
    PERCENT_FIELD_NUMBER: _ClassVar[int]
    SHARE_PRICE_FIELD_NUMBER: _ClassVar[int]
    SWAP_FIELD_NUMBER: _ClassVar[int]
    BORROW_FROM_FIELD_NUMBER: _ClassVar[int]
    shares: _containers.RepeatedScalarFieldContainer[str]
    percent: int
    share_price: str
    swap: str
    borrow_from: str
    def __init__(self, shares: _Optional[_Iterable[str]] = ..., percent: _Optional[int] = ..., share_price: _Optional[str] = ..., swap: _Optional[str] = ..., borrow_from: _Optional[str] = ...) -> None: ...

class SellShares(_message.Message):
    __slots__ = ("shares", "percent", "share_price")
    SHARES_FIELD_NUMBER: _ClassVar[int]
    PERCENT_FIELD_NUMBER: _ClassVar[int]
    SHARE_PRICE_FIELD_NUMBER: _ClassVar[int]
    shares: _containers.RepeatedScalarFieldContainer[str]
    percent: int
    share_price: int
    def __init__(self, shares: _Optional[_Iterable[str]] = ..., percent: _Optional[int] = ..., share_price: _Optional[int] = ...) -> None: ...

class Pass(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class LayTile(_message.Message):
    __slots__ = ("hex", "tile", "rotation")
    HEX_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    ROTATION_FIELD_NUMBER: _ClassVar[int]
    hex: str
    tile: str
    rotation: int
    def __init__(self, hex: _Optional[str] = ..., tile: _Optional[str] = ..., rotation: _Optional[int] = ...) -> None: ...

class PlaceToken(_message.Message):
    __slots__ = ("city", "slot", "tokener", "cost", "token_type")
    CITY_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    TOKENER_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    TOKEN_TYPE_FIELD_NUMBER: _ClassVar[int]
    city: str
    slot: int
    tokener: str
    cost: int
    token_type: str
    def __init__(self, city: _Optional[str] = ..., slot: _Optional[int] = ..., tokener: _Optional[str] = ..., cost: _Optional[int] = ..., token_type: _Optional[str] = ...) -> None: ...

class RunRoutes(_message.Message):
    __slots__ = ("routes", "extra_revenue", "subsidy")
    ROUTES_FIELD_NUMBER: _ClassVar[int]
    EXTRA_REVENUE_FIELD_NUMBER: _ClassVar[int]
    SUBSIDY_FIELD_NUMBER: _ClassVar[int]
    routes: _containers.RepeatedCompositeFieldContainer[Route]
    extra_revenue: int
    subsidy: int
    def __init__(self, routes: _Optional[_Iterable[_Union[Route, _Mapping]]] = ..., extra_revenue: _Optional[int] = ..., subsidy: _Optional[int] = ...) -> None: ...

class Dividend(_message.Message):
    __slots__ = ("kind", "amount")
    KIND_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    kind: str
    amount: int
    def __init__(self, kind: _Optional[str] = ..., amount: _Optional[int] = ...) -> None: ...

class BuyTrain(_message.Message):
    __slots__ = ("train", "price", "variant", "exchange", "shell")
    TRAIN_FIELD_NUMBER: _ClassVar[int]
    PRICE_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    EXCHANGE_FIELD_NUMBER: _ClassVar[int]
    SHELL_FIELD_NUMBER: _ClassVar[int]
    train: str
    price: int
    variant: str
    exchange: str
    shell: str
    def __init__(self, train: _Optional[str] = ..., price: _Optional[int] = ..., variant: _Optional[str] = ..., exchange: _Optional[str] = ..., shell: _Optional[str] = ...) -> None: ...

class DiscardTrain(_message.Message):
    __slots__ = ("train",)
    TRAIN_FIELD_NUMBER: _ClassVar[int]
    train: str
    def __init__(self, train: _Optional[str] = ...) -> None: ...

class ScrapTrain(_message.Message):
    __slots__ = ("train",)
    TRAIN_FIELD_NUMBER: _ClassVar[int]
    train: str
    def __init__(self, train: _Optional[str] = ...) -> None: ...

class BuyCompany(_message.Message):
    __slots__ = ("company", "price")
    COMPANY_FIELD_NUMBER: _ClassVar[int]
    PRICE_FIELD_NUMBER: _ClassVar[int]
    company: str
    price: int
    def __init__(self, company: _Optional[str] = ..., price: _Optional[int] = ...) -> None: ...

class AcquireCompany(_message.Message):
    __slots__ = ("company",)
    COMPANY_FIELD_NUMBER: _ClassVar[int]
    company: str
    def __init__(self, company: _Optional[str] = ...) -> None: ...

class Choose(_message.Message):
    __slots__ = ("choice",)
    CHOICE_FIELD_NUMBER: _ClassVar[int]
    choice: str
    def __init__(self, choice: _Optional[str] = ...) -> None: ...

class ChooseAbility(_message.Message):
    __slots__ = ("choice",)
    CHOICE_FIELD_NUMBER: _ClassVar[int]
    choice: str
    def __init__(self, choice: _Optional[str] = ...) -> None: ...

class Assign(_message.Message):
    __slots__ = ("target", "target_type")
    TARGET_FIELD_NUMBER: _ClassVar[int]
    TARGET_TYPE_FIELD_NUMBER: _ClassVar[int]
    target: str
    target_type: str
    def __init__(self, target: _Optional[str] = ..., target_type: _Optional[str] = ...) -> None: ...

class Bankrupt(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Convert(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class DestinationConnection(_message.Message):
    __slots__ = ("corporations",)
    CORPORATIONS_FIELD_NUMBER: _ClassVar[int]
    corporations: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, corporations: _Optional[_Iterable[str]] = ...) -> None: ...

class EndGame(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class HexToken(_message.Message):
    __slots__ = ("hex", "token_type", "cost")
    HEX_FIELD_NUMBER: _ClassVar[int]
    TOKEN_TYPE_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    hex: str
    token_type: str
    cost: int
    def __init__(self, hex: _Optional[str] = ..., token_type: _Optional[str] = ..., cost: _Optional[int] = ...) -> None: ...

class RemoveHexToken(_message.Message):
    __slots__ = ("hex", "cost")
    HEX_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    hex: str
    cost: int
    def __init__(self, hex: _Optional[str] = ..., cost: _Optional[int] = ...) -> None: ...

class Merge(_message.Message):
    __slots__ = ("corporation",)
    CORPORATION_FIELD_NUMBER: _ClassVar[int]
    corporation: str
    def __init__(self, corporation: _Optional[str] = ...) -> None: ...

class Message(_message.Message):
    __slots__ = ("message",)
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    message: str
    def __init__(self, message: _Optional[str] = ...) -> None: ...

class ProgramBuyShares(_message.Message):
    __slots__ = ("corporation", "until_condition", "from_market", "auto_pass_after")
    CORPORATION_FIELD_NUMBER: _ClassVar[int]
    UNTIL_CONDITION_FIELD_NUMBER: _ClassVar[int]
    FROM_MARKET_FIELD_NUMBER: _ClassVar[int]
    AUTO_PASS_AFTER_FIELD_NUMBER: _ClassVar[int]
    corporation: str
    until_condition: int
    from_market: bool
    auto_pass_after: bool
    def __init__(self, corporation: _Optional[str] = ..., until_condition: _Optional[int] = ..., from_market: _Optional[bool] = ..., auto_pass_after: _Optional[bool] = ...) -> None: ...

class ProgramSharePass(_message.Message):
    __slots__ = ("unconditional", "indefinite", "auto_pass_after")
    UNCONDITIONAL_FIELD_NUMBER: _ClassVar[int]
    INDEFINITE_FIELD_NUMBER: _ClassVar[int]
    AUTO_PASS_AFTER_FIELD_NUMBER: _ClassVar[int]
    unconditional: bool
    indefinite: bool
    auto_pass_after: bool
    def __init__(self, unconditional: _Optional[bool] = ..., indefinite: _Optional[bool] = ..., auto_pass_after: _Optional[bool] = ...) -> None: ...

class ProgramDisable(_message.Message):
    __slots__ = ("reason", "original_type")
    REASON_FIELD_NUMBER: _ClassVar[int]
    ORIGINAL_TYPE_FIELD_NUMBER: _ClassVar[int]
    reason: str
    original_type: str
    def __init__(self, reason: _Optional[str] = ..., original_type: _Optional[str] = ...) -> None: ...

class Undo(_message.Message):
    __slots__ = ("action_id",)
    ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    action_id: int
    def __init__(self, action_id: _Optional[int] = ...) -> None: ...

class Redo(_message.Message):
    __slots__ = ("action_id",)
    ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    action_id: int
    def __init__(self, action_id: _Optional[int] = ...) -> None: ...

class SpecialBuy(_message.Message):
    __slots__ = ("description", "cost")
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    description: str
    cost: int
    def __init__(self, description: _Optional[str] = ..., cost: _Optional[int] = ...) -> None: ...

class TakeLoan(_message.Message):
    __slots__ = ("loan",)
    LOAN_FIELD_NUMBER: _ClassVar[int]
    loan: int
    def __init__(self, loan: _Optional[int] = ...) -> None: ...

class PayoffLoan(_message.Message):
    __slots__ = ("loan",)
    LOAN_FIELD_NUMBER: _ClassVar[int]
    loan: int
    def __init__(self, loan: _Optional[int] = ...) -> None: ...

class OtherAction(_message.Message):
    __slots__ = ("type",)
    TYPE_FIELD_NUMBER: _ClassVar[int]
    type: str
    def __init__(self, type: _Optional[str] = ...) -> None: ...

class Action(_message.Message):
    __slots__ = ("entity_number", "entity_name", "entity_type", "id", "created_at", "user", "skip", "original_id", "auto_actions", "extra_json", "bid", "par", "buy_shares", "sell_shares", "lay_tile", "place_token", "run_routes", "dividend", "buy_train", "discard_train", "scrap_train", "buy_company", "acquire_company", "choose", "choose_ability", "assign", "bankrupt", "convert", "destination_connection", "end_game", "hex_token", "remove_hex_token", "merge", "message", "program_buy_shares", "program_share_pass", "program_disable", "undo", "redo", "special_buy", "take_loan", "payoff_loan", "other")
    ENTITY_NUMBER_FIELD_NUMBER: _ClassVar[int]
    ENTITY_NAME_FIELD_NUMBER: _ClassVar[int]
    ENTITY_TYPE_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    SKIP_FIELD_NUMBER: _ClassVar[int]
    ORIGINAL_ID_FIELD_NUMBER: _ClassVar[int]
    AUTO_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    EXTRA_JSON_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    PAR_FIELD_NUMBER: _ClassVar[int]
    BUY_SHARES_FIELD_NUMBER: _ClassVar[int]
    SELL_SHARES_FIELD_NUMBER: _ClassVar[int]
    PASS_FIELD_NUMBER: _ClassVar[int]
    LAY_TILE_FIELD_NUMBER: _ClassVar[int]
    PLACE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    RUN_ROUTES_FIELD_NUMBER: _ClassVar[int]
    DIVIDEND_FIELD_NUMBER: _ClassVar[int]
    BUY_TRAIN_FIELD_NUMBER: _ClassVar[int]
    DISCARD_TRAIN_FIELD_NUMBER: _ClassVar[int]
    SCRAP_TRAIN_FIELD_NUMBER: _ClassVar[int]
    BUY_COMPANY_FIELD_NUMBER: _ClassVar[int]
    ACQUIRE_COMPANY_FIELD_NUMBER: _ClassVar[int]
    CHOOSE_FIELD_NUMBER: _ClassVar[int]
    CHOOSE_ABILITY_FIELD_NUMBER: _ClassVar[int]
    ASSIGN_FIELD_NUMBER: _ClassVar[int]
    BANKRUPT_FIELD_NUMBER: _ClassVar[int]
    CONVERT_FIELD_NUMBER: _ClassVar[int]
    DESTINATION_CONNECTION_FIELD_NUMBER: _ClassVar[int]
    END_GAME_FIELD_NUMBER: _ClassVar[int]
    HEX_TOKEN_FIELD_NUMBER: _ClassVar[int]
    REMOVE_HEX_TOKEN_FIELD_NUMBER: _ClassVar[int]
    MERGE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    PROGRAM_BUY_SHARES_FIELD_NUMBER: _ClassVar[int]
    PROGRAM_SHARE_PASS_FIELD_NUMBER: _ClassVar[int]
    PROGRAM_DISABLE_FIELD_NUMBER: _ClassVar[int]
    UNDO_FIELD_NUMBER: _ClassVar[int]
    REDO_FIELD_NUMBER: _ClassVar[int]
    SPECIAL_BUY_FIELD_NUMBER: _ClassVar[int]
    TAKE_LOAN_FIELD_NUMBER: _ClassVar[int]
    PAYOFF_LOAN_FIELD_NUMBER: _ClassVar[int]
    OTHER_FIELD_NUMBER: _ClassVar[int]
    entity_number: int
    entity_name: str
    entity_type: str
    id: int
    created_at: int
    user: int
    skip: bool
    original_id: int
    auto_actions: _containers.RepeatedCompositeFieldContainer[Action]
    extra_json: str
    bid: Bid
    par: Par
    buy_shares: BuyShares
    sell_shares: SellShares
    lay_tile: LayTile
    place_token: PlaceToken
    run_routes: RunRoutes
    dividend: Dividend
    buy_train: BuyTrain
    discard_train: DiscardTrain
    scrap_train: ScrapTrain
    buy_company: BuyCompany
    acquire_company: AcquireCompany
    choose: Choose
    choose_ability: ChooseAbility
    assign: Assign
    bankrupt: Bankrupt
    convert: Convert
    destination_connection: DestinationConnection
    end_game: EndGame
    hex_token: HexToken
    remove_hex_token: RemoveHexToken
    merge: Merge
    message: Message
    program_buy_shares: ProgramBuyShares
    program_share_pass: ProgramSharePass
    program_disable: ProgramDisable
    undo: Undo
    redo: Redo
    special_buy: SpecialBuy
    take_loan: TakeLoan
    payoff_loan: PayoffLoan
    other: OtherAction
    def __init__(self, entity_number: _Optional[int] = ..., entity_name: _Optional[str] = ..., entity_type: _Optional[str] = ..., id: _Optional[int] = ..., created_at: _Optional[int] = ..., user: _Optional[int] = ..., skip: _Optional[bool] = ..., original_id: _Optional[int] = ..., auto_actions: _Optional[_Iterable[_Union[Action, _Mapping]]] = ..., extra_json: _Optional[str] = ..., bid: _Optional[_Union[Bid, _Mapping]] = ..., par: _Optional[_Union[Par, _Mapping]] = ..., buy_shares: _Optional[_Union[BuyShares, _Mapping]] = ..., sell_shares: _Optional[_Union[SellShares, _Mapping]] = ..., lay_tile: _Optional[_Union[LayTile, _Mapping]] = ..., place_token: _Optional[_Union[PlaceToken, _Mapping]] = ..., run_routes: _Optional[_Union[RunRoutes, _Mapping]] = ..., dividend: _Optional[_Union[Dividend, _Mapping]] = ..., buy_train: _Optional[_Union[BuyTrain, _Mapping]] = ..., discard_train: _Optional[_Union[DiscardTrain, _Mapping]] = ..., scrap_train: _Optional[_Union[ScrapTrain, _Mapping]] = ..., buy_company: _Optional[_Union[BuyCompany, _Mapping]] = ..., acquire_company: _Optional[_Union[AcquireCompany, _Mapping]] = ..., choose: _Optional[_Union[Choose, _Mapping]] = ..., choose_ability: _Optional[_Union[ChooseAbility, _Mapping]] = ..., assign: _Optional[_Union[Assign, _Mapping]] = ..., bankrupt: _Optional[_Union[Bankrupt, _Mapping]] = ..., convert: _Optional[_Union[Convert, _Mapping]] = ..., destination_connection: _Optional[_Union[DestinationConnection, _Mapping]] = ..., end_game: _Optional[_Union[EndGame, _Mapping]] = ..., hex_token: _Optional[_Union[HexToken, _Mapping]] = ..., remove_hex_token: _Optional[_Union[RemoveHexToken, _Mapping]] = ..., merge: _Optional[_Union[Merge, _Mapping]] = ..., message: _Optional[_Union[Message, _Mapping]] = ..., program_buy_shares: _Optional[_Union[ProgramBuyShares, _Mapping]] = ..., program_share_pass: _Optional[_Union[ProgramSharePass, _Mapping]] = ..., program_disable: _Optional[_Union[ProgramDisable, _Mapping]] = ..., undo: _Optional[_Union[Undo, _Mapping]] = ..., redo: _Optional[_Union[Redo, _Mapping]] = ..., special_buy: _Optional[_Union[SpecialBuy, _Mapping]] = ..., take_loan: _Optional[_Union[TakeLoan, _Mapping]] = ..., payoff_loan: _Optional[_Union[PayoffLoan, _Mapping]] = ..., other: _Optional[_Union[OtherAction, _Mapping]] = ..., **kwargs) -> None: ...
