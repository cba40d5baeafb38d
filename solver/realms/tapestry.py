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
from ..resources import KINDS, Resources
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
    text_choices = ("cells",)
    #: a big row's or column's star is scored by the # completing its last big square (no band of
    #: the card is complete from the start)
    timed_stars = True

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

    # ---- model face ----------------------------------------------------------------------
    @cached_property
    def empty_cells(self) -> list[Cell]:
        """The cells not pre-filled (the only ones a # can fill)."""
        pre = self.mask(self.prefilled)
        return [(r, c) for r in range(self.size) for c in range(self.size) if not self.bit((r, c)) & pre]

    @cached_property
    def free_placements(self) -> dict[int, list[int]]:
        """shape -> masks of its placements on cells that are not pre-filled (the others never fit)."""
        pre = self.mask(self.prefilled)
        return {s: [m for m in sorted(d) if not m & pre] for s, d in self.placements.items()}

    def max_events(self, turns: int, rules: RuleSet) -> int:
        """Every activation fills at least one empty cell, and a cell is filled once."""
        return len(self.empty_cells)

    def max_gain_per_activation(self, rules: RuleSet) -> int:
        """A # completes at most the big squares its shape touches (4 for shape 6 on this card:
        it holds a 2x2 block that can straddle four big squares)."""
        best = 0
        for s, masks in self.free_placements.items():
            for m in masks:
                cells = self.placements[s][m]
                touched = {(r // self.block, c // self.block) for r, c in cells}
                best = max(best, sum(Resources.of(self.big[R][C]).total() for R, C in touched))
        return best

    def encode(self, enc) -> None:
        """Per event one placement of the #'s shape on empty cells; the # that fills a big
        square's last empty cell gains its resource; stars from complete bands of big squares.

        Cut signature: the no-good cuts (solve.py) pin each active event's `enc.event_bools`.
        Here they are only what the event gains (`gains`, per kind) and, under every earlier
        event, whether a rolled value fits the grid a turn starts from (`placeable`) -- not the
        cells. The engine's ordering of a turn depends on this realm through nothing else: a
        model play's own #s are always legal in its own order (right shape, empty cells), so
        plays agreeing on those literals are orderable alike, and one cut removes every cell
        variant of an unorderable play (docs/realms/tapestry.md)."""
        m = enc.model
        b, nb = self.block, self.nb
        EMPTY = self.empty_cells
        # every mask a # may fill, with the shapes (#s) it is a placement of
        shapes_of: dict[int, list[int]] = {}
        for s, masks in sorted(self.free_placements.items()):
            for pm in masks if 1 <= s <= 6 else []:
                shapes_of.setdefault(pm, []).append(s)
        cells_of = {pm: self.placements[shapes_of[pm][0]][pm] for pm in shapes_of}
        size = {s: len(cells) for s, cells in self.shapes.items()}
        bigs = [(R, C) for R in range(nb) for C in range(nb)]
        big_cells = {(R, C): [x for x in EMPTY if x[0] // b == R and x[1] // b == C] for R, C in bigs}

        def plain(what: str, *idx: object):
            """A boolean left out of the no-good cuts' event signature (see `encode`)."""
            return m.new_bool_var(enc.name(what, *idx))

        # on this card no two shapes share a placement (their sizes differ); a card file where
        # two #s have congruent shapes gets the general form below
        shared = any(len(ss) > 1 for ss in shapes_of.values())
        place: dict[tuple[int, int], object] = {}  # (event, mask)
        cover: dict[tuple[int, Cell], object] = {}  # (event, cell)
        for e in enc.events:
            by_cell: dict[Cell, list] = {x: [] for x in EMPTY}
            for pm in shapes_of:
                y = plain("place", e.tag, f"cells={cells_text(cells_of[pm])}")
                place[e.i, pm] = y
                for x in cells_of[pm]:
                    by_cell[x].append(y)
                if shared:
                    # a placement of a shape other than the #'s is refused
                    m.add(y <= sum(e.val[s] for s in shapes_of[pm]))
            # "fill the shape of the #": the # v takes one placement of shape v (a # whose shape
            # has no placement on the empty cells cannot be used here)
            for v in range(1, 7):
                ys = [place[e.i, pm] for pm in self.free_placements.get(v, [])]
                if shared:
                    m.add(sum(ys) >= e.val[v])
                else:
                    m.add(sum(ys) == e.val[v])
            if shared:
                m.add(sum(place[e.i, pm] for pm in shapes_of) == e.active)
            for x, ys in by_cell.items():
                c = plain("covers", e.tag, f"{x[0] + 1}{x[1] + 1}")
                m.add(sum(ys) == c)
                cover[e.i, x] = c

        # "on empty cells": every cell is filled at most once in the round
        # filled_after[e.i][x]: cell x is filled once the realm's events up to e are done
        filled_after: list[dict[Cell, object]] = []
        prev_f: dict[Cell, object] = {x: 0 for x in EMPTY}
        for e in enc.events:
            now = {}
            for x in EMPTY:
                z = plain("filled_after", e.tag, f"{x[0] + 1}{x[1] + 1}")
                m.add(z == prev_f[x] + cover[e.i, x])
                now[x] = z
            filled_after.append(now)
            prev_f = now
        filled = {}
        for x in EMPTY:
            f = enc.bool("filled", f"{x[0] + 1}{x[1] + 1}")
            m.add(f == prev_f[x])
            filled[x] = f
        # redundant (LP): the cells filled are the sizes of the shapes placed
        m.add(
            sum(filled.values())
            == sum(size[v] * e.val[v] for e in enc.events for v in range(1, 7) if v in size)
        )

        # "completing a big square gains its resource": after[B][n] = B complete once the realm's
        # events up to the n-th are done; the event that turns it true completes it
        complete = {}
        complete_after: dict[tuple[int, int], list] = {}  # big square -> complete after event n
        gains: dict[tuple[int, str], object] = {}  # (event, kind) -> what the event gains
        most = {K: 0 for K in KINDS}  # the most of each kind one # can gain
        for R, C in bigs:
            cells = big_cells[R, C]
            kinds = Resources.of(self.big[R][C])
            if not cells:
                complete[R, C] = enc.true  # all pre-filled: complete from the start, gains nothing
                complete_after[R, C] = [enc.true for _ in enc.events]
                continue
            prev = None
            for n, e in enumerate(enc.events):
                so_far = [filled_after[n][x] for x in cells]
                z = plain("big_complete_after", e.tag, f"big{R * nb + C + 1}")
                for f in so_far:
                    m.add(z <= f)
                m.add(z >= sum(so_far) - (len(cells) - 1))
                complete_after.setdefault((R, C), []).append(z)
                if prev is not None:
                    m.add(z >= prev)  # redundant (LP): a complete big square stays complete
                for K in KINDS:
                    if kinds.get(K):
                        step = kinds.get(K) * (z - (prev if prev is not None else 0))
                        gains[e.i, K] = gains.get((e.i, K), 0) + step
                prev = z
            for K in KINDS:
                most[K] += kinds.get(K)
            comp = enc.bool("big_complete", f"big{R * nb + C + 1}")
            m.add(comp == (prev if prev is not None else 0))
            # redundant (LP): a complete big square has all its empty cells filled
            m.add(len(cells) * comp <= sum(filled[x] for x in cells))
            complete[R, C] = comp

        for e in enc.events:
            for K in KINDS:
                if (e.i, K) not in gains:
                    continue
                enc.add_gain(e, K, gains[e.i, K])
                # the event's gain as literals: the cut signature (see `encode`)
                amount = [enc.bool("gains", e.tag, f"{n}{K}") for n in range(most[K] + 1)]
                m.add(sum(amount) == 1)
                m.add(sum(n * x for n, x in enumerate(amount)) == gains[e.i, K])

        # "1 star per completed big row and per completed big column"
        bands = [("row", R, [(R, C) for C in range(nb)]) for R in range(nb)]
        bands += [("column", C, [(R, C) for R in range(nb)]) for C in range(nb)]
        for kind, n, squares in bands:
            z = enc.bool(f"big_{kind}_complete", n + 1)
            for sq in squares:
                m.add(z <= complete[sq])
            m.add(z >= sum(complete[sq] for sq in squares) - (len(squares) - 1))
            if not enc.timed:
                enc.stars = enc.stars + z
                continue
            # scored by the # completing the band's last big square
            prev = enc.false
            for n, e in enumerate(enc.events):
                y = plain(f"big_{kind}_complete_after", e.tag, n + 1)
                for sq in squares:
                    m.add(y <= complete_after[sq][n])
                m.add(y >= sum(complete_after[sq][n] for sq in squares) - (len(squares) - 1))
                enc.add_stars(e, y - prev)
                prev = y
            m.add(z == prev)
        # redundant (LP): the complete big squares hold at most the cells filled
        m.add(sum(len(big_cells[sq]) * complete[sq] for sq in bigs) <= sum(filled.values()))

        def filled_before(x: Cell, turn: int):
            earlier = [n for n, e in enumerate(enc.events) if e.t < turn]
            return filled_after[earlier[-1]][x] if earlier else enc.false

        def can_take(turn: int, v: int):
            # exactly: a # v fits when some placement of shape v has all its cells empty at the
            # start of the turn (filling costs nothing on this card)
            masks = self.free_placements.get(v, [])
            if turn == 0 or not masks:
                return enc.true if masks else enc.false
            fits = []
            for pm in masks:
                before = [filled_before(x, turn) for x in cells_of[pm]]
                f = plain("fits", f"t{turn + 1}", f"cells={cells_text(cells_of[pm])}")
                m.add_bool_and([~x for x in before]).only_enforce_if(f)
                m.add_bool_or(before + [f])
                fits.append(f)
            z = enc.reify_or(fits, "placeable", f"t{turn + 1}", v)
            # part of the cut signature of every earlier event (the grid the turn starts from)
            for e in enc.events:
                if e.t < turn:
                    enc.event_bools.setdefault(e.i, []).append(z)
            return z

        def decode(solver, e):
            for pm in shapes_of:
                if solver.boolean_value(place[e.i, pm]):
                    return make_choice(cells=cells_text(cells_of[pm]))
            raise AssertionError("tapestry: active event without a placement")

        def lits(e, choice):
            try:
                cells = parse_cells(dict(choice)["cells"])
            except (IllegalAction, KeyError):
                return [enc.false]
            if any(not (0 <= r < self.size and 0 <= k < self.size) for r, k in cells):
                return [enc.false]
            pm = self.mask(cells)
            return [place[e.i, pm]] if (e.i, pm) in place else [enc.false]

        enc.can_take = can_take
        enc.decode_choice = decode
        enc.choice_lits = lits


REALM = Tapestry
