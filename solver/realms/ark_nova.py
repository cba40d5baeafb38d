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
    timed_stars = True  # stars come from cashing in a star column, by a #

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

    def max_gain_per_activation(self, rules: RuleSet) -> int:
        return max(n for b, n in zip(self.benefit, self.circles) if b != "S")

    def max_events(self, turns: int, rules: RuleSet) -> int:
        """Any # may go here (a column with no outlined circle is legal): no bound of its own."""
        return 10**6

    # ---- CP-SAT ----------------------------------------------------------------------------
    def encode(self, enc) -> None:
        m = enc.model
        C = range(self.n)
        T = enc.turns
        # outlined[t][c]: circles outlined in column c during turn t (outlines happen at turn ends)
        outlined = [[m.new_constant(a) for a in self.start]]
        outline: dict[tuple[int, int], object] = {}
        for t in range(T):
            now = outlined[-1]
            nxt = []
            if t == T - 1:
                break  # no outline at the end of the round's last turn
            roll = enc.rolls[t]
            placed = [enc.rolled_placed(t, k) for k in (0, 1)]
            os_ = []
            need = []
            for c in C:
                elig = [placed[k] for k in (0, 1) if c in self.columns_for(roll[k])]
                if not elig:
                    continue
                o = enc.bool("outline", f"end t{t + 1}", c + 1)
                outline[t, c] = o
                os_.append(o)
                m.add_bool_or([~p for p in elig]).only_enforce_if(o)  # a rolled die not placed here
                m.add(now[c] <= self.circles[c] - 1).only_enforce_if(o)  # room in the column
                room = enc.bool("room", f"end t{t + 1}", c + 1)
                m.add(now[c] <= self.circles[c] - 1).only_enforce_if(room)
                m.add(now[c] >= self.circles[c]).only_enforce_if(~room)
                need.append((room, elig))
            if os_:
                m.add(sum(os_) <= 1)
                for room, elig in need:
                    for p in elig:
                        m.add_bool_or([p, ~room] + os_)  # exactly one outline when one is possible
            for c in C:
                if (t, c) in outline:
                    z = enc.int(0, self.circles[c], "outlined", f"end t{t + 1}", c + 1)
                    m.add(z == now[c] + outline[t, c])
                    nxt.append(z)
                else:
                    nxt.append(now[c])
            outlined.append(nxt)
        while len(outlined) < T:
            outlined.append(outlined[-1])
        take: dict[tuple[int, int], object] = {}
        crossed = [0 for _ in C]
        # redundant (LP help), circle by circle: each outlined circle (at the start, or at the end
        # of turn u) is crossed by at most one later # in its column, so what a # gains is the
        # sum of the circles it crosses, each at most its share of the column's activation.
        # Without it a # a quarter in column 4 gains a whole star in the LP (g <= 4x, the big-M
        # of "g = 0 unless x"); measured in docs/realms/ark-nova.md. Only in the LP's model
        # (`ModelOptions.lp_rows`): in CP-SAT's own they only changed its search (measured)
        lp_rows = enc.rm.options.lp_rows
        circle_units = {c: [(-1, None)] * self.start[c] + [(t, o) for (t, cc), o in sorted(outline.items()) if cc == c] for c in C}
        crossings: dict[tuple[int, int], list] = {}
        for e in enc.events:
            xs = []
            for c in C:
                x = enc.bool("column", e.tag, c + 1)
                take[e.i, c] = x
                xs.append(x)
                m.add_bool_or([e.val[c + 1], e.val[6]]).only_enforce_if(x)
                # outlined circles when this event happens: those of its turn
                here = outlined[e.t][c]
                g = enc.int(0, self.circles[c], "gain", e.tag, c + 1)
                m.add(g == here - crossed[c]).only_enforce_if(x)
                m.add(g == 0).only_enforce_if(~x)
                crossed[c] = crossed[c] + g
                if lp_rows:
                    ys = []
                    for u, (tu, _) in enumerate(circle_units[c]):
                        if tu < e.t:  # outlined before this # (the start's circles: tu = -1)
                            y = m.new_bool_var(f"{self.key}.cross[{e.tag},{c + 1},circle{u + 1}]")
                            m.add_implication(y, x)
                            ys.append(y)
                            crossings.setdefault((c, u), []).append(y)
                    m.add(g == sum(ys))
                # redundant (LP help): no more circles crossed than outlined so far. Without it
                # the LP spreads fractional cash-ins and reaches 6 stars even in 3 turns
                m.add(crossed[c] <= here)
                if self.benefit[c] == "S":
                    enc.add_stars(e, g)
                else:
                    enc.add_gain(e, self.benefit[c], g)
            m.add(sum(xs) == e.active)
        for (c, u), ys in crossings.items():
            _, o = circle_units[c][u]
            m.add(sum(ys) <= (1 if o is None else o))

        def can_take(turn: int, v: int):
            return enc.true  # any # may go to its column, even with no outlined circle

        def decode(solver, e):
            for c in C:
                if solver.boolean_value(take[e.i, c]):
                    return make_choice(column=c + 1)
            raise AssertionError("ark-nova: active event without a column")

        def lits(e, choice):
            c = dict(choice).get("column", 0) - 1
            return [take[e.i, c]] if (e.i, c) in take else [enc.false]

        def decode_end(solver, t):
            for c in C:
                if (t, c) in outline and solver.boolean_value(outline[t, c]):
                    return make_choice(column=c + 1)
            return None

        def end_lits(t, choice):
            if not choice:
                return [~outline[t, c] for c in C if (t, c) in outline]
            c = dict(choice)["column"] - 1
            return [outline[t, c]] if (t, c) in outline else [enc.false]

        enc.can_take = can_take
        enc.decode_choice = decode
        enc.choice_lits = lits
        enc.decode_end = decode_end
        enc.end_lits = end_lits


REALM = ArkNova
