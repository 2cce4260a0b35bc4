from contracts.v1 import actions_pb2 as _actions_pb2
from contracts.v1 import tournament_pb2 as _tournament_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Kind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    KIND_UNSPECIFIED: _ClassVar[Kind]
    COMMAND_SUBMITTED: _ClassVar[Kind]
    GAME_CREATED: _ClassVar[Kind]
    ACTION_APPLIED: _ClassVar[Kind]
    ACTION_REJECTED: _ClassVar[Kind]
    ROUND_STARTED: _ClassVar[Kind]
    GAME_FINISHED: _ClassVar[Kind]
    SCORE_UPDATED: _ClassVar[Kind]
    TOURNAMENT_CREATED: _ClassVar[Kind]
    TOURNAMENT_GAME_ADDED: _ClassVar[Kind]
    DUPLICATE_COMMAND: _ClassVar[Kind]
    CHECKPOINTED: _ClassVar[Kind]
    VIEW_REQUESTED: _ClassVar[Kind]
    QUERY_REQUESTED: _ClassVar[Kind]
    TOURNAMENT_EVENT: _ClassVar[Kind]
    GAME_CLOCK: _ClassVar[Kind]
    RATINGS_EVENT: _ClassVar[Kind]
    OWNER_CLAIMED: _ClassVar[Kind]
    TURN_NOTIFIED: _ClassVar[Kind]

class RejectReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    REJECT_REASON_UNSPECIFIED: _ClassVar[RejectReason]
    ILLEGAL_ACTION: _ClassVar[RejectReason]
    STALE_SEQUENCE: _ClassVar[RejectReason]
    AHEAD_SEQUENCE: _ClassVar[RejectReason]
    GAME_FINISHED_ALREADY: _ClassVar[RejectReason]
    MALFORMED_ACTION: _ClassVar[RejectReason]
    NOT_PERMITTED: _ClassVar[RejectReason]
    OUT_OF_TIME: _ClassVar[RejectReason]
    LIMIT_REACHED: _ClassVar[RejectReason]
KIND_UNSPECIFIED: Kind
COMMAND_SUBMITTED: Kind
GAME_CREATED: Kind
ACTION_APPLIED: Kind
ACTION_REJECTED: Kind
ROUND_STARTED: Kind
GAME_FINISHED: Kind
SCORE_UPDATED: Kind
TOURNAMENT_CREATED: Kind
TOURNAMENT_GAME_ADDED: Kind
DUPLICATE_COMMAND: Kind
CHECKPOINTED: Kind
VIEW_REQUESTED: Kind
QUERY_REQUESTED: Kind
TOURNAMENT_EVENT: Kind
GAME_CLOCK: Kind
RATINGS_EVENT: Kind
OWNER_CLAIMED: Kind
TURN_NOTIFIED: Kind
REJECT_REASON_UNSPECIFIED: RejectReason
ILLEGAL_ACTION: RejectReason
STALE_SEQUENCE: RejectReason
AHEAD_SEQUENCE: RejectReason
GAME_FINISHED_ALREADY: RejectReason
MALFORMED_ACTION: RejectReason
NOT_PERMITTED: RejectReason
OUT_OF_TIME: RejectReason
LIMIT_REACHED: RejectReason

class Envelope(_message.Message):
    __slots__ = ("game_id", "seq", "command_id", "kind", "timestamp_ms", "producer", "owner_epoch", "command_submitted", "game_created", "action_applied", "action_rejected", "round_started", "game_finished", "score_updated", "tournament_created", "tournament_game_added", "duplicate_command", "checkpointed", "view_requested", "query_requested", "tournament_event", "game_clock", "ratings_event", "owner_claimed", "turn_notified")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    COMMAND_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    TIMESTAMP_MS_FIELD_NUMBER: _ClassVar[int]
    PRODUCER_FIELD_NUMBER: _ClassVar[int]
    OWNER_EPOCH_FIELD_NUMBER: _ClassVar[int]
    COMMAND_SUBMITTED_FIELD_NUMBER: _ClassVar[int]
    GAME_CREATED_FIELD_NUMBER: _ClassVar[int]
    ACTION_APPLIED_FIELD_NUMBER: _ClassVar[int]
    ACTION_REJECTED_FIELD_NUMBER: _ClassVar[int]
    ROUND_STARTED_FIELD_NUMBER: _ClassVar[int]
    GAME_FINISHED_FIELD_NUMBER: _ClassVar[int]
    SCORE_UPDATED_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_CREATED_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_GAME_ADDED_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_COMMAND_FIELD_NUMBER: _ClassVar[int]
    CHECKPOINTED_FIELD_NUMBER: _ClassVar[int]
    VIEW_REQUESTED_FIELD_NUMBER: _ClassVar[int]
    QUERY_REQUESTED_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_EVENT_FIELD_NUMBER: _ClassVar[int]
    GAME_CLOCK_FIELD_NUMBER: _ClassVar[int]
    RATINGS_EVENT_FIELD_NUMBER: _ClassVar[int]
    OWNER_CLAIMED_FIELD_NUMBER: _ClassVar[int]
    TURN_NOTIFIED_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seq: int
    command_id: str
    kind: Kind
    timestamp_ms: int
    producer: str
    owner_epoch: int
    command_submitted: CommandSubmitted
    game_created: GameCreated
    action_applied: ActionApplied
    action_rejected: ActionRejected
    round_started: RoundStarted
    game_finished: GameFinished
    score_updated: ScoreUpdated
    tournament_created: TournamentCreated
    tournament_game_added: TournamentGameAdded
    duplicate_command: DuplicateCommand
    checkpointed: Checkpointed
    view_requested: ViewRequested
    query_requested: QueryRequested
    tournament_event: _tournament_pb2.TournamentEvent
    game_clock: _tournament_pb2.GameClockEvent
    ratings_event: _tournament_pb2.RatingsEvent
    owner_claimed: OwnerClaimed
    turn_notified: _tournament_pb2.TurnNotified
    def __init__(self, game_id: _Optional[str] = ..., seq: _Optional[int] = ..., command_id: _Optional[str] = ..., kind: _Optional[_Union[Kind, str]] = ..., timestamp_ms: _Optional[int] = ..., producer: _Optional[str] = ..., owner_epoch: _Optional[int] = ..., command_submitted: _Optional[_Union[CommandSubmitted, _Mapping]] = ..., game_created: _Optional[_Union[GameCreated, _Mapping]] = ..., action_applied: _Optional[_Union[ActionApplied, _Mapping]] = ..., action_rejected: _Optional[_Union[ActionRejected, _Mapping]] = ..., round_started: _Optional[_Union[RoundStarted, _Mapping]] = ..., game_finished: _Optional[_Union[GameFinished, _Mapping]] = ..., score_updated: _Optional[_Union[ScoreUpdated, _Mapping]] = ..., tournament_created: _Optional[_Union[TournamentCreated, _Mapping]] = ..., tournament_game_added: _Optional[_Union[TournamentGameAdded, _Mapping]] = ..., duplicate_command: _Optional[_Union[DuplicateCommand, _Mapping]] = ..., checkpointed: _Optional[_Union[Checkpointed, _Mapping]] = ..., view_requested: _Optional[_Union[ViewRequested, _Mapping]] = ..., query_requested: _Optional[_Union[QueryRequested, _Mapping]] = ..., tournament_event: _Optional[_Union[_tournament_pb2.TournamentEvent, _Mapping]] = ..., game_clock: _Optional[_Union[_tournament_pb2.GameClockEvent, _Mapping]] = ..., ratings_event: _Optional[_Union[_tournament_pb2.RatingsEvent, _Mapping]] = ..., owner_claimed: _Optional[_Union[OwnerClaimed, _Mapping]] = ..., turn_notified: _Optional[_Union[_tournament_pb2.TurnNotified, _Mapping]] = ...) -> None: ...

class Player(_message.Message):
    __slots__ = ("id", "name", "id_is_number")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    ID_IS_NUMBER_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    id_is_number: bool
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., id_is_number: _Optional[bool] = ...) -> None: ...

class GameCreated(_message.Message):
    __slots__ = ("title", "players", "seed", "optional_rules", "seat_token_sha256", "operator_token_sha256", "import_json", "created_at", "tournament_id", "summary", "state", "undo_policy", "seat_webhook_urls", "tournament_round", "tournament_table", "rated", "spectator_token_sha256", "timed")
    TITLE_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    OPTIONAL_RULES_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_SHA256_FIELD_NUMBER: _ClassVar[int]
    OPERATOR_TOKEN_SHA256_FIELD_NUMBER: _ClassVar[int]
    IMPORT_JSON_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    UNDO_POLICY_FIELD_NUMBER: _ClassVar[int]
    SEAT_WEBHOOK_URLS_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ROUND_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_TABLE_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_TOKEN_SHA256_FIELD_NUMBER: _ClassVar[int]
    TIMED_FIELD_NUMBER: _ClassVar[int]
    title: str
    players: _containers.RepeatedCompositeFieldContainer[Player]
    seed: int
    optional_rules: _containers.RepeatedScalarFieldContainer[str]
    seat_token_sha256: _containers.RepeatedScalarFieldContainer[str]
    operator_token_sha256: str
    import_json: bytes
    created_at: int
    tournament_id: str
    summary: ReplicaSummary
    state: StateRef
    undo_policy: _tournament_pb2.UndoPolicy
    seat_webhook_urls: _containers.RepeatedScalarFieldContainer[str]
    tournament_round: int
    tournament_table: int
    rated: bool
    spectator_token_sha256: str
    timed: bool
    def __init__(self, title: _Optional[str] = ..., players: _Optional[_Iterable[_Union[Player, _Mapping]]] = ..., seed: _Optional[int] = ..., optional_rules: _Optional[_Iterable[str]] = ..., seat_token_sha256: _Optional[_Iterable[str]] = ..., operator_token_sha256: _Optional[str] = ..., import_json: _Optional[bytes] = ..., created_at: _Optional[int] = ..., tournament_id: _Optional[str] = ..., summary: _Optional[_Union[ReplicaSummary, _Mapping]] = ..., state: _Optional[_Union[StateRef, _Mapping]] = ..., undo_policy: _Optional[_Union[_tournament_pb2.UndoPolicy, str]] = ..., seat_webhook_urls: _Optional[_Iterable[str]] = ..., tournament_round: _Optional[int] = ..., tournament_table: _Optional[int] = ..., rated: _Optional[bool] = ..., spectator_token_sha256: _Optional[str] = ..., timed: _Optional[bool] = ...) -> None: ...

class OwnerClaimed(_message.Message):
    __slots__ = ("service",)
    SERVICE_FIELD_NUMBER: _ClassVar[int]
    service: str
    def __init__(self, service: _Optional[str] = ...) -> None: ...

class OwnerFence(_message.Message):
    __slots__ = ("owner", "claims")
    OWNER_FIELD_NUMBER: _ClassVar[int]
    CLAIMS_FIELD_NUMBER: _ClassVar[int]
    owner: str
    claims: _containers.RepeatedCompositeFieldContainer[ClaimTaken]
    def __init__(self, owner: _Optional[str] = ..., claims: _Optional[_Iterable[_Union[ClaimTaken, _Mapping]]] = ...) -> None: ...

class ClaimTaken(_message.Message):
    __slots__ = ("service", "owner_epoch", "producer", "claimed_ms")
    SERVICE_FIELD_NUMBER: _ClassVar[int]
    OWNER_EPOCH_FIELD_NUMBER: _ClassVar[int]
    PRODUCER_FIELD_NUMBER: _ClassVar[int]
    CLAIMED_MS_FIELD_NUMBER: _ClassVar[int]
    service: str
    owner_epoch: int
    producer: str
    claimed_ms: int
    def __init__(self, service: _Optional[str] = ..., owner_epoch: _Optional[int] = ..., producer: _Optional[str] = ..., claimed_ms: _Optional[int] = ...) -> None: ...

class CommandSubmitted(_message.Message):
    __slots__ = ("expected_seq", "action", "actor")
    EXPECTED_SEQ_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    ACTOR_FIELD_NUMBER: _ClassVar[int]
    expected_seq: int
    action: _actions_pb2.Action
    actor: str
    def __init__(self, expected_seq: _Optional[int] = ..., action: _Optional[_Union[_actions_pb2.Action, _Mapping]] = ..., actor: _Optional[str] = ...) -> None: ...

class ActionApplied(_message.Message):
    __slots__ = ("seq", "action", "round_kind", "round_label", "digest", "actor", "finished", "game_end_reason", "result", "values", "acting_players")
    class ResultEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class ValuesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    SEQ_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    ROUND_KIND_FIELD_NUMBER: _ClassVar[int]
    ROUND_LABEL_FIELD_NUMBER: _ClassVar[int]
    DIGEST_FIELD_NUMBER: _ClassVar[int]
    ACTOR_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    GAME_END_REASON_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    VALUES_FIELD_NUMBER: _ClassVar[int]
    ACTING_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    seq: int
    action: _actions_pb2.Action
    round_kind: str
    round_label: str
    digest: str
    actor: str
    finished: bool
    game_end_reason: str
    result: _containers.ScalarMap[str, int]
    values: _containers.ScalarMap[str, int]
    acting_players: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seq: _Optional[int] = ..., action: _Optional[_Union[_actions_pb2.Action, _Mapping]] = ..., round_kind: _Optional[str] = ..., round_label: _Optional[str] = ..., digest: _Optional[str] = ..., actor: _Optional[str] = ..., finished: _Optional[bool] = ..., game_end_reason: _Optional[str] = ..., result: _Optional[_Mapping[str, int]] = ..., values: _Optional[_Mapping[str, int]] = ..., acting_players: _Optional[_Iterable[str]] = ...) -> None: ...

class ActionRejected(_message.Message):
    __slots__ = ("code", "reason", "expected_seq", "current_seq", "action_type", "round_kind")
    CODE_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_SEQ_FIELD_NUMBER: _ClassVar[int]
    CURRENT_SEQ_FIELD_NUMBER: _ClassVar[int]
    ACTION_TYPE_FIELD_NUMBER: _ClassVar[int]
    ROUND_KIND_FIELD_NUMBER: _ClassVar[int]
    code: RejectReason
    reason: str
    expected_seq: int
    current_seq: int
    action_type: str
    round_kind: str
    def __init__(self, code: _Optional[_Union[RejectReason, str]] = ..., reason: _Optional[str] = ..., expected_seq: _Optional[int] = ..., current_seq: _Optional[int] = ..., action_type: _Optional[str] = ..., round_kind: _Optional[str] = ...) -> None: ...

class RoundStarted(_message.Message):
    __slots__ = ("round_kind", "round_label")
    ROUND_KIND_FIELD_NUMBER: _ClassVar[int]
    ROUND_LABEL_FIELD_NUMBER: _ClassVar[int]
    round_kind: str
    round_label: str
    def __init__(self, round_kind: _Optional[str] = ..., round_label: _Optional[str] = ...) -> None: ...

class GameFinished(_message.Message):
    __slots__ = ("result", "game_end_reason")
    class ResultEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    RESULT_FIELD_NUMBER: _ClassVar[int]
    GAME_END_REASON_FIELD_NUMBER: _ClassVar[int]
    result: _containers.ScalarMap[str, int]
    game_end_reason: str
    def __init__(self, result: _Optional[_Mapping[str, int]] = ..., game_end_reason: _Optional[str] = ...) -> None: ...

class ScoreUpdated(_message.Message):
    __slots__ = ("values",)
    class ValuesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    VALUES_FIELD_NUMBER: _ClassVar[int]
    values: _containers.ScalarMap[str, int]
    def __init__(self, values: _Optional[_Mapping[str, int]] = ...) -> None: ...

class TournamentCreated(_message.Message):
    __slots__ = ("name", "operator_token_sha256", "created_at", "settings")
    NAME_FIELD_NUMBER: _ClassVar[int]
    OPERATOR_TOKEN_SHA256_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    name: str
    operator_token_sha256: str
    created_at: int
    settings: _tournament_pb2.TournamentSettings
    def __init__(self, name: _Optional[str] = ..., operator_token_sha256: _Optional[str] = ..., created_at: _Optional[int] = ..., settings: _Optional[_Union[_tournament_pb2.TournamentSettings, _Mapping]] = ...) -> None: ...

class TournamentGameAdded(_message.Message):
    __slots__ = ("added_game_id",)
    ADDED_GAME_ID_FIELD_NUMBER: _ClassVar[int]
    added_game_id: str
    def __init__(self, added_game_id: _Optional[str] = ...) -> None: ...

class DuplicateCommand(_message.Message):
    __slots__ = ("first", "action")
    FIRST_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    first: DecidedCommand
    action: _actions_pb2.Action
    def __init__(self, first: _Optional[_Union[DecidedCommand, _Mapping]] = ..., action: _Optional[_Union[_actions_pb2.Action, _Mapping]] = ...) -> None: ...

class Checkpointed(_message.Message):
    __slots__ = ("covered_offset", "state")
    COVERED_OFFSET_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    covered_offset: int
    state: StateRef
    def __init__(self, covered_offset: _Optional[int] = ..., state: _Optional[_Union[StateRef, _Mapping]] = ...) -> None: ...

class ViewRequested(_message.Message):
    __slots__ = ("legal_actions",)
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    legal_actions: bool
    def __init__(self, legal_actions: _Optional[bool] = ...) -> None: ...

class QueryRequested(_message.Message):
    __slots__ = ("query", "args_json")
    QUERY_FIELD_NUMBER: _ClassVar[int]
    ARGS_JSON_FIELD_NUMBER: _ClassVar[int]
    query: str
    args_json: bytes
    def __init__(self, query: _Optional[str] = ..., args_json: _Optional[bytes] = ...) -> None: ...

class DecidedCommand(_message.Message):
    __slots__ = ("command_id", "seq", "rejected", "reason")
    COMMAND_ID_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    REJECTED_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    command_id: str
    seq: int
    rejected: RejectReason
    reason: str
    def __init__(self, command_id: _Optional[str] = ..., seq: _Optional[int] = ..., rejected: _Optional[_Union[RejectReason, str]] = ..., reason: _Optional[str] = ...) -> None: ...

class ReplicaSummary(_message.Message):
    __slots__ = ("seq", "round_kind", "round_label", "finished", "game_end_reason", "result", "values", "acting_players")
    class ResultEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class ValuesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    SEQ_FIELD_NUMBER: _ClassVar[int]
    ROUND_KIND_FIELD_NUMBER: _ClassVar[int]
    ROUND_LABEL_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    GAME_END_REASON_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    VALUES_FIELD_NUMBER: _ClassVar[int]
    ACTING_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    seq: int
    round_kind: str
    round_label: str
    finished: bool
    game_end_reason: str
    result: _containers.ScalarMap[str, int]
    values: _containers.ScalarMap[str, int]
    acting_players: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seq: _Optional[int] = ..., round_kind: _Optional[str] = ..., round_label: _Optional[str] = ..., finished: _Optional[bool] = ..., game_end_reason: _Optional[str] = ..., result: _Optional[_Mapping[str, int]] = ..., values: _Optional[_Mapping[str, int]] = ..., acting_players: _Optional[_Iterable[str]] = ...) -> None: ...

class StateRef(_message.Message):
    __slots__ = ("offset", "seq", "digest", "covered_offset")
    OFFSET_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    DIGEST_FIELD_NUMBER: _ClassVar[int]
    COVERED_OFFSET_FIELD_NUMBER: _ClassVar[int]
    offset: int
    seq: int
    digest: str
    covered_offset: int
    def __init__(self, offset: _Optional[int] = ..., seq: _Optional[int] = ..., digest: _Optional[str] = ..., covered_offset: _Optional[int] = ...) -> None: ...

class EngineState(_message.Message):
    __slots__ = ("game_id", "seq", "digest", "covered_offset", "data", "decided", "producer", "timestamp_ms", "actors", "fence")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    DIGEST_FIELD_NUMBER: _ClassVar[int]
    COVERED_OFFSET_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    DECIDED_FIELD_NUMBER: _ClassVar[int]
    PRODUCER_FIELD_NUMBER: _ClassVar[int]
    TIMESTAMP_MS_FIELD_NUMBER: _ClassVar[int]
    ACTORS_FIELD_NUMBER: _ClassVar[int]
    FENCE_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seq: int
    digest: str
    covered_offset: int
    data: bytes
    decided: _containers.RepeatedCompositeFieldContainer[DecidedCommand]
    producer: str
    timestamp_ms: int
    actors: _containers.RepeatedScalarFieldContainer[str]
    fence: OwnerFence
    def __init__(self, game_id: _Optional[str] = ..., seq: _Optional[int] = ..., digest: _Optional[str] = ..., covered_offset: _Optional[int] = ..., data: _Optional[bytes] = ..., decided: _Optional[_Iterable[_Union[DecidedCommand, _Mapping]]] = ..., producer: _Optional[str] = ..., timestamp_ms: _Optional[int] = ..., actors: _Optional[_Iterable[str]] = ..., fence: _Optional[_Union[OwnerFence, _Mapping]] = ...) -> None: ...

class PublishedView(_message.Message):
    __slots__ = ("game_id", "seq", "digest", "legal_actions", "view_json_zlib", "summary", "timestamp_ms", "view_json_zstd")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    DIGEST_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    VIEW_JSON_ZLIB_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    TIMESTAMP_MS_FIELD_NUMBER: _ClassVar[int]
    VIEW_JSON_ZSTD_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seq: int
    digest: str
    legal_actions: bool
    view_json_zlib: bytes
    summary: ReplicaSummary
    timestamp_ms: int
    view_json_zstd: bytes
    def __init__(self, game_id: _Optional[str] = ..., seq: _Optional[int] = ..., digest: _Optional[str] = ..., legal_actions: _Optional[bool] = ..., view_json_zlib: _Optional[bytes] = ..., summary: _Optional[_Union[ReplicaSummary, _Mapping]] = ..., timestamp_ms: _Optional[int] = ..., view_json_zstd: _Optional[bytes] = ...) -> None: ...

class QueryAnswer(_message.Message):
    __slots__ = ("game_id", "query_id", "status", "error", "payload_zlib", "payload_zstd")
    class Status(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        OK: _ClassVar[QueryAnswer.Status]
        INVALID: _ClassVar[QueryAnswer.Status]
        FAILED: _ClassVar[QueryAnswer.Status]
    OK: QueryAnswer.Status
    INVALID: QueryAnswer.Status
    FAILED: QueryAnswer.Status
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    QUERY_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    PAYLOAD_ZLIB_FIELD_NUMBER: _ClassVar[int]
    PAYLOAD_ZSTD_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    query_id: str
    status: QueryAnswer.Status
    error: str
    payload_zlib: bytes
    payload_zstd: bytes
    def __init__(self, game_id: _Optional[str] = ..., query_id: _Optional[str] = ..., status: _Optional[_Union[QueryAnswer.Status, str]] = ..., error: _Optional[str] = ..., payload_zlib: _Optional[bytes] = ..., payload_zstd: _Optional[bytes] = ...) -> None: ...

class Snapshot(_message.Message):
    __slots__ = ("game_id", "seq", "partition", "offset", "created", "pending", "published_round", "score_seq", "finished_published", "digest", "producer", "timestamp_ms", "summary", "state", "created_offset", "format", "tournament_record", "clock", "fence", "notices")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    PARTITION_FIELD_NUMBER: _ClassVar[int]
    OFFSET_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    PUBLISHED_ROUND_FIELD_NUMBER: _ClassVar[int]
    SCORE_SEQ_FIELD_NUMBER: _ClassVar[int]
    FINISHED_PUBLISHED_FIELD_NUMBER: _ClassVar[int]
    DIGEST_FIELD_NUMBER: _ClassVar[int]
    PRODUCER_FIELD_NUMBER: _ClassVar[int]
    TIMESTAMP_MS_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    CREATED_OFFSET_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_RECORD_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    FENCE_FIELD_NUMBER: _ClassVar[int]
    NOTICES_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seq: int
    partition: int
    offset: int
    created: GameCreated
    pending: _containers.RepeatedCompositeFieldContainer[Envelope]
    published_round: str
    score_seq: int
    finished_published: bool
    digest: str
    producer: str
    timestamp_ms: int
    summary: ReplicaSummary
    state: StateRef
    created_offset: int
    format: int
    tournament_record: Envelope
    clock: _tournament_pb2.GameClockState
    fence: OwnerFence
    notices: _tournament_pb2.TurnNotices
    def __init__(self, game_id: _Optional[str] = ..., seq: _Optional[int] = ..., partition: _Optional[int] = ..., offset: _Optional[int] = ..., created: _Optional[_Union[GameCreated, _Mapping]] = ..., pending: _Optional[_Iterable[_Union[Envelope, _Mapping]]] = ..., published_round: _Optional[str] = ..., score_seq: _Optional[int] = ..., finished_published: _Optional[bool] = ..., digest: _Optional[str] = ..., producer: _Optional[str] = ..., timestamp_ms: _Optional[int] = ..., summary: _Optional[_Union[ReplicaSummary, _Mapping]] = ..., state: _Optional[_Union[StateRef, _Mapping]] = ..., created_offset: _Optional[int] = ..., format: _Optional[int] = ..., tournament_record: _Optional[_Union[Envelope, _Mapping]] = ..., clock: _Optional[_Union[_tournament_pb2.GameClockState, _Mapping]] = ..., fence: _Optional[_Union[OwnerFence, _Mapping]] = ..., notices: _Optional[_Union[_tournament_pb2.TurnNotices, _Mapping]] = ...) -> None: ...
