"""Azul (optional extra realm, OG fan app only, origin unknown): pattern lines feed a small wall.

realms.md: "Pattern lines of 1, 2, 3 slots; 3x3 wall, row 1: P, H, C, row 2: H, [4 printed], P,
row 3: [5 printed], H, [6 printed]. Usage: put the # in a pattern line (a rolled pair gives 2); a
line holds one number; a full line moves one tile of that number to an empty cell of the same wall
row (gain that cell) and is cleared. No number twice in a wall row or column. Scoring: 1 star per
complete wall row and column."

Readings (ours; the OG app draws the printed numbers as fixed dice):
- a printed number is a tile already on the wall: it fills its cell and counts for "no number
  twice" and for complete rows and columns;
- pattern line i feeds wall row i; "a rolled pair" is the turn's roll as rolled (two equal dice),
  whatever the #'s source: every # placed here that turn counts as 2 tiles; tiles beyond the
  line's room are lost (Azul's floor line; no penalty here);
- a # that fills its line must move the tile at once (choice cell=1..3, the wall column); when no
  cell of that row can take the number, the # may not go to that line. A partly filled line
  simply waits.

Choices: line=1..3, plus cell=1..3 when the # fills the line.
"""
from __future__ import annotations

from typing import Iterable

from ..errors import IllegalAction
from ..line import Choice, make_choice
from ..resources import KINDS, Resources
from ..rules import RuleSet
from .base import Effect, Realm, Use

# (per pattern line: (number, tiles) with (0, 0) when empty), wall cells row by row (0 = empty)
State = tuple[tuple[tuple[int, int], ...], tuple[int, ...]]


class Azul(Realm):
    key = "azul"

    def __init__(self, card=None) -> None:
        super().__init__(card)
        self.slots = [int(n) for n in self.card["lines"]]
        self.wall = [list(r) for r in self.card["wall"]]
        self.n = len(self.wall)
        if len(self.slots) != self.n or any(len(r) != self.n for r in self.wall):
            raise ValueError("azul card: one pattern line per wall row, and a square wall")

    def initial(self, rules: RuleSet) -> State:
        cells = tuple(int(x) if x.isdigit() else 0 for row in self.wall for x in row)
        return (tuple((0, 0) for _ in self.slots), cells)

    def candidates(self, state: State, value: int, rules: RuleSet) -> Iterable[Choice]:
        out = []
        for i in range(self.n):
            out.append(make_choice(line=i + 1))
            out += [make_choice(line=i + 1, cell=k + 1) for k in range(self.n)]
        return out

    def apply(self, state: State, use: Use, choice: Choice, rules: RuleSet) -> Effect:
        c = dict(choice)
        if not {"line"} <= set(c) <= {"line", "cell"} or c["line"] not in range(1, self.n + 1):
            raise IllegalAction(f"azul: choose line=1..{self.n} (and cell=1..{self.n} when the line fills)")
        i = c["line"] - 1
        lines, wall = state
        number, tiles = lines[i]
        v = use.value
        if tiles and number != v:
            raise IllegalAction(f"azul: line {i + 1} holds {number}s; a line holds one number")
        count = 2 if use.roll[0] == use.roll[1] else 1
        tiles = min(self.slots[i], tiles + count)
        if tiles < self.slots[i]:
            if "cell" in c:
                raise IllegalAction(f"azul: line {i + 1} is not full yet ({tiles} of {self.slots[i]}): no tile moves, no cell=")
            return Effect((lines[:i] + ((v, tiles),) + lines[i + 1 :], wall))
        if "cell" not in c:
            raise IllegalAction(f"azul: line {i + 1} is full: choose the wall cell=1..{self.n} of row {i + 1} for the {v}")
        k = c["cell"] - 1 if isinstance(c["cell"], int) else -1
        if k not in range(self.n):
            raise IllegalAction(f"azul: cell must be 1..{self.n}")
        if wall[i * self.n + k]:
            raise IllegalAction(f"azul: wall row {i + 1} cell {k + 1} is taken ({wall[i * self.n + k]})")
        if v in wall[i * self.n : (i + 1) * self.n]:
            raise IllegalAction(f"azul: wall row {i + 1} already holds a {v}")
        if v in wall[k :: self.n]:
            raise IllegalAction(f"azul: wall column {k + 1} already holds a {v}")
        benefit = self.wall[i][k]
        gain = Resources.of(benefit) if benefit in KINDS else Resources()
        new_wall = wall[: i * self.n + k] + (v,) + wall[i * self.n + k + 1 :]
        return Effect((lines[:i] + ((0, 0),) + lines[i + 1 :], new_wall), gain=gain)

    def stars(self, state: State, rules: RuleSet) -> int:
        wall = state[1]
        n = self.n
        rows = sum(1 for r in range(n) if all(wall[r * n : (r + 1) * n]))
        cols = sum(1 for k in range(n) if all(wall[k::n]))
        return rows + cols

    def max_gain(self, rules: RuleSet) -> Resources:
        total = Resources()
        for row in self.wall:
            for x in row:
                if x in KINDS:
                    total = total + Resources.of(x)
        return total

    def sheet_rows(self, state: State) -> list[tuple[str, str]]:
        lines, wall = state
        rows = []
        for i in range(self.n):
            number, tiles = lines[i]
            line = " ".join([str(number)] * tiles + ["_"] * (self.slots[i] - tiles))
            cells = " ".join(str(wall[i * self.n + k]) if wall[i * self.n + k] else self.wall[i][k].lower() for k in range(self.n))
            rows.append((f"line {i + 1}", f"{line:>6} > {cells}"))
        return rows


REALM = Azul
