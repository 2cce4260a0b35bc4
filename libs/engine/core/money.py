"""Cash: everything that holds money spends it through ``Spender.spend`` so money is never created or lost."""

from __future__ import annotations

from ..errors import GameError
from ..journal import Tracked


class Kind(Tracked):
    """What an entity is; each kind of entity switches on its own flag."""

    is_player = False
    is_corporation = False
    is_company = False
    is_minor = False
    is_share_pool = False
    is_operator = False


class Spender(Tracked):
    """Mixin for anything with a cash balance (players, corporations, the bank)."""

    cash: int = 0

    def spend(self, amount, receiver: "Spender", *, check_cash: bool = True, check_positive: bool = True) -> None:
        amount = int(amount)
        if receiver is self:
            raise GameError(f"{self.name} cannot pay itself")
        if check_cash:
            self._check_cash(amount)
        if check_positive and amount <= 0:
            raise GameError(f"Cannot spend a non-positive amount ({amount})")
        self.cash -= amount
        receiver.cash += amount

    def _check_cash(self, amount: int) -> None:
        if self.cash - amount < 0:
            raise GameError(f"{self.name} has {self.cash} and cannot spend {amount}")

    def set_cash(self, amount: int, other: "Spender") -> None:
        """Move money between ``other`` and this holder so this holder has exactly ``amount``."""
        other.spend(amount - self.cash, self, check_cash=False, check_positive=False)


class Bank(Kind, Spender):
    """The bank. It may run below zero; when it checks, that breaks it (a game-end trigger)."""

    name = "The Bank"
    id = "bank"
    owner = player = corporation = None   # the bank may hold companies for sale; nobody controls it

    def __init__(self, cash: int, *, check: bool, log: list):
        self.cash = cash
        self.check = check
        self.broken = False
        self._log = log

    def _check_cash(self, amount: int) -> None:
        if self.check and self.cash - amount < 0 and not self.broken:
            self._log.append("-- The bank has broken --")
            self.broken = True
