"""Tapestry (base game, PNP v10.1): fill shapes on a 6x6 grid of 2x2 big squares.

PNP: "Use 1 die to fill a shape (rotating is ok; no limit to uses of each #). Gain a bonus for
completing BIG (2x2) squares. Score 1 star per completed BIG (2x6) row/column (6 total)."
realms.md: "6x6 grid of cells in 3x3 big squares (2x2 cells each). Big squares, row by row:
P, H, C / C, P, H / H, C, P. Pre-filled cells (row, col), 0-based from top-left: (0,5) (1,1) (2,2)
(3,5) (5,0) (5,3). Shapes: 1 monomino, 2 domino, 3 L-tromino, 4 T-tetromino, 5 V-pentomino,
6 the V-pentomino plus its inner corner. Rotations allowed; shapes reusable. Usage: fill the shape
of the # on empty cells; completing a big square gains its resource. Scoring: 1 star per
completed big row and per completed big column (6)."

Readings: rotations only (no mirroring, as the spec says; every PNP shape is mirror-symmetric, so
it changes nothing on this card). One # may complete several big squares: each gives its
resource. Pre-filled cells count towards completion but give nothing by themselves.

Choice: cells=11+12+... (row and column digits, 1-based, joined by '+').
"""
from __future__ import annotations

from functools import cached_property
from typing import Iterable

from ..errors import IllegalAction
from ..line import Choice, make_choice
from ..resources import Resources
from ..rules import RuleSet
from . import shapes
from .base import Effect, Realm, Use

Cell = tuple[int, int]
# filled cells as a bit mask (bit r * size + c), pre-filled cells included
State = int


def rotations(cells: list[Cell]) -> set[tuple[Cell, ...]]:
    """All rotations of a shape (no mirror images on this card)."""
    return shapes.orientations(cells, mirror=False)


cells_text = shapes.cells_text


def parse_cells(text: object) -> tuple[Cell, ...]:
    return shapes.parse_cells(text, "tapestry", merge_repeats=True)


class Tapestry(Realm):
    key = "tapestry"

    def __init__(self, card=None) -> None:
        super().__init__(card)
        self.size = int(self.card["size"])
        self.block = int(self.card["block"])
        self.big = [list(row) for row in self.card["big_squares"]]
        self.nb = self.size // self.block
        self.prefilled = [tuple(x) for x in self.card["prefilled"]]
        self.shapes = {int(k): [tuple(c) for c in v] for k, v in self.card["shapes"].items()}

    def bit(self, cell: Cell) -> int:
        return 1 << (cell[0] * self.size + cell[1])

    def mask(self, cells: Iterable[Cell]) -> int:
        m = 0
        for x in cells:
            m |= self.bit(x)
        return m

    @cached_property
    def placements(self) -> dict[int, dict[int, tuple[Cell, ...]]]:
        """shape -> {mask: cells} of every placement on the grid."""
        out: dict[int, dict[int, tuple[Cell, ...]]] = {}
        for s, shape in self.shapes.items():
            out[s] = {}
            for orient in sorted(rotations(shape)):
                for r0 in range(self.size):
                    for c0 in range(self.size):
                        cells = tuple(sorted((r0 + r, c0 + c) for r, c in orient))
                        if all(0 <= r < self.size and 0 <= c < self.size for r, c in cells):
                            out[s][self.mask(cells)] = cells
        return out

    @cached_property
    def big_masks(self) -> list[list[int]]:
        b = self.block
        return [
            [self.mask((R * b + r, C * b + c) for r in range(b) for c in range(b)) for C in range(self.nb)]
            for R in range(self.nb)
        ]

    def initial(self, rules: RuleSet) -> State:
        return self.mask(self.prefilled)

    def candidates(self, state: State, value: int, rules: RuleSet) -> Iterable[Choice]:
        return [make_choice(cells=cells_text(cells)) for m, cells in self.placements.get(value, {}).items() if not m & state]

    def apply(self, state: State, use: Use, choice: Choice, rules: RuleSet) -> Effect:
        c = dict(choice)
        if set(c) != {"cells"}:
            raise IllegalAction("tapestry: choose cells=11+12+... (row and column, 1-based)")
        cells = parse_cells(c["cells"])
        if any(not (0 <= r < self.size and 0 <= k < self.size) for r, k in cells):
            raise IllegalAction(f"tapestry: cells {c['cells']} are outside the {self.size}x{self.size} grid")
        m = self.mask(cells)
        if m not in self.placements.get(use.value, {}):
            raise IllegalAction(f"tapestry: cells {cells_text(cells)} are not shape {use.value} (rotations allowed)")
        if m & state:
            taken = [x for x in cells if self.bit(x) & state]
            raise IllegalAction(f"tapestry: cell {cells_text(taken[:1])} is already filled")
        new = state | m
        gain = Resources()
        for R in range(self.nb):
            for C in range(self.nb):
                bm = self.big_masks[R][C]
                if new & bm == bm and state & bm != bm:
                    gain = gain + Resources.of(self.big[R][C])
        return Effect(new, gain=gain)

    def stars(self, state: State, rules: RuleSet) -> int:
        total = 0
        for R in range(self.nb):
            row = 0
            for C in range(self.nb):
                row |= self.big_masks[R][C]
            total += state & row == row
        for C in range(self.nb):
            col = 0
            for R in range(self.nb):
                col |= self.big_masks[R][C]
            total += state & col == col
        return int(total)

    def max_gain(self, rules: RuleSet) -> Resources:
        total = Resources()
        for row in self.big:
            for k in row:
                total = total + Resources.of(k)
        return total

    def sheet_rows(self, state: State) -> list[tuple[str, str]]:
        rows = []
        pre = set(self.prefilled)
        for r in range(self.size):
            cells = []
            for c in range(self.size):
                ch = "o" if (r, c) in pre else ("#" if state & self.bit((r, c)) else ".")
                cells.append(ch + (" " if (c + 1) % self.block == 0 else ""))
            big = " ".join(self.big[r // self.block])
            rows.append((f"row {r + 1}", "".join(cells).rstrip() + ("   " + big if r % self.block == 0 else "")))
        return rows


REALM = Tapestry
