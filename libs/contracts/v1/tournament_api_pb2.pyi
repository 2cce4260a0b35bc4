from contracts.v1 import log_pb2 as _log_pb2
from contracts.v1 import tournament_pb2 as _tournament_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class StandingsFormat(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STANDINGS_FORMAT_UNSPECIFIED: _ClassVar[StandingsFormat]
    STANDINGS_CSV: _ClassVar[StandingsFormat]
    STANDINGS_JSON: _ClassVar[StandingsFormat]
STANDINGS_FORMAT_UNSPECIFIED: StandingsFormat
STANDINGS_CSV: StandingsFormat
STANDINGS_JSON: StandingsFormat

class HostTournamentRequest(_message.Message):
    __slots__ = ("name", "settings", "tournament_id", "admin_token")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    ADMIN_TOKEN_FIELD_NUMBER: _ClassVar[int]
    name: str
    settings: _tournament_pb2.TournamentSettings
    tournament_id: str
    admin_token: str
    def __init__(self, name: _Optional[str] = ..., settings: _Optional[_Union[_tournament_pb2.TournamentSettings, _Mapping]] = ..., tournament_id: _Optional[str] = ..., admin_token: _Optional[str] = ...) -> None: ...

class HostTournamentResponse(_message.Message):
    __slots__ = ("tournament_id", "organiser_token")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    ORGANISER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    organiser_token: str
    def __init__(self, tournament_id: _Optional[str] = ..., organiser_token: _Optional[str] = ...) -> None: ...

class SetRegistrationRequest(_message.Message):
    __slots__ = ("tournament_id", "token", "open")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    OPEN_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    token: str
    open: bool
    def __init__(self, tournament_id: _Optional[str] = ..., token: _Optional[str] = ..., open: _Optional[bool] = ...) -> None: ...

class RegisterRequest(_message.Message):
    __slots__ = ("tournament_id", "name", "contact", "webhook_url", "token")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    CONTACT_FIELD_NUMBER: _ClassVar[int]
    WEBHOOK_URL_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    name: str
    contact: str
    webhook_url: str
    token: str
    def __init__(self, tournament_id: _Optional[str] = ..., name: _Optional[str] = ..., contact: _Optional[str] = ..., webhook_url: _Optional[str] = ..., token: _Optional[str] = ...) -> None: ...

class RegisterResponse(_message.Message):
    __slots__ = ("player_id", "player_token", "webhook_secret")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    WEBHOOK_SECRET_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    player_token: str
    webhook_secret: str
    def __init__(self, player_id: _Optional[str] = ..., player_token: _Optional[str] = ..., webhook_secret: _Optional[str] = ...) -> None: ...

class WithdrawRequest(_message.Message):
    __slots__ = ("tournament_id", "token", "player_id", "reason")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    token: str
    player_id: str
    reason: str
    def __init__(self, tournament_id: _Optional[str] = ..., token: _Optional[str] = ..., player_id: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class SeatRoundRequest(_message.Message):
    __slots__ = ("tournament_id", "token", "seed", "tables")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    TABLES_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    token: str
    seed: int
    tables: _containers.RepeatedCompositeFieldContainer[_tournament_pb2.TableSeats]
    def __init__(self, tournament_id: _Optional[str] = ..., token: _Optional[str] = ..., seed: _Optional[int] = ..., tables: _Optional[_Iterable[_Union[_tournament_pb2.TableSeats, _Mapping]]] = ...) -> None: ...

class StartRoundRequest(_message.Message):
    __slots__ = ("tournament_id", "token", "round")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    token: str
    round: int
    def __init__(self, tournament_id: _Optional[str] = ..., token: _Optional[str] = ..., round: _Optional[int] = ...) -> None: ...

class ClockControlRequest(_message.Message):
    __slots__ = ("tournament_id", "token", "game_id", "reason")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    token: str
    game_id: str
    reason: str
    def __init__(self, tournament_id: _Optional[str] = ..., token: _Optional[str] = ..., game_id: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class AdjustClockRequest(_message.Message):
    __slots__ = ("tournament_id", "token", "game_id", "seat", "delta_ms", "reason")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DELTA_MS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    token: str
    game_id: str
    seat: str
    delta_ms: int
    reason: str
    def __init__(self, tournament_id: _Optional[str] = ..., token: _Optional[str] = ..., game_id: _Optional[str] = ..., seat: _Optional[str] = ..., delta_ms: _Optional[int] = ..., reason: _Optional[str] = ...) -> None: ...

class GetTournamentRequest(_message.Message):
    __slots__ = ("tournament_id", "token")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    token: str
    def __init__(self, tournament_id: _Optional[str] = ..., token: _Optional[str] = ...) -> None: ...

class GetMySeatsRequest(_message.Message):
    __slots__ = ("tournament_id", "token")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    token: str
    def __init__(self, tournament_id: _Optional[str] = ..., token: _Optional[str] = ...) -> None: ...

class GetTournamentStandingsRequest(_message.Message):
    __slots__ = ("tournament_id", "live", "through_round")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    LIVE_FIELD_NUMBER: _ClassVar[int]
    THROUGH_ROUND_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    live: bool
    through_round: int
    def __init__(self, tournament_id: _Optional[str] = ..., live: _Optional[bool] = ..., through_round: _Optional[int] = ...) -> None: ...

class ExportStandingsRequest(_message.Message):
    __slots__ = ("standings", "format")
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    standings: GetTournamentStandingsRequest
    format: StandingsFormat
    def __init__(self, standings: _Optional[_Union[GetTournamentStandingsRequest, _Mapping]] = ..., format: _Optional[_Union[StandingsFormat, str]] = ...) -> None: ...

class ExportStandingsResponse(_message.Message):
    __slots__ = ("document", "content_type")
    DOCUMENT_FIELD_NUMBER: _ClassVar[int]
    CONTENT_TYPE_FIELD_NUMBER: _ClassVar[int]
    document: bytes
    content_type: str
    def __init__(self, document: _Optional[bytes] = ..., content_type: _Optional[str] = ...) -> None: ...

class GetClocksRequest(_message.Message):
    __slots__ = ("game_id",)
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    def __init__(self, game_id: _Optional[str] = ...) -> None: ...

class GetRatingsRequest(_message.Message):
    __slots__ = ("scope", "player", "limit")
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    scope: str
    player: str
    limit: int
    def __init__(self, scope: _Optional[str] = ..., player: _Optional[str] = ..., limit: _Optional[int] = ...) -> None: ...

class WatchTournamentRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class TournamentPlayer(_message.Message):
    __slots__ = ("player_id", "name", "withdrawn", "contact", "webhook_url")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    WITHDRAWN_FIELD_NUMBER: _ClassVar[int]
    CONTACT_FIELD_NUMBER: _ClassVar[int]
    WEBHOOK_URL_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    name: str
    withdrawn: bool
    contact: str
    webhook_url: str
    def __init__(self, player_id: _Optional[str] = ..., name: _Optional[str] = ..., withdrawn: _Optional[bool] = ..., contact: _Optional[str] = ..., webhook_url: _Optional[str] = ...) -> None: ...

class TableView(_message.Message):
    __slots__ = ("table", "player_ids", "game_id", "finished", "result", "forfeited")
    class ResultEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    TABLE_FIELD_NUMBER: _ClassVar[int]
    PLAYER_IDS_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    FORFEITED_FIELD_NUMBER: _ClassVar[int]
    table: int
    player_ids: _containers.RepeatedScalarFieldContainer[str]
    game_id: str
    finished: bool
    result: _containers.ScalarMap[str, int]
    forfeited: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, table: _Optional[int] = ..., player_ids: _Optional[_Iterable[str]] = ..., game_id: _Optional[str] = ..., finished: _Optional[bool] = ..., result: _Optional[_Mapping[str, int]] = ..., forfeited: _Optional[_Iterable[str]] = ...) -> None: ...

class RoundView(_message.Message):
    __slots__ = ("round", "seed", "started", "complete", "tables")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    STARTED_FIELD_NUMBER: _ClassVar[int]
    COMPLETE_FIELD_NUMBER: _ClassVar[int]
    TABLES_FIELD_NUMBER: _ClassVar[int]
    round: int
    seed: int
    started: bool
    complete: bool
    tables: _containers.RepeatedCompositeFieldContainer[TableView]
    def __init__(self, round: _Optional[int] = ..., seed: _Optional[int] = ..., started: _Optional[bool] = ..., complete: _Optional[bool] = ..., tables: _Optional[_Iterable[_Union[TableView, _Mapping]]] = ...) -> None: ...

class TournamentView(_message.Message):
    __slots__ = ("tournament_id", "name", "settings", "status", "registration_open", "players", "rounds")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    REGISTRATION_OPEN_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    name: str
    settings: _tournament_pb2.TournamentSettings
    status: str
    registration_open: bool
    players: _containers.RepeatedCompositeFieldContainer[TournamentPlayer]
    rounds: _containers.RepeatedCompositeFieldContainer[RoundView]
    def __init__(self, tournament_id: _Optional[str] = ..., name: _Optional[str] = ..., settings: _Optional[_Union[_tournament_pb2.TournamentSettings, _Mapping]] = ..., status: _Optional[str] = ..., registration_open: _Optional[bool] = ..., players: _Optional[_Iterable[_Union[TournamentPlayer, _Mapping]]] = ..., rounds: _Optional[_Iterable[_Union[RoundView, _Mapping]]] = ...) -> None: ...

class MySeat(_message.Message):
    __slots__ = ("round", "table", "seat", "game_id")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    round: int
    table: int
    seat: int
    game_id: str
    def __init__(self, round: _Optional[int] = ..., table: _Optional[int] = ..., seat: _Optional[int] = ..., game_id: _Optional[str] = ...) -> None: ...

class MySeats(_message.Message):
    __slots__ = ("player_id", "seats")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    seats: _containers.RepeatedCompositeFieldContainer[MySeat]
    def __init__(self, player_id: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[MySeat, _Mapping]]] = ...) -> None: ...

class RoundResult(_message.Message):
    __slots__ = ("round", "table", "score", "points", "share", "provisional", "forfeited")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    SHARE_FIELD_NUMBER: _ClassVar[int]
    PROVISIONAL_FIELD_NUMBER: _ClassVar[int]
    FORFEITED_FIELD_NUMBER: _ClassVar[int]
    round: int
    table: int
    score: int
    points: float
    share: float
    provisional: bool
    forfeited: bool
    def __init__(self, round: _Optional[int] = ..., table: _Optional[int] = ..., score: _Optional[int] = ..., points: _Optional[float] = ..., share: _Optional[float] = ..., provisional: _Optional[bool] = ..., forfeited: _Optional[bool] = ...) -> None: ...

class TournamentStanding(_message.Message):
    __slots__ = ("rank", "player_id", "name", "points", "share", "head_to_head", "games", "finished", "total_score", "withdrawn", "rating", "rounds")
    RANK_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    SHARE_FIELD_NUMBER: _ClassVar[int]
    HEAD_TO_HEAD_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    TOTAL_SCORE_FIELD_NUMBER: _ClassVar[int]
    WITHDRAWN_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    rank: int
    player_id: str
    name: str
    points: float
    share: float
    head_to_head: float
    games: int
    finished: int
    total_score: int
    withdrawn: bool
    rating: float
    rounds: _containers.RepeatedCompositeFieldContainer[RoundResult]
    def __init__(self, rank: _Optional[int] = ..., player_id: _Optional[str] = ..., name: _Optional[str] = ..., points: _Optional[float] = ..., share: _Optional[float] = ..., head_to_head: _Optional[float] = ..., games: _Optional[int] = ..., finished: _Optional[int] = ..., total_score: _Optional[int] = ..., withdrawn: _Optional[bool] = ..., rating: _Optional[float] = ..., rounds: _Optional[_Iterable[_Union[RoundResult, _Mapping]]] = ...) -> None: ...

class TournamentStandings(_message.Message):
    __slots__ = ("tournament_id", "name", "title", "through_round", "final", "live", "rows")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    THROUGH_ROUND_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    LIVE_FIELD_NUMBER: _ClassVar[int]
    ROWS_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    name: str
    title: str
    through_round: int
    final: bool
    live: bool
    rows: _containers.RepeatedCompositeFieldContainer[TournamentStanding]
    def __init__(self, tournament_id: _Optional[str] = ..., name: _Optional[str] = ..., title: _Optional[str] = ..., through_round: _Optional[int] = ..., final: _Optional[bool] = ..., live: _Optional[bool] = ..., rows: _Optional[_Iterable[_Union[TournamentStanding, _Mapping]]] = ...) -> None: ...

class SeatClock(_message.Message):
    __slots__ = ("seat", "remaining_ms", "running", "flagged")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    REMAINING_MS_FIELD_NUMBER: _ClassVar[int]
    RUNNING_FIELD_NUMBER: _ClassVar[int]
    FLAGGED_FIELD_NUMBER: _ClassVar[int]
    seat: str
    remaining_ms: int
    running: bool
    flagged: bool
    def __init__(self, seat: _Optional[str] = ..., remaining_ms: _Optional[int] = ..., running: _Optional[bool] = ..., flagged: _Optional[bool] = ...) -> None: ...

class ClockView(_message.Message):
    __slots__ = ("game_id", "now_ms", "paused", "finished", "seats", "next_deadline_ms")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    NOW_MS_FIELD_NUMBER: _ClassVar[int]
    PAUSED_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    NEXT_DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    now_ms: int
    paused: bool
    finished: bool
    seats: _containers.RepeatedCompositeFieldContainer[SeatClock]
    next_deadline_ms: int
    def __init__(self, game_id: _Optional[str] = ..., now_ms: _Optional[int] = ..., paused: _Optional[bool] = ..., finished: _Optional[bool] = ..., seats: _Optional[_Iterable[_Union[SeatClock, _Mapping]]] = ..., next_deadline_ms: _Optional[int] = ...) -> None: ...

class ClocksResponse(_message.Message):
    __slots__ = ("clocks",)
    CLOCKS_FIELD_NUMBER: _ClassVar[int]
    clocks: _containers.RepeatedCompositeFieldContainer[ClockView]
    def __init__(self, clocks: _Optional[_Iterable[_Union[ClockView, _Mapping]]] = ...) -> None: ...

class RatingRow(_message.Message):
    __slots__ = ("player", "rating", "ordinal", "games")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    ORDINAL_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    player: str
    rating: _tournament_pb2.Rating
    ordinal: float
    games: int
    def __init__(self, player: _Optional[str] = ..., rating: _Optional[_Union[_tournament_pb2.Rating, _Mapping]] = ..., ordinal: _Optional[float] = ..., games: _Optional[int] = ...) -> None: ...

class RatingHistoryEntry(_message.Message):
    __slots__ = ("game_id", "at_ms", "rating", "placement")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    AT_MS_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    PLACEMENT_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    at_ms: int
    rating: _tournament_pb2.Rating
    placement: int
    def __init__(self, game_id: _Optional[str] = ..., at_ms: _Optional[int] = ..., rating: _Optional[_Union[_tournament_pb2.Rating, _Mapping]] = ..., placement: _Optional[int] = ...) -> None: ...

class RatingsView(_message.Message):
    __slots__ = ("scope", "rows", "history")
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    ROWS_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    scope: str
    rows: _containers.RepeatedCompositeFieldContainer[RatingRow]
    history: _containers.RepeatedCompositeFieldContainer[RatingHistoryEntry]
    def __init__(self, scope: _Optional[str] = ..., rows: _Optional[_Iterable[_Union[RatingRow, _Mapping]]] = ..., history: _Optional[_Iterable[_Union[RatingHistoryEntry, _Mapping]]] = ...) -> None: ...
