"""Exact solver: memoised depth-first branch-and-bound over turn-start states.

Why this shape (measured in docs/performance.md (Pentaquest section)): one defeat per turn means that
after t turns the first min(N, 5+t) cards have been drawn, so a turn-start state is fully
described by (set of defeated cards, stream position, army ability counts). Army cards with the
same ability are interchangeable, so only counts matter; score = N - total army uses.

Within a turn the solver works on sorted dice multisets (the requirement only looks at the
multiset; rerolling dice with the same values gives the same multiset whatever their
positions). A turn is expanded into outcomes (card defeated, stream position after the turn,
army use vector); for each (card, position) only Pareto-minimal use vectors are kept, which is
sound because a bigger army is never worse (unused cards can stay unused).

Search: find any win, then repeatedly ask "is there a win with at most U-1 uses?" until the
answer is no (proof). Failed (state, budget) pairs are memoised: a state that cannot win with
budget b cannot win with any smaller budget. Sound pruning only:
* stream length: R remaining turns need at least 5R more stream values;
* lower bound: a remaining card that no turn starting at or after the current stream position
  can meet without army cards costs at least one use (distinct cards fall in distinct turns).
Every line is replayed by the rules engine before it is returned.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import product

from .deck import ABILITIES
from .engine import MIRROR, Action, Defeat, Game, GameState, Pass, Reroll, Use, apply, initial_state
from .matcher import card_matches

PLUS, MINUS, PM, REROLL, MIRR = range(5)
assert ABILITIES == ("plus", "minus", "plusminus", "reroll", "mirror")
INF = 10**9

Dice = tuple[int, ...]
Uses = tuple[int, int, int, int, int]
Op = tuple  # ('free', R) | ('plus', v) | ('minus', v) | ('pm', v, d) | ('mirror', v) | ('reroll', R)


class SearchTimeout(Exception):
    """Raised inside the search when the deadline passes."""


@dataclass(frozen=True)
class TurnPlan:
    """One planned turn at multiset level: ops, then defeat `card` (None = pass)."""

    ops: tuple[Op, ...]
    card: int | None
    uses: Uses
    end_pos: int


def _submultisets(dice: Dice) -> list[tuple[Dice, Dice]]:
    """Distinct (kept, rerolled) splits of a sorted multiset, rerolled non-empty."""
    vals = sorted(set(dice))
    counts = [dice.count(v) for v in vals]
    out = []
    for pick in product(*[range(c + 1) for c in counts]):
        if not any(pick):
            continue
        r: list[int] = []
        k: list[int] = []
        for v, c, n in zip(vals, counts, pick):
            r += [v] * n
            k += [v] * (c - n)
        out.append((tuple(k), tuple(r)))
    return out


def _dominated(u: Uses, lst: list) -> bool:
    for v in lst:
        w = v[0]
        if w[0] <= u[0] and w[1] <= u[1] and w[2] <= u[2] and w[3] <= u[3] and w[4] <= u[4]:
            return True
    return False


class Solver:
    """Holds caches for one (deck, stream, options) instance."""

    def __init__(self, game: Game, deadline: float) -> None:
        self.game = game
        self.stream = game.stream
        self.L = len(game.stream)
        self.N = len(game.deck)
        self.deadline = deadline
        self.ability = [ABILITIES.index(c.ability) for c in game.deck.cards]
        self.smm = game.options.sun_moon_may_match
        self._match: dict[Dice, int] = {}
        self._subs: dict[Dice, list[tuple[Dice, Dice]]] = {}
        self._free: dict[tuple[int, bool], list[tuple[Dice, int, tuple[Op, ...]]]] = {}
        self._army: dict[tuple, dict[int, dict[int, list]]] = {}
        # (dmask, p) -> list of (capped army, budget) known to have no win (dominance memo)
        self.fail: dict[tuple[int, int], list[tuple[tuple[int, ...], int]]] = {}
        self.nodes = 0
        self.stack: list[TurnPlan] = []  # plans on the current search path
        self.deepest: list[TurnPlan] = []  # longest partial play seen (incumbent for "unknown")
        # difficulty: probability a random roll meets the card (lower = harder, defeat first)
        allrolls = list(product(range(1, 7), repeat=5))
        sample = {}
        for r in allrolls:
            key = tuple(sorted(r))
            sample[key] = sample.get(key, 0) + 1
        self.ease = [0.0] * self.N
        for d, n in sample.items():
            m = self.match(d)
            for c in range(self.N):
                if m >> c & 1:
                    self.ease[c] += n / 7776
        # zero-use reachability for the lower bound: zsuf[p] = cards some non-first turn
        # starting at stream position >= p can meet with free rerolls only
        self.zsuf = [0] * (self.L + 2)
        for p in range(self.L - 5, -1, -1):
            m = 0
            for d, _, _ in self.free_nodes(p, False):
                m |= self.match(d)
            self.zsuf[p] = m | self.zsuf[p + 1]
        # zcount[c][q] = number of turn-start positions < q from which card c is met with
        # free rerolls only (prefix sums, for the window test of the matching bound)
        zmask = [0] * (self.L + 1)
        for p in range(0, self.L - 4):
            for d, _, _ in self.free_nodes(p, False):
                zmask[p] |= self.match(d)
        self.zcount = []
        for c in range(self.N):
            acc = [0]
            for p in range(self.L + 1):
                acc.append(acc[-1] + (zmask[p] >> c & 1))
            self.zcount.append(acc)
        self.max_free = max(self.game.options.free_rerolls, 0)

    # ----- multiset helpers -------------------------------------------------------------
    def match(self, d: Dice) -> int:
        m = self._match.get(d)
        if m is None:
            m = 0
            for i, card in enumerate(self.game.deck.cards):
                if card_matches(card.alternatives, d, self.smm):
                    m |= 1 << i
            self._match[d] = m
        return m

    def subs(self, d: Dice) -> list[tuple[Dice, Dice]]:
        s = self._subs.get(d)
        if s is None:
            s = self._subs[d] = _submultisets(d)
        return s

    def free_nodes(self, p: int, first: bool) -> list[tuple[Dice, int, tuple[Op, ...]]]:
        """(dice, position, ops) reachable by the roll at p and the turn's free rerolls."""
        key = (p, first)
        got = self._free.get(key)
        if got is not None:
            return got
        opts = self.game.options
        n_free = opts.first_turn_free_rerolls if first else opts.free_rerolls
        d0 = tuple(sorted(self.stream[p:p + 5]))
        layer = [(d0, p + 5, ())]
        seen = {(d0, p + 5)}
        out = list(layer)
        for _ in range(n_free):
            nxt = []
            for d, q, ops in layer:
                for kept, r in self.subs(d):
                    k = len(r)
                    if q + k > self.L:
                        continue
                    nd = tuple(sorted(kept + self.stream[q:q + k]))
                    if (nd, q + k) in seen:
                        continue
                    seen.add((nd, q + k))
                    nxt.append((nd, q + k, ops + (("free", r),)))
            out += nxt
            layer = nxt
        self._free[key] = out
        return out

    def army_outcomes(self, d: Dice, q: int, caps: Uses, budget: int) -> dict[int, dict[int, list]]:
        """card -> end position offset -> Pareto list of (uses, ops) reachable with army cards."""
        uses_stream = caps[REROLL] > 0 and budget > 0
        key = (d, q if uses_stream else -1, caps, budget)
        got = self._army.get(key)
        if got is not None:
            return got
        res: dict[int, dict[int, list]] = {}
        zero: Uses = (0, 0, 0, 0, 0)
        best: dict[tuple[Dice, int], list] = {(d, q): [(zero, ())]}
        layer = [(d, q, zero, ())]

        def record(nd: Dice, nq: int, u: Uses, ops: tuple) -> None:
            m = self.match(nd)
            c = 0
            while m:
                if m & 1:
                    byq = res.setdefault(c, {})
                    lst = byq.setdefault(nq - q, [])
                    if not _dominated(u, lst):
                        lst.append((u, ops))
                m >>= 1
                c += 1

        record(d, q, zero, ())
        for _ in range(budget):
            nxt = []
            for cd, cq, u, ops in layer:
                children: list[tuple[Dice, int, int, Op]] = []
                distinct = sorted(set(cd))
                if u[PLUS] < caps[PLUS]:
                    for v in distinct:
                        if v < 6:
                            children.append((_change(cd, v, v + 1), cq, PLUS, ("plus", v)))
                if u[MINUS] < caps[MINUS]:
                    for v in distinct:
                        if v > 1:
                            children.append((_change(cd, v, v - 1), cq, MINUS, ("minus", v)))
                if u[PM] < caps[PM]:
                    for v in distinct:
                        if v < 6:
                            children.append((_change(cd, v, v + 1), cq, PM, ("pm", v, 1)))
                        if v > 1:
                            children.append((_change(cd, v, v - 1), cq, PM, ("pm", v, -1)))
                if u[MIRR] < caps[MIRR]:
                    for v in distinct:
                        children.append((_change(cd, v, MIRROR[v]), cq, MIRR, ("mirror", v)))
                if u[REROLL] < caps[REROLL]:
                    for kept, r in self.subs(cd):
                        k = len(r)
                        if cq + k <= self.L:
                            children.append((tuple(sorted(kept + self.stream[cq:cq + k])), cq + k, REROLL,
                                             ("reroll", r)))
                for nd, nq, t, op in children:
                    nu = u[:t] + (u[t] + 1,) + u[t + 1:]
                    lst = best.setdefault((nd, nq), [])
                    if _dominated(nu, lst):
                        continue
                    lst.append((nu, ()))
                    nops = ops + (op,)
                    nxt.append((nd, nq, nu, nops))
                    record(nd, nq, nu, nops)
            if not nxt:
                break
            layer = nxt
        self._army[key] = res
        return res

    # ----- turn outcomes -----------------------------------------------------------------
    def turn_outcomes(self, dmask: int, p: int, army: Uses, budget: int, first: bool,
                      exact_level: int | None = None) -> list[TurnPlan]:
        """All Pareto-minimal outcomes of the turn starting at stream position p."""
        t = bin(dmask).count("1")
        drawn = min(self.N, 5 + t)
        quest = [c for c in range(drawn) if not dmask >> c & 1]
        qmask = 0
        for c in quest:
            qmask |= 1 << c
        caps: Uses = tuple(min(a, budget) for a in army)  # type: ignore[assignment]
        budget = min(budget, sum(caps))
        trans: dict[tuple[int, int], list] = {}
        for d, q, fops in self.free_nodes(p, first):
            if budget == 0:
                m = self.match(d) & qmask
                c = 0
                while m:
                    if m & 1:
                        lst = trans.setdefault((c, q), [])
                        if not lst:
                            lst.append(((0, 0, 0, 0, 0), fops))
                    m >>= 1
                    c += 1
                continue
            res = self.army_outcomes(d, q, caps, budget)
            for c in quest:
                byq = res.get(c)
                if not byq:
                    continue
                for off, lst in byq.items():
                    tl = trans.setdefault((c, q + off), [])
                    for u, aops in lst:
                        if exact_level is not None and sum(u) != exact_level:
                            continue
                        if not _dominated(u, tl):
                            tl.append((u, fops + aops))
        plans = []
        for (c, qe), lst in trans.items():
            for u, ops in lst:
                plans.append(TurnPlan(ops, c, u, qe))
        plans.sort(key=lambda tp: (sum(tp.uses), self.ease[tp.card], tp.end_pos))
        return plans

    # ----- search ------------------------------------------------------------------------
    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes & 63 == 1 and time.monotonic() > self.deadline:
            raise SearchTimeout

    def lower_bound(self, dmask: int, p: int, rem: int) -> int:
        """Sound lower bound on the army uses any win from this (non-first-turn) state needs.

        The j-th of the R remaining turns starts at a stream position in
        [p + 5j, p + (5 + 5*free_rerolls)j + 5*rem] (a 🎲 card moves it at most 5 further, and
        at most `rem` army cards are used) and at most L - 5(R-1-j). A card defeated without army
        cards in slot j must be drawn by then and met by free rerolls from some position in that
        window. Cards defeated with army cards cost at least one use each, so
        uses >= R - (maximum matching of cards to slots).
        """
        t = bin(dmask).count("1")
        R = self.N - t
        if p + 5 * R > self.L:
            return INF
        step = 5 + 5 * self.max_free
        slots_lo = [p + 5 * j for j in range(R)]
        slots_hi = [min(p + step * j + 5 * rem, self.L - 5 * (R - j)) for j in range(R)]
        full = (1 << R) - 1
        compat: list[int] = []
        easy = 0
        for c in range(self.N):
            if dmask >> c & 1:
                continue
            zc = self.zcount[c]
            first_slot = max(0, c - 4 - t)  # card c is drawn at turn t + 1 + (c - 4 - t)
            m = 0
            for j in range(first_slot, R):
                lo, hi = slots_lo[j], slots_hi[j]
                if hi >= lo and zc[hi + 1] - zc[lo] > 0:
                    m |= 1 << j
            if m == full:
                easy += 1
            elif m:
                compat.append(m)
        compat.sort(key=lambda x: bin(x).count("1"))
        owner: dict[int, int] = {}

        def augment(i: int, seen: set[int]) -> bool:
            m = compat[i]
            while m:
                low = m & -m
                j = low.bit_length() - 1
                m ^= low
                if j in seen:
                    continue
                seen.add(j)
                if j not in owner or augment(owner[j], seen):
                    owner[j] = i
                    return True
            return False

        matched = 0
        for i in range(len(compat)):
            if augment(i, set()):
                matched += 1
        total = matched + min(easy, R - matched)
        return R - total

    def _failed(self, dmask: int, p: int, army: Uses, rem: int) -> bool:
        capped = tuple(min(a, rem) for a in army)
        for a, r in self.fail.get((dmask, p), ()):
            if rem <= r and capped[0] <= a[0] and capped[1] <= a[1] and capped[2] <= a[2] \
                    and capped[3] <= a[3] and capped[4] <= a[4]:
                return True
        return False

    def _record_fail(self, dmask: int, p: int, army: Uses, rem: int) -> None:
        capped = tuple(min(a, rem) for a in army)
        lst = self.fail.setdefault((dmask, p), [])
        lst[:] = [(a, r) for a, r in lst if not (r <= rem and all(x <= y for x, y in zip(a, capped)))]
        lst.append((capped, rem))

    def win(self, dmask: int, p: int, army: Uses, rem: int, first: bool) -> list[TurnPlan] | None:
        """A winning continuation using at most `rem` army cards, or None (proven none)."""
        t = bin(dmask).count("1")
        if t == self.N:
            return []
        if t > len(self.deepest):
            self.deepest = list(self.stack)
        self._tick()
        if self._failed(dmask, p, army, rem):
            return None
        if p + 5 * (self.N - t) > self.L:
            self._record_fail(dmask, p, army, INF)
            return None
        if not first and self.lower_bound(dmask, p, rem) > rem:
            self._record_fail(dmask, p, army, rem)
            return None
        full = min(rem, sum(army))
        for level in range(full + 1):
            for tp in self.turn_outcomes(dmask, p, army, level, first, exact_level=level if level else None):
                assert tp.card is not None
                na = list(army)
                for i in range(5):
                    na[i] -= tp.uses[i]
                na[self.ability[tp.card]] += 1
                self.stack.append(tp)
                try:
                    sub = self.win(dmask | 1 << tp.card, tp.end_pos, tuple(na), rem - level, False)  # type: ignore[arg-type]
                finally:
                    self.stack.pop()
                if sub is not None:
                    return [tp] + sub
        self._record_fail(dmask, p, army, rem)
        return None

    def survive(self, dmask: int, p: int, army: Uses, first: bool,
                memo: dict) -> tuple[int, int, list[TurnPlan]]:
        """Best losing continuation: (most further defeats, then fewest uses, plans)."""
        t = bin(dmask).count("1")
        if t == self.N:
            return (0, 0, [])
        self._tick()
        key = (dmask, p, army)
        got = memo.get(key)
        if got is not None:
            return got
        best: tuple[int, int, list[TurnPlan]] = (0, 0, [])
        if p + 5 <= self.L:
            budget = sum(army)
            for tp in self.turn_outcomes(dmask, p, army, budget, first):
                assert tp.card is not None
                na = list(army)
                for i in range(5):
                    na[i] -= tp.uses[i]
                na[self.ability[tp.card]] += 1
                k, u, plans = self.survive(dmask | 1 << tp.card, tp.end_pos, tuple(na), False, memo)
                cand = (k + 1, u + sum(tp.uses))
                if cand[0] > best[0] or (cand[0] == best[0] and cand[1] < best[1]):
                    best = (cand[0], cand[1], [tp] + plans)
                if best[0] == self.N - t:
                    break
        memo[key] = best
        return best


def _change(d: Dice, old: int, new: int) -> Dice:
    lst = list(d)
    lst.remove(old)
    lst.append(new)
    return tuple(sorted(lst))


# ----- turning multiset plans into positional engine actions ---------------------------------
def _positions(dice: tuple[int, ...], values: tuple[int, ...]) -> tuple[int, ...]:
    taken: list[int] = []
    for v in values:
        for i, x in enumerate(dice):
            if x == v and (i + 1) not in taken:
                taken.append(i + 1)
                break
        else:
            raise AssertionError(f"value {v} not on dice {dice}")
    return tuple(sorted(taken))


def _army_card(game: Game, state: GameState, ability: str) -> int:
    for c in state.army:
        if game.deck.cards[c].ability == ability:
            return c
    raise AssertionError(f"no {ability} card in army")


def realize(game: Game, plans: list[TurnPlan], lose_at_end: bool) -> tuple[tuple[tuple[Action, ...], ...], GameState]:
    """Turn multiset plans into engine actions, applying each through the engine."""
    state = initial_state(game)
    line: list[tuple[Action, ...]] = []
    for tp in plans:
        acts: list[Action] = []
        for op in tp.ops:
            kind = op[0]
            if kind == "free":
                a: Action = Reroll(_positions(state.dice, op[1]))
            elif kind == "reroll":
                a = Use(_army_card(game, state, "reroll"), _positions(state.dice, op[1]))
            elif kind == "pm":
                a = Use(_army_card(game, state, "plusminus"), _positions(state.dice, (op[1],)), op[2])
            else:
                ability = {"plus": "plus", "minus": "minus", "mirror": "mirror"}[kind]
                a = Use(_army_card(game, state, ability), _positions(state.dice, (op[1],)))
            state = apply(game, state, a)
            acts.append(a)
        assert tp.card is not None
        a = Defeat(tp.card)
        state = apply(game, state, a)
        acts.append(a)
        line.append(tuple(acts))
    if lose_at_end and state.status == "playing":
        state = apply(game, state, Pass())
        line.append((Pass(),))
    return tuple(line), state
