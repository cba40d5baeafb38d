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
from ..resources import KINDS, Resources
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
    timed_stars = True  # an order's stars, by the # that fills it
    text_choices = ("grapes",)

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

    def max_gain_per_activation(self, rules: RuleSet) -> int:
        """Circling a grape gains its one printed resource; filling an order gains none."""
        return max(Resources.of(k).total() for k in self.grapes(rules))

    def max_events(self, turns: int, rules: RuleSet) -> int:
        """Every activation circles a grape never circled before (at most 6) or fills an unfilled
        order (at most one per order)."""
        return 6 + len(self.orders)

    # ---- CP-SAT ----------------------------------------------------------------------------
    def encode(self, enc) -> None:
        m = enc.model
        grapes = self.grapes(enc.rules)
        G = range(1, 7)
        O = list(self.orders)
        circle: dict[tuple[int, int], object] = {}  # (event, grape)
        cross: dict[tuple[int, int], object] = {}  # (event, grape)
        fill: dict[tuple[int, int], object] = {}  # (event, order)
        for e in enc.events:
            for g in G:
                circle[e.i, g] = x = enc.bool("circle", e.tag, f"grape{g}")
                m.add_implication(x, e.val[g])  # circle grape # (the # names the grape)
                for K in KINDS:
                    if Resources.of(grapes[g - 1]).get(K):
                        enc.add_gain(e, K, Resources.of(grapes[g - 1]).get(K) * x)
            for o in O:
                fill[e.i, o] = enc.bool("fill", e.tag, f"order{o}")
            filling = enc.bool("fills_an_order", e.tag)
            m.add(filling == sum(fill[e.i, o] for o in O))
            for g in G:
                cross[e.i, g] = y = enc.bool("cross", e.tag, f"grape{g}")
                m.add_implication(y, filling)  # grapes are crossed off only to fill an order
            # either circle a grape or fill an order
            m.add(sum(circle[e.i, g] for g in G) + filling == e.active)
            # the order's value = # + the crossed grapes (at least one grape)
            m.add(
                sum(v * e.val[v] for v in range(1, 7)) + sum(g * cross[e.i, g] for g in G) == sum(o * fill[e.i, o] for o in O)
            ).only_enforce_if(filling)
            m.add(sum(cross[e.i, g] for g in G) >= filling)
            # redundant (the LP): the same sum without the enforcement literal -- with no order
            # there are no crosses and the # is 0..6
            lhs = sum(v * e.val[v] for v in range(1, 7)) + sum(g * cross[e.i, g] for g in G)
            m.add(lhs >= sum(o * fill[e.i, o] for o in O))
            m.add(lhs <= sum(o * fill[e.i, o] for o in O) + 6 * (1 - filling))
        # a grape is circled at most once in the round; it is crossed off only when circled
        # earlier and not yet crossed (crosses so far <= circles before)
        for g in G:
            m.add(sum(circle[e.i, g] for e in enc.events) <= 1)
            for n, e in enumerate(enc.events):
                m.add(sum(cross[f.i, g] for f in enc.events[: n + 1]) <= sum(circle[f.i, g] for f in enc.events[:n]))
        # each order once
        for o in O:
            m.add(sum(fill[e.i, o] for e in enc.events) <= 1)
        for e in enc.events:  # an order's stars are scored by the # that fills it
            enc.add_stars(e, sum(self.orders[o] * fill[e.i, o] for o in O))
        # redundant, for the LP: the grapes crossed for an order sum to at least order - 6 and at
        # most order - 1; every crossed grape was circled
        crossed_sum = sum(g * cross[e.i, g] for e in enc.events for g in G)
        filled = {o: sum(fill[e.i, o] for e in enc.events) for o in O}
        m.add(crossed_sum >= sum((o - 6) * filled[o] for o in O))
        m.add(crossed_sum <= sum((o - 1) * filled[o] for o in O))
        m.add(sum(filled.values()) <= sum(cross[e.i, g] for e in enc.events for g in G))
        m.add(sum(cross[e.i, g] for e in enc.events for g in G) <= sum(circle[e.i, g] for e in enc.events for g in G))

        cache: dict = {}

        def circled_before(turn: int, g: int):
            key = ("circled", turn, g)
            if key not in cache:
                z = enc.bool("circled", f"t{turn + 1}", f"grape{g}")
                m.add(z == sum(circle[e.i, g] for e in enc.events if e.t < turn))
                cache[key] = z
            return cache[key]

        def uncrossed(turn: int, g: int):
            """grape g is circled and not crossed off at the start of the turn"""
            key = ("uncrossed", turn, g)
            if key not in cache:
                z = enc.bool("circled_uncrossed", f"t{turn + 1}", f"grape{g}")
                m.add(z == sum(circle[e.i, g] - cross[e.i, g] for e in enc.events if e.t < turn))
                cache[key] = z
            return cache[key]

        def open_order(turn: int, o: int):
            key = ("open", turn, o)
            if key not in cache:
                z = enc.bool("order_open", f"t{turn + 1}", f"order{o}")
                m.add(z + sum(fill[e.i, o] for e in enc.events if e.t < turn) == 1)
                cache[key] = z
            return cache[key]

        def can_take(turn: int, v: int):
            # both actions cost nothing: circling grape v if it was never circled, or filling an
            # open order o with v + some circled uncrossed grapes summing to o - v
            z = enc.bool("placeable", f"t{turn + 1}", v)
            m.add_bool_or([z, circled_before(turn, v)])
            for o in O:
                for k in range(1, 7):
                    for combo in combinations(G, k):
                        if v + sum(combo) != o:
                            continue
                        fits = enc.reify(
                            [open_order(turn, o)] + [uncrossed(turn, g) for g in combo],
                            "order_fits", f"t{turn + 1}", v, f"order{o}", "+".join(map(str, combo)))
                        m.add_implication(fits, z)
            return z

        def decode(solver, e):
            for g in G:
                if solver.boolean_value(circle[e.i, g]):
                    return make_choice(action="grape")
            for o in O:
                if solver.boolean_value(fill[e.i, o]):
                    used = [g for g in G if solver.boolean_value(cross[e.i, g])]
                    return make_choice(action="order", order=o, grapes="+".join(map(str, used)))
            raise AssertionError("viticulture: active event without an action")

        def lits(e, choice):
            c = dict(choice)
            if c.get("action") == "grape":
                return [sum(circle[e.i, g] for g in G)]
            if c.get("action") == "order" and c.get("order") in self.orders:
                try:
                    used = parse_grapes(c.get("grapes"))
                except IllegalAction:
                    return [enc.false]
                return [fill[e.i, c["order"]]] + [cross[e.i, g] if g in used else ~cross[e.i, g] for g in G]
            return [enc.false]

        enc.can_take = can_take
        enc.decode_choice = decode
        enc.choice_lits = lits


REALM = Viticulture
