"""1858 India: the Iberian rules on the Indian map, with these differences:

* Mine, oil and port tokens lie on some hexes; a company whose route reaches one (once track is laid
  there) may collect it (mines 50, oil 100 from phase 5, ports 200 from phase 7) and earns the
  matching bonus every time it runs.
* Pullman cars (from phase 3, one per company, outside the train limit) add 10 per city a chosen
  broad gauge train visits (5 for a wounded train, doubled with the 5D's multiplier).
* Two locomotive works may be bought by public companies (from phase 5): 10 income and 10% off
  train purchases.
* A yellow or green tile may be replaced by one of its own colour that changes the gauge of one
  stretch of plain track, or of one or two stretches at a city or town.
* 1M trains (the 2H's metre gauge side), dearer M trains, other quick-start packets.
"""

from __future__ import annotations

from ...board import upgrades as up
from ...core.entities import Corporation
from .. import game_class
from . import steps as S

G1858 = game_class("1858")


class G1858India(G1858):

    def setup(self):
        super().setup()
        self.hex_token_owners = {}
        for kind in ("mine", "oil", "port"):
            hexes = [self.board.hex_by_id(h) for h in self.facts[f"{kind}_hexes"]]
            owner = Corporation(kind, kind, tokens=[0] * len(hexes), type="dummy")
            self.hex_token_owners[kind] = owner
            for hex_, token in zip(hexes, owner.tokens):
                token.used = True
                token.hex = hex_
                hex_.tokens.append(token)

    def operating_round(self, round_num):
        return S.OperatingRound1858(self, [
            S.Track, S.CollectTokens, S.Token, S.Route, S.Dividend, S.DiscardTrain, S.BuyTrain, S.IssueShares,
        ], round_num)

    # ================================================================== companies
    def private_railway(self, company) -> bool:
        return company.type != "locoworks"

    def purchasable_companies(self, entity=None) -> list:
        return [c for c in self.companies if not self.private_railway(c) and c.owner is None and not c.closed]

    def company_sellable(self, company) -> bool:
        return not self.private_railway(company) and super().company_sellable(company)

    # ================================================================== Pullmans
    @staticmethod
    def pullman(train) -> bool:
        return train.name == "Pullman"

    def owns_pullman(self, corporation) -> bool:
        return any(self.pullman(t) for t in corporation.trains)

    def trainless(self, corporation) -> bool:
        return not any(not self.pullman(t) for t in corporation.trains)

    def num_corp_trains(self, entity) -> int:
        return sum(1 for t in entity.trains if not self.pullman(t))

    def route_trains(self, entity):
        return [t for t in entity.runnable_trains() if not self.pullman(t)]

    def pullman_attached(self, train) -> bool:
        pullmans = getattr(self.round, "pullmans", None) or {}
        return train.owner is not None and pullmans.get(train.owner) is train

    def train_stop_bonus(self, train, stop) -> int:
        """A train with the Pullman attached earns 10 more per city or offboard (doubled with the
        5D's multiplier; a wounded train's half revenue makes it 5)."""
        if not (stop.is_city or stop.is_offboard) or not self.pullman_attached(train):
            return 0
        return (train.multiplier or 1) * 10

    def train_revenue_key(self, train):
        return (bool(train.obsolete), self.pullman_attached(train))

    # ================================================================== mines, oil, ports
    def hex_token_kind(self, token):
        return token.corporation.id

    def extra_revenue(self, entity, routes) -> int:
        """The bonus of the mine, oil and port tokens the company holds (read from the bonus
        offboards for the phase; never multiplied)."""
        if not routes:
            return 0
        counts = {kind: 0 for kind in ("mine", "oil", "port")}
        for token in entity.tokens:
            if token.city is None and token.hex is not None and token.corporation is not entity:
                kind = self.hex_token_kind(token)
                if kind in counts:
                    counts[kind] += 1
        total = 0
        for kind, count in counts.items():
            if count:
                offboard = self.board.hex_by_id(self.facts[f"{kind}_bonus_hex"]).tile.offboards[0]
                total += count * offboard.base_revenue(self.phase.tiles, routes[0].train.name)
        return total

    # ================================================================== gauge conversions
    def upgrades_to(self, from_tile, to_tile, special=False, selected_company=None):
        return super().upgrades_to(from_tile, to_tile, special, selected_company) or \
            self.gauge_conversion(from_tile, to_tile)

    def gauge_conversion(self, from_tile, to_tile) -> bool:
        """Same colour, label, cities, towns and track layout (the gauges may differ)."""
        return self.board.remembered_upgrade(from_tile, to_tile, "gauge_conversion",
                                             lambda: self._gauge_conversion(from_tile, to_tile))

    @staticmethod
    def _gauge_conversion(from_tile, to_tile) -> bool:
        if from_tile.color != to_tile.color or not up.label_kept(from_tile, to_tile):
            return False
        fd, td = from_tile.tdef, to_tile.tdef
        if fd.n_cities != td.n_cities or fd.n_towns != td.n_towns or len(fd.paths) != len(td.paths):
            return False
        old_ends = [ends for ends, _ in fd.path_ends()]
        new_ends = [ends for ends, _ in td.path_ends()]
        return any(all(any(same_ends(o, n, shift) for n in new_ends) for o in old_ends) for shift in range(6))

    def old_paths_problem(self, hex_, tile):
        """For a gauge conversion: exactly one stretch of plain track, or one or two stretches at a
        city or town, change gauge, all the same way ("" when so; None for other lays)."""
        old = hex_.tile
        if not self.gauge_conversion(old, tile):
            return None
        changes = {}
        new_ends = [(up._rotate_ends(e, tile.rotation), t) for e, t in tile.tdef.path_ends()]
        for ends, track in old.tdef.path_ends():
            ends = up._rotate_ends(ends, old.rotation)
            match = next((t for e, t in new_ends if same_ends(ends, e, 0)), None)
            if match is None:
                return "existing track must be kept"
            changes[(track, match)] = changes.get((track, match), 0) + 1
        valid = (1,) if not tile.city_towns else (1, 2)
        to_narrow, to_broad = changes.get(("broad", "narrow"), 0), changes.get(("narrow", "broad"), 0)
        if (to_narrow == 0 and to_broad in valid) or (to_broad == 0 and to_narrow in valid):
            return ""
        return "a gauge conversion changes one stretch of track (one or two at a city or town)"


def same_ends(ends, other, shift) -> bool:
    """Every end of a path (turned by ``shift``) is an end of the other path, whatever the gauge."""
    return all(any(up._end_fits(e, o, shift) for o in other) for e in ends)
