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
    timed_stars = True  # star squares and the matched wingspan, by the # filling the square

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

    def max_gain_per_activation(self, rules: RuleSet) -> int:
        """One activation fills one square and gains the one benefit printed under it."""
        return max(Resources.of(k).total() if k in KINDS else 0 for bs in self.benefits for k in bs)

    def max_events(self, turns: int, rules: RuleSet) -> int:
        """Every activation fills an empty square (a complete bird is refused): at most one per square."""
        return sum(len(bs) for bs in self.benefits)

    # ---- CP-SAT ----------------------------------------------------------------------------
    def encode(self, enc) -> None:
        m = enc.model
        B = range(self.n)
        on: dict[tuple[int, int], object] = {}  # (event, bird)
        square: dict[tuple[int, int, int], object] = {}  # (event, bird, square)
        write: dict[tuple[int, int, int], object] = {}  # (event, bird, value)
        for e in enc.events:
            for b in B:
                x = enc.bool("fill", e.tag, f"bird{b + 1}")
                on[e.i, b] = x
                sqs = []
                for j, benefit in enumerate(self.benefits[b]):
                    y = enc.bool("square", e.tag, f"bird{b + 1}", f"square{j + 1}")
                    square[e.i, b, j] = y
                    sqs.append(y)
                    if benefit in KINDS:
                        for K in KINDS:
                            n = Resources.of(benefit).get(K)
                            if n:
                                enc.add_gain(e, K, n * y)
                m.add(sum(sqs) == x)
                for v in range(1, 7):
                    write[e.i, b, v] = enc.bool("write", e.tag, f"bird{b + 1}", v)
                m.add(sum(write[e.i, b, v] for v in range(1, 7)) == x)
            for v in range(1, 7):
                m.add(sum(write[e.i, b, v] for b in B) == e.val[v])
            m.add(sum(on[e.i, b] for b in B) == e.active)
        # left to right: square j (> 1) of a bird is filled only after square j - 1 of that bird
        # (by an earlier activation); each square at most once (redundant with the order, for
        # the LP) -- so an activation on a bird fills its leftmost empty square
        for b in B:
            for j in range(len(self.benefits[b])):
                m.add(sum(square[e.i, b, j] for e in enc.events) <= 1)
                if j:
                    for n, e in enumerate(enc.events):
                        m.add(square[e.i, b, j] <= sum(square[f.i, b, j - 1] for f in enc.events[:n]))
        for b in B:
            last = len(self.benefits[b]) - 1
            for j, benefit in enumerate(self.benefits[b]):
                if benefit == "S":  # a star square, scored by the # filling it
                    for e in enc.events:
                        enc.add_stars(e, square[e.i, b, j])
            complete = enc.bool("complete", f"bird{b + 1}")
            m.add(complete == sum(square[e.i, b, last] for e in enc.events))
            total = enc.int(0, 6 * len(self.benefits[b]), "sum", f"bird{b + 1}")
            m.add(total == sum(v * write[e.i, b, v] for e in enc.events for v in range(1, 7)))
            hit = enc.bool("sum_is_wingspan", f"bird{b + 1}")
            m.add(total == self.wingspan[b]).only_enforce_if(hit)
            m.add(total != self.wingspan[b]).only_enforce_if(~hit)
            match = enc.reify([complete, hit], "wingspan_matched", f"bird{b + 1}")
            # the matched wingspan's star is scored by the # filling the bird's last square
            if enc.timed:
                matched_by = [enc.both(square[e.i, b, last], hit, "wingspan_matched_by", e.tag, f"bird{b + 1}") for e in enc.events]
                for e, x in zip(enc.events, matched_by):
                    enc.add_stars(e, x)
                m.add(match == sum(matched_by))
            else:
                enc.stars = enc.stars + match
            # redundant, for the LP: a matched bird is complete; a bird holds at most its squares
            m.add(match <= complete)
            m.add(sum(on[e.i, b] for e in enc.events) <= len(self.benefits[b]))
            m.add(len(self.benefits[b]) * complete <= sum(on[e.i, b] for e in enc.events))

        capacity = sum(len(bs) for bs in self.benefits)

        def can_take(turn: int, v: int):
            # any # fits any bird's next square, and nothing costs: free until all squares are full
            z = enc.bool("placeable", f"t{turn + 1}", v)
            written = sum(e.active for e in enc.events if e.t < turn)
            full = enc.bool("full", f"t{turn + 1}", v)
            m.add(written >= capacity).only_enforce_if(full)
            m.add(written <= capacity - 1).only_enforce_if(~full)
            m.add_bool_or([z, full])
            return z

        def decode(solver, e):
            for b in B:
                if solver.boolean_value(on[e.i, b]):
                    return make_choice(bird=b + 1)
            raise AssertionError("wingspan: active event without a bird")

        def lits(e, choice):
            key = (e.i, dict(choice).get("bird", 0) - 1)
            return [on[key]] if key in on else [enc.false]

        enc.can_take = can_take
        enc.decode_choice = decode
        enc.choice_lits = lits


REALM = Wingspan
