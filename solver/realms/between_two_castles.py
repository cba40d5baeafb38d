"""Between Two Castles (base game, PNP v10.1): towers filled bottom-up with falling numbers.

PNP: "Fill squares from the bottom up; #s on top must be lower than those below. When you
complete a column, gain a bonus. Score 1 star per completed row (each castle has 3 rows)."
realms.md: "Towers fill bottom-up; each # must be lower than the # directly below (a cell above a
door accepts any #). Left castle: L1 (B) bonus P, L2 (door, M, T) bonus 2P, L3 (B, M) bonus 2H.
Right castle (default PNP): R1 (B, M, T) bonus C+H, R2 (door, M, T) bonus 2C (option
`castles=og`: door under R1 instead of R2). Scoring: 1 star per completed row (bottom, middle,
top) in each castle (6)." Precise reading: "strictly lower than the # directly below; the first
cell above a door takes any #; a tower's bonus is gained the moment it is complete."

Readings: a door is not a square (it is never filled and does not count for rows); a castle's
row is complete when every square of that row in that castle is filled.

Choice: tower=L1|L2|L3|R1|R2 (the # goes in that tower's lowest empty square).
"""
from __future__ import annotations

from typing import Iterable

from ..errors import IllegalAction
from ..line import Choice, make_choice
from ..resources import Resources
from ..rules import RuleSet
from .base import Effect, Realm, Use

# per tower: the #s written, bottom-up
State = tuple[tuple[int, ...], ...]


class BetweenTwoCastles(Realm):
    key = "between-two-castles"
    timed_stars = True  # a row's star, by the # filling its last square

    def __init__(self, card=None) -> None:
        super().__init__(card)
        self.names = [t["name"] for t in self.card["towers"]]

    def towers(self, rules: RuleSet) -> list[dict]:
        out = [dict(t) for t in self.card["towers"]]
        if rules.castles == "og":
            for t in out:
                t.update(self.card["og"].get(t["name"], {}))
        return out

    def initial(self, rules: RuleSet) -> State:
        return tuple(() for _ in self.names)

    def candidates(self, state: State, value: int, rules: RuleSet) -> Iterable[Choice]:
        return [make_choice(tower=n) for n in self.names]

    def apply(self, state: State, use: Use, choice: Choice, rules: RuleSet) -> Effect:
        c = dict(choice)
        if set(c) != {"tower"} or c["tower"] not in self.names:
            raise IllegalAction(f"between-two-castles: choose tower={'|'.join(self.names)}")
        i = self.names.index(c["tower"])
        tower = self.towers(rules)[i]
        written = state[i]
        if len(written) >= len(tower["rows"]):
            raise IllegalAction(f"between-two-castles: tower {c['tower']} is complete")
        if written and use.value >= written[-1]:
            raise IllegalAction(
                f"between-two-castles: a # must be lower than the # directly below ({use.value} on {written[-1]} in tower {c['tower']})"
            )
        new = written + (use.value,)
        gain = Resources()
        if len(new) == len(tower["rows"]):
            for k in tower["bonus"]:
                gain = gain + Resources.of(k)
        return Effect(state[:i] + (new,) + state[i + 1 :], gain=gain)

    def stars(self, state: State, rules: RuleSet) -> int:
        towers = self.towers(rules)
        total = 0
        for castle in dict.fromkeys(t["castle"] for t in towers):
            for row in ("B", "M", "T"):
                squares = [(i, t["rows"].index(row)) for i, t in enumerate(towers) if t["castle"] == castle and row in t["rows"]]
                if squares and all(len(state[i]) > h for i, h in squares):
                    total += 1
        return total

    def max_gain(self, rules: RuleSet) -> Resources:
        total = Resources()
        for t in self.card["towers"]:
            for k in t["bonus"]:
                total = total + Resources.of(k)
        return total

    def sheet_rows(self, state: State) -> list[tuple[str, str]]:
        # the door's place depends on rule option castles, which the sheet does not carry
        rows = []
        for t, written in zip(self.card["towers"], state):
            shown = " ".join(str(v) for v in written) or "-"
            rows.append((f"tower {t['name']} ({t['castle']}, bonus {'+'.join(t['bonus'])})", f"bottom-up: {shown}"))
        return rows

    def max_gain_per_activation(self, rules: RuleSet) -> int:
        """A # fills one square of one tower: it completes at most that tower (one bonus)."""
        return max(len(t["bonus"]) for t in self.towers(rules))

    def max_events(self, turns: int, rules: RuleSet) -> int:
        """Every activation fills an empty square: at most one per square."""
        return sum(len(t["rows"]) for t in self.towers(rules))

    # ---- CP-SAT ----------------------------------------------------------------------------
    def encode(self, enc) -> None:
        m = enc.model
        towers = self.towers(enc.rules)
        # squares as (tower, height); height 0 is the tower's bottom square (above ground/door)
        SQ = [(i, h) for i, t in enumerate(towers) for h in range(len(t["rows"]))]
        put: dict[tuple[int, int, int, int], object] = {}  # (event, tower, height, value)
        on: dict[tuple[int, int, int], object] = {}  # (event, tower, height)
        pick: dict[tuple[int, int], object] = {}  # (event, tower)
        for e in enc.events:
            for i, t in enumerate(towers):
                pick[e.i, i] = enc.bool("tower", e.tag, self.names[i])
            for i, h in SQ:
                x = enc.bool("square", e.tag, self.names[i], h + 1)
                on[e.i, i, h] = x
                for v in range(1, 7):
                    put[e.i, i, h, v] = enc.bool("write", e.tag, self.names[i], h + 1, v)
                m.add(sum(put[e.i, i, h, v] for v in range(1, 7)) == x)
            for i, t in enumerate(towers):
                m.add(sum(on[e.i, i, h] for h in range(len(t["rows"]))) == pick[e.i, i])
            for v in range(1, 7):
                m.add(sum(put[e.i, i, h, v] for i, h in SQ) == e.val[v])
            m.add(sum(pick[e.i, i] for i in range(len(towers))) == e.active)
        filled, number = {}, {}
        for i, h in SQ:
            filled[i, h] = enc.bool("filled", self.names[i], h + 1)
            m.add(sum(on[e.i, i, h] for e in enc.events) == filled[i, h])
            number[i, h] = enc.int(0, 6, "number", self.names[i], h + 1)
            m.add(number[i, h] == sum(v * put[e.i, i, h, v] for e in enc.events for v in range(1, 7)))
        # "fill squares from the bottom up": a square only after the one under it (earlier event)
        below = {(i, h): 0 for i, h in SQ}
        for e in enc.events:
            for i, h in SQ:
                if h:
                    m.add(on[e.i, i, h] <= below[i, h - 1])
            for i, h in SQ:
                below[i, h] = below[i, h] + on[e.i, i, h]
        for i, h in SQ:
            if h:
                # "#s on top must be lower than those below" (strictly; nothing under the bottom
                # square, so it takes any #, also above a door)
                m.add(number[i, h] + 1 <= number[i, h - 1]).only_enforce_if(filled[i, h])
                m.add(filled[i, h] <= filled[i, h - 1])
                # redundant (LP): a square above v holds less than v
                for v in range(1, 7):
                    m.add(sum(put[e.i, i, h - 1, v] for e in enc.events) + sum(put[e.i, i, h, w] for e in enc.events for w in range(v, 7)) <= 1)
        # "when you complete a tower, gain a bonus": the event filling its top square
        for e in enc.events:
            for i, t in enumerate(towers):
                top = on[e.i, i, len(t["rows"]) - 1]
                for K in ("P", "H", "C"):
                    n = t["bonus"].count(K)
                    if n:
                        enc.add_gain(e, K, n * top)
        # "1 star per completed row (each castle has 3 rows)"
        for castle in dict.fromkeys(t["castle"] for t in towers):
            for row in ("B", "M", "T"):
                squares = [(i, t["rows"].index(row)) for i, t in enumerate(towers) if t["castle"] == castle and row in t["rows"]]
                if squares:
                    # scored by the # filling the row's last square
                    z = enc.reify([filled[s] for s in squares], "row_complete", castle, row)
                    added = [sum(on[e.i, i, h] for i, h in squares) for e in enc.events]
                    enc.add_completion_stars(1, z, added, len(squares), "row_complete", castle, row)

        fb_cache: dict = {}

        def filled_before(i: int, h: int, turn: int):
            key = (i, h, turn)
            if key not in fb_cache:
                z = enc.bool("filled_before", f"t{turn + 1}", self.names[i], h + 1)
                m.add(z == sum(on[e.i, i, h] for e in enc.events if e.t < turn))
                fb_cache[key] = z
            return fb_cache[key]

        gt_cache: dict = {}

        def greater(i: int, h: int, v: int):
            """literal <=> the number in square (i, h) is > v"""
            key = (i, h, v)
            if key not in gt_cache:
                z = enc.bool("greater", self.names[i], h + 1, v)
                m.add(number[i, h] >= v + 1).only_enforce_if(z)
                m.add(number[i, h] <= v).only_enforce_if(~z)
                gt_cache[key] = z
            return gt_cache[key]

        def can_take(turn: int, v: int):
            z = enc.bool("placeable", f"t{turn + 1}", v)
            if turn == 0:
                m.add(z == 1)  # every tower is empty: any # fits
                return z
            for i, h in SQ:
                # square (i, h) is the lowest empty one and the # under it (if any) is higher
                conds = [~filled_before(i, h, turn)]
                if h:
                    conds += [filled_before(i, h - 1, turn), greater(i, h - 1, v)]
                m.add_bool_or([~c for c in conds] + [z])
            return z

        def decode(solver, e):
            for i in range(len(towers)):
                if solver.boolean_value(pick[e.i, i]):
                    return make_choice(tower=self.names[i])
            raise AssertionError("between-two-castles: active event without a tower")

        def lits(e, choice):
            name = dict(choice).get("tower")
            return [pick[e.i, self.names.index(name)]] if name in self.names else [enc.false]

        enc.can_take = can_take
        enc.decode_choice = decode
        enc.choice_lits = lits


REALM = BetweenTwoCastles
