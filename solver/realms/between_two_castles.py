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

REALM = BetweenTwoCastles
