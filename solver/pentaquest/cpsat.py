"""CP-SAT model of a Pentaquest game over a fixed deck order and dice stream (for comparison).

Answers the same question as the memoised DFS in `search.py`: the largest number of unused army
cards among winning plays, or a proof that no play wins. It covers the FULL solo rules of the
engine (free rerolls, all five abilities, seed or BGA reading, the options' free-reroll counts);
it does not compute the "longest survival" line of an unwinnable game (status only).

Encoding: a time-expanded layered graph over (turn, stream position).

* Layer t (0-based turn) has one Boolean `turn{t}_starts_at_pos{p}` per reachable stream
  position p; exactly one is true.
* Arcs leave (t, p): one Boolean per distinct turn outcome
  `turn{t}_pos{p}_defeats_{card}_next_pos{q}_uses_{u}` = "the turn that starts at p ends with
  `card` defeated, the next turn starts at stream position q, the army cards used in this turn
  are u (count per ability)". The outcomes are enumerated here (independently of search.py) from
  the roll stream[p:p+5]: every distinct free reroll choice (the dice to reroll, as a
  sub-multiset of the dice; which positions hold them does not change the outcome), then every
  sequence of army uses, keeping per (card, q) only the Pareto-minimal use vectors (using fewer
  cards is never worse). So the stream position is a variable: the chosen arc of layer t fixes
  the start position of layer t+1 (flow conservation).
* `{card}_defeated_in_turn{t}`: each card exactly once, only once drawn (card index < 5 + t).
* Army stock per ability: uses of ability a up to turn t <= cards of ability a defeated
  before turn t.
* Objective: minimise the total army uses; score = N - uses. INFEASIBLE = no winning play.

Exactness vs enumeration size: uses in one turn are capped by `cap` (and by the army that can
exist then). `solve_cpsat` runs caps 0, 1, 2, 4, ... up to N-1: a feasible capped model's
optimum U is globally optimal (any play with more than cap >= U uses is worse), and the model
with cap N-1 is the full problem (a win never uses more than N-1 cards), so its infeasibility
proves that no play wins.

Every decoded line is replayed by the engine (`engine.apply`) before it is returned.
"""
from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from ..interrupt import no_sigint
from .deck import ABILITIES
from .engine import MIRROR, Action, Defeat, Game, Reroll, Use, apply, initial_state
from .matcher import card_matches

Dice = tuple[int, ...]  # sorted multiset of 5 dice
Uses = tuple[int, ...]  # uses per ability, in ABILITIES order
PLUS, MINUS, PM, REROLL, MIRR = range(5)


@dataclass
class Arc:
    """One turn outcome: defeat `card`, next turn starts at `next_pos`, army uses `uses`."""

    turn: int
    pos: int
    card: int
    next_pos: int
    uses: Uses
    free_ops: tuple  # ("reroll", values) per free reroll
    army_ops: tuple  # ("plus", v) | ("minus", v) | ("pm", v, d) | ("mirror", v) | ("reroll", values)


@dataclass
class CpsatResult:
    status: str  # optimal | unreachable | unknown
    score: int | None
    uses: int | None
    seconds: float
    build_seconds: float
    arcs: int
    cap: int
    line: tuple[tuple[Action, ...], ...] = ()
    caps_tried: list[int] = field(default_factory=list)


class BuildTimeout(Exception):
    """The time limit passed while enumerating turn outcomes."""


def _submultisets(d: Dice) -> list[tuple[Dice, Dice]]:
    """(kept, rerolled) for every distinct non-empty sub-multiset `rerolled` of d."""
    out = set()
    n = len(d)
    for mask in range(1, 1 << n):
        r = tuple(d[i] for i in range(n) if mask >> i & 1)
        k = tuple(d[i] for i in range(n) if not mask >> i & 1)
        out.add((k, r))
    return sorted(out)


def _change(d: Dice, old: int, new: int) -> Dice:
    lst = list(d)
    lst.remove(old)
    lst.append(new)
    return tuple(sorted(lst))


def _dominated(u: Uses, lst: list) -> bool:
    return any(all(a <= b for a, b in zip(v, u)) for v, _ in lst)


class TurnEnumerator:
    """Distinct outcomes of one turn from a stream position (no dependence on search.py)."""

    def __init__(self, game: Game, deadline: float = float("inf")) -> None:
        self.game = game
        self.deadline = deadline
        self.stream = game.stream
        self.L = len(game.stream)
        self.N = len(game.deck)
        self._subs: dict[Dice, list] = {}
        self._meets: dict[Dice, list[int]] = {}
        self._cache: dict[tuple, dict] = {}  # (p, free rerolls, caps, total cap) -> outcomes
        self.ability = [ABILITIES.index(c.ability) for c in game.deck.cards]

    def subs(self, d: Dice) -> list:
        s = self._subs.get(d)
        if s is None:
            s = self._subs[d] = _submultisets(d)
        return s

    def meets(self, d: Dice) -> list[int]:
        m = self._meets.get(d)
        if m is None:
            smm = self.game.options.sun_moon_may_match
            m = self._meets[d] = [c for c, card in enumerate(self.game.deck.cards)
                                  if card_matches(card.alternatives, d, smm)]
        return m

    def outcomes(self, t: int, p: int, cap: int) -> list[Arc]:
        N, L = self.N, self.L
        if time.perf_counter() > self.deadline:
            raise BuildTimeout
        if p + 5 > L:
            return []
        opts = self.game.options
        free = opts.first_turn_free_rerolls if t == 0 else opts.free_rerolls
        # army: caps per ability = cards of that ability that can be in the army at turn t
        released = min(N, 4 + t)  # an army card was defeated in a turn < t, so its index < 4 + t
        total_cap = min(cap, t)
        caps = [0] * 5
        for c in range(released):
            caps[self.ability[c]] += 1
        caps = [min(x, total_cap) for x in caps]
        key = (p, free, tuple(caps), total_cap)
        per = self._cache.get(key)
        if per is None:
            per = self._cache[key] = self._enumerate(p, free, caps, total_cap)
        drawn = min(N, 5 + t)
        return [Arc(t, p, c, q, u, fops, aops) for (c, q), lst in per.items() if c < drawn
                for u, (fops, aops) in lst]

    def _enumerate(self, p: int, free: int, caps: list[int], total_cap: int) -> dict[tuple[int, int], list]:
        """(card, next position) -> Pareto-minimal (uses, (free ops, army ops)) for one turn."""
        L, s = self.L, self.stream
        roll = tuple(sorted(s[p:p + 5]))
        # free rerolls: BFS by number of rerolls; an earlier level (more rerolls left) dominates
        seen: dict[tuple[Dice, int], tuple] = {(roll, p + 5): ()}
        layer = [(roll, p + 5, ())]
        for _ in range(free):
            nxt = []
            for d, q, ops in layer:
                for kept, r in self.subs(d):
                    k = len(r)
                    if q + k > L:
                        continue
                    nd = tuple(sorted(kept + s[q:q + k]))
                    key = (nd, q + k)
                    if key in seen:
                        continue
                    nops = ops + (("reroll", r),)
                    seen[key] = nops
                    nxt.append((nd, q + k, nops))
            layer = nxt
        zero: Uses = (0, 0, 0, 0, 0)
        best: dict[tuple[Dice, int], list] = {}
        states = []
        for (d, q), fops in seen.items():
            best[(d, q)] = [(zero, ())]
            states.append((d, q, zero, fops, ()))
        frontier = list(states)
        for _ in range(total_cap):
            nxt = []
            if time.perf_counter() > self.deadline:
                raise BuildTimeout
            for i, (d, q, u, fops, aops) in enumerate(frontier):
                if i % 512 == 511 and time.perf_counter() > self.deadline:
                    raise BuildTimeout
                children = []
                distinct = sorted(set(d))
                if u[PLUS] < caps[PLUS]:
                    children += [(_change(d, v, v + 1), q, PLUS, ("plus", v)) for v in distinct if v < 6]
                if u[MINUS] < caps[MINUS]:
                    children += [(_change(d, v, v - 1), q, MINUS, ("minus", v)) for v in distinct if v > 1]
                if u[PM] < caps[PM]:
                    children += [(_change(d, v, v + 1), q, PM, ("pm", v, 1)) for v in distinct if v < 6]
                    children += [(_change(d, v, v - 1), q, PM, ("pm", v, -1)) for v in distinct if v > 1]
                if u[MIRR] < caps[MIRR]:
                    children += [(_change(d, v, MIRROR[v]), q, MIRR, ("mirror", v)) for v in distinct]
                if u[REROLL] < caps[REROLL]:
                    for kept, r in self.subs(d):
                        k = len(r)
                        if q + k <= L:
                            children.append((tuple(sorted(kept + s[q:q + k])), q + k, REROLL, ("reroll", r)))
                for nd, nq, a, op in children:
                    nu = u[:a] + (u[a] + 1,) + u[a + 1:]
                    lst = best.setdefault((nd, nq), [])
                    if _dominated(nu, lst):
                        continue
                    lst.append((nu, ()))
                    st = (nd, nq, nu, fops, aops + (op,))
                    nxt.append(st)
                    states.append(st)
            frontier = nxt
            if not frontier:
                break
        # Pareto per (card, next position)
        per: dict[tuple[int, int], list] = {}
        for d, q, u, fops, aops in states:
            for c in self.meets(d):
                lst = per.setdefault((c, q), [])
                if _dominated(u, lst):
                    continue
                lst[:] = [(v, w) for v, w in lst if not all(a <= b for a, b in zip(u, v))]
                lst.append((u, (fops, aops)))
        return per


def build_model(game: Game, cap: int, enum: TurnEnumerator | None = None):  # type: ignore[no-untyped-def]
    """The layered CP-SAT model with at most `cap` army uses per turn and in total."""
    enum = enum or TurnEnumerator(game)
    N, L = len(game.deck), len(game.stream)
    names = [c.name.replace(" ", "_") for c in game.deck.cards]
    m = cp_model.CpModel()
    starts: list[dict[int, cp_model.IntVar]] = []
    arcs: list[list[tuple[Arc, cp_model.IntVar]]] = []
    layer = {0}
    for t in range(N):
        # later turns need 5 values each: prune positions that cannot finish the game
        layer = {p for p in layer if p + 5 * (N - t) <= L}
        starts.append({p: m.new_bool_var(f"turn{t}_starts_at_pos{p}") for p in sorted(layer)})
        tarcs = []
        nxt = set()
        for p in sorted(layer):
            for a in enum.outcomes(t, p, cap):
                if t < N - 1 and a.next_pos + 5 * (N - 1 - t) > L:
                    continue
                u = "".join(map(str, a.uses))
                v = m.new_bool_var(f"turn{t}_pos{p}_defeats_{names[a.card]}_next_pos{a.next_pos}_uses_{u}")
                tarcs.append((a, v))
                nxt.add(a.next_pos)
        arcs.append(tarcs)
        layer = nxt
    m.add_exactly_one(starts[0].values())
    if 0 in starts[0]:
        m.add(starts[0][0] == 1)
    for t in range(N):
        out: dict[int, list] = {p: [] for p in starts[t]}
        for a, v in arcs[t]:
            out[a.pos].append(v)
        for p, sv in starts[t].items():
            m.add(sum(out[p]) == sv)  # leave the position the turn starts at by exactly one outcome
        if t + 1 < N:
            into: dict[int, list] = {}
            for a, v in arcs[t]:
                into.setdefault(a.next_pos, []).append(v)
            for p, sv in starts[t + 1].items():
                m.add(sum(into.get(p, [])) == sv)  # the next turn starts where this one ended
            for a, v in arcs[t]:
                if a.next_pos not in starts[t + 1]:
                    m.add(v == 0)
        m.add_exactly_one(starts[t].values()) if starts[t] else m.add_bool_or([])
    defeated = [[[] for _ in range(N)] for _ in range(N)]  # card -> turn -> arc vars
    for t in range(N):
        for a, v in arcs[t]:
            defeated[a.card][t].append(v)
    defeated_in = [[None] * N for _ in range(N)]
    for c in range(N):
        for t in range(N):
            if defeated[c][t]:
                x = m.new_bool_var(f"{names[c]}_defeated_in_turn{t}")
                m.add(x == sum(defeated[c][t]))
                defeated_in[c][t] = x
        m.add_exactly_one([x for x in defeated_in[c] if x is not None])
    # army stock: uses of ability a up to and including turn t <= cards of a defeated before t
    total_uses = []
    for ab in range(5):
        cards_a = [c for c in range(N) if enum.ability[c] == ab]
        used_so_far = []
        for t in range(N):
            used_so_far += [a.uses[ab] * v for a, v in arcs[t] if a.uses[ab]]
            if not used_so_far:
                continue
            stock = [defeated_in[c][t2] for c in cards_a for t2 in range(t) if defeated_in[c][t2] is not None]
            m.add(sum(used_so_far) <= sum(stock))
        total_uses += [a.uses[ab] * v for t in range(N) for a, v in arcs[t] if a.uses[ab]]
    total = sum(total_uses) if total_uses else 0
    if total_uses:
        m.add(total <= cap)
        m.minimize(total)
    return m, arcs


def _positions(dice: tuple[int, ...], values: tuple[int, ...]) -> tuple[int, ...]:
    """1-based positions of `values` (a sub-multiset) in the positional dice."""
    need = Counter(values)
    pos = []
    for i, v in enumerate(dice):
        if need[v] > 0:
            need[v] -= 1
            pos.append(i + 1)
    assert not +need, (dice, values)
    return tuple(pos)


def decode(game: Game, chosen: list[Arc]) -> tuple[tuple[tuple[Action, ...], ...], object]:
    """Turn the chosen arcs into engine actions, replaying each through the engine."""
    state = initial_state(game)
    line = []
    for arc in chosen:
        acts: list[Action] = []

        def do(action: Action) -> None:
            nonlocal state
            state = apply(game, state, action)
            acts.append(action)

        for _, values in arc.free_ops:
            do(Reroll(_positions(state.dice, values)))
        for op in arc.army_ops:
            kind = op[0]
            ab = {"plus": "plus", "minus": "minus", "pm": "plusminus", "mirror": "mirror", "reroll": "reroll"}[kind]
            card = next(c for c in state.army if game.deck.cards[c].ability == ab)
            if kind == "reroll":
                do(Use(card, _positions(state.dice, op[1])))
            else:
                delta = op[2] if kind == "pm" else 0
                do(Use(card, _positions(state.dice, (op[1],))[:1], delta))
        do(Defeat(arc.card))
        line.append(tuple(acts))
    return tuple(line), state


def solve_cpsat(game: Game, time_limit: float = 30.0, workers: int = 2) -> CpsatResult:
    """Exact answer by CP-SAT with increasing per-turn caps (see module docstring)."""
    t0 = time.perf_counter()
    deadline = t0 + time_limit
    N = len(game.deck)
    enum = TurnEnumerator(game, deadline)
    caps = [0]
    while caps[-1] < N - 1:
        caps.append(min(N - 1, max(1, 2 * caps[-1])))
    build = 0.0
    narcs = 0
    tried = []
    for cap in caps:
        tried.append(cap)
        b0 = time.perf_counter()
        try:
            model, arcs = build_model(game, cap, enum)
        except BuildTimeout:
            build += time.perf_counter() - b0
            return CpsatResult("unknown", None, None, time.perf_counter() - t0, build, narcs, cap, caps_tried=tried)
        build += time.perf_counter() - b0
        narcs = sum(len(a) for a in arcs)
        left = deadline - time.perf_counter()
        if left <= 0:
            return CpsatResult("unknown", None, None, time.perf_counter() - t0, build, narcs, cap, caps_tried=tried)
        solver = no_sigint(cp_model.CpSolver())  # Ctrl-C: the command line's (solver/interrupt.py)
        solver.parameters.max_time_in_seconds = left
        solver.parameters.num_workers = workers
        st = solver.solve(model)
        if st == cp_model.OPTIMAL:
            chosen = [next(a for a, v in layer if solver.value(v)) for layer in arcs]
            uses = sum(sum(a.uses) for a in chosen)
            line, final = decode(game, chosen)
            if final.status != "won" or final.score != N - uses:  # type: ignore[attr-defined]
                raise AssertionError(f"CP-SAT/engine disagreement: {final.status} {final.score} vs {N - uses}")  # type: ignore[attr-defined]
            return CpsatResult("optimal", N - uses, uses, time.perf_counter() - t0, build, narcs, cap, line, tried)
        if st == cp_model.INFEASIBLE:
            continue
        return CpsatResult("unknown", None, None, time.perf_counter() - t0, build, narcs, cap, caps_tried=tried)
    return CpsatResult("unreachable", None, None, time.perf_counter() - t0, build, narcs, caps[-1], caps_tried=tried)
