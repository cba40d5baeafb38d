"""Scythe (base game, PNP v10.1): a top row that gives resources, a bottom row that sells stars.

PNP: "Mark a #: The top row provides resources; the bottom row costs resources to gain stars."
realms.md: "Two rows of six cells; column i: top # / top gain / bottom # / bottom cost, all
bottom cells star ... Usage (default): a # marks an unmarked top cell showing it (gain) **or** an
unmarked bottom cell showing it (pay its cost, gain star). Option `scythe_bottom=same-column`: a #
marks a top cell and may then pay to mark the bottom cell of the same column. Scoring: 1 star per
marked bottom cell." Precise reading: "top or bottom cell by number; bottom only when its cost is
paid."

Choice: mark=top | bottom (scythe_bottom=any), mark=top | both (scythe_bottom=same-column; both =
the top cell showing the #, then the bottom cell of its column, paying that cell's cost).
"""
from __future__ import annotations

from typing import Iterable

from ..errors import IllegalAction
from ..line import Choice, make_choice
from ..resources import KINDS, Resources
from ..rules import RuleSet
from .base import Effect, Realm, Use

# (marked top columns, marked bottom columns), 0-based, sorted
State = tuple[tuple[int, ...], tuple[int, ...]]


class Scythe(Realm):
    key = "scythe"
    timed_stars = True  # a star per bottom cell, by the # that marks it

    def __init__(self, card=None) -> None:
        super().__init__(card)
        cols = self.card["columns"]
        self.top = [int(c["top"]) for c in cols]
        self.gain = [c["gain"] for c in cols]
        self.bottom = [int(c["bottom"]) for c in cols]
        self.cost = [Resources(**c["cost"]) for c in cols]
        for row, nums in (("top", self.top), ("bottom", self.bottom)):
            if sorted(nums) != list(range(1, len(cols) + 1)):
                raise ValueError(f"scythe card: the {row} row must show each number once")

    def initial(self, rules: RuleSet) -> State:
        return ((), ())

    def candidates(self, state: State, value: int, rules: RuleSet) -> Iterable[Choice]:
        marks = ("top", "both") if rules.scythe_bottom == "same-column" else ("top", "bottom")
        return [make_choice(mark=m) for m in marks]

    def apply(self, state: State, use: Use, choice: Choice, rules: RuleSet) -> Effect:
        c = dict(choice)
        same = rules.scythe_bottom == "same-column"
        allowed = ("top", "both") if same else ("top", "bottom")
        if set(c) != {"mark"} or c["mark"] not in ("top", "bottom", "both"):
            raise IllegalAction(f"scythe: choose mark={'|'.join(allowed)}")
        if c["mark"] not in allowed:
            if same:
                raise IllegalAction("scythe: a # marks a top cell; the bottom cell of its column only with mark=both (rule option scythe_bottom=same-column)")
            raise IllegalAction("scythe: a # marks one cell showing it, top or bottom (mark=both only with rule option scythe_bottom=same-column)")
        tops, bottoms = state
        gain, cost = Resources(), Resources()
        if c["mark"] in ("top", "both"):
            col = self.top.index(use.value)
            if col in tops:
                raise IllegalAction(f"scythe: the top cell {use.value} is already marked")
            tops = tuple(sorted(tops + (col,)))
            gain = Resources.of(self.gain[col])
            if c["mark"] == "both":
                if col in bottoms:
                    raise IllegalAction(f"scythe: the bottom cell of column {col + 1} is already marked")
                bottoms = tuple(sorted(bottoms + (col,)))
                cost = self.cost[col]
        else:
            col = self.bottom.index(use.value)
            if col in bottoms:
                raise IllegalAction(f"scythe: the bottom cell {use.value} is already marked")
            bottoms = tuple(sorted(bottoms + (col,)))
            cost = self.cost[col]
        return Effect((tops, bottoms), cost=cost, gain=gain)

    def stars(self, state: State, rules: RuleSet) -> int:
        return len(state[1])

    def max_gain(self, rules: RuleSet) -> Resources:
        total = Resources()
        for k in self.gain:
            total = total + Resources.of(k)
        return total

    def sheet_rows(self, state: State) -> list[tuple[str, str]]:
        tops, bottoms = state
        top = " ".join(f"({n}{g})" if i in tops else f" {n}{g} " for i, (n, g) in enumerate(zip(self.top, self.gain)))
        bot = " ".join(
            f"({n}★{c})" if i in bottoms else f" {n}★{c} " for i, (n, c) in enumerate(zip(self.bottom, (str(x) for x in self.cost)))
        )
        return [("top (gain)", top), ("bottom (cost → ★)", bot)]

    def max_gain_per_activation(self, rules: RuleSet) -> int:
        """One activation marks at most one top cell (the only cells that give resources)."""
        return max(Resources.of(k).total() for k in self.gain)

    def max_events(self, turns: int, rules: RuleSet) -> int:
        """Every activation marks an unmarked cell (same-column: an unmarked top cell): at most one
        per cell."""
        return len(self.top) if rules.scythe_bottom == "same-column" else len(self.top) + len(self.bottom)

    # ---- CP-SAT ----------------------------------------------------------------------------
    def encode(self, enc) -> None:
        m = enc.model
        same = enc.rules.scythe_bottom == "same-column"
        C = range(len(self.top))
        # mark[e, c, row]: event e marks column c's cell of that row ("top", "bottom") -- or,
        # same-column, row "both": the top cell of column c and then its bottom cell
        rows = ("top", "both") if same else ("top", "bottom")
        mark: dict[tuple[int, int, str], object] = {}
        for e in enc.events:
            for c in C:
                for row in rows:
                    x = enc.bool("mark", e.tag, row, f"column{c + 1}")
                    mark[e.i, c, row] = x
                    # the # names the cell: the top cell showing it (top, both) or the bottom one
                    m.add_implication(x, e.val[self.bottom[c] if row == "bottom" else self.top[c]])
                    if row in ("top", "both"):
                        for K in KINDS:
                            if Resources.of(self.gain[c]).get(K):
                                enc.add_gain(e, K, Resources.of(self.gain[c]).get(K) * x)
                    if row in ("bottom", "both"):
                        for K in KINDS:
                            if self.cost[c].get(K):
                                enc.add_cost(e, K, self.cost[c].get(K) * x)
            m.add(sum(mark[e.i, c, row] for c in C for row in rows) == e.active)
            if enc.rm.options.lp_rows:
                # redundant (LP): the # marks one cell showing its value, so the cells showing v
                # are marked val[v] times in all (each implication alone let a fractional value v
                # mark both its top and its bottom cell)
                for v in range(1, 7):
                    m.add(sum(mark[e.i, c, row] for c in C for row in rows
                              if (self.bottom[c] if row == "bottom" else self.top[c]) == v) == e.val[v])
        # each cell is marked at most once (mark=both marks the top and the bottom cell)
        top_marks = {c: [mark[e.i, c, r] for e in enc.events for r in rows if r in ("top", "both")] for c in C}
        bottom_marks = {c: [mark[e.i, c, r] for e in enc.events for r in rows if r in ("bottom", "both")] for c in C}
        for c in C:
            m.add(sum(top_marks[c]) <= 1)
            m.add(sum(bottom_marks[c]) <= 1)
        for e in enc.events:  # a star per bottom cell, scored by the # that marks it
            enc.add_stars(e, sum(mark[e.i, c, r] for c in C for r in rows if r in ("bottom", "both")))

        marked_cache: dict = {}

        def top_marked_before(turn: int, c: int):
            key = (turn, c)
            if key not in marked_cache:
                z = enc.bool("top_marked", f"t{turn + 1}", f"column{c + 1}")
                m.add(z == sum(mark[e.i, c, r] for e in enc.events if e.t < turn for r in rows if r in ("top", "both")))
                marked_cache[key] = z
            return marked_cache[key]

        bottom_cache: dict = {}

        def bottom_marked_before(turn: int, c: int):
            if (turn, c) not in bottom_cache:
                z = enc.bool("bottom_marked", f"t{turn + 1}", f"column{c + 1}")
                m.add(z == sum(mark[e.i, c, r] for e in enc.events if e.t < turn for r in rows if r in ("bottom", "both")))
                bottom_cache[turn, c] = z
            return bottom_cache[turn, c]

        def costly_takes(turn: int, v: int):
            # default reading: the bottom cell showing v (it costs) is open while unmarked; with
            # scythe_bottom=same-column a bottom cell comes only with its free top cell
            if same:
                return []
            c = self.bottom.index(v)
            return [(~bottom_marked_before(turn, c), self.cost[c])]

        def can_take(turn: int, v: int):
            # a top cell costs nothing: the top cell showing v, unmarked at the start of the turn
            # (every bottom cell has a cost, so it never forces this)
            z = enc.bool("placeable", f"t{turn + 1}", v)
            m.add_bool_or([z, top_marked_before(turn, self.top.index(v))])
            return z

        def decode(solver, e):
            for (ei, c, row), x in mark.items():
                if ei == e.i and solver.boolean_value(x):
                    return make_choice(mark=row)
            raise AssertionError("scythe: active event without a mark")

        def lits(e, choice):
            row = dict(choice).get("mark")
            if row not in rows:
                return [enc.false]
            return [sum(mark[e.i, c, row] for c in C)]

        enc.can_take = can_take
        enc.costly_takes = costly_takes
        enc.decode_choice = decode
        enc.choice_lits = lits


REALM = Scythe
