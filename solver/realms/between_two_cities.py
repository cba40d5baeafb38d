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
The CP-SAT face (`encode`) takes the min over the other realms' star expressions in the round
model's cross-realm hook, once every realm is encoded (docs/realms/between-two-cities.md).
"""
from __future__ import annotations

from typing import Iterable

from ..errors import IllegalAction
from ..line import Choice, make_choice
from ..resources import KINDS, Resources
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

    def max_gain_per_activation(self, rules: RuleSet) -> int:
        """One # fills one square: it can complete its row and its column (both bonuses)."""
        return max(rb.total() + cb.total() for rb in self.row_bonus for cb in self.col_bonus)

    def max_events(self, turns: int, rules: RuleSet) -> int:
        """Every activation fills an empty square: at most one per square."""
        return self.n * self.n

    def neighbours(self, x: int) -> list[int]:
        """The squares orthogonally adjacent to square x (reading order)."""
        n = self.n
        r, k = divmod(x, n)
        return [rr * n + kk for rr, kk in ((r - 1, k), (r + 1, k), (r, k - 1), (r, k + 1)) if 0 <= rr < n and 0 <= kk < n]

    # ---- CP-SAT ----------------------------------------------------------------------------
    def encode(self, enc) -> None:
        m = enc.model
        n = self.n
        X = range(n * n)
        V = range(1, 7)

        def sq(x: int) -> str:
            return f"row{x // n + 1},col{x % n + 1}"

        fill: dict[tuple[int, int], object] = {}  # (event, square)
        for e in enc.events:
            for x in X:
                fill[e.i, x] = enc.bool("fill", e.tag, sq(x))
            m.add(sum(fill[e.i, x] for x in X) == e.active)
        # "write the # in any empty square": each square at most once
        filled = {x: sum(fill[e.i, x] for e in enc.events) for x in X}
        for x in X:
            m.add(filled[x] <= 1)
        # shows[x, v]: square x holds v at the end of the round (exact: a filled square shows the
        # value of the event that filled it, an empty one shows nothing)
        shows: dict[tuple[int, int], object] = {}
        for x in X:
            for v in V:
                shows[x, v] = enc.bool("shows", sq(x), v)
            m.add(sum(shows[x, v] for v in V) == filled[x])
            for e in enc.events:
                for v in V:
                    m.add_bool_or([~fill[e.i, x], ~e.val[v], shows[x, v]])
        # "equal #s may not be orthogonally adjacent": squares only fill, so the rule at every
        # placement is the rule on the final grid, whatever the order
        for x in X:
            for y in self.neighbours(x):
                if x < y:
                    for v in V:
                        m.add(shows[x, v] + shows[y, v] <= 1)
        # bonuses: the event that fills the last empty square of a row / column gains its icons
        lines = [(f"row{r + 1}", [r * n + k for k in range(n)], self.row_bonus[r]) for r in range(n)]
        lines += [(f"col{k + 1}", [r * n + k for r in range(n)], self.col_bonus[k]) for k in range(n)]
        for name, squares, bonus in lines:
            so_far = 0  # squares of this line filled by this realm's events up to and including e
            dones = []
            for e in enc.events:
                here = sum(fill[e.i, x] for x in squares)
                so_far = so_far + here
                done = enc.bool("completes", e.tag, name)
                dones.append(done)
                m.add(done <= here)
                m.add(n * done <= so_far)
                m.add(done >= here + so_far - n)
                for K in KINDS:
                    if bonus.get(K):
                        enc.add_gain(e, K, bonus.get(K) * done)
            # redundant (LP): a line completes once, and only when all its squares are filled
            m.add(sum(dones) <= 1)
            m.add(n * sum(dones) <= sum(filled[x] for x in squares))
        # stars = min(lowest of the other realms' stars, squares filled): the squares part here,
        # the other realms in the cross-realm hook (their stars exist once every realm is encoded)
        squares_filled = enc.int(0, n * n, "squares_filled")
        m.add(squares_filled == sum(filled[x] for x in X))
        stars = enc.int(0, n * n, "stars")
        enc.stars = stars

        def cross_realm() -> None:
            # the engine passes the other realms' own stars, each capped; this realm's result is
            # capped again, so min(cap, other's raw stars) and the raw stars give the same cap
            others = [o.stars for o in enc.rm.encoders if o is not enc]
            if not others:  # a one-realm game: the lowest of no realms is taken as 0 (engine)
                m.add(stars == 0)
                return
            m.add_min_equality(stars, [squares_filled, enc.rules.star_cap] + others)

        enc.cross_realm = cross_realm

        before_cache: dict = {}

        def shown_before(turn: int, x: int, v: int):
            """Literal: square x shows v at the start of the turn (at most the truth)."""
            key = (turn, x, v)
            if key not in before_cache:
                z = enc.bool("shows_before", f"t{turn + 1}", sq(x), v)
                m.add_implication(z, shows[x, v])
                m.add(z <= sum(fill[e.i, x] for e in enc.events if e.t < turn))
                before_cache[key] = z
            return before_cache[key]

        def can_take(turn: int, v: int):
            # an empty square with no neighbour showing v takes v for free: for every square,
            # placeable, or it was filled, or a neighbour showed v, at the start of the turn
            z = enc.bool("placeable", f"t{turn + 1}", v)
            for x in X:
                was_filled = sum(fill[e.i, x] for e in enc.events if e.t < turn)
                m.add(z + was_filled + sum(shown_before(turn, y, v) for y in self.neighbours(x)) >= 1)
            return z

        def decode(solver, e):
            for x in X:
                if solver.boolean_value(fill[e.i, x]):
                    return make_choice(row=x // n + 1, col=x % n + 1)
            raise AssertionError("between-two-cities: active event without a square")

        def lits(e, choice):
            c = dict(choice)
            r, k = c.get("row", 0) - 1, c.get("col", 0) - 1
            if r not in range(n) or k not in range(n):
                return [enc.false]
            return [fill[e.i, r * n + k]]

        enc.can_take = can_take
        enc.decode_choice = decode
        enc.choice_lits = lits


REALM = BetweenTwoCities
