"""Libertalia (promo pack, seed 000): complete pirates' two-digit numbers in ascending order.

Rulebook: "Assign a # to write that value as a digit on any pirate. That digit completes the
number on the pirate, either as the first digit (the tens) or as the last (the ones). All
completed pirates must be in ascending order (left to right, top to bottom ...). No two
consecutive pirates can have the same value. ... After writing the number, you may gain the
benefit below the pirate. ... If you cannot pay the cost, you may not gain the benefit, but you
may fill the pirate anyway." Scoring: stars of paid benefits, +2 stars when all are complete.
"""
from __future__ import annotations

from typing import Iterable

from ..errors import IllegalAction
from ..line import Choice, make_choice
from ..resources import KINDS, Resources
from ..rules import RuleSet
from .base import Effect, Realm, Use

# (number written on each pirate or 0, stars from paid benefits)
State = tuple[tuple[int, ...], int]


class Libertalia(Realm):
    key = "libertalia"
    timed_stars = True  # pirates' stars and the full card's bonus, by the # completing them

    def __init__(self, card=None) -> None:
        super().__init__(card)
        self.pirates = self.card["pirates"]
        self.bonus = int(self.card["complete_bonus"])
        self.n = len(self.pirates)

    def number(self, p: int, value: int) -> int:
        pr = self.pirates[p]
        return 10 * pr["printed"] + value if pr["printed_place"] == "tens" else 10 * value + pr["printed"]

    def benefit(self, p: int) -> tuple[Resources, int]:
        b = self.pirates[p]["benefit"]
        return Resources(**{k: v for k, v in b.items() if k in KINDS}), int(b.get("S", 0))

    def cost(self, p: int) -> Resources:
        return Resources(**self.pirates[p].get("cost", {}))

    def initial(self, rules: RuleSet) -> State:
        return ((0,) * self.n, 0)

    def candidates(self, state: State, value: int, rules: RuleSet) -> Iterable[Choice]:
        return [make_choice(pirate=p + 1, benefit=b) for p in range(self.n) for b in (True, False)]

    def fits(self, numbers: tuple[int, ...], p: int, n: int) -> str | None:
        """None when number n may complete pirate p, else the rule it breaks."""
        for q, m in enumerate(numbers):
            if not m or q == p:
                continue
            if q < p and m > n or q > p and m < n:
                return f"pirates must ascend in reading order (pirate {q + 1} shows {m}, pirate {p + 1} would show {n})"
            if abs(q - p) == 1 and m == n:
                return f"neighbouring pirates {min(p, q) + 1} and {max(p, q) + 1} may not show the same value {n}"
        return None

    def apply(self, state: State, use: Use, choice: Choice, rules: RuleSet) -> Effect:
        c = dict(choice)
        if set(c) != {"pirate", "benefit"} or c["pirate"] not in range(1, self.n + 1) or not isinstance(c["benefit"], bool):
            raise IllegalAction(f"libertalia: choose pirate=1..{self.n} and benefit=yes|no")
        p = c["pirate"] - 1
        numbers, stars = state
        if numbers[p]:
            raise IllegalAction(f"libertalia: pirate {p + 1} is already complete")
        n = self.number(p, use.value)
        why = self.fits(numbers, p, n)
        if why:
            raise IllegalAction(f"libertalia: {why}")
        new_numbers = numbers[:p] + (n,) + numbers[p + 1 :]
        if not c["benefit"]:
            return Effect((new_numbers, stars))
        gain, s = self.benefit(p)
        return Effect((new_numbers, stars + s), cost=self.cost(p), gain=gain)

    def stars(self, state: State, rules: RuleSet) -> int:
        numbers, stars = state
        return stars + (self.bonus if all(numbers) else 0)

    def max_gain(self, rules: RuleSet) -> Resources:
        total = Resources()
        for p in range(self.n):
            total = total + self.benefit(p)[0]
        return total

    def sheet_rows(self, state: State) -> list[tuple[str, str]]:
        numbers, stars = state
        cells = []
        for p in range(self.n):
            pr = self.pirates[p]
            shown = str(numbers[p]) if numbers[p] else (f"{pr['printed']}_" if pr["printed_place"] == "tens" else f"_{pr['printed']}")
            cells.append(shown)
        half = (self.n + 1) // 2
        return [("pirates", "  ".join(cells[:half])), ("", "  ".join(cells[half:])), ("stars paid", str(stars))]

    def max_gain_per_activation(self, rules: RuleSet) -> int:
        return max(self.benefit(p)[0].total() for p in range(self.n))

    def max_events(self, turns: int, rules: RuleSet) -> int:
        """Every activation completes a pirate."""
        return self.n

    # ---- CP-SAT ----------------------------------------------------------------------------
    def encode(self, enc) -> None:
        m = enc.model
        P = range(self.n)
        fill: dict[tuple[int, int, int], object] = {}  # (event, pirate, value)
        take: dict[tuple[int, int], object] = {}
        on: dict[tuple[int, int], object] = {}
        for e in enc.events:
            xs = []
            for p in P:
                x = enc.bool("fill", e.tag, f"pirate{p + 1}")
                on[e.i, p] = x
                xs.append(x)
                for v in range(1, 7):
                    fill[e.i, p, v] = enc.bool("digit", e.tag, f"pirate{p + 1}", v)
                m.add(sum(fill[e.i, p, v] for v in range(1, 7)) == x)
                b = enc.bool("benefit", e.tag, f"pirate{p + 1}")
                m.add_implication(b, x)
                take[e.i, p] = b
                gain, stars = self.benefit(p)
                for K in KINDS:
                    if gain.get(K):
                        enc.add_gain(e, K, gain.get(K) * b)
                    if self.cost(p).get(K):
                        enc.add_cost(e, K, self.cost(p).get(K) * b)
                if stars:
                    enc.add_stars(e, stars * b)
            for v in range(1, 7):
                m.add(sum(fill[e.i, p, v] for p in P) == e.val[v])
            m.add(sum(xs) == e.active)
        filled, number = {}, {}
        for p in P:
            filled[p] = enc.bool("complete", f"pirate{p + 1}")
            m.add(sum(on[e.i, p] for e in enc.events) == filled[p])
            number[p] = enc.int(0, 66, "number", f"pirate{p + 1}")
            m.add(number[p] == sum(self.number(p, v) * fill[e.i, p, v] for e in enc.events for v in range(1, 7)))
        for p in P:
            for q in P:
                if q > p:
                    # ascending in reading order; neighbours may not be equal
                    strict = 1 if q == p + 1 else 0
                    m.add(number[p] + strict <= number[q]).only_enforce_if([filled[p], filled[q]])
        all_done = enc.reify([filled[p] for p in P], "all_complete")
        # the bonus is scored by the # completing the last pirate (every activation completes one)
        enc.add_completion_stars(self.bonus, all_done, [e.active for e in enc.events], len(P), "all_complete")

        ok_cache: dict = {}

        def q_ok(q: int, p: int, v: int):
            """pirate q, if complete, allows pirate p to show the number for v"""
            key = (q, p, v)
            if key not in ok_cache:
                n = self.number(p, v)
                z = enc.bool("allows", f"pirate{q + 1}", f"pirate{p + 1}", v)
                strict = 1 if abs(q - p) == 1 else 0
                if q < p:
                    m.add(number[q] <= n - strict).only_enforce_if(z)
                    m.add(number[q] >= n - strict + 1).only_enforce_if(~z)
                else:
                    m.add(number[q] >= n + strict).only_enforce_if(z)
                    m.add(number[q] <= n + strict - 1).only_enforce_if(~z)
                ok_cache[key] = z
            return ok_cache[key]

        fb_cache: dict = {}

        def filled_before(q: int, turn: int):
            key = (q, turn)
            if key not in fb_cache:
                if turn == 0:
                    fb_cache[key] = enc.false
                else:
                    fb_cache[key] = enc.reify_or(
                        [enc.both(on[e.i, q], e.before(turn), "filled_by", e.tag, f"t{turn + 1}", f"pirate{q + 1}") for e in enc.events],
                        "complete_before", f"t{turn + 1}", f"pirate{q + 1}")
            return fb_cache[key]

        def can_take(turn: int, v: int):
            # filling a pirate without its benefit costs nothing
            z = enc.bool("placeable", f"t{turn + 1}", v)
            for p in P:
                parts = [~filled_before(p, turn)]
                for q in P:
                    if q != p:
                        parts.append(enc.reify_or([~filled_before(q, turn), q_ok(q, p, v)], "allows_now", f"t{turn + 1}", q + 1, p + 1, v))
                fits = enc.reify(parts, "fits", f"t{turn + 1}", f"pirate{p + 1}", v)
                m.add_implication(fits, z)
            return z

        def decode(solver, e):
            for p in P:
                if solver.boolean_value(on[e.i, p]):
                    return make_choice(pirate=p + 1, benefit=bool(solver.boolean_value(take[e.i, p])))
            raise AssertionError("libertalia: active event without a pirate")

        def lits(e, choice):
            c = dict(choice)
            p = c["pirate"] - 1
            return [on[e.i, p], take[e.i, p] if c["benefit"] else ~take[e.i, p]]

        enc.can_take = can_take
        enc.decode_choice = decode
        enc.choice_lits = lits


REALM = Libertalia
