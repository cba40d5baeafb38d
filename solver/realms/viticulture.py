"""Viticulture (base game, PNP v10.1): circle grapes, then cross them off to fill wine orders.

PNP: "Either gain a grape (circle it) OR use the sum of 1 rolled die and at least 1 gained grape
(cross it off) to fill a wine order." realms.md: "Grapes 1-6 with resources 1 H, 2 H, 3 C, 4 C,
5 P, 6 P (option `viticulture=og`: 1 C, 2 C, 3 H, 4 H). Wine orders 10, 11, 12, each 2 stars.
Usage: either circle grape # (gain it), or fill an order whose value equals # + the sum of one or
more circled, uncrossed grapes (cross them off). Each order once."

Readings: a grape is circled at most once in a round (a crossed-off grape stays used). The #
that fills an order may be any # (the spec's "#", after pumpkins; a copy or created # too).

Choices: action=grape, or action=order order=10|11|12 grapes=1+3 (the grapes crossed off).
"""
from __future__ import annotations

from itertools import combinations
from typing import Iterable

from ..errors import IllegalAction
from ..line import Choice, make_choice
from ..resources import Resources
from ..rules import RuleSet
from .base import Effect, Realm, Use

# (circled uncrossed grapes, crossed-off grapes, orders filled), each a sorted tuple
State = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def parse_grapes(text: object) -> tuple[int, ...]:
    parts = str(text).split("+")
    if not all(p.isdigit() and 1 <= int(p) <= 6 for p in parts):
        raise IllegalAction(f"viticulture: grapes are numbers 1-6 joined by '+', like 2+5 (got {text!r})")
    out = tuple(sorted(int(p) for p in parts))
    if len(set(out)) != len(out):
        raise IllegalAction(f"viticulture: a grape is named twice ({text!r})")
    return out


class Viticulture(Realm):
    key = "viticulture"

    def __init__(self, card=None) -> None:
        super().__init__(card)
        self.orders = {int(v): int(s) for v, s in self.card["orders"]}

    def grapes(self, rules: RuleSet) -> list[str]:
        return list(self.card["grapes_og" if rules.viticulture == "og" else "grapes_pnp"])

    def initial(self, rules: RuleSet) -> State:
        return ((), (), ())

    def candidates(self, state: State, value: int, rules: RuleSet) -> Iterable[Choice]:
        circled, _, filled = state
        out = [make_choice(action="grape")]
        for order in self.orders:
            if order in filled:
                continue
            for k in range(1, len(circled) + 1):
                for combo in combinations(circled, k):
                    if value + sum(combo) == order:
                        out.append(make_choice(action="order", order=order, grapes="+".join(map(str, combo))))
        return out

    def apply(self, state: State, use: Use, choice: Choice, rules: RuleSet) -> Effect:
        c = dict(choice)
        circled, crossed, filled = state
        if c.get("action") == "grape" and set(c) == {"action"}:
            g = use.value
            if g in circled or g in crossed:
                raise IllegalAction(f"viticulture: grape {g} was already circled this round")
            return Effect((tuple(sorted(circled + (g,))), crossed, filled), gain=Resources.of(self.grapes(rules)[g - 1]))
        if c.get("action") != "order" or set(c) != {"action", "order", "grapes"}:
            raise IllegalAction("viticulture: choose action=grape, or action=order order=10|11|12 grapes=1+3")
        order = c["order"]
        if order not in self.orders:
            raise IllegalAction(f"viticulture: no wine order {order} (orders: {', '.join(map(str, self.orders))})")
        if order in filled:
            raise IllegalAction(f"viticulture: wine order {order} is already filled")
        used = parse_grapes(c["grapes"])
        missing = [g for g in used if g not in circled]
        if missing:
            raise IllegalAction(f"viticulture: grape {missing[0]} is not circled and uncrossed")
        if use.value + sum(used) != order:
            raise IllegalAction(f"viticulture: {use.value} + grapes {'+'.join(map(str, used))} = {use.value + sum(used)}, not {order}")
        rest = tuple(g for g in circled if g not in used)
        return Effect((rest, tuple(sorted(crossed + used)), tuple(sorted(filled + (order,)))))

    def stars(self, state: State, rules: RuleSet) -> int:
        return sum(self.orders[o] for o in state[2])

    def max_gain(self, rules: RuleSet) -> Resources:
        total = Resources()
        for k in self.grapes(rules):
            total = total + Resources.of(k)
        return total

    def sheet_rows(self, state: State) -> list[tuple[str, str]]:
        circled, crossed, filled = state
        cells = []
        for g in range(1, 7):
            cells.append(f"({g})" if g in circled else (f" x{g}" if g in crossed else f" {g} "))
        orders = " ".join(f"[{o}✓]" if o in filled else f"[{o}]" for o in self.orders)
        return [("grapes", " ".join(cells)), ("wine orders", orders)]


REALM = Viticulture
