"""Parks (promo pack, seed 000): hike right along a trail, never back; the last site has a cost.

Rulebook: "Use a # to outline a matching site along a trail. Cross off all sites on that trail
that are to the left of the site you're outlining. You can never visit a site to the left of an
already visited site. ... When outlining the rightmost site on a trail, you must first pay the
cost above the site."  Scoring: "Score ★s from visited trail sites."
"""
from __future__ import annotations

from typing import Iterable

from ..errors import IllegalAction
from ..line import Choice, make_choice
from ..resources import Resources
from ..rules import RuleSet
from .base import Effect, Realm, Use

State = tuple[tuple[int, ...], ...]  # per trail: visited site positions, in order


class Parks(Realm):
    key = "parks"
    timed_stars = True  # a star site, by the # that visits it

    def __init__(self, card=None) -> None:
        super().__init__(card)
        self.trails: list[list[tuple[int, str]]] = [[(int(n), b) for n, b in tr["sites"]] for tr in self.card["trails"]]
        self.last_cost: list[Resources] = [Resources(**tr.get("last_cost", {})) for tr in self.card["trails"]]
        for i, tr in enumerate(self.trails):
            nums = [n for n, _ in tr]
            if len(set(nums)) != len(nums):
                raise ValueError(f"parks card: trail {i + 1} shows a number twice")

    def initial(self, rules: RuleSet) -> State:
        return tuple(() for _ in self.trails)

    def candidates(self, state: State, value: int, rules: RuleSet) -> Iterable[Choice]:
        return [make_choice(trail=i + 1) for i in range(len(self.trails))]

    def site(self, trail: int, value: int) -> int | None:
        for pos, (n, _) in enumerate(self.trails[trail]):
            if n == value:
                return pos
        return None

    def apply(self, state: State, use: Use, choice: Choice, rules: RuleSet) -> Effect:
        c = dict(choice)
        if set(c) != {"trail"} or c["trail"] not in range(1, len(self.trails) + 1):
            raise IllegalAction(f"parks: choose trail=1..{len(self.trails)}")
        t = c["trail"] - 1
        pos = self.site(t, use.value)
        if pos is None:
            raise IllegalAction(f"parks: trail {t + 1} has no site {use.value}")
        if state[t] and pos <= max(state[t]):
            raise IllegalAction(f"parks: site {use.value} on trail {t + 1} is left of a visited site (no backtracking)")
        benefit = self.trails[t][pos][1]
        cost = self.last_cost[t] if pos == len(self.trails[t]) - 1 else Resources()
        gain = Resources() if benefit == "S" else Resources.of(benefit)
        new = state[:t] + (state[t] + (pos,),) + state[t + 1 :]
        return Effect(new, cost, gain)

    def stars(self, state: State, rules: RuleSet) -> int:
        return sum(1 for t, visited in enumerate(state) for pos in visited if self.trails[t][pos][1] == "S")

    def max_gain(self, rules: RuleSet) -> Resources:
        total = Resources()
        for tr in self.trails:
            for _, b in tr:
                if b != "S":
                    total = total + Resources.of(b)
        return total

    def sheet_rows(self, state: State) -> list[tuple[str, str]]:
        rows = []
        for t, tr in enumerate(self.trails):
            last = max(state[t]) if state[t] else -1
            cells = []
            for pos, (n, b) in enumerate(tr):
                mark = f"({n}{b})" if pos in state[t] else (f" x{n} " if pos < last else f" {n}{b} ")
                cells.append(mark)
            rows.append((f"trail {t + 1}", " ".join(cells)))
        return rows

    def max_gain_per_activation(self, rules: RuleSet) -> int:
        return 1

    def max_events(self, turns: int, rules: RuleSet) -> int:
        """Every activation visits a new site: at most one per site."""
        return sum(len(tr) for tr in self.trails)

    # ---- CP-SAT ----------------------------------------------------------------------------
    def encode(self, enc) -> None:
        m = enc.model
        T = range(len(self.trails))
        visit: dict[tuple[int, int, int], object] = {}
        # reached[e][t][i]: before event e, a site at position >= i of trail t was visited
        reached = [[[enc.false for _ in self.trails[t]] for t in T]]
        for e in enc.events:
            now = reached[-1]
            nxt = []
            for t in T:
                ys = []
                for i, (n, b) in enumerate(self.trails[t]):
                    y = enc.bool("visit", e.tag, f"trail{t + 1}", f"site{i + 1}")
                    m.add_implication(y, e.val[n])
                    m.add_implication(y, ~now[t][i])  # never left of a visited site
                    visit[e.i, t, i] = y
                    ys.append(y)
                    if b != "S":
                        enc.add_gain(e, b, y)
                    if i == len(self.trails[t]) - 1:
                        for K in ("P", "H", "C"):
                            if self.last_cost[t].get(K):
                                enc.add_cost(e, K, self.last_cost[t].get(K) * y)
                row = []
                for i in range(len(self.trails[t])):
                    z = enc.bool("reached", f"after {e.tag}", f"trail{t + 1}", f"site{i + 1}")
                    m.add_max_equality(z, [now[t][i]] + ys[i:])
                    row.append(z)
                nxt.append(row)
            m.add(sum(visit[e.i, t, i] for t in T for i in range(len(self.trails[t]))) == e.active)
            reached.append(nxt)
        # redundant (the LP needs it): each site is visited at most once, and a trail's visits
        # are at most its sites right of ... (no backtracking makes every visit a new site)
        for t in T:
            for i in range(len(self.trails[t])):
                m.add(sum(visit[e.i, t, i] for e in enc.events) <= 1)
        for (ei, t, i), y in visit.items():  # a star site is scored by the # visiting it
            if self.trails[t][i][1] == "S":
                enc.add_stars(enc.events[ei], y)

        ge_cache: dict = {}

        def visit_ge(e, t, i):
            key = (e.i, t, i)
            if key not in ge_cache:
                ge_cache[key] = enc.reify_or([visit[e.i, t, j] for j in range(i, len(self.trails[t]))], "visit_ge", e.tag, f"trail{t + 1}", f"site{i + 1}")
            return ge_cache[key]

        passed_cache: dict = {}

        def passed(turn: int, t: int, i: int):
            """Literal: some # before turn `turn` visited site i of trail t or a site right of it."""
            if (turn, t, i) not in passed_cache:
                passed_cache[turn, t, i] = enc.reify_or(
                    [enc.both(visit_ge(e, t, i), e.before(turn), "passed_by", e.tag, f"t{turn + 1}", f"trail{t + 1}", f"site{i + 1}") for e in enc.events],
                    "passed", f"t{turn + 1}", f"trail{t + 1}", f"site{i + 1}")
            return passed_cache[turn, t, i]

        def can_take(turn: int, v: int):
            # a cost-free site v not yet passed at the start of the turn forces "placeable"
            z = enc.bool("placeable", f"t{turn + 1}", v)
            for t in T:
                i = self.site(t, v)
                if i is None or i == len(self.trails[t]) - 1:
                    continue
                if turn == 0:
                    m.add(z == 1)
                    continue
                m.add_bool_or([passed(turn, t, i), z])
            return z

        def costly_takes(turn: int, v: int):
            # a trail's last site v (it costs) is open while nobody reached it
            out = []
            for t in T:
                i = self.site(t, v)
                if i is not None and i == len(self.trails[t]) - 1:
                    out.append((enc.true if turn == 0 else ~passed(turn, t, i), self.last_cost[t]))
            return out

        def decode(solver, e):
            for t in T:
                for i in range(len(self.trails[t])):
                    if solver.boolean_value(visit[e.i, t, i]):
                        return make_choice(trail=t + 1)
            raise AssertionError("parks: active event without a visit")

        on_trail: dict = {}

        def lits(e, choice):
            t = dict(choice).get("trail", 0) - 1
            if t not in T:
                return [enc.false]
            if (e.i, t) not in on_trail:
                z = enc.bool("on_trail", e.tag, f"trail{t + 1}")
                m.add(sum(visit[e.i, t, i] for i in range(len(self.trails[t]))) == z)
                on_trail[e.i, t] = z
            return [on_trail[e.i, t]]

        enc.can_take = can_take
        enc.costly_takes = costly_takes
        enc.decode_choice = decode
        enc.choice_lits = lits


REALM = Parks
