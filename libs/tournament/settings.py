"""A tournament's settings: the title, table sizes, rounds, undo policy, time control, flag policy."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache

import engine

from .errors import TournamentError


class UndoPolicy(StrEnum):
    """What a seat of a tournament game may undo (the gateway enforces it with `may_undo`)."""

    ALWAYS = "always"        # as the engine allows (any seat may undo the latest actions)
    OWN_TURN = "own_turn"    # only the seat's own actions, and only while it is still acting
    NEVER = "never"          # no undo at all


class FlagPolicy(StrEnum):
    """What happens when a seat's clock runs out (see clock.flag_decision)."""

    END_GAME = "end_game"        # the game ends at once and is scored as the rules' early end says
    REMOVE_SEAT = "remove_seat"  # the seat stays, its moves are made automatically (a pass where legal)


class IncrementMode(StrEnum):
    ACTION = "action"  # the increment is added to a seat after each game action it makes
    ROUND = "round"    # the increment is added to every seat when the game enters a new round (SR, OR)


@dataclass(frozen=True)
class TimeControl:
    """A chess clock per seat: `base_ms` at the start, plus `increment_ms` per action or per round."""

    base_ms: int
    increment_ms: int = 0
    mode: IncrementMode = IncrementMode.ACTION

    def __post_init__(self):
        if not isinstance(self.base_ms, int) or self.base_ms <= 0:
            raise TournamentError(f"A clock needs a positive base time, not {self.base_ms!r} ms")
        if not isinstance(self.increment_ms, int) or self.increment_ms < 0:
            raise TournamentError(f"A clock's increment cannot be negative ({self.increment_ms!r} ms)")
        object.__setattr__(self, "mode", _enum(IncrementMode, self.mode, "increment mode"))


@lru_cache(maxsize=None)
def _titles() -> dict[str, dict]:
    """The engine's titles by title string and by slug."""
    found: dict[str, dict] = {}
    for info in engine.list_titles():
        found[info["title"]] = info
        found[info["slug"]] = info
    return found


def title_info(title: str) -> dict:
    """The engine's facts of a title (title, slug, min_players, max_players), by title or slug."""
    info = _titles().get(title)
    if info is None:
        known = ", ".join(sorted({i["title"] for i in _titles().values()}))
        raise TournamentError(f"Unknown title {title!r} (known: {known})")
    return info


def _enum(kind, value, what: str):
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(m.value for m in kind)
        raise TournamentError(f"Unknown {what} {value!r} (one of {allowed})") from None


@dataclass(frozen=True)
class Settings:
    """What the organiser chose. Tables seat at most `table_size` and at least `min_table_size`
    players (both within the title's player counts); `time_control` None means no clocks."""

    title: str                       # the engine's title string, e.g. "1856", "1847 AE"
    table_size: int
    min_table_size: int
    rounds: int
    undo_policy: UndoPolicy = UndoPolicy.ALWAYS
    time_control: TimeControl | None = None
    flag_policy: FlagPolicy = FlagPolicy.END_GAME
    rated: bool = True
    optional_rules: tuple[str, ...] = field(default_factory=tuple)

    def __post_init__(self):
        info = title_info(self.title)
        object.__setattr__(self, "title", info["title"])
        object.__setattr__(self, "undo_policy", _enum(UndoPolicy, self.undo_policy, "undo policy"))
        object.__setattr__(self, "flag_policy", _enum(FlagPolicy, self.flag_policy, "flag policy"))
        object.__setattr__(self, "optional_rules", tuple(self.optional_rules))
        low, high = info["min_players"], info["max_players"]
        if not low <= self.table_size <= high:
            raise TournamentError(f"{info['title']} is played by {low} to {high} players, not {self.table_size}")
        if not low <= self.min_table_size <= self.table_size:
            raise TournamentError(f"The smallest table must seat {low} to {self.table_size} players "
                                  f"for {info['title']}, not {self.min_table_size}")
        if not isinstance(self.rounds, int) or self.rounds < 1:
            raise TournamentError(f"A tournament has at least one round, not {self.rounds!r}")
        known = {rule["sym"] for rule in info.get("optional_rules", ())}
        unknown = [rule for rule in self.optional_rules if rule not in known]
        if unknown:
            raise TournamentError(f"{info['title']} has no optional rule {', '.join(unknown)}")

    @classmethod
    def make(cls, title: str, table_size: int, rounds: int, *, min_table_size: int | None = None,
             **options) -> "Settings":
        """Settings with the usual smallest table: one seat fewer than `table_size` (never fewer than
        the title allows), so 61 players at tables of 4 sit at 13 tables of 4 and 3 of 3."""
        if min_table_size is None:
            min_table_size = max(title_info(title)["min_players"], table_size - 1)
        return cls(title=title, table_size=table_size, min_table_size=min_table_size, rounds=rounds, **options)

    @property
    def slug(self) -> str:
        return title_info(self.title)["slug"]


def may_undo(policy: UndoPolicy, *, seat: str, undone_by: list[str], acting: list[str]) -> bool:
    """Whether `seat` may undo actions made by `undone_by` (the seats that made each action the undo
    would remove, "" for automatic ones) while the game waits for `acting`.

    ALWAYS: yes. NEVER: no. OWN_TURN: only while `seat` is acting and every removed action is its own
    (automatic moves the engine made right after them go with them)."""
    if policy is UndoPolicy.ALWAYS:
        return True
    if policy is UndoPolicy.NEVER:
        return False
    return seat in acting and bool(undone_by) and all(who in (seat, "") for who in undone_by) and seat in undone_by
