"""Route bonuses described as data, so route revenue and the route search agree and stay fast.

A title's game may define ``route_bonuses(corporation) -> list[RouteBonus]``. Each bonus pays
``amount`` once when a route stops in any of its ``hexes`` (``per_hex=False``), or ``amount`` for each
distinct hex of ``hexes`` the route stops in (``per_hex=True``). A bonus with ``partner_hexes`` pays
``amount`` once when the route stops both in one of ``hexes`` and in one of ``partner_hexes`` (e.g. a
mine to a port). ``excluded_trains`` names trains that never earn the bonus. The board adds them to
the stop revenues (``Board.revenue_for``); the route search evaluates them exactly.
"""

from __future__ import annotations


class RouteBonus:
    __slots__ = ("hexes", "amount", "per_hex", "name", "partner_hexes", "excluded_trains")

    def __init__(self, hexes, amount: int, per_hex: bool = False, name: str = "", *, partner_hexes=(),
                 excluded_trains=()):
        self.hexes = frozenset(hexes)
        self.amount = int(amount)
        self.per_hex = bool(per_hex) and not partner_hexes
        self.name = name
        self.partner_hexes = frozenset(partner_hexes)
        self.excluded_trains = frozenset(excluded_trains)

    def applies_to(self, train) -> bool:
        return train is None or train.name not in self.excluded_trains

    def value(self, stop_hex_ids) -> int:
        """Bonus for a route whose stops lie in ``stop_hex_ids`` (a set)."""
        hit = self.hexes & stop_hex_ids
        if not hit:
            return 0
        if self.partner_hexes:
            return self.amount if self.partner_hexes & stop_hex_ids else 0
        return self.amount * len(hit) if self.per_hex else self.amount

    def __repr__(self):
        pair = f" with {sorted(self.partner_hexes)}" if self.partner_hexes else ""
        return f"<RouteBonus {self.name or ''} {sorted(self.hexes)}{pair} {self.amount}" \
               f"{' per hex' if self.per_hex else ''}>"


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


def bonus_total(bonuses, stops, train=None) -> int:
    if not bonuses:
        return 0
    ids = {s.tile.hex.id for s in stops}
    return sum(b.value(ids) for b in bonuses if b.applies_to(train))
