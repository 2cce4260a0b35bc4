"""Hex coordinates and edges.

A coordinate is letters then a number (``"M38"``). With axes ``{x: letter, y: number}`` (flat maps
of 1822/1856/1858) x is the letter index and y the number - 1; with ``{x: number, y: letter}``
(pointy maps of 1847 AE/1858 India) x is the number - 1 and y the letter index. (x, y) are doubled
coordinates. Edges are numbered 0..5 clockwise; the neighbour across edge e lies at
``(x, y) + DELTAS[layout][e]`` and faces it with edge ``(e + 3) % 6``.
"""

from __future__ import annotations

import re
from functools import lru_cache

DELTAS = {
    "flat": ((0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1)),
    "pointy": ((-1, 1), (-2, 0), (-1, -1), (1, -1), (2, 0), (1, 1)),
}

_COORD = re.compile(r"^([A-Za-z]+)(-?\d+)$")


def letter_index(letters: str) -> int:
    """A=0 .. Z=25, AA=26 .. AZ=51 (lower-case letters count below zero: a=-1 ..)."""
    if letters.islower():
        return -(ord(letters[0]) - ord("a") + 1)
    if len(letters) == 1:
        return ord(letters) - ord("A")
    return 26 * (ord(letters[0]) - ord("A") + 1) + ord(letters[1]) - ord("A")


def xy(coord: str, axes: dict) -> tuple:
    return _xy(coord, axes.get("x", "letter"), axes.get("y", "number"))


@lru_cache(maxsize=4096)
def _xy(coord: str, x_axis: str, y_axis: str) -> tuple:
    m = _COORD.match(coord)
    if m is None:
        raise ValueError(f"bad hex coordinate {coord!r}")
    letter, number = letter_index(m.group(1)), int(m.group(2))
    x = letter if x_axis == "letter" else number - 1
    y = letter if y_axis == "letter" else number - 1
    return x, y


def invert(edge: int) -> int:
    return (edge + 3) % 6
