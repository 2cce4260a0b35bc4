"""The stock market: a grid of share prices and the rules for moving a corporation's marker."""

from __future__ import annotations

import re

from ..journal import Tracked

TYPE_LETTERS = {
    "p": "par", "e": "endgame", "c": "close", "b": "multiple_buy", "o": "unlimited", "y": "no_cert_limit",
    "l": "liquidation", "a": "acquisition", "r": "repar", "i": "ignore_one_sale", "j": "ignore_two_sales",
    "s": "safe_par", "P": "par_overlap", "x": "par_1", "z": "par_2", "w": "par_3", "C": "convert_range",
    "m": "max_price", "n": "max_price_1", "u": "phase_limited", "t": "type_limited", "B": "pays_bonus",
    "W": "pays_bonus_1", "X": "pays_bonus_2", "Y": "pays_bonus_3", "Z": "pays_bonus_4", "S": "share_split",
    "f": "only_president",
}
PAR_TYPES = ("par", "par_overlap", "par_1", "par_2", "par_3")


class SharePrice(Tracked):
    __slots__ = ("row", "column", "price", "id", "types", "type", "corporations", "counts_for_limit", "buy_multiple")

    def __init__(self, row, column, price, types, *, unlimited_types=(), multiple_buy_types=()):
        self.row = row
        self.column = column
        self.price = price
        self.id = f"{price},{row},{column}"   # (a cell's place and price never change)
        self.types = list(types)
        self.type = self.types[0] if self.types else None
        self.corporations = []
        self.counts_for_limit = self.type not in unlimited_types
        self.buy_multiple = self.type in multiple_buy_types

    @property
    def coordinates(self):
        return (self.row, self.column)

    @property
    def can_par(self) -> bool:
        return self.type in PAR_TYPES

    def __repr__(self):
        return f"<SharePrice {self.id}>"


class StockMarket(Tracked):
    game = None   # the game it belongs to (set by the game)

    def __init__(self, rows, *, unlimited_types=(), multiple_buy_types=()):
        self.grid = []
        self.par_prices = []
        self.close_cells = []   # the cells that close a corporation standing in them
        self.max_reached = False
        pattern = re.compile(r"(\d*)([a-zA-Z]*)")
        for r, row in enumerate(rows):
            cells = []
            for c, code in enumerate(row):
                if not code:
                    cells.append(None)
                    continue
                m = pattern.match(code)
                types = [TYPE_LETTERS[ch] for ch in m.group(2)]
                sp = SharePrice(r, c, int(m.group(1) or 0), types, unlimited_types=unlimited_types,
                                multiple_buy_types=multiple_buy_types)
                if sp.can_par:
                    self.par_prices.append(sp)
                if sp.type == "close":
                    self.close_cells.append(sp)
                cells.append(sp)
            self.grid.append(cells)
        self.par_prices.sort(key=lambda p: (p.price, p.column, p.row), reverse=True)
        self.by_id = {sp.id: sp for row in self.grid for sp in row if sp is not None}
        # A market of one row moves along it: up is right, down is left, stopping at either end.
        self.one_dimensional = len(self.grid) == 1

    def corporations_in_close_cells(self) -> bool:
        """Whether a corporation stands in a cell that closes it (a corporation's price is put in a
        cell only by ``set_par`` and ``move``, which list it there)."""
        for cell in self.close_cells:
            if cell.corporations:
                return True
        return False

    def cell(self, row, column):
        if row < 0 or column < 0 or row >= len(self.grid):
            return None
        cells = self.grid[row]
        return cells[column] if column < len(cells) else None

    # ---- two-dimensional movement (left at the edge goes down, right at the end goes up)
    def _up(self, r, c):
        if self.one_dimensional:
            return self._right(r, c)
        return (r - 1 if r - 1 >= 0 else r, c)

    def _down(self, r, c):
        if self.one_dimensional:
            return self._left(r, c)
        return (r + 1 if r + 1 < len(self.grid) else r, c)

    def _left(self, r, c):
        if self.one_dimensional:
            return (r, c - 1 if c > 0 else c)
        if c > 0 and self.cell(r, c - 1) is not None:
            return (r, c - 1)
        return self._down(r, c)

    def _right(self, r, c):
        if self.one_dimensional:
            return (r, c + 1 if c + 1 < len(self.grid[r]) else c)
        if c + 1 >= len(self.grid[r]):
            return self._up(r, c)
        return (r, c + 1)

    def set_par(self, corporation, share_price) -> None:
        share_price.corporations.append(corporation)
        corporation.share_price = share_price
        corporation.par_price = share_price
        corporation.original_par_price = share_price

    def move(self, corporation, coordinates) -> None:
        target = self.cell(*coordinates)
        if target is None or target is corporation.share_price or target.type == "liquidation":
            return
        corporation.share_price.corporations.remove(corporation)
        corporation.share_price = target
        if target.type == "endgame":
            self.max_reached = True
        target.corporations.append(corporation)

    def move_up(self, corporation):
        self.move(corporation, self._up(*corporation.share_price.coordinates))

    def move_down(self, corporation):
        self.move(corporation, self._down(*corporation.share_price.coordinates))

    def move_left(self, corporation):
        self.move(corporation, self._left(*corporation.share_price.coordinates))

    def move_right(self, corporation):
        self.move(corporation, self._right(*corporation.share_price.coordinates))
