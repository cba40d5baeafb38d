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
from ..resources import Resources
from ..rules import RuleSet
from .base import Effect, Realm, Use

# (marked top columns, marked bottom columns), 0-based, sorted
State = tuple[tuple[int, ...], tuple[int, ...]]


class Scythe(Realm):
    key = "scythe"

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


REALM = Scythe
