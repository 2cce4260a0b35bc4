"""Limits on every input the platform takes, and on the records it writes: one place for all of them.

The gateway checks a request against these before anything is appended, and answers
INVALID_ARGUMENT (one input too big or too many of something) or RESOURCE_EXHAUSTED (a game's
budget used up) with a message naming the limit. The game's owner checks the per-game budgets again
with the engine (the gateway's ledger may lag). gRPC itself refuses a request above
MAX_REQUEST_BYTES with RESOURCE_EXHAUSTED.

Why these numbers: the largest recorded game (1858 India, 2,597 entries) has 304 KB of action JSON,
its largest action 722 bytes; a title has at most 8 players. Each limit leaves room many times over
for real play, and together they bound every record the platform writes (MAX_RECORD_BYTES): an
engine state holds at most MAX_GAME_LOG_BYTES of actions plus the rules state (160 KB for that
game), an export or a history answer the same log, a view no log at all.
"""

from __future__ import annotations

KIB = 1024
MIB = 1024 * KIB

# One action as JSON (its auto actions are the engine's, not counted): real ones are under 1 KB.
MAX_ACTION_BYTES = 16 * KIB
# The text of a chat `message` action, in characters.
MAX_MESSAGE_CHARS = 2000
# A game's log: entries (actions, undos, redos, messages) and their JSON bytes in all. A game that
# reaches either takes no more actions (RESOURCE_EXHAUSTED); only the operator may still end it.
MAX_GAME_ENTRIES = 20_000
MAX_GAME_LOG_BYTES = 2 * MIB
# Player names and ids (the player id strings of CreateGame), in characters.
MAX_NAME_CHARS = 64
# Game, tournament and command ids, in characters (game and tournament ids are also limited to
# letters, digits and _.:-, see ID_RULE).
MAX_ID_CHARS = 100
ID_RULE = "1-100 characters of letters, digits and _.:- (starting with a letter or digit)"
# Seats of one game (every title also has its own range, which the engine checks).
MAX_SEATS = 12
# Optional rules of one game, and the length of each name.
MAX_OPTIONAL_RULES = 32
MAX_RULE_CHARS = 64
# Tokens (seat, operator, organiser): ours are 32 characters; anything far longer is not one.
MAX_TOKEN_CHARS = 256
# A tournament's name, in characters.
MAX_TOURNAMENT_NAME_CHARS = 200
# Other short strings of a request (title, entity, entity type, hex, corporation, query names).
MAX_FIELD_CHARS = 100
# An 18xx.games export given to ImportGame (JSON bytes): it becomes the game's log, so no more than
# a game may hold.
MAX_IMPORT_BYTES = MAX_GAME_LOG_BYTES + 256 * KIB
# A whole gRPC request (the import is the largest).
MAX_REQUEST_BYTES = MAX_IMPORT_BYTES + 64 * KIB
# A gRPC answer (an export is the largest: at most the game's log).
MAX_RESPONSE_BYTES = 16 * MIB

# Records: every topic is created with max.message.bytes = MAX_RECORD_BYTES and the producer's
# max_request_size allows it; an append of anything larger is refused before it reaches the broker
# (bus.base.RecordTooLarge). The limits above keep every record well under it: an engine state is at
# most the game's log plus the rules state and the decided command ids.
MAX_RECORD_BYTES = 8 * MIB

