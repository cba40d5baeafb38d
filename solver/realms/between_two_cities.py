"""Between Two Cities (base game, PNP v10.1): a 3x3 city that scores from the other realms.

PNP: "Fill a square; same #s can't be orthogonally adjacent. Gain a bonus when you complete a
row/column. Score stars equal to the lowest of the other 2 realms this round. This # cannot be
higher than filled squares here." realms.md: "row bonuses (both icons gained): row1 P+C, row2 C+H,
row3 H+P; column bonuses: col1 P+P, col2 C+C, col3 H+H. Usage: write the # in any empty square;
equal #s may not be orthogonally adjacent. Scoring: stars = min(stars scored this round in the
other two realms, squares filled here). Scores without being activated."

Cross-realm scoring: `stars_in_round` receives the other realms' stars (each capped at 6) from the
engine and returns min(lowest of them, squares filled). With no other realm in the round (a
one-realm test game) the lowest is taken as 0. `stars` alone (without the other realms) is 0.
Completing a row and a column with one # gains both bonuses.
"""
from __future__ import annotations

from typing import Iterable

from ..errors import IllegalAction
from ..line import Choice, make_choice
from ..resources import Resources
from ..rules import RuleSet
from .base import Effect, Realm, Use

# the grid in reading order, 0 = empty
State = tuple[int, ...]


class BetweenTwoCities(Realm):
    key = "between-two-cities"

    def __init__(self, card=None) -> None:
        super().__init__(card)
        self.n = int(self.card["size"])
        self.row_bonus = [self._bundle(b) for b in self.card["row_bonus"]]
        self.col_bonus = [self._bundle(b) for b in self.card["column_bonus"]]

    @staticmethod
    def _bundle(kinds: list[str]) -> Resources:
        total = Resources()
        for k in kinds:
            total = total + Resources.of(k)
        return total

    def initial(self, rules: RuleSet) -> State:
        return (0,) * (self.n * self.n)

    def candidates(self, state: State, value: int, rules: RuleSet) -> Iterable[Choice]:
        return [make_choice(row=i // self.n + 1, col=i % self.n + 1) for i, v in enumerate(state) if not v]

    def apply(self, state: State, use: Use, choice: Choice, rules: RuleSet) -> Effect:
        c = dict(choice)
        n = self.n
        if set(c) != {"row", "col"} or c["row"] not in range(1, n + 1) or c["col"] not in range(1, n + 1):
            raise IllegalAction(f"between-two-cities: choose row=1..{n} and col=1..{n}")
        r, k = c["row"] - 1, c["col"] - 1
        if state[r * n + k]:
            raise IllegalAction(f"between-two-cities: square row {r + 1} col {k + 1} is already filled")
        for rr, kk in ((r - 1, k), (r + 1, k), (r, k - 1), (r, k + 1)):
            if 0 <= rr < n and 0 <= kk < n and state[rr * n + kk] == use.value:
                raise IllegalAction(
                    f"between-two-cities: equal #s may not be orthogonally adjacent (row {rr + 1} col {kk + 1} shows {use.value})"
                )
        new = state[: r * n + k] + (use.value,) + state[r * n + k + 1 :]
        gain = Resources()
        if all(new[r * n + j] for j in range(n)):
            gain = gain + self.row_bonus[r]
        if all(new[i * n + k] for i in range(n)):
            gain = gain + self.col_bonus[k]
        return Effect(new, gain=gain)

    def filled(self, state: State) -> int:
        return sum(1 for v in state if v)

    def stars(self, state: State, rules: RuleSet) -> int:
        return 0  # its stars come from the other realms: see stars_in_round

    def stars_in_round(self, state: State, rules: RuleSet, others: tuple[int, ...]) -> int:
        lowest = min(others) if others else 0
        return min(lowest, self.filled(state))

    def max_gain(self, rules: RuleSet) -> Resources:
        total = Resources()
        for b in self.row_bonus + self.col_bonus:
            total = total + b
        return total

    def sheet_rows(self, state: State) -> list[tuple[str, str]]:
        n = self.n
        rows = []
        for r in range(n):
            cells = " ".join(str(v) if v else "_" for v in state[r * n : (r + 1) * n])
            rows.append((f"row {r + 1} ({self.row_bonus[r]})", cells))
        rows.append(("columns", "  ".join(str(b) for b in self.col_bonus)))
        rows.append(("filled", f"{self.filled(state)} (stars = min(lowest other realm, filled))"))
        return rows


REALM = BetweenTwoCities
