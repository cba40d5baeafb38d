"""Wingspan (base game, PNP v10.1): fill three birds' squares left to right.

PNP: "Fill a square on any bird (left to right), then gain the bonus below that square. Score 1
star per complete bird whose sum = wingspan." realms.md: "3 birds x 3 squares, filled left ->
right, any # in any square; benefit under each square ... Scoring: the star under square 3 (bird
complete) + 1 star per complete bird whose 3 #s sum exactly to its wingspan."
Precise reading: "each square's benefit is gained at once; the square-3 star and the wingspan
bonus count when the bird is complete."
"""
from __future__ import annotations

from typing import Iterable

from ..errors import IllegalAction
from ..line import Choice, make_choice
from ..resources import KINDS, Resources
from ..rules import RuleSet
from .base import Effect, Realm, Use

# per bird: the #s written so far, left to right
State = tuple[tuple[int, ...], ...]


class Wingspan(Realm):
    key = "wingspan"

    def __init__(self, card=None) -> None:
        super().__init__(card)
        self.wingspan = [int(b["wingspan"]) for b in self.card["birds"]]
        self.benefits = [list(b["benefits"]) for b in self.card["birds"]]
        self.n = len(self.wingspan)

    def initial(self, rules: RuleSet) -> State:
        return tuple(() for _ in range(self.n))

    def candidates(self, state: State, value: int, rules: RuleSet) -> Iterable[Choice]:
        return [make_choice(bird=b + 1) for b in range(self.n)]

    def apply(self, state: State, use: Use, choice: Choice, rules: RuleSet) -> Effect:
        c = dict(choice)
        if set(c) != {"bird"} or c["bird"] not in range(1, self.n + 1):
            raise IllegalAction(f"wingspan: choose bird=1..{self.n}")
        b = c["bird"] - 1
        squares = state[b]
        if len(squares) >= len(self.benefits[b]):
            raise IllegalAction(f"wingspan: bird {b + 1} (wingspan {self.wingspan[b]}) is complete")
        benefit = self.benefits[b][len(squares)]
        gain = Resources.of(benefit) if benefit in KINDS else Resources()
        return Effect(state[:b] + (squares + (use.value,),) + state[b + 1 :], gain=gain)

    def complete(self, state: State, b: int) -> bool:
        return len(state[b]) == len(self.benefits[b])

    def stars(self, state: State, rules: RuleSet) -> int:
        total = 0
        for b in range(self.n):
            # stars printed under filled squares (only square 3 on the PNP card: the bird is complete)
            total += sum(1 for i in range(len(state[b])) if self.benefits[b][i] == "S")
            if self.complete(state, b) and sum(state[b]) == self.wingspan[b]:
                total += 1
        return total

    def max_gain(self, rules: RuleSet) -> Resources:
        total = Resources()
        for bs in self.benefits:
            for k in bs:
                if k in KINDS:
                    total = total + Resources.of(k)
        return total

    def sheet_rows(self, state: State) -> list[tuple[str, str]]:
        rows = []
        for b in range(self.n):
            cells = [str(v) for v in state[b]] + ["_"] * (len(self.benefits[b]) - len(state[b]))
            under = " ".join(k.replace("S", "★") for k in self.benefits[b])
            rows.append((f"bird {b + 1} (wingspan {self.wingspan[b]})", f"[{' '.join(cells)}]  sum {sum(state[b])}  benefits {under}"))
        return rows


REALM = Wingspan
