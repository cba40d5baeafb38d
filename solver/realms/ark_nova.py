"""Ark Nova (promo pack, seed 000): columns of circles, outlined one per turn, cashed in by a #.

Rulebook: "Use a # to gain its benefit multiplied by the number of outlined (uncrossed) circles,
then cross off those circles. ... At the end of every turn, outline 1 circle under 1 rolled die
that you didn't use in this realm, even if you didn't activate this realm at all. ... use the #
as rolled ... Don't use created #s to outline circles. Skip outlining a circle at the end of
turn 9. A 6 counts as any #, either when activating the realm, or when outlining a circle."
"""
from __future__ import annotations

from typing import Iterable

from ..errors import IllegalAction
from ..line import Choice, make_choice
from ..resources import Resources
from ..rules import RuleSet
from .base import Effect, Realm, TurnEnd, Use

# (outlined uncrossed circles per column, circles outlined so far per column, stars gained)
State = tuple[tuple[int, ...], tuple[int, ...], int]


class ArkNova(Realm):
    key = "ark-nova"

    def __init__(self, card=None) -> None:
        super().__init__(card)
        cols = self.card["columns"]
        self.benefit = [c["benefit"] for c in cols]
        self.circles = [int(c["circles"]) for c in cols]
        self.start = [int(c["outlined"]) for c in cols]
        self.n = len(cols)

    def columns_for(self, value: int) -> list[int]:
        """Columns (0-based) a # of this value may use: its own, or any for a 6."""
        return list(range(self.n)) if value == 6 else ([value - 1] if value <= self.n else [])

    def initial(self, rules: RuleSet) -> State:
        return (tuple(self.start), tuple(self.start), 0)

    def candidates(self, state: State, value: int, rules: RuleSet) -> Iterable[Choice]:
        return [make_choice(column=c + 1) for c in self.columns_for(value)]

    def apply(self, state: State, use: Use, choice: Choice, rules: RuleSet) -> Effect:
        c = dict(choice)
        if set(c) != {"column"}:
            raise IllegalAction("ark-nova: choose column=1..5")
        col = c["column"] - 1
        if col not in self.columns_for(use.value):
            raise IllegalAction(f"ark-nova: a {use.value} cannot use column {col + 1} (only a 6 counts as any column)")
        avail, outlined, stars = state
        n = avail[col]
        gain = Resources()
        if self.benefit[col] == "S":
            stars += n
        elif n:
            gain = Resources.of(self.benefit[col], n)
        avail = avail[:col] + (0,) + avail[col + 1 :]
        return Effect((avail, outlined, stars), gain=gain)

    def end_turn_options(self, state: State, info: TurnEnd, rules: RuleSet) -> list[tuple[Choice, State]]:
        if info.last_turn:
            return [((), state)]
        avail, outlined, stars = state
        eligible = sorted(
            {c for k in (0, 1) if not info.placed_here[k] for c in self.columns_for(info.roll[k]) if outlined[c] < self.circles[c]}
        )
        if not eligible:
            return [((), state)]
        out = []
        for c in eligible:
            new = (avail[:c] + (avail[c] + 1,) + avail[c + 1 :], outlined[:c] + (outlined[c] + 1,) + outlined[c + 1 :], stars)
            out.append((make_choice(column=c + 1), new))
        return out

    def stars(self, state: State, rules: RuleSet) -> int:
        return state[2]

    def max_gain(self, rules: RuleSet) -> Resources:
        total = Resources()
        for b, n in zip(self.benefit, self.circles):
            if b != "S":
                total = total + Resources.of(b, n)
        return total

    def sheet_rows(self, state: State) -> list[tuple[str, str]]:
        avail, outlined, stars = state
        rows = []
        for c in range(self.n):
            crossed = outlined[c] - avail[c]
            marks = "x" * crossed + "O" * avail[c] + "." * (self.circles[c] - outlined[c])
            rows.append((f"column {c + 1} ({self.benefit[c].replace('S', '★')})", marks))
        rows.append(("stars gained", str(stars)))
        return rows

    # ---- CP-SAT ----------------------------------------------------------------------------
    def encode(self, enc) -> None:
        m = enc.model
        C = range(self.n)
        avail = [m.new_constant(a) for a in self.start]
        outlined = [m.new_constant(a) for a in self.start]
        take: dict[tuple[int, int], object] = {}
        outline: dict[tuple[int, int], object] = {}
        star_terms = []
        for step in enc.steps:
            if hasattr(step, "slot"):
                e = step
                tag = f"t{e.t + 1}s{e.slot.s + 1}"
                xs = []
                new_avail = []
                for c in C:
                    x = enc.bool("column", tag, c + 1)
                    take[e.index, c] = x
                    xs.append(x)
                    m.add_bool_or([e.val[c + 1], e.val[6]]).only_enforce_if(x)
                    g = enc.int(0, self.circles[c], "gain", tag, c + 1)
                    m.add(g == avail[c]).only_enforce_if(x)
                    m.add(g == 0).only_enforce_if(~x)
                    if self.benefit[c] == "S":
                        star_terms.append(g)
                    else:
                        enc.add_gain(e, self.benefit[c], g)
                    na = enc.int(0, self.circles[c], "outlined_uncrossed", f"after {tag}", c + 1)
                    m.add(na == avail[c] - g)
                    new_avail.append(na)
                m.add(sum(xs) == e.active)
                avail = new_avail
            else:
                t = step.t
                if t == enc.turns - 1:
                    continue  # no outline at the end of the round's last turn
                roll = enc.rolls[t]
                placed = [enc.rolled_placed(t, k) for k in (0, 1)]
                os_ = []
                for c in C:
                    elig = [placed[k] for k in (0, 1) if c in self.columns_for(roll[k])]
                    if not elig:
                        continue
                    o = enc.bool("outline", f"end t{t + 1}", c + 1)
                    outline[t, c] = o
                    os_.append(o)
                    # eligible: some rolled die showing c (or a 6) was not placed here
                    m.add_bool_or([~p for p in elig]).only_enforce_if(o)
                    m.add(outlined[c] <= self.circles[c] - 1).only_enforce_if(o)
                    # room and eligible => an outline must happen (somewhere eligible)
                    room = enc.bool("room", f"end t{t + 1}", c + 1)
                    m.add(outlined[c] <= self.circles[c] - 1).only_enforce_if(room)
                    m.add(outlined[c] >= self.circles[c]).only_enforce_if(~room)
                    outline[t, c, "room"] = room
                    outline[t, c, "elig"] = elig
                if os_:
                    m.add(sum(os_) <= 1)
                    for c in C:
                        if (t, c) in outline:
                            room = outline[t, c, "room"]
                            for p in outline[t, c, "elig"]:
                                m.add_bool_or([p, ~room] + os_)
                new_avail, new_out = [], []
                for c in C:
                    if (t, c) in outline:
                        na = enc.int(0, self.circles[c], "outlined_uncrossed", f"end t{t + 1}", c + 1)
                        no = enc.int(0, self.circles[c], "outlined", f"end t{t + 1}", c + 1)
                        m.add(na == avail[c] + outline[t, c])
                        m.add(no == outlined[c] + outline[t, c])
                        new_avail.append(na)
                        new_out.append(no)
                    else:
                        new_avail.append(avail[c])
                        new_out.append(outlined[c])
                avail, outlined = new_avail, new_out
        enc.stars = sum(star_terms)

        def can_take(e, v):
            return ~enc.false  # any # may go to its column, even with no outlined circle

        def decode(solver, e):
            for c in C:
                if solver.boolean_value(take[e.index, c]):
                    return make_choice(column=c + 1)
            raise AssertionError("ark-nova: active event without a column")

        def lits(e, choice):
            c = dict(choice)["column"] - 1
            return [take[e.index, c]] if (e.index, c) in take else [enc.false]

        def decode_end(solver, t):
            for c in C:
                if (t, c) in outline and solver.boolean_value(outline[t, c]):
                    return make_choice(column=c + 1)
            return None

        def end_lits(t, choice):
            if not choice:
                return []
            c = dict(choice)["column"] - 1
            return [outline[t, c]] if (t, c) in outline else [enc.false]

        enc.can_take = can_take
        enc.decode_choice = decode
        enc.choice_lits = lits
        enc.decode_end = decode_end
        enc.end_lits = end_lits


REALM = ArkNova
