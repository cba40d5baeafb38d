"""Pendulum (retail realm, OG transcription): outline benefits, complete hourglasses to cash them.

realms.md: "Five benefit spaces: [P+H], [H+C], [P+C], [star], [star]; three hourglasses holding the
numbers {6}, {5, 4}, {3, 2, 1}. Usage: outline one benefit space with any # (no gain yet), or mark
that exact # in an hourglass. When an hourglass is completed: gain everything in all outlined
spaces, 1 star per outlined star."

Readings: a space is outlined once and stays outlined, so every later hourglass completion pays
it again (3 hourglasses x 2 star spaces = 6 stars at most). A number is marked once. Completing
an hourglass pays the spaces outlined at that moment (outline first, complete later).

Choices: action=outline space=1..5, or action=mark (the # is marked in the hourglass holding it).
"""
from __future__ import annotations

from functools import cached_property
from typing import Iterable

from ..errors import IllegalAction
from ..line import Choice, make_choice
from ..resources import KINDS, Resources
from ..rules import RuleSet
from .base import Effect, Realm, Use

# (outlined spaces, 0-based, sorted), (numbers marked, sorted), stars gained
State = tuple[tuple[int, ...], tuple[int, ...], int]


class Pendulum(Realm):
    key = "pendulum"
    timed_stars = True  # stars are paid by the # completing an hourglass

    def __init__(self, card=None) -> None:
        super().__init__(card)
        self.spaces = [list(s) for s in self.card["spaces"]]
        self.hourglasses = [tuple(int(v) for v in h) for h in self.card["hourglasses"]]
        if sorted(v for h in self.hourglasses for v in h) != list(range(1, 7)):
            raise ValueError("pendulum card: the hourglasses must hold each number 1-6 once")

    def initial(self, rules: RuleSet) -> State:
        return ((), (), 0)

    def candidates(self, state: State, value: int, rules: RuleSet) -> Iterable[Choice]:
        return [make_choice(action="mark")] + [make_choice(action="outline", space=s + 1) for s in range(len(self.spaces))]

    def payout(self, outlined: tuple[int, ...]) -> tuple[Resources, int]:
        gain, stars = Resources(), 0
        for s in outlined:
            for k in self.spaces[s]:
                if k in KINDS:
                    gain = gain + Resources.of(k)
                else:
                    stars += 1
        return gain, stars

    def apply(self, state: State, use: Use, choice: Choice, rules: RuleSet) -> Effect:
        c = dict(choice)
        outlined, marked, stars = state
        if c.get("action") == "outline" and set(c) == {"action", "space"}:
            s = c["space"] - 1 if isinstance(c["space"], int) else -1
            if s not in range(len(self.spaces)):
                raise IllegalAction(f"pendulum: space must be 1..{len(self.spaces)}")
            if s in outlined:
                raise IllegalAction(f"pendulum: space {s + 1} is already outlined")
            return Effect((tuple(sorted(outlined + (s,))), marked, stars))
        if c.get("action") != "mark" or set(c) != {"action"}:
            raise IllegalAction("pendulum: choose action=outline space=1..5, or action=mark")
        if use.value in marked:
            raise IllegalAction(f"pendulum: {use.value} is already marked in its hourglass")
        new_marked = tuple(sorted(marked + (use.value,)))
        (glass,) = [h for h in self.hourglasses if use.value in h]
        gain = Resources()
        if all(v in new_marked for v in glass):
            gain, s = self.payout(outlined)
            stars += s
        return Effect((outlined, new_marked, stars), gain=gain)

    def stars(self, state: State, rules: RuleSet) -> int:
        return state[2]

    def max_gain(self, rules: RuleSet) -> Resources:
        gain, _ = self.payout(tuple(range(len(self.spaces))))
        n = len(self.hourglasses)
        return Resources(gain.P * n, gain.H * n, gain.C * n)

    def sheet_rows(self, state: State) -> list[tuple[str, str]]:
        outlined, marked, stars = state
        sp = " ".join(
            ("(" if s in outlined else "[") + "+".join(k.replace("S", "★") for k in ks) + (")" if s in outlined else "]")
            for s, ks in enumerate(self.spaces)
        )
        hg = "  ".join("{" + " ".join(f"x{v}" if v in marked else str(v) for v in h) + "}" for h in self.hourglasses)
        return [("spaces (outlined)", sp), ("hourglasses", hg), ("stars gained", str(stars))]

    def max_gain_per_activation(self, rules: RuleSet) -> int:
        """An outline gains nothing; a mark completes at most the one hourglass holding its
        number, which pays every space outlined (each at most once): all spaces' resources."""
        return self.payout(tuple(range(len(self.spaces))))[0].total()

    def max_events(self, turns: int, rules: RuleSet) -> int:
        """Every activation outlines a new space or marks a new number: spaces + 6 numbers."""
        return len(self.spaces) + sum(len(h) for h in self.hourglasses)

    @cached_property
    def most_stars_by_count(self) -> tuple[int, ...]:
        """most[k]: the most stars k #s can give here (k = 0 .. max_events). Stars are paid at
        hourglass completions, at most the outlined star spaces each: with a star spaces
        outlined (one # each) and c hourglasses completed (at least the c smallest sizes of
        marks), stars <= a * c and k >= a + those sizes. E.g. the OG card: 2 #s 1 star, 3 #s 2,
        5 #s 4, 8 #s 6 (an engine search agrees: tests/test_lp_bound.py)."""
        n_star = sum(1 for s in self.spaces if "S" in s)
        sizes = sorted(len(h) for h in self.hourglasses)
        most = []
        for k in range(self.max_events(0, RuleSet()) + 1):
            most.append(max(a * c for a in range(n_star + 1) for c in range(len(sizes) + 1)
                            if a + sum(sizes[:c]) <= k))
        return tuple(most)

    # ---- CP-SAT ----------------------------------------------------------------------------
    def encode(self, enc) -> None:
        m = enc.model
        S = range(len(self.spaces))
        G = range(len(self.hourglasses))
        outline: dict[tuple[int, int], object] = {}  # (event, space)
        mark: dict[int, object] = {}
        marks: dict[tuple[int, int], object] = {}  # (event, number)
        for e in enc.events:
            for s in S:
                outline[e.i, s] = enc.bool("outline", e.tag, f"space{s + 1}")
            mark[e.i] = enc.bool("mark", e.tag)
            # outline one space with any #, or mark that exact # in its hourglass
            m.add(sum(outline[e.i, s] for s in S) + mark[e.i] == e.active)
            for v in range(1, 7):
                x = enc.bool("marks", e.tag, v)
                m.add(x <= mark[e.i])
                m.add(x <= e.val[v])
                m.add(x >= mark[e.i] + e.val[v] - 1)
                marks[e.i, v] = x
            # redundant (LP): a mark marks exactly one number, its own (the rows above bound each
            # number by the mark alone, so a fractional mark could mark several numbers at once)
            m.add(sum(marks[e.i, v] for v in range(1, 7)) == mark[e.i])
        for s in S:
            m.add(sum(outline[e.i, s] for e in enc.events) <= 1)  # a space is outlined once
        for v in range(1, 7):
            m.add(sum(marks[e.i, v] for e in enc.events) <= 1)  # a number is marked once
        # "when an hourglass is completed: gain everything in all outlined spaces": the event
        # marking the hourglass's last number pays the spaces outlined by earlier events
        star_spaces = [s for s in S if "S" in self.spaces[s]]
        outlined_before = {s: 0 for s in S}
        marked_upto = {v: 0 for v in range(1, 7)}
        done_prev = [enc.false for _ in G]
        completes_any: list = []
        paid: dict[int, list] = {s: [] for s in S}  # (space) -> its pays
        for e in enc.events:
            for v in range(1, 7):
                marked_upto[v] = marked_upto[v] + marks[e.i, v]
            comps = []
            for g, h in enumerate(self.hourglasses):
                done = enc.bool("hourglass_complete", f"after {e.tag}", f"hourglass{g + 1}")
                for v in h:
                    m.add(done <= marked_upto[v])
                m.add(done >= sum(marked_upto[v] for v in h) - (len(h) - 1))
                c = enc.bool("completes", e.tag, f"hourglass{g + 1}")
                m.add(done == done_prev[g] + c)
                m.add(c <= sum(marks[e.i, v] for v in h))
                comps.append(c)
                done_prev[g] = done
            comp = sum(comps)  # at most one: the # lies in one hourglass
            completes_any.append(comp)
            for s in S:
                pay = enc.bool("pays", e.tag, f"space{s + 1}")
                m.add(pay <= comp)
                m.add(pay <= outlined_before[s])
                m.add(pay >= comp + outlined_before[s] - 1)
                paid[s].append(pay)
                for k in self.spaces[s]:
                    if k in KINDS:
                        enc.add_gain(e, k, pay)
                    else:
                        enc.add_stars(e, pay)
            for s in S:
                outlined_before[s] = outlined_before[s] + outline[e.i, s]
        # redundant (LP): stars come from hourglass completions (one per hourglass), each paying
        # at most the star spaces, and need those spaces outlined
        n_comp = sum(completes_any)
        # redundant (LP): a space pays at most once per hourglass, and only when outlined. Each
        # pay alone is at most its event's completion and the space's outline so far, so small
        # completions at many events paid a barely outlined space about once per hourglass:
        # bench seed 3's W 8 case LP (docs/campaign-chapter2.md) earned 16 resources here, not 6
        for s in S:
            m.add(sum(paid[s]) <= len(self.hourglasses) * sum(outline[e.i, s] for e in enc.events))
        m.add(n_comp <= len(self.hourglasses))
        m.add(enc.stars <= len(star_spaces) * n_comp)
        m.add(enc.stars <= len(self.hourglasses) * sum(outline[e.i, s] for e in enc.events for s in star_spaces))
        if enc.rm.options.lp_rows:  # redundant (LP help): stars for the #s received
            enc.stars_within_count_bound(self.most_stars_by_count)

        def can_take(turn: int, v: int):
            # any # outlines a space not yet outlined; v marks if v is not yet marked
            z = enc.bool("placeable", f"t{turn + 1}", v)
            for s in S:
                m.add(z + sum(outline[e.i, s] for e in enc.events if e.t < turn) >= 1)
            m.add(z + sum(marks[e.i, v] for e in enc.events if e.t < turn) >= 1)
            return z

        def decode(solver, e):
            for s in S:
                if solver.boolean_value(outline[e.i, s]):
                    return make_choice(action="outline", space=s + 1)
            if solver.boolean_value(mark[e.i]):
                return make_choice(action="mark")
            raise AssertionError("pendulum: active event without an action")

        def lits(e, choice):
            c = dict(choice)
            if c.get("action") == "mark" and set(c) == {"action"}:
                return [mark[e.i]]
            if c.get("action") == "outline" and set(c) == {"action", "space"} and (e.i, (c["space"] if isinstance(c["space"], int) else 0) - 1) in outline:
                return [outline[e.i, c["space"] - 1]]
            return [enc.false]

        enc.can_take = can_take
        enc.decode_choice = decode
        enc.choice_lits = lits


REALM = Pendulum
