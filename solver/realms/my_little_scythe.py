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


REALM = MyLittleScythe
