"""My Little Scythe (base game, PNP v10.1 revision r4): two flowers; stars for the 6th resource.

realms.md: "Two hex flowers: centre P (left) and H (right); ring numbers 1-6 once each. Usage:
mark the # in either flower, gain its centre resource; marking the same number in both flowers
(a matching pair) also gains a C. Scoring: 2 stars on earning the 6th P, the 6th H and the 6th C
of the round (default: earned anywhere, as the campaign counts it among realms that score without
activation)."

Cross-realm scoring: with rule option `my_little_scythe_counting=anywhere` (default) the engine
tells this realm about every resource the player earns in the round (`observe_gain`: gains in any
realm, this one included, and compensation); spending never lowers the count. With `here`, only
the resources gained by marking these flowers count (apply counts them; observe_gain ignores the
rest). The count per kind is kept up to the threshold (6): more earns nothing.
The CP-SAT face (`encode`) ties the earned counts to the round's gains (`RoundModel.gains`: every
realm's gains and the compensations) in the cross-realm hook (docs/realms/my-little-scythe.md).

Choice: flower=left|right.
"""
from __future__ import annotations

from typing import Iterable

from ..errors import IllegalAction
from ..line import Choice, make_choice
from ..resources import KINDS, Resources
from ..rules import RuleSet
from .base import Effect, Realm, Use

# (numbers marked per flower, sorted), earned (P, H, C) this round, each counted up to the threshold
State = tuple[tuple[tuple[int, ...], ...], tuple[int, int, int]]


class MyLittleScythe(Realm):
    key = "my-little-scythe"

    def __init__(self, card=None) -> None:
        super().__init__(card)
        self.names = [f["name"] for f in self.card["flowers"]]
        self.centre = [f["centre"] for f in self.card["flowers"]]
        self.pair = self.card["pair_bonus"]
        self.threshold = int(self.card["threshold"])
        self.per = int(self.card["stars_per_threshold"])

    def initial(self, rules: RuleSet) -> State:
        return (tuple(() for _ in self.names), (0, 0, 0))

    def candidates(self, state: State, value: int, rules: RuleSet) -> Iterable[Choice]:
        return [make_choice(flower=n) for n in self.names]

    def count(self, earned: tuple[int, int, int], gain: Resources) -> tuple[int, int, int]:
        return tuple(min(self.threshold, e + gain.get(k)) for e, k in zip(earned, KINDS))  # type: ignore[return-value]

    def apply(self, state: State, use: Use, choice: Choice, rules: RuleSet) -> Effect:
        c = dict(choice)
        if set(c) != {"flower"} or c["flower"] not in self.names:
            raise IllegalAction(f"my-little-scythe: choose flower={'|'.join(self.names)}")
        f = self.names.index(c["flower"])
        marked, earned = state
        if use.value in marked[f]:
            raise IllegalAction(f"my-little-scythe: {use.value} is already marked in the {self.names[f]} flower")
        new = marked[:f] + (tuple(sorted(marked[f] + (use.value,))),) + marked[f + 1 :]
        gain = Resources.of(self.centre[f])
        if all(use.value in m for m in new):
            gain = gain + Resources.of(self.pair)
        if rules.my_little_scythe_counting == "here":
            earned = self.count(earned, gain)
        return Effect((new, earned), gain=gain)

    def observe_gain(self, state: State, gain: Resources, rules: RuleSet) -> State:
        if rules.my_little_scythe_counting != "anywhere":
            return state
        marked, earned = state
        return (marked, self.count(earned, gain))

    def stars(self, state: State, rules: RuleSet) -> int:
        return self.per * sum(1 for e in state[1] if e >= self.threshold)

    def max_gain(self, rules: RuleSet) -> Resources:
        total = Resources()
        for k in self.centre:
            total = total + Resources.of(k, 6)
        return total + Resources.of(self.pair, 6)

    def sheet_rows(self, state: State) -> list[tuple[str, str]]:
        marked, earned = state
        rows = []
        for f, name in enumerate(self.names):
            cells = " ".join(f"({v})" if v in marked[f] else f" {v} " for v in range(1, 7))
            rows.append((f"{name} flower ({self.centre[f]})", cells))
        rows.append(("earned this round", "  ".join(f"{k} {e}/{self.threshold}" for k, e in zip(KINDS, earned))))
        return rows

    def max_gain_per_activation(self, rules: RuleSet) -> int:
        """One # marks one flower: its centre resource, and a C when it completes a pair."""
        return max(Resources.of(k).total() for k in self.centre) + Resources.of(self.pair).total()

    def max_events(self, turns: int, rules: RuleSet) -> int:
        """Every activation marks a number not yet marked in its flower: at most 6 per flower."""
        return 6 * len(self.names)

    # ---- CP-SAT ----------------------------------------------------------------------------
    def encode(self, enc) -> None:
        m = enc.model
        F = range(len(self.names))
        V = range(1, 7)
        mark: dict[tuple[int, int, int], object] = {}  # (event, flower, value)
        marked_before: dict[tuple[int, int], object] = {(f, v): 0 for f in F for v in V}
        pair: dict[tuple[int, int, int], object] = {}  # (event, flower, value): completes a pair
        for e in enc.events:
            for f in F:
                for v in V:
                    mark[e.i, f, v] = enc.bool("mark", e.tag, self.names[f], v)
            for v in V:
                m.add(sum(mark[e.i, f, v] for f in F) == e.val[v])
            for f in F:
                # "mark the # in either flower, gain its centre resource"
                centre = Resources.of(self.centre[f])
                for K in KINDS:
                    if centre.get(K):
                        enc.add_gain(e, K, centre.get(K) * sum(mark[e.i, f, v] for v in V))
            # "marking the same number in both flowers also gains a C": the later of the two marks
            pairs = []
            for f in F:
                for v in V:
                    other = sum(marked_before[g, v] for g in F if g != f)
                    z = enc.bool("pair", e.tag, self.names[f], v)
                    pair[e.i, f, v] = z
                    m.add(z <= mark[e.i, f, v])
                    m.add(z <= other)
                    m.add(z >= mark[e.i, f, v] + other - 1)
                    pairs.append(z)
            bonus = Resources.of(self.pair)
            for K in KINDS:
                if bonus.get(K):
                    enc.add_gain(e, K, bonus.get(K) * sum(pairs))
            for f in F:
                for v in V:
                    marked_before[f, v] = marked_before[f, v] + mark[e.i, f, v]
        # each number once per flower
        for f in F:
            for v in V:
                m.add(marked_before[f, v] <= 1)
        # redundant (LP): a number makes one pair, and only when it is marked in both flowers
        for v in V:
            pair_v = sum(x for (_, _, vv), x in pair.items() if vv == v)
            m.add(pair_v <= 1)
            for f in F:
                m.add(pair_v <= marked_before[f, v])
        # stars: `per` for each kind earned `threshold` times this round (exact both ways); the
        # earned counts are tied to the round's gains in the cross-realm hook
        earned = {K: enc.int(0, 10_000, "earned", K) for K in KINDS}
        reached = {}
        for K in KINDS:
            reached[K] = enc.bool("reached", K)
            m.add(earned[K] >= self.threshold).only_enforce_if(reached[K])
            m.add(earned[K] <= self.threshold - 1).only_enforce_if(~reached[K])
        enc.stars = self.per * sum(reached.values())

        def cross_realm() -> None:
            for K in KINDS:
                if enc.rules.my_little_scythe_counting == "anywhere":
                    # every resource earned in the round: any realm (this one too) and compensation
                    m.add(earned[K] == sum(enc.rm.gains(t, K) for t in range(enc.turns)))
                else:  # "here": only what marking these flowers gained
                    m.add(earned[K] == sum(enc.gain.get(e.i, {}).get(K, 0) for e in enc.events))

        enc.cross_realm = cross_realm

        def can_take(turn: int, v: int):
            # marking costs nothing: v fits while some flower has not marked it at the turn's start
            z = enc.bool("placeable", f"t{turn + 1}", v)
            for f in F:
                m.add(z + sum(mark[e.i, f, v] for e in enc.events if e.t < turn) >= 1)
            return z

        def decode(solver, e):
            for (ei, f, _), x in mark.items():
                if ei == e.i and solver.boolean_value(x):
                    return make_choice(flower=self.names[f])
            raise AssertionError("my-little-scythe: active event without a mark")

        def lits(e, choice):
            name = dict(choice).get("flower")
            if name not in self.names:
                return [enc.false]
            return [sum(mark[e.i, self.names.index(name), v] for v in V)]

        enc.can_take = can_take
        enc.decode_choice = decode
        enc.choice_lits = lits


REALM = MyLittleScythe
