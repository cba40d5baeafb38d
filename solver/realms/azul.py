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

    @property
    def timed_stars(self) -> bool:  # type: ignore[override]
        """Every star is scored by the # placing a line's last tile, unless a wall row or column is
        printed in full (a star from the start)."""
        empty = self.empty_cells()
        return all(any(r == a for r, _ in empty) and any(k == a for _, k in empty) for a in range(self.n))

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

    # ---- model face --------------------------------------------------------------------
    def empty_cells(self) -> list[tuple[int, int]]:
        """Wall cells (row, column), 0-based, with no number printed: the cells a tile can fill."""
        return [(i, k) for i in range(self.n) for k in range(self.n) if not self.wall[i][k].isdigit()]

    def printed(self, i: int, k: int) -> int:
        x = self.wall[i][k]
        return int(x) if x.isdigit() else 0

    def tile_values(self, i: int, k: int) -> list[int]:
        """Numbers a tile in empty cell (i, k) may carry: none printed in its row or column."""
        fixed = {self.printed(i, x) for x in range(self.n)} | {self.printed(x, k) for x in range(self.n)}
        return [v for v in range(1, 7) if v not in fixed]

    def star_curve(self) -> list[int]:
        """curve[F] = most complete rows + columns with F empty cells filled (values ignored)."""
        cells = self.empty_cells()
        n = self.n
        best = [0] * (len(cells) + 1)
        for mask in range(1 << len(cells)):
            full = {cells[b] for b in range(len(cells)) if mask >> b & 1}
            done = lambda i, k: (i, k) in full or bool(self.printed(i, k))  # noqa: E731
            stars = sum(all(done(i, k) for k in range(n)) for i in range(n))
            stars += sum(all(done(i, k) for i in range(n)) for k in range(n))
            f = len(full)
            best[f] = max(best[f], stars)
        return best

    def max_gain_per_activation(self, rules: RuleSet) -> int:
        """An activation moves at most one tile, to one cell: that cell's benefit."""
        return max(Resources.of(x).total() if x in KINDS else 0 for row in self.wall for x in row)

    def max_events(self, turns: int, rules: RuleSet) -> int:
        """Each activation adds >= 1 tile to line i, which holds fewer than its slots between two
        moves, and each move fills an empty cell of row i: line i takes at most
        slots_i - 1 activations before each move and after the last one, so
        empty_i * slots_i + slots_i - 1 in all."""
        cells = self.empty_cells()
        return sum(sum(1 for r, _ in cells if r == i) * s + s - 1 for i, s in enumerate(self.slots))

    def encode(self, enc) -> None:
        m = enc.model
        n = self.n
        L = range(n)
        V = range(1, 7)
        cells = self.empty_cells()
        values = {c: self.tile_values(*c) for c in cells}
        # a line's state: 0 = empty, (j, v) = j tiles of number v (0 < j < slots: a full line moves
        # its tile and is cleared at once)
        states = {i: [0] + [(j, v) for j in range(1, self.slots[i]) for v in V] for i in L}

        def label(st) -> str:
            return "empty" if st == 0 else f"{st[0]}x{st[1]}"

        cur = {i: {st: (enc.true if st == 0 else enc.false) for st in states[i]} for i in L}
        before_turn: dict[int, dict] = {}
        line: dict[tuple[int, int], object] = {}  # (event, line)
        cell: dict[tuple[int, int, int], object] = {}  # (event, row, column)
        tile: dict[tuple[int, int, int, int], object] = {}  # (event, row, column, number)
        for t in range(enc.turns):
            before_turn[t] = {i: dict(cur[i]) for i in L}
            roll = enc.rolls[t]
            # "a rolled pair gives 2": the turn's roll as rolled, whatever the #'s source
            count = 2 if roll[0] == roll[1] else 1
            for e in enc.turn_events(t):
                puts_of_value: dict[int, list] = {v: [] for v in V}
                for i in L:
                    s = self.slots[i]
                    ln = enc.bool("line", e.tag, f"line{i + 1}")
                    line[e.i, i] = ln
                    into: dict = {st: [] for st in states[i]}  # puts arriving in each state
                    out: dict = {st: [] for st in states[i]}  # puts leaving each state
                    fills: dict[int, list] = {v: [] for v in V}
                    for st in states[i]:
                        j, vs = (0, list(V)) if st == 0 else (st[0], [st[1]])
                        for v in vs:
                            # "a line holds one number": a # joins an empty line or its own number
                            x = enc.bool("put", e.tag, f"line{i + 1}", f"on {label(st)}", v)
                            out[st].append(x)
                            puts_of_value[v].append(x)
                            if j + count >= s:
                                fills[v].append(x)  # the line is full (a pair's overflow is lost)
                                into[0].append(x)  # ... and cleared
                            else:
                                into[(j + count, v)].append(x)
                        m.add(sum(out[st]) <= cur[i][st])
                    m.add(sum(x for xs in out.values() for x in xs) == ln)
                    # "a full line moves one tile of that number to an empty cell of the same
                    # wall row": the # that fills line i picks a cell of row i for its number
                    row_cells = [k for (r, k) in cells if r == i]
                    for k in row_cells:
                        cell[e.i, i, k] = enc.bool("cell", e.tag, f"line{i + 1}", f"cell{k + 1}")
                        for v in values[i, k]:
                            tile[e.i, i, k, v] = enc.bool("tile", e.tag, f"row{i + 1}", f"cell{k + 1}", v)
                        m.add(sum(tile[e.i, i, k, v] for v in values[i, k]) == cell[e.i, i, k])
                        benefit = self.wall[i][k]
                        if benefit in KINDS:
                            for K in KINDS:
                                if Resources.of(benefit).get(K):
                                    enc.add_gain(e, K, Resources.of(benefit).get(K) * cell[e.i, i, k])
                    for v in V:
                        m.add(sum(tile[e.i, i, k, v] for k in row_cells if (e.i, i, k, v) in tile) == sum(fills[v]))
                    # the line's state after this event
                    if len(states[i]) > 1:
                        nxt = {}
                        for st in states[i]:
                            y = enc.bool("holds", f"after {e.tag}", f"line{i + 1}", label(st))
                            m.add(y == cur[i][st] - sum(out[st]) + sum(into[st]))
                            nxt[st] = y
                        cur[i] = nxt
                for v in V:
                    m.add(sum(puts_of_value[v]) == e.val[v])
                m.add(sum(line[e.i, i] for i in L) == e.active)
        # the wall: "no number twice in a wall row or column" -- a tile is checked against every
        # earlier one; tiles never leave, so this is: the final wall has no repeat (printed
        # numbers are left out of each cell's tile values). Each empty cell takes one tile.
        filled = {}
        for i, k in cells:
            filled[i, k] = enc.bool("filled", f"row{i + 1}", f"cell{k + 1}")
            m.add(filled[i, k] == sum(cell[e.i, i, k] for e in enc.events))
        for v in V:
            for a in L:
                m.add(sum(x for (_, i, _, w), x in tile.items() if i == a and w == v) <= 1)
                m.add(sum(x for (_, _, k, w), x in tile.items() if k == a and w == v) <= 1)
        # "1 star per complete wall row and column" (printed cells count as filled), each scored
        # by the # placing the line's last tile
        for a in L:
            for what, group in (("row_complete", [(a, k) for k in L if (a, k) in filled]),
                                ("column_complete", [(i, a) for i in L if (i, a) in filled])):
                name = f"row{a + 1}" if what == "row_complete" else f"column{a + 1}"
                z = enc.reify([filled[x] for x in group], what, name)
                if group:
                    added = [sum(cell[e.i, i, k] for i, k in group if (e.i, i, k) in cell) for e in enc.events]
                    enc.add_completion_stars(1, z, added, len(group), what, name)
                else:  # all printed: complete from the start, scored by no # (not timed)
                    enc.stars = enc.stars + z
        # redundant (LP): a move of line i needs slots_i tiles put there since the last move (a #
        # gives at most min(2 on a pair, slots_i) that count)
        for i in L:
            given = []
            for e in enc.events:
                pair = enc.rolls[e.t][0] == enc.rolls[e.t][1]
                given.append(min(2 if pair else 1, self.slots[i]) * line[e.i, i])
            moves = sum(x for (_, r, _), x in cell.items() if r == i)
            m.add(sum(given) >= self.slots[i] * moves)
        # redundant (LP): stars <= the most that F filled cells can complete (upper concave hull)
        enc.stars_within_count_bound(self.star_curve(), count=sum(filled.values()))

        turn_of = {e.i: e.t for e in enc.events}
        moved_cache: dict[int, tuple[dict, dict, dict]] = {}

        def moved_before(turn: int) -> tuple[dict, dict, dict]:
            """Tiles moved before turn t, counted per cell, per (row, number), per (column,
            number): each count is 0 or 1 (a cell takes one tile, no number twice)."""
            if turn not in moved_cache:
                per_cell: dict = {}
                per_row: dict = {}
                per_col: dict = {}
                for (ei, i, k, v), x in tile.items():
                    if turn_of[ei] < turn:
                        per_cell.setdefault((i, k), []).append(x)
                        per_row.setdefault((i, v), []).append(x)
                        per_col.setdefault((k, v), []).append(x)
                moved_cache[turn] = tuple({key: sum(xs) for key, xs in d.items()} for d in (per_cell, per_row, per_col))
            return moved_cache[turn]

        def can_take(turn: int, v: int):
            # at the start of turn t an unchanged v goes to line i when the line is empty or holds
            # v and either stays short of full, or fills and some cell of row i is empty with no
            # v in its row or column yet
            z = enc.bool("placeable", f"t{turn + 1}", v)
            roll = enc.rolls[turn]
            count = 2 if roll[0] == roll[1] else 1
            for i in L:
                for st, lit in before_turn[turn][i].items():
                    if st != 0 and st[1] != v:
                        continue
                    j = 0 if st == 0 else st[0]
                    if j + count < self.slots[i]:
                        m.add_implication(lit, z)
                        continue
                    per_cell, per_row, per_col = moved_before(turn)
                    for r, k in cells:
                        if r != i or v not in values[i, k]:
                            continue
                        taken = per_cell.get((i, k), 0)
                        m.add(z >= lit - taken - per_row.get((i, v), 0) - per_col.get((k, v), 0))
            return z

        def decode(solver, e):
            for i in L:
                if solver.boolean_value(line[e.i, i]):
                    for k in L:
                        if (e.i, i, k) in cell and solver.boolean_value(cell[e.i, i, k]):
                            return make_choice(line=i + 1, cell=k + 1)
                    return make_choice(line=i + 1)
            raise AssertionError("azul: active event without a line")

        def lits(e, choice):
            c = dict(choice)
            i = c.get("line")
            if not set(c) <= {"line", "cell"} or not isinstance(i, int) or i not in range(1, n + 1):
                return [enc.false]
            i -= 1
            if "cell" not in c:
                return [line[e.i, i]] + [~x for (ei, r, _), x in cell.items() if ei == e.i and r == i]
            k = c["cell"] - 1 if isinstance(c["cell"], int) else -1
            return [line[e.i, i], cell[e.i, i, k]] if (e.i, i, k) in cell else [enc.false]

        enc.can_take = can_take
        enc.decode_choice = decode
        enc.choice_lits = lits


REALM = Azul
