from contracts.v1 import actions_pb2 as _actions_pb2
from contracts.v1 import log_pb2 as _log_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Seat(_message.Message):
    __slots__ = ("name", "id_name", "id_number")
    NAME_FIELD_NUMBER: _ClassVar[int]
    ID_NAME_FIELD_NUMBER: _ClassVar[int]
    ID_NUMBER_FIELD_NUMBER: _ClassVar[int]
    name: str
    id_name: str
    id_number: int
    def __init__(self, name: _Optional[str] = ..., id_name: _Optional[str] = ..., id_number: _Optional[int] = ...) -> None: ...

class CreateGameRequest(_message.Message):
    __slots__ = ("title", "seats", "seed", "optional_rules", "game_id", "admin_token")
    TITLE_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    OPTIONAL_RULES_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    ADMIN_TOKEN_FIELD_NUMBER: _ClassVar[int]
    title: str
    seats: _containers.RepeatedCompositeFieldContainer[Seat]
    seed: int
    optional_rules: _containers.RepeatedScalarFieldContainer[str]
    game_id: str
    admin_token: str
    def __init__(self, title: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[Seat, _Mapping]]] = ..., seed: _Optional[int] = ..., optional_rules: _Optional[_Iterable[str]] = ..., game_id: _Optional[str] = ..., admin_token: _Optional[str] = ...) -> None: ...

class SeatToken(_message.Message):
    __slots__ = ("player_id", "name", "token")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    name: str
    token: str
    def __init__(self, player_id: _Optional[str] = ..., name: _Optional[str] = ..., token: _Optional[str] = ...) -> None: ...

class CreateGameResponse(_message.Message):
    __slots__ = ("game_id", "seats", "operator_token", "seq", "spectator_token")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    OPERATOR_TOKEN_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_TOKEN_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seats: _containers.RepeatedCompositeFieldContainer[SeatToken]
    operator_token: str
    seq: int
    spectator_token: str
    def __init__(self, game_id: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[SeatToken, _Mapping]]] = ..., operator_token: _Optional[str] = ..., seq: _Optional[int] = ..., spectator_token: _Optional[str] = ...) -> None: ...

class ImportGameRequest(_message.Message):
    __slots__ = ("export_json", "game_id", "admin_token")
    EXPORT_JSON_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    ADMIN_TOKEN_FIELD_NUMBER: _ClassVar[int]
    export_json: bytes
    game_id: str
    admin_token: str
    def __init__(self, export_json: _Optional[bytes] = ..., game_id: _Optional[str] = ..., admin_token: _Optional[str] = ...) -> None: ...

class SubmitActionRequest(_message.Message):
    __slots__ = ("game_id", "token", "action", "expected_seq", "command_id")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_SEQ_FIELD_NUMBER: _ClassVar[int]
    COMMAND_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    token: str
    action: _actions_pb2.Action
    expected_seq: int
    command_id: str
    def __init__(self, game_id: _Optional[str] = ..., token: _Optional[str] = ..., action: _Optional[_Union[_actions_pb2.Action, _Mapping]] = ..., expected_seq: _Optional[int] = ..., command_id: _Optional[str] = ...) -> None: ...

class SubmitActionResponse(_message.Message):
    __slots__ = ("seq", "action", "round_kind", "round_label", "finished", "command_id", "acting_players")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    ROUND_KIND_FIELD_NUMBER: _ClassVar[int]
    ROUND_LABEL_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    COMMAND_ID_FIELD_NUMBER: _ClassVar[int]
    ACTING_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    seq: int
    action: _actions_pb2.Action
    round_kind: str
    round_label: str
    finished: bool
    command_id: str
    acting_players: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seq: _Optional[int] = ..., action: _Optional[_Union[_actions_pb2.Action, _Mapping]] = ..., round_kind: _Optional[str] = ..., round_label: _Optional[str] = ..., finished: _Optional[bool] = ..., command_id: _Optional[str] = ..., acting_players: _Optional[_Iterable[str]] = ...) -> None: ...

class GetGameRequest(_message.Message):
    __slots__ = ("game_id", "without_legal_actions")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    WITHOUT_LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    without_legal_actions: bool
    def __init__(self, game_id: _Optional[str] = ..., without_legal_actions: _Optional[bool] = ...) -> None: ...

class PlayerView(_message.Message):
    __slots__ = ("id", "name", "value", "acting")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    ACTING_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    value: int
    acting: bool
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., value: _Optional[int] = ..., acting: _Optional[bool] = ...) -> None: ...

class GameView(_message.Message):
    __slots__ = ("game_id", "title", "seq", "round_kind", "round_label", "finished", "game_end_reason", "result", "players", "acting_players", "optional_rules", "seed", "view_json", "digest")
    class ResultEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    ROUND_KIND_FIELD_NUMBER: _ClassVar[int]
    ROUND_LABEL_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    GAME_END_REASON_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    ACTING_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONAL_RULES_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    VIEW_JSON_FIELD_NUMBER: _ClassVar[int]
    DIGEST_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    title: str
    seq: int
    round_kind: str
    round_label: str
    finished: bool
    game_end_reason: str
    result: _containers.ScalarMap[str, int]
    players: _containers.RepeatedCompositeFieldContainer[PlayerView]
    acting_players: _containers.RepeatedScalarFieldContainer[str]
    optional_rules: _containers.RepeatedScalarFieldContainer[str]
    seed: int
    view_json: bytes
    digest: str
    def __init__(self, game_id: _Optional[str] = ..., title: _Optional[str] = ..., seq: _Optional[int] = ..., round_kind: _Optional[str] = ..., round_label: _Optional[str] = ..., finished: _Optional[bool] = ..., game_end_reason: _Optional[str] = ..., result: _Optional[_Mapping[str, int]] = ..., players: _Optional[_Iterable[_Union[PlayerView, _Mapping]]] = ..., acting_players: _Optional[_Iterable[str]] = ..., optional_rules: _Optional[_Iterable[str]] = ..., seed: _Optional[int] = ..., view_json: _Optional[bytes] = ..., digest: _Optional[str] = ...) -> None: ...

class GetTileLaysRequest(_message.Message):
    __slots__ = ("game_id", "entity", "entity_type", "hex")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    ENTITY_FIELD_NUMBER: _ClassVar[int]
    ENTITY_TYPE_FIELD_NUMBER: _ClassVar[int]
    HEX_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    entity: str
    entity_type: str
    hex: str
    def __init__(self, game_id: _Optional[str] = ..., entity: _Optional[str] = ..., entity_type: _Optional[str] = ..., hex: _Optional[str] = ...) -> None: ...

class TileLay(_message.Message):
    __slots__ = ("tile", "rotations", "cost")
    TILE_FIELD_NUMBER: _ClassVar[int]
    ROTATIONS_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    tile: str
    rotations: _containers.RepeatedScalarFieldContainer[int]
    cost: int
    def __init__(self, tile: _Optional[str] = ..., rotations: _Optional[_Iterable[int]] = ..., cost: _Optional[int] = ...) -> None: ...

class TileLays(_message.Message):
    __slots__ = ("game_id", "seq", "hex", "lays")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    HEX_FIELD_NUMBER: _ClassVar[int]
    LAYS_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seq: int
    hex: str
    lays: _containers.RepeatedCompositeFieldContainer[TileLay]
    def __init__(self, game_id: _Optional[str] = ..., seq: _Optional[int] = ..., hex: _Optional[str] = ..., lays: _Optional[_Iterable[_Union[TileLay, _Mapping]]] = ...) -> None: ...

class WatchGameRequest(_message.Message):
    __slots__ = ("game_id", "from_seq")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_SEQ_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    from_seq: int
    def __init__(self, game_id: _Optional[str] = ..., from_seq: _Optional[int] = ...) -> None: ...

class ListGamesRequest(_message.Message):
    __slots__ = ("include_finished",)
    INCLUDE_FINISHED_FIELD_NUMBER: _ClassVar[int]
    include_finished: bool
    def __init__(self, include_finished: _Optional[bool] = ...) -> None: ...

class GameSummary(_message.Message):
    __slots__ = ("game_id", "title", "seq", "round_label", "finished", "players")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    ROUND_LABEL_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    title: str
    seq: int
    round_label: str
    finished: bool
    players: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, game_id: _Optional[str] = ..., title: _Optional[str] = ..., seq: _Optional[int] = ..., round_label: _Optional[str] = ..., finished: _Optional[bool] = ..., players: _Optional[_Iterable[str]] = ...) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ("games",)
    GAMES_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[GameSummary]
    def __init__(self, games: _Optional[_Iterable[_Union[GameSummary, _Mapping]]] = ...) -> None: ...

class ExportGameRequest(_message.Message):
    __slots__ = ("game_id",)
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    def __init__(self, game_id: _Optional[str] = ...) -> None: ...

class ExportGameResponse(_message.Message):
    __slots__ = ("export_json",)
    EXPORT_JSON_FIELD_NUMBER: _ClassVar[int]
    export_json: bytes
    def __init__(self, export_json: _Optional[bytes] = ...) -> None: ...

class CreateTournamentRequest(_message.Message):
    __slots__ = ("name", "tournament_id", "admin_token")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    ADMIN_TOKEN_FIELD_NUMBER: _ClassVar[int]
    name: str
    tournament_id: str
    admin_token: str
    def __init__(self, name: _Optional[str] = ..., tournament_id: _Optional[str] = ..., admin_token: _Optional[str] = ...) -> None: ...

class CreateTournamentResponse(_message.Message):
    __slots__ = ("tournament_id", "operator_token")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    OPERATOR_TOKEN_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    operator_token: str
    def __init__(self, tournament_id: _Optional[str] = ..., operator_token: _Optional[str] = ...) -> None: ...

class AddGameRequest(_message.Message):
    __slots__ = ("tournament_id", "game_id", "token", "game_operator_token")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    GAME_OPERATOR_TOKEN_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    game_id: str
    token: str
    game_operator_token: str
    def __init__(self, tournament_id: _Optional[str] = ..., game_id: _Optional[str] = ..., token: _Optional[str] = ..., game_operator_token: _Optional[str] = ...) -> None: ...

class GetStandingsRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class Standing(_message.Message):
    __slots__ = ("player", "games", "finished", "points", "total_score", "live_value")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_SCORE_FIELD_NUMBER: _ClassVar[int]
    LIVE_VALUE_FIELD_NUMBER: _ClassVar[int]
    player: str
    games: int
    finished: int
    points: float
    total_score: int
    live_value: int
    def __init__(self, player: _Optional[str] = ..., games: _Optional[int] = ..., finished: _Optional[int] = ..., points: _Optional[float] = ..., total_score: _Optional[int] = ..., live_value: _Optional[int] = ...) -> None: ...

class Standings(_message.Message):
    __slots__ = ("tournament_id", "name", "game_ids", "rows")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    GAME_IDS_FIELD_NUMBER: _ClassVar[int]
    ROWS_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    name: str
    game_ids: _containers.RepeatedScalarFieldContainer[str]
    rows: _containers.RepeatedCompositeFieldContainer[Standing]
    def __init__(self, tournament_id: _Optional[str] = ..., name: _Optional[str] = ..., game_ids: _Optional[_Iterable[str]] = ..., rows: _Optional[_Iterable[_Union[Standing, _Mapping]]] = ...) -> None: ...

class ListTournamentsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class TournamentSummary(_message.Message):
    __slots__ = ("tournament_id", "name", "game_ids", "hosted")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    GAME_IDS_FIELD_NUMBER: _ClassVar[int]
    HOSTED_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    name: str
    game_ids: _containers.RepeatedScalarFieldContainer[str]
    hosted: bool
    def __init__(self, tournament_id: _Optional[str] = ..., name: _Optional[str] = ..., game_ids: _Optional[_Iterable[str]] = ..., hosted: _Optional[bool] = ...) -> None: ...

class ListTournamentsResponse(_message.Message):
    __slots__ = ("tournaments",)
    TOURNAMENTS_FIELD_NUMBER: _ClassVar[int]
    tournaments: _containers.RepeatedCompositeFieldContainer[TournamentSummary]
    def __init__(self, tournaments: _Optional[_Iterable[_Union[TournamentSummary, _Mapping]]] = ...) -> None: ...

class BestRoutesRequest(_message.Message):
    __slots__ = ("game_id", "corporation")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    CORPORATION_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    corporation: str
    def __init__(self, game_id: _Optional[str] = ..., corporation: _Optional[str] = ...) -> None: ...

class BestRoutesResponse(_message.Message):
    __slots__ = ("seq", "routes", "revenue")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    ROUTES_FIELD_NUMBER: _ClassVar[int]
    REVENUE_FIELD_NUMBER: _ClassVar[int]
    seq: int
    routes: _containers.RepeatedCompositeFieldContainer[_actions_pb2.Route]
    revenue: int
    def __init__(self, seq: _Optional[int] = ..., routes: _Optional[_Iterable[_Union[_actions_pb2.Route, _Mapping]]] = ..., revenue: _Optional[int] = ...) -> None: ...

class ListTitlesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class OptionalRule(_message.Message):
    __slots__ = ("sym", "short_name", "desc")
    SYM_FIELD_NUMBER: _ClassVar[int]
    SHORT_NAME_FIELD_NUMBER: _ClassVar[int]
    DESC_FIELD_NUMBER: _ClassVar[int]
    sym: str
    short_name: str
    desc: str
    def __init__(self, sym: _Optional[str] = ..., short_name: _Optional[str] = ..., desc: _Optional[str] = ...) -> None: ...

class TitleSummary(_message.Message):
    __slots__ = ("title", "slug", "display", "min_players", "max_players", "optional_rules")
    TITLE_FIELD_NUMBER: _ClassVar[int]
    SLUG_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_FIELD_NUMBER: _ClassVar[int]
    MIN_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MAX_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONAL_RULES_FIELD_NUMBER: _ClassVar[int]
    title: str
    slug: str
    display: str
    min_players: int
    max_players: int
    optional_rules: _containers.RepeatedCompositeFieldContainer[OptionalRule]
    def __init__(self, title: _Optional[str] = ..., slug: _Optional[str] = ..., display: _Optional[str] = ..., min_players: _Optional[int] = ..., max_players: _Optional[int] = ..., optional_rules: _Optional[_Iterable[_Union[OptionalRule, _Mapping]]] = ...) -> None: ...

class ListTitlesResponse(_message.Message):
    __slots__ = ("titles",)
    TITLES_FIELD_NUMBER: _ClassVar[int]
    titles: _containers.RepeatedCompositeFieldContainer[TitleSummary]
    def __init__(self, titles: _Optional[_Iterable[_Union[TitleSummary, _Mapping]]] = ...) -> None: ...

class GetTitleRequest(_message.Message):
    __slots__ = ("title",)
    TITLE_FIELD_NUMBER: _ClassVar[int]
    title: str
    def __init__(self, title: _Optional[str] = ...) -> None: ...

class TitleFacts(_message.Message):
    __slots__ = ("title", "slug", "facts_json")
    TITLE_FIELD_NUMBER: _ClassVar[int]
    SLUG_FIELD_NUMBER: _ClassVar[int]
    FACTS_JSON_FIELD_NUMBER: _ClassVar[int]
    title: str
    slug: str
    facts_json: bytes
    def __init__(self, title: _Optional[str] = ..., slug: _Optional[str] = ..., facts_json: _Optional[bytes] = ...) -> None: ...
