from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class UndoPolicy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    UNDO_POLICY_UNSPECIFIED: _ClassVar[UndoPolicy]
    UNDO_ALWAYS: _ClassVar[UndoPolicy]
    UNDO_OWN_TURN: _ClassVar[UndoPolicy]
    UNDO_NEVER: _ClassVar[UndoPolicy]

class FlagPolicy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FLAG_POLICY_UNSPECIFIED: _ClassVar[FlagPolicy]
    FLAG_END_GAME: _ClassVar[FlagPolicy]
    FLAG_REMOVE_SEAT: _ClassVar[FlagPolicy]

class IncrementMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    INCREMENT_MODE_UNSPECIFIED: _ClassVar[IncrementMode]
    INCREMENT_PER_ACTION: _ClassVar[IncrementMode]
    INCREMENT_PER_ROUND: _ClassVar[IncrementMode]
UNDO_POLICY_UNSPECIFIED: UndoPolicy
UNDO_ALWAYS: UndoPolicy
UNDO_OWN_TURN: UndoPolicy
UNDO_NEVER: UndoPolicy
FLAG_POLICY_UNSPECIFIED: FlagPolicy
FLAG_END_GAME: FlagPolicy
FLAG_REMOVE_SEAT: FlagPolicy
INCREMENT_MODE_UNSPECIFIED: IncrementMode
INCREMENT_PER_ACTION: IncrementMode
INCREMENT_PER_ROUND: IncrementMode

class TimeControl(_message.Message):
    __slots__ = ("base_ms", "increment_ms", "mode")
    BASE_MS_FIELD_NUMBER: _ClassVar[int]
    INCREMENT_MS_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    base_ms: int
    increment_ms: int
    mode: IncrementMode
    def __init__(self, base_ms: _Optional[int] = ..., increment_ms: _Optional[int] = ..., mode: _Optional[_Union[IncrementMode, str]] = ...) -> None: ...

class TournamentSettings(_message.Message):
    __slots__ = ("title", "table_size", "min_table_size", "rounds", "undo_policy", "time_control", "flag_policy", "rated", "optional_rules")
    TITLE_FIELD_NUMBER: _ClassVar[int]
    TABLE_SIZE_FIELD_NUMBER: _ClassVar[int]
    MIN_TABLE_SIZE_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    UNDO_POLICY_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    FLAG_POLICY_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    OPTIONAL_RULES_FIELD_NUMBER: _ClassVar[int]
    title: str
    table_size: int
    min_table_size: int
    rounds: int
    undo_policy: UndoPolicy
    time_control: TimeControl
    flag_policy: FlagPolicy
    rated: bool
    optional_rules: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, title: _Optional[str] = ..., table_size: _Optional[int] = ..., min_table_size: _Optional[int] = ..., rounds: _Optional[int] = ..., undo_policy: _Optional[_Union[UndoPolicy, str]] = ..., time_control: _Optional[_Union[TimeControl, _Mapping]] = ..., flag_policy: _Optional[_Union[FlagPolicy, str]] = ..., rated: _Optional[bool] = ..., optional_rules: _Optional[_Iterable[str]] = ...) -> None: ...

class RegistrationOpened(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class RegistrationClosed(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class PlayerRegistered(_message.Message):
    __slots__ = ("player_id", "name", "token_sha256", "contact", "webhook_url")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TOKEN_SHA256_FIELD_NUMBER: _ClassVar[int]
    CONTACT_FIELD_NUMBER: _ClassVar[int]
    WEBHOOK_URL_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    name: str
    token_sha256: str
    contact: str
    webhook_url: str
    def __init__(self, player_id: _Optional[str] = ..., name: _Optional[str] = ..., token_sha256: _Optional[str] = ..., contact: _Optional[str] = ..., webhook_url: _Optional[str] = ...) -> None: ...

class PlayerWithdrawn(_message.Message):
    __slots__ = ("player_id", "by_organiser", "reason")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    BY_ORGANISER_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    by_organiser: bool
    reason: str
    def __init__(self, player_id: _Optional[str] = ..., by_organiser: _Optional[bool] = ..., reason: _Optional[str] = ...) -> None: ...

class TableSeats(_message.Message):
    __slots__ = ("player_ids",)
    PLAYER_IDS_FIELD_NUMBER: _ClassVar[int]
    player_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, player_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class RoundSeated(_message.Message):
    __slots__ = ("round", "seed", "tables")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    TABLES_FIELD_NUMBER: _ClassVar[int]
    round: int
    seed: int
    tables: _containers.RepeatedCompositeFieldContainer[TableSeats]
    def __init__(self, round: _Optional[int] = ..., seed: _Optional[int] = ..., tables: _Optional[_Iterable[_Union[TableSeats, _Mapping]]] = ...) -> None: ...

class TournamentRoundStarted(_message.Message):
    __slots__ = ("round", "game_ids")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    GAME_IDS_FIELD_NUMBER: _ClassVar[int]
    round: int
    game_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, round: _Optional[int] = ..., game_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class TableFinished(_message.Message):
    __slots__ = ("round", "table", "result", "end_reason", "forfeited")
    class ResultEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    FORFEITED_FIELD_NUMBER: _ClassVar[int]
    round: int
    table: int
    result: _containers.ScalarMap[str, int]
    end_reason: str
    forfeited: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, round: _Optional[int] = ..., table: _Optional[int] = ..., result: _Optional[_Mapping[str, int]] = ..., end_reason: _Optional[str] = ..., forfeited: _Optional[_Iterable[str]] = ...) -> None: ...

class TournamentEvent(_message.Message):
    __slots__ = ("registration_opened", "registration_closed", "player_registered", "player_withdrawn", "round_seated", "round_started", "table_finished")
    REGISTRATION_OPENED_FIELD_NUMBER: _ClassVar[int]
    REGISTRATION_CLOSED_FIELD_NUMBER: _ClassVar[int]
    PLAYER_REGISTERED_FIELD_NUMBER: _ClassVar[int]
    PLAYER_WITHDRAWN_FIELD_NUMBER: _ClassVar[int]
    ROUND_SEATED_FIELD_NUMBER: _ClassVar[int]
    ROUND_STARTED_FIELD_NUMBER: _ClassVar[int]
    TABLE_FINISHED_FIELD_NUMBER: _ClassVar[int]
    registration_opened: RegistrationOpened
    registration_closed: RegistrationClosed
    player_registered: PlayerRegistered
    player_withdrawn: PlayerWithdrawn
    round_seated: RoundSeated
    round_started: TournamentRoundStarted
    table_finished: TableFinished
    def __init__(self, registration_opened: _Optional[_Union[RegistrationOpened, _Mapping]] = ..., registration_closed: _Optional[_Union[RegistrationClosed, _Mapping]] = ..., player_registered: _Optional[_Union[PlayerRegistered, _Mapping]] = ..., player_withdrawn: _Optional[_Union[PlayerWithdrawn, _Mapping]] = ..., round_seated: _Optional[_Union[RoundSeated, _Mapping]] = ..., round_started: _Optional[_Union[TournamentRoundStarted, _Mapping]] = ..., table_finished: _Optional[_Union[TableFinished, _Mapping]] = ...) -> None: ...

class ClockStarted(_message.Message):
    __slots__ = ("seats", "control", "acting", "round_label", "seq", "flag_policy")
    SEATS_FIELD_NUMBER: _ClassVar[int]
    CONTROL_FIELD_NUMBER: _ClassVar[int]
    ACTING_FIELD_NUMBER: _ClassVar[int]
    ROUND_LABEL_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    FLAG_POLICY_FIELD_NUMBER: _ClassVar[int]
    seats: _containers.RepeatedScalarFieldContainer[str]
    control: TimeControl
    acting: _containers.RepeatedScalarFieldContainer[str]
    round_label: str
    seq: int
    flag_policy: FlagPolicy
    def __init__(self, seats: _Optional[_Iterable[str]] = ..., control: _Optional[_Union[TimeControl, _Mapping]] = ..., acting: _Optional[_Iterable[str]] = ..., round_label: _Optional[str] = ..., seq: _Optional[int] = ..., flag_policy: _Optional[_Union[FlagPolicy, str]] = ...) -> None: ...

class ClockPaused(_message.Message):
    __slots__ = ("reason",)
    REASON_FIELD_NUMBER: _ClassVar[int]
    reason: str
    def __init__(self, reason: _Optional[str] = ...) -> None: ...

class ClockResumed(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ClockAdjusted(_message.Message):
    __slots__ = ("seat", "delta_ms", "reason")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DELTA_MS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    seat: str
    delta_ms: int
    reason: str
    def __init__(self, seat: _Optional[str] = ..., delta_ms: _Optional[int] = ..., reason: _Optional[str] = ...) -> None: ...

class FlagFell(_message.Message):
    __slots__ = ("seat", "seq")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    seat: str
    seq: int
    def __init__(self, seat: _Optional[str] = ..., seq: _Optional[int] = ...) -> None: ...

class GameClockState(_message.Message):
    __slots__ = ("seats", "control", "remaining_ms", "acting", "round_label", "seq", "since_ms", "paused", "finished", "flagged_at_ms", "flag_policy")
    class RemainingMsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class FlaggedAtMsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    SEATS_FIELD_NUMBER: _ClassVar[int]
    CONTROL_FIELD_NUMBER: _ClassVar[int]
    REMAINING_MS_FIELD_NUMBER: _ClassVar[int]
    ACTING_FIELD_NUMBER: _ClassVar[int]
    ROUND_LABEL_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SINCE_MS_FIELD_NUMBER: _ClassVar[int]
    PAUSED_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    FLAGGED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    FLAG_POLICY_FIELD_NUMBER: _ClassVar[int]
    seats: _containers.RepeatedScalarFieldContainer[str]
    control: TimeControl
    remaining_ms: _containers.ScalarMap[str, int]
    acting: _containers.RepeatedScalarFieldContainer[str]
    round_label: str
    seq: int
    since_ms: int
    paused: bool
    finished: bool
    flagged_at_ms: _containers.ScalarMap[str, int]
    flag_policy: FlagPolicy
    def __init__(self, seats: _Optional[_Iterable[str]] = ..., control: _Optional[_Union[TimeControl, _Mapping]] = ..., remaining_ms: _Optional[_Mapping[str, int]] = ..., acting: _Optional[_Iterable[str]] = ..., round_label: _Optional[str] = ..., seq: _Optional[int] = ..., since_ms: _Optional[int] = ..., paused: _Optional[bool] = ..., finished: _Optional[bool] = ..., flagged_at_ms: _Optional[_Mapping[str, int]] = ..., flag_policy: _Optional[_Union[FlagPolicy, str]] = ...) -> None: ...

class GameClockEvent(_message.Message):
    __slots__ = ("started", "paused", "resumed", "adjusted", "flag_fell")
    STARTED_FIELD_NUMBER: _ClassVar[int]
    PAUSED_FIELD_NUMBER: _ClassVar[int]
    RESUMED_FIELD_NUMBER: _ClassVar[int]
    ADJUSTED_FIELD_NUMBER: _ClassVar[int]
    FLAG_FELL_FIELD_NUMBER: _ClassVar[int]
    started: ClockStarted
    paused: ClockPaused
    resumed: ClockResumed
    adjusted: ClockAdjusted
    flag_fell: FlagFell
    def __init__(self, started: _Optional[_Union[ClockStarted, _Mapping]] = ..., paused: _Optional[_Union[ClockPaused, _Mapping]] = ..., resumed: _Optional[_Union[ClockResumed, _Mapping]] = ..., adjusted: _Optional[_Union[ClockAdjusted, _Mapping]] = ..., flag_fell: _Optional[_Union[FlagFell, _Mapping]] = ...) -> None: ...

class TurnNotified(_message.Message):
    __slots__ = ("seat", "seq", "delivery", "status", "attempts")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    DELIVERY_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    ATTEMPTS_FIELD_NUMBER: _ClassVar[int]
    seat: str
    seq: int
    delivery: str
    status: int
    attempts: int
    def __init__(self, seat: _Optional[str] = ..., seq: _Optional[int] = ..., delivery: _Optional[str] = ..., status: _Optional[int] = ..., attempts: _Optional[int] = ...) -> None: ...

class TurnNotice(_message.Message):
    __slots__ = ("seat", "seq", "since_ms", "round_label", "ended")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SINCE_MS_FIELD_NUMBER: _ClassVar[int]
    ROUND_LABEL_FIELD_NUMBER: _ClassVar[int]
    ENDED_FIELD_NUMBER: _ClassVar[int]
    seat: str
    seq: int
    since_ms: int
    round_label: str
    ended: bool
    def __init__(self, seat: _Optional[str] = ..., seq: _Optional[int] = ..., since_ms: _Optional[int] = ..., round_label: _Optional[str] = ..., ended: _Optional[bool] = ...) -> None: ...

class TurnNotices(_message.Message):
    __slots__ = ("seats", "waiting")
    SEATS_FIELD_NUMBER: _ClassVar[int]
    WAITING_FIELD_NUMBER: _ClassVar[int]
    seats: _containers.RepeatedScalarFieldContainer[str]
    waiting: _containers.RepeatedCompositeFieldContainer[TurnNotice]
    def __init__(self, seats: _Optional[_Iterable[str]] = ..., waiting: _Optional[_Iterable[_Union[TurnNotice, _Mapping]]] = ...) -> None: ...

class RatingRequested(_message.Message):
    __slots__ = ("game_id", "title", "places")
    class PlacesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    PLACES_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    title: str
    places: _containers.ScalarMap[str, int]
    def __init__(self, game_id: _Optional[str] = ..., title: _Optional[str] = ..., places: _Optional[_Mapping[str, int]] = ...) -> None: ...

class Rating(_message.Message):
    __slots__ = ("mu", "sigma")
    MU_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    mu: float
    sigma: float
    def __init__(self, mu: _Optional[float] = ..., sigma: _Optional[float] = ...) -> None: ...

class RatingChange(_message.Message):
    __slots__ = ("player", "scope", "before", "after", "placement")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    BEFORE_FIELD_NUMBER: _ClassVar[int]
    AFTER_FIELD_NUMBER: _ClassVar[int]
    PLACEMENT_FIELD_NUMBER: _ClassVar[int]
    player: str
    scope: str
    before: Rating
    after: Rating
    placement: int
    def __init__(self, player: _Optional[str] = ..., scope: _Optional[str] = ..., before: _Optional[_Union[Rating, _Mapping]] = ..., after: _Optional[_Union[Rating, _Mapping]] = ..., placement: _Optional[int] = ...) -> None: ...

class GameRated(_message.Message):
    __slots__ = ("game_id", "title", "changes")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    CHANGES_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    title: str
    changes: _containers.RepeatedCompositeFieldContainer[RatingChange]
    def __init__(self, game_id: _Optional[str] = ..., title: _Optional[str] = ..., changes: _Optional[_Iterable[_Union[RatingChange, _Mapping]]] = ...) -> None: ...

class RatingsEvent(_message.Message):
    __slots__ = ("requested", "rated")
    REQUESTED_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    requested: RatingRequested
    rated: GameRated
    def __init__(self, requested: _Optional[_Union[RatingRequested, _Mapping]] = ..., rated: _Optional[_Union[GameRated, _Mapping]] = ...) -> None: ...
