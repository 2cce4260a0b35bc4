"""Route bonuses described as data, so route revenue and the route search agree and stay fast.

A title's game may define ``route_bonuses(corporation) -> list[RouteBonus]``. Each bonus pays
``amount`` once when a route stops in any of its ``hexes`` (``per_hex=False``), or ``amount`` for each
distinct hex of ``hexes`` the route stops in (``per_hex=True``). The board adds them to the stop
revenues (``Board.revenue_for``); the route search evaluates them exactly.
"""

from __future__ import annotations


class RouteBonus:
    __slots__ = ("hexes", "amount", "per_hex", "name")

    def __init__(self, hexes, amount: int, per_hex: bool = False, name: str = ""):
        self.hexes = frozenset(hexes)
        self.amount = int(amount)
        self.per_hex = bool(per_hex)
        self.name = name

    def value(self, stop_hex_ids) -> int:
        """Bonus for a route whose stops lie in ``stop_hex_ids`` (a set)."""
        hit = self.hexes & stop_hex_ids
        if not hit:
            return 0
        return self.amount * len(hit) if self.per_hex else self.amount

    def __repr__(self):
        return f"<RouteBonus {self.name or ''} {sorted(self.hexes)} {self.amount}{' per hex' if self.per_hex else ''}>"


def hex_bonus_abilities(corporation) -> list:
    """A ``hex_bonus`` ability (attributes ``hexes``, ``amount``) pays its amount for each distinct
    listed hex a route stops in."""
    out = []
    for ability in getattr(corporation, "all_abilities", ()) or ():
        if ability.type == "hex_bonus":
            out.append(RouteBonus(ability.hexes or (), ability.amount or 0, per_hex=True, name="hex_bonus"))
    return out


def assignment_bonus(board, corporation, key, amount) -> list:
    """When ``corporation`` holds assignment ``key`` (e.g. a port marker), a route stopping in a hex
    holding the same assignment earns ``amount`` once."""
    assigned = getattr(corporation, "assignments", None) or {}
    if key not in assigned:
        return []
    hexes = [h.id for h in board.hexes if key in h.assignments]
    return [RouteBonus(hexes, amount, per_hex=False, name=str(key))] if hexes else []


def bonus_total(bonuses, stops) -> int:
    if not bonuses:
        return 0
    ids = {s.tile.hex.id for s in stops}
    return sum(b.value(ids) for b in bonuses)
