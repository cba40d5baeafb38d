"""Euphoria (base game, PNP v10.1): two areas of 1-6; the area's sum decides the bonus.

PNP: "Either mark 1 # OR (if a pair is rolled) you may mark both #s. Then bonus is based on the sum
of that area." (sums 1-3 coin, 4-10 star, 11+ pumpkin or heart). realms.md: "Two areas, each
holding the numbers 1-6 once. Usage: mark the # in one area (on a rolled pair, default: you may
mark it in both areas). Then by that area's sum of marked numbers gain: 1-3 -> C; 4-10 -> star;
11+ -> P or H (choose). Scoring: star as gained (the condition may keep being met after 6 stars;
nothing more scores)."

Readings: the sum is taken after marking. "On a rolled pair" is a condition on the turn's roll as
rolled (the two dice equal), whatever the #'s source or pumpkin change. Marking in both areas
gains each area's bonus by its own sum. Rule option `euphoria_pair_both` (default on) switches
the pair rule; off: one area only. A number already marked in an area cannot be marked there again.

Choices: area=left|right|both; when an area's sum reaches 11+, name its bonus: left=P|H and/or
right=P|H (required then, refused otherwise).
"""
from __future__ import annotations

from itertools import product
from typing import Iterable

from ..errors import IllegalAction
from ..line import Choice, make_choice
from ..resources import KINDS, Resources
from ..rules import RuleSet
from .base import Effect, Realm, Use

# (numbers marked in each area, sorted), stars gained
State = tuple[tuple[tuple[int, ...], ...], int]


class Euphoria(Realm):
    key = "euphoria"
    timed_stars = True  # a star band is scored by the # that marks its area

    def __init__(self, card=None) -> None:
        super().__init__(card)
        self.areas = list(self.card["areas"])
        self.bands = [(int(lo), int(hi), b) for lo, hi, b in self.card["sum_bonus"]]

    def band(self, total: int) -> str:
        for lo, hi, b in self.bands:
            if lo <= total <= hi:
                return b
        raise ValueError(f"euphoria card: no bonus for sum {total}")

    def initial(self, rules: RuleSet) -> State:
        return (tuple(() for _ in self.areas), 0)

    def targets(self, area: str) -> list[int]:
        return list(range(len(self.areas))) if area == "both" else [self.areas.index(area)]

    def candidates(self, state: State, value: int, rules: RuleSet) -> Iterable[Choice]:
        marked, _ = state
        out = []
        for area in self.areas + (["both"] if rules.euphoria_pair_both else []):
            idx = self.targets(area)
            need = [self.areas[i] for i in idx if "|" in self.band(sum(marked[i]) + value)]
            for picks in product(*[("P", "H")] * len(need)):
                out.append(make_choice(area=area, **dict(zip(need, picks))))
        return out

    def apply(self, state: State, use: Use, choice: Choice, rules: RuleSet) -> Effect:
        c = dict(choice)
        area = c.get("area")
        if area not in self.areas + ["both"] or not set(c) <= {"area", *self.areas}:
            raise IllegalAction(f"euphoria: choose area={'|'.join(self.areas)}|both (and left=P|H / right=P|H at a sum of 11+)")
        if area == "both":
            if not rules.euphoria_pair_both:
                raise IllegalAction("euphoria: a # is marked in one area (rule option euphoria_pair_both is off)")
            if use.roll[0] != use.roll[1]:
                raise IllegalAction(f"euphoria: only on a rolled pair may a # be marked in both areas (rolled {use.roll[0]} {use.roll[1]})")
        marked, stars = state
        gain = Resources()
        new = list(marked)
        idx = self.targets(area)
        for i in idx:
            name = self.areas[i]
            if use.value in marked[i]:
                raise IllegalAction(f"euphoria: {use.value} is already marked in the {name} area")
            new[i] = tuple(sorted(marked[i] + (use.value,)))
            bonus = self.band(sum(new[i]))
            if "|" in bonus:
                pick = c.get(name)
                if pick not in bonus.split("|"):
                    raise IllegalAction(f"euphoria: the {name} area sums to {sum(new[i])}: choose {name}={bonus}")
                gain = gain + Resources.of(pick)
            else:
                if name in c:
                    raise IllegalAction(f"euphoria: the {name} area sums to {sum(new[i])}: its bonus is {bonus.replace('S', 'a star')}, nothing to choose")
                if bonus in KINDS:
                    gain = gain + Resources.of(bonus)
                else:
                    stars += 1
        for name in c:
            if name != "area" and self.areas.index(name) not in idx:
                raise IllegalAction(f"euphoria: {name}= names an area this # is not marked in")
        return Effect((tuple(new), stars), gain=gain)

    def stars(self, state: State, rules: RuleSet) -> int:
        return state[1]

    def max_gain(self, rules: RuleSet) -> Resources:
        # per area at most 6 marks: coins only while the sum is <= 3 (at most 2 marks: 1 then 2),
        # pumpkin/heart only from the 2nd mark on (one mark sums to <= 6): at most 5 per area
        n = len(self.areas)
        return Resources(P=5 * n, H=5 * n, C=2 * n)

    def sheet_rows(self, state: State) -> list[tuple[str, str]]:
        marked, stars = state
        rows = []
        for i, name in enumerate(self.areas):
            cells = " ".join(f"({v})" if v in marked[i] else f" {v} " for v in range(1, 7))
            rows.append((f"{name} area", f"{cells}  sum {sum(marked[i])}"))
        rows.append(("stars gained", str(stars)))
        return rows

    def max_gain_per_activation(self, rules: RuleSet) -> int:
        """A # is marked in one area (both on a rolled pair, if the option is on); each area
        marked gives one bonus of at most one resource."""
        per_area = max(1 if b in KINDS or "|" in b else 0 for _, _, b in self.bands)
        return per_area * (len(self.areas) if rules.euphoria_pair_both else 1)

    def max_events(self, turns: int, rules: RuleSet) -> int:
        """Every activation marks a new number (1-6) in at least one area."""
        return 6 * len(self.areas)

    # ---- CP-SAT ----------------------------------------------------------------------------
    def encode(self, enc) -> None:
        m = enc.model
        A = range(len(self.areas))
        mk: dict[tuple[int, int, int], object] = {}  # (event, area, number)
        inn: dict[tuple[int, int], object] = {}  # (event, area)
        band: dict[tuple[int, int, int], object] = {}  # (event, area, band)
        pick: dict[tuple[int, int, str], object] = {}  # (event, area, P|H)
        total = {a: 0 for a in A}
        for e in enc.events:
            for a, name in enumerate(self.areas):
                x = enc.bool("mark", e.tag, name)
                inn[e.i, a] = x
                for v in range(1, 7):
                    y = enc.bool("number", e.tag, name, v)
                    m.add(y <= e.val[v])
                    mk[e.i, a, v] = y
                m.add(sum(mk[e.i, a, v] for v in range(1, 7)) == x)
            # mark the # in one area; "on a rolled pair" (as rolled) it may be marked in both
            pair = enc.rolls[e.t][0] == enc.rolls[e.t][1]
            if enc.rules.euphoria_pair_both and pair and len(self.areas) > 1:
                both = enc.bool("both", e.tag)
                m.add(both <= e.active)
                m.add(sum(inn[e.i, a] for a in A) == e.active + (len(self.areas) - 1) * both)
            else:
                m.add(sum(inn[e.i, a] for a in A) == e.active)
            # "then bonus is based on the sum of that area" (after marking)
            for a, name in enumerate(self.areas):
                total[a] = total[a] + sum(v * mk[e.i, a, v] for v in range(1, 7))
                bs = []
                for j, (lo, hi, b) in enumerate(self.bands):
                    z = enc.bool("band", e.tag, name, f"{lo}-{hi}")
                    band[e.i, a, j] = z
                    bs.append(z)
                    m.add(total[a] >= lo).only_enforce_if(z)
                    m.add(total[a] <= hi).only_enforce_if(z)
                    if "|" in b:
                        opts = b.split("|")
                        for K in opts:
                            pick[e.i, a, K] = enc.bool("bonus", e.tag, name, K)
                            enc.add_gain(e, K, pick[e.i, a, K])
                        m.add(sum(pick[e.i, a, K] for K in opts) == z)
                    elif b in KINDS:
                        enc.add_gain(e, b, z)
                    else:
                        enc.add_stars(e, z)
                m.add(sum(bs) == inn[e.i, a])
        for a in A:
            for v in range(1, 7):
                m.add(sum(mk[e.i, a, v] for e in enc.events) <= 1)  # each number once per area
        # redundant (LP): each star needs its own area mark
        m.add(enc.stars <= sum(inn[e.i, a] for e in enc.events for a in A))

        def can_take(turn: int, v: int):
            # v is placeable while some area has not marked v
            z = enc.bool("placeable", f"t{turn + 1}", v)
            for a in A:
                m.add(z + sum(mk[e.i, a, v] for e in enc.events if e.t < turn) >= 1)
            return z

        def decode(solver, e):
            marked = [a for a in A if solver.boolean_value(inn[e.i, a])]
            if not marked:
                raise AssertionError("euphoria: active event without an area")
            kw = {"area": "both" if len(marked) > 1 else self.areas[marked[0]]}
            for a in marked:
                for (ei, aa, K), x in pick.items():
                    if ei == e.i and aa == a and solver.boolean_value(x):
                        kw[self.areas[a]] = K
            return make_choice(**kw)

        def lits(e, choice):
            c = dict(choice)
            area = c.get("area")
            if area not in self.areas + ["both"]:
                return [enc.false]
            idx = self.targets(area)
            out = [inn[e.i, a] if a in idx else ~inn[e.i, a] for a in A]
            for name, K in c.items():
                if name == "area":
                    continue
                if name not in self.areas or (e.i, self.areas.index(name), K) not in pick:
                    return [enc.false]
                out.append(pick[e.i, self.areas.index(name), K])
            return out

        enc.can_take = can_take
        enc.decode_choice = decode
        enc.choice_lits = lits


REALM = Euphoria
