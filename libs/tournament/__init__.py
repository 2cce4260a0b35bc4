"""Tournament hosting, pure and deterministic (docs/tournaments.md).

No I/O, no clock, no global randomness: times (unix ms) and seeds come in as arguments, and a
tournament, a game's clocks and the rating book are each rebuilt by applying their events in log
order. Modules:

- settings:  Settings, TimeControl, UndoPolicy, FlagPolicy, IncrementMode, may_undo
- events:    the tournament's events (registration, rounds, seatings, table results)
- state:     Tournament (apply / replay, and the commands that decide the next event)
- seating:   table sizes and the Swiss-style seating of a round
- standings: rank points, share of table value, head-to-head; CSV and JSON
- clock:     a game's chess clocks from its log, flag falls and what the policy makes of them
- ratings:   openskill Plackett-Luce ratings per title and overall, with history
- notify:    'your turn' webhooks: payload, HMAC-SHA256 signature, verification, retry schedule
"""

from .clock import (ClockAdjusted, ClockPaused, ClockResumed, ClockStarted, FlagDecision, FlagFell, GameClock,
                    TurnChanged, automatic_move, flag_decision)
from .errors import TournamentError
from .events import (PlayerRegistered, PlayerWithdrawn, RegistrationClosed, RegistrationOpened, RoundSeated,
                     RoundStarted, TableFinished, TournamentCreated, game_id_for)
from .ratings import (GameRated, Rating, RatingBook, RatingChange, RatingRequested, RatingsFeed, identity, placements,
                      table_request, tournament_ratings)
from .settings import FlagPolicy, IncrementMode, Settings, TimeControl, UndoPolicy, may_undo
from .standings import Standings, compute as standings
from .state import Tournament

__all__ = [
    "ClockAdjusted", "ClockPaused", "ClockResumed", "ClockStarted", "FlagDecision", "FlagFell", "FlagPolicy",
    "GameClock", "GameRated", "IncrementMode", "PlayerRegistered", "PlayerWithdrawn", "Rating", "RatingBook",
    "RatingChange", "RatingRequested", "RatingsFeed", "RegistrationClosed", "RegistrationOpened", "RoundSeated", "RoundStarted", "Settings",
    "Standings", "TableFinished", "TimeControl", "Tournament", "TournamentCreated", "TournamentError",
    "TurnChanged", "UndoPolicy", "automatic_move", "flag_decision", "game_id_for", "identity", "may_undo", "placements",
    "standings", "table_request", "tournament_ratings",
]
