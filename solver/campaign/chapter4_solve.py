"""Solving campaign chapter 4, "The Swarm", with the CP-SAT round model (docs/campaign-chapter4.md,
section "Solving").

The round model (solver/model.py) with its chapter-4 options (`repeat_free`: a realm takes any
number of #s in a turn; `events_per_turn`; `free_copies`: an event may be a free copy of a #)
is a relaxation of the base rules; this module adds chapter 4's rules (seed 003;
solver/campaign/chapter4.py is the judge) as constraints, each a *sound relaxation* of the
checker's rule, so every winning line, stopped at its winning step, is still a solution:

- every original # that needs a swarm copy is paired with exactly one free copy in a
  neighbouring realm of the 2x2 grid, in the same turn, with the same value (after the
  original's pumpkins) and of the same die (or a created #); a copy is never changed;
- every turn before the last uses both rolled dice once each (a # that cannot be used loses,
  one that could be used but is not is illegal); the winning turn may leave a die unused;
- the resources earned in the whole line (every gain, spent or not) are the target (easy: in
  the range): the line stops at its win, and earnings only grow, so none exceeds it before;
- at least 6 (easy 5, hard 7) swarm boxes, each a pair of the round: the 2 stars of a box are
  shared between the pair's two realms, and the stars a realm's boxes take are at most the
  stars it has (stars never go down, so each box's 2 stars are part of the two realms' stars).

Solver-side dominance (not a rule): no 3-pumpkin power; with repeat activations free, a +-1
for 2 pumpkins does the same for 1 pumpkin less, and holding more never hurts in chapter 4
(the target counts earnings, not holdings).

A solution's turns are ordered by the chapter's own steps (original, then its copy, each realm
keeping its order) jointly over turns 1..t from every state the earlier turns can reach; the
line must win by the end of the last turn. When no order of turns 1..t continues, that exact
history (every decision of turns 1..t, pairings included) is cut off and the model is solved
again. A line returned has been replayed by `check_chapter4`: won. INFEASIBLE (cuts included)
with the proven events bound proves that no line wins by the end of that turn.
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterator, Sequence

from ortools.sat.python import cp_model

from ..engine import Game, end_choice_sets, end_turn, realm_stars, sources
from ..errors import IllegalAction, InputError
from ..line import Activation, Line, Source, TurnPlay
from ..model import Event, FreeCopy, ModelOptions, RoundModel
from ..realms import get_realm, is_solvable
from ..resources import KINDS
from ..rules import DEFAULT_RULES, RuleSet
from ..solve import MAX_CUTS, ModelDisagreement, effective_params, load_params, make_solver
from . import answers
from .answers import Progress, SetupChoice, TurnLadder, check_solver_inputs
from .beam import end_turns
from .chapter4 import (
    BOXES_TO_WIN,
    EXCLUDED,
    EXCLUSION_RULE,
    GRID_NAMES,
    MAX_TURNS,
    SWARM,
    Chapter4,
    Chapter4Verdict,
    SwarmState,
    apply_copy,
    apply_original,
    begin,
    check_chapter4,
    exceeds,
    swarm_box,
)

#: realms in the chapter's fleet and realms drawn from it (seed 003, chapter 4 setup 1c and 2)
FLEET_SIZE = 6
DRAWN = 2


# ---- the model ---------------------------------------------------------------------------------

@dataclass
class Chapter4Model:
    """The round model over the first W rolls plus the chapter's variables: the swarm pairs
    (`pairs[(r, i), (n, j)]`: realm r's event i is the original whose copy is realm n's event j)
    and the boxes per ordered realm pair (`boxes[r, n]`, `box_stars[r, n]` = the boxes' stars
    scored in r; the rest, in n)."""

    rm: RoundModel
    setup: Chapter4
    events_per_turn: int
    pairs: dict[tuple[tuple[int, int], tuple[int, int]], Any] = field(default_factory=dict)
    boxes: dict[tuple[int, int], Any] = field(default_factory=dict)
    box_stars: dict[tuple[int, int], Any] = field(default_factory=dict)

    @property
    def turns(self) -> int:
        return self.rm.game.turns

    def events(self) -> Iterator[tuple[int, Event]]:
        for r, evs in enumerate(self.rm.events):
            for e in evs:
                yield r, e

    def copy_lit(self, e: Event) -> Any:
        """The event is a swarm copy (a free copy)."""
        return sum(x for s, x in e.use.items() if isinstance(s, FreeCopy))

    def original_lit(self, e: Event) -> Any:
        """The event is an original # (any paid source)."""
        return sum(x for s, x in e.use.items() if not isinstance(s, FreeCopy))

    def needs_copy(self, e: Event) -> Any:
        """The event is an original that needs a swarm copy (reading `swarm_sources`)."""
        return sum(x for s, x in e.use.items() if not isinstance(s, FreeCopy) and self.setup.needs_copy(s))

    @staticmethod
    def family(e: Event, die: int | None) -> Any:
        """The event's # comes from rolled die `die` (rolled, copied, or its swarm copy), or
        (die None) from a created # (created, or its swarm copy)."""
        if die is None:
            return sum(x for s, x in e.use.items() if s.kind == "create")
        return sum(x for s, x in e.use.items() if s.kind != "create" and s.die == die)


def swarm_pairs(cm: Chapter4Model) -> None:
    """Every original that needs a swarm copy has exactly one, in a neighbouring realm, in the
    same turn, with the same value and of the same die (or created #); every copy copies one
    original."""
    rm, m = cm.rm, cm.rm.model
    T = cm.turns
    into: dict[tuple[int, int], list[Any]] = {}
    for t in range(T):
        for r, realm in enumerate(rm.game.realms):
            for o in rm.encoders[r].turn_events(t):
                outs = []
                for n in cm.setup.neighbours(r):
                    for c in rm.encoders[n].turn_events(t):
                        p = m.new_bool_var(f"swarm[{o.tag}->{c.tag}]")
                        cm.pairs[(r, o.index), (n, c.index)] = p
                        outs.append(p)
                        into.setdefault((n, c.index), []).append(p)
                        # (as clauses; 2 enforced linear equalities per pair measured slower:
                        # the 1-turn proof of docs/campaign-chapter4.md 10.6 -> 26.3 det-s)
                        for v in range(1, 7):
                            m.add(p + o.val[v] - c.val[v] <= 1)
                        for die in (0, 1, None):
                            m.add(p + cm.family(o, die) - cm.family(c, die) <= 1)
                m.add(sum(outs) == cm.needs_copy(o))
    for r, e in cm.events():
        m.add(sum(into.get((r, e.index), [])) == cm.copy_lit(e))


#: the non-crossing rule is added up to this many events per realm and turn (its size grows as N^4)
NON_CROSSING_MAX_EVENTS = 6


def pairs_do_not_cross(cm: Chapter4Model) -> None:
    """Two units touching the same two realms keep one order in both: a unit (original + copy)
    is played at once, so if it comes first in one realm it comes first in the other. Crossed
    pairings have no order at all (the cut loop would remove them one by one); this removes only
    those, so it keeps every line. Added for up to NON_CROSSING_MAX_EVENTS events per turn."""
    if cm.events_per_turn > NON_CROSSING_MAX_EVENTS:
        return
    m = cm.rm.model
    by_realms: dict[tuple[int, frozenset[int]], list[tuple[dict[int, int], Any]]] = {}
    for ((r, i), (n, j)), p in cm.pairs.items():
        t = cm.rm.events[r][i].t
        pos = {r: cm.rm.events[r][i].k, n: cm.rm.events[n][j].k}
        by_realms.setdefault((t, frozenset((r, n))), []).append((pos, p))
    for (_, realms), units in by_realms.items():
        a, b = sorted(realms)
        for (p1, x1), (p2, x2) in itertools.combinations(units, 2):
            if (p1[a] - p2[a]) * (p1[b] - p2[b]) < 0:
                m.add(x1 + x2 <= 1)


def copies_unchanged(cm: Chapter4Model) -> None:
    """Copies cannot be modified separately: a swarm copy pays no pumpkins (its value is the
    original's after its change)."""
    cm.rm.require_change_literals()
    for _, e in cm.events():
        changed = [x for (b, v, extra), x in e.num.items() if extra or v != b]
        cm.rm.model.add(cm.copy_lit(e) + sum(changed) <= 1)


def no_three_pumpkin_power(cm: Chapter4Model) -> None:
    """Dominance (a solver choice, not a rule): with repeat activations free, the 3-pumpkin
    power is replaced by the same +-1 for 2 pumpkins; the line stays winning."""
    for _, e in cm.events():
        cm.rm.model.add(e.extra == 0)


def dice_used_before_last_turn(cm: Chapter4Model) -> None:
    """Every turn before the last uses both rolled dice exactly once (as originals); the last
    turn (the winning one, stopped at the winning step) uses each at most once."""
    rm = cm.rm
    for t in range(cm.turns):
        for k in (0, 1):
            used = sum(e.use[Source("die", k)] for _, e in cm.events() if e.t == t)
            rm.model.add(used == 1 if t < cm.turns - 1 else used <= 1)


def earned_is_target(cm: Chapter4Model) -> None:
    """The resources earned in the line (all gains, spent or not) are the target (easy: in the
    range) at the win; the line stops there and earnings never go down."""
    lo, hi = cm.setup.target_range
    earned = sum(cm.rm.gains(t, K) for t in range(cm.turns) for K in KINDS)
    cm.rm.model.add(earned >= lo)
    cm.rm.model.add(earned <= hi)


def boxes_need_stars(cm: Chapter4Model) -> None:
    """At least 6 (easy 5, hard 7) swarm boxes. A box is a pair r -> n of the line whose double
    activation scored exactly 2 stars in r and n: per ordered realm pair, boxes <= pairs, the 2
    stars of each split between r and n, and the box stars a realm takes <= its stars."""
    rm, m = cm.rm, cm.rm.model
    share: dict[int, list[Any]] = {r: [] for r in range(len(rm.game.realms))}
    cap = rm.game.rules.star_cap
    for r in range(len(rm.game.realms)):
        for n in cm.setup.neighbours(r):
            a, b = rm.game.realms[r].key, rm.game.realms[n].key
            units = sum(p for ((rr, _), (nn, _)), p in cm.pairs.items() if rr == r and nn == n)
            bx = m.new_int_var(0, BOXES_TO_WIN["hard"] + 2 * cap, f"swarm_boxes[{a}->{b}]")
            here = m.new_int_var(0, 2 * cap, f"swarm_box_stars[{a}->{b},{a}]")
            m.add(bx <= units)
            m.add(here <= 2 * bx)
            share[r].append(here)
            share[n].append(2 * bx - here)
            cm.boxes[r, n], cm.box_stars[r, n] = bx, here
    m.add(sum(cm.boxes.values()) >= cm.setup.boxes_to_win)
    for r, parts in share.items():
        m.add(sum(parts) <= rm.realm_stars[r])


#: chapter 4's rules as constraints (tests drop them one by one), plus the dominance rule
CHAPTER4_RULES: tuple[Callable[[Chapter4Model], None], ...] = (
    swarm_pairs,
    pairs_do_not_cross,
    copies_unchanged,
    no_three_pumpkin_power,
    dice_used_before_last_turn,
    earned_is_target,
    boxes_need_stars,
)


def events_bound(setup: Chapter4, turns: int, rules: RuleSet = DEFAULT_RULES) -> int:
    """A proven bound on a realm's events in one turn: each unit (an original and its copy, in
    two different realms) gives a realm at most one event; a turn has its 2 dice plus the #s it
    buys, each for >= 1 resource, and no more is spent than earned (<= the target's top). A
    realm's card bounds its events in the round too (`max_events`)."""
    hi = setup.target_range[1]
    card = max(get_realm(k).max_events(turns, rules) for k in setup.realms)
    return max(1, min(2 + hi, card))


def build_chapter4(setup: Chapter4, rolls: Sequence[tuple[int, int]], events_per_turn: int | None = None,
                   rules: Sequence[Callable[[Chapter4Model], None]] = CHAPTER4_RULES) -> Chapter4Model:
    """The round model of the first len(rolls) turns (compensation off, the chapter-4 options)
    with the chapter's rules; the win must come by the end of the last of these turns."""
    game = setup.game(tuple(rolls))
    n = events_per_turn if events_per_turn is not None else events_bound(setup, len(rolls))
    rm = RoundModel(game, ModelOptions(tricks=False, repeat_free=True, events_per_turn=n, free_copies=True))
    cm = Chapter4Model(rm, setup, n)
    for rule in rules:
        rule(cm)
    return cm


# ---- decoding and ordering ---------------------------------------------------------------------

@dataclass(frozen=True)
class Unit:
    """An original # and its swarm copy (None: a # that needs none), with their realm events."""

    original: Activation
    copy: Activation | None
    at: tuple[int, int]  # (realm, event index) of the original
    copy_at: tuple[int, int] | None


def turn_units(cm: Chapter4Model, solver: cp_model.CpSolver) -> list[tuple[list[Unit], list[list[tuple[int, int]]]]]:
    """Per turn: the units (original + copy) and each realm's events in order."""
    rm = cm.rm
    game = rm.game
    out = []
    partner = {o: c for (o, c), p in cm.pairs.items() if solver.boolean_value(p)}
    for t, roll in enumerate(game.rolls):
        acts: dict[tuple[int, int], Activation] = {}
        copies: set[tuple[int, int]] = set()
        queues: list[list[tuple[int, int]]] = []
        for r, enc in enumerate(rm.encoders):
            q = []
            for e in enc.turn_events(t):
                if not solver.boolean_value(e.active):
                    continue
                src, v, choice = rm.decode_event(solver, enc, e)
                if isinstance(src, FreeCopy):
                    acts[r, e.index] = Activation(SWARM, enc.realm.key, choice)
                    copies.add((r, e.index))
                else:
                    acts[r, e.index] = Activation(src, enc.realm.key, choice, v - src.base_value(roll))
                q.append((r, e.index))
            queues.append(q)
        units = [Unit(a, acts[partner[k]] if k in partner else None, k, partner.get(k))
                 for k, a in acts.items() if k not in copies]
        out.append((units, queues))
    return out


def _key(st: SwarmState) -> tuple:
    return (st.round, st.earned, st.stars, len(st.boxes))


def _play_unit(game: Game, setup: Chapter4, st: SwarmState, u: Unit, t: int, i: int) -> tuple[SwarmState, str | None]:
    """One unit as check_chapter4 plays it: (state, None | 'won' | 'lost'); IllegalAction if illegal."""
    before = st
    st = apply_original(game, setup, st, u.original)
    if exceeds(setup, st):
        return st, "lost"
    if u.copy is None:
        return st, None
    st = apply_copy(game, setup, st, u.original, u.copy)
    if exceeds(setup, st):
        return st, "lost"
    if swarm_box(before, st, game.index(u.original.realm), game.index(u.copy.realm)):
        st = replace(st, boxes=st.boxes + ((t + 1, i + 2),))
        n = len(st.boxes)
        lo, hi = setup.target_range
        judged = n == setup.boxes_to_win or (setup.win_box == "at-least" and n > setup.boxes_to_win)
        if judged and lo <= st.earned.total() <= hi:
            return st, "won"
        if n == setup.boxes_to_win and setup.win_box == "exact":
            return st, "lost"
    return st, None


def turn_orders(game: Game, setup: Chapter4, st: SwarmState, t: int, units: list[Unit],
                queues: list[list[tuple[int, int]]]) -> Iterator[tuple[str, SwarmState, tuple[Activation, ...]]]:
    """Every distinct outcome of playing the turn's units in an order that keeps each realm's
    order: ('won', state, actions) at a winning step, or ('end', state, actions) after the last
    unit (before the turn's end). Losing and illegal orders are dropped."""
    pos = {}
    for q in queues:
        for n, k in enumerate(q):
            pos[k] = n
    realm_of = lambda k: k[0]  # noqa: E731
    seen: set = set()

    def dfs(state: SwarmState, heads: tuple[int, ...], done: frozenset[int], acts: tuple[Activation, ...]):
        key = (heads, done, _key(state))
        if key in seen:
            return
        seen.add(key)
        if len(done) == len(units):
            yield "end", state, acts
            return
        for ui, u in enumerate(units):
            if ui in done:
                continue
            if heads[realm_of(u.at)] != pos[u.at]:
                continue
            if u.copy_at is not None and heads[realm_of(u.copy_at)] != pos[u.copy_at]:
                continue
            try:
                nxt, outcome = _play_unit(game, setup, state, u, t, len(acts))
            except IllegalAction:
                continue
            step = acts + ((u.original,) if u.copy is None else (u.original, u.copy))
            if outcome == "won":
                yield "won", nxt, step
                continue
            if outcome == "lost":
                continue
            h = list(heads)
            h[realm_of(u.at)] += 1
            if u.copy_at is not None:
                h[realm_of(u.copy_at)] += 1
            yield from dfs(nxt, tuple(h), done | {ui}, step)

    yield from dfs(st, tuple(0 for _ in queues), frozenset(), ())


def order_line(cm: Chapter4Model, solver: cp_model.CpSolver, full_game: Game) -> Line | int:
    """A winning line from the solution's turn sets (orders searched jointly over the turns,
    from every state the earlier turns reach), or the first turn t (0-based) after which no
    order continues: the history of turns 0..t is then cut off."""
    setup = cm.setup
    game = full_game
    frontier: dict[tuple, tuple[SwarmState, tuple[TurnPlay, ...]]] = {}
    st0 = begin(game)
    frontier[_key(st0)] = (st0, ())
    plan = turn_units(cm, solver)
    for t, (units, queues) in enumerate(plan):
        nxt: dict[tuple, tuple[SwarmState, tuple[TurnPlay, ...]]] = {}
        for st, played in frontier.values():
            for outcome, end_st, acts in turn_orders(game, setup, st, t, units, queues):
                if outcome == "won":
                    return Line(played + (TurnPlay(game.rolls[t], acts, ()),))
                if t == cm.turns - 1:
                    continue
                if not all(end_st.round.die_spent):
                    continue
                for ends in end_choice_sets(game, end_st.round):
                    try:
                        after = end_turn(game, end_st.round, ends)
                    except IllegalAction:
                        continue
                    s2 = replace(end_st, round=after, stars=realm_stars(game, after))
                    nxt.setdefault(_key(s2), (s2, played + (TurnPlay(game.rolls[t], acts, tuple(sorted(ends.items()))),)))
        if not nxt:
            return t
        frontier = nxt
    return cm.turns - 1


def forbid_history(cm: Chapter4Model, solver: cp_model.CpSolver, t: int) -> None:
    """Cut off this exact play of turns 0..t (its events, sources, values, choices and swarm
    pairs): no order of it continues from any state the earlier turns reach."""
    lits = cm.rm.history_literals(solver, t)
    for ((r, i), _), p in cm.pairs.items():
        e = cm.rm.events[r][i]
        if e.t <= t and solver.boolean_value(p):
            lits.append(p)
    cm.rm.model.add_bool_or([~x for x in lits])


# ---- a quick line from the engine: beam search over the rolled dice ------------------------------

#: partial states kept after each placed die (beam width) and the default turns searched
BEAM_WIDTH = 60


def _beam_score(setup: Chapter4, st: SwarmState) -> tuple:
    """Boxes first, then resources earned (all must reach the target), then stars."""
    return (len(st.boxes), st.earned.total(), sum(st.stars))


#: bought #s per turn in each beam pass of `quick_line` (measured on bench/chapter4.py, 12 turns,
#: normal, seeds 0-5: the dice alone win seed 5 in turn 5, one bought # a turn wins seed 3 in turn
#: 5; on 6-turn easy rounds, seeds 0-7, the dice alone win seeds 1 and 3, one bought # neither)
BEAM_BUYS: tuple[int, ...] = (0, 1)


def quick_line(setup: Chapter4, rolls: Sequence[tuple[int, int]], width: int = BEAM_WIDTH,
               passes: Sequence[int] = BEAM_BUYS) -> Line | None:
    """The first win of the beam passes (one per number of bought #s a turn, in order): a later
    pass runs only when the earlier ones found none (each pass can take a minute on 12 turns)."""
    for buys in passes:
        line = beam_line(setup, rolls, width, buys)
        if line is not None:
            return line
    return None


def beam_line(setup: Chapter4, rolls: Sequence[tuple[int, int]], width: int = BEAM_WIDTH, buys: int = 0) -> Line | None:
    """A winning line found by the checker's own steps (`number_uses`: every pumpkin change,
    realm, choice and swarm copy of a #), keeping the `width` best states after each step: each
    turn places the two rolled dice, then up to `buys` bought #s (copies, created #s; each
    optional). A restriction (a bounded beam): it finds wins, it proves nothing. Every line it
    returns wins by check_chapter4's steps (the caller replays it)."""
    from .chapter4 import number_uses

    game = setup.game(tuple(rolls))
    st0 = begin(game)
    beam: list[tuple[SwarmState, tuple[TurnPlay, ...], tuple[Activation, ...]]] = [(st0, (), ())]
    for t in range(game.turns):
        for phase in ("die", "die") + ("buy",) * buys:
            nxt: dict[tuple, tuple[SwarmState, tuple[TurnPlay, ...], tuple[Activation, ...]]] = {}
            for st, played, acts in beam:
                if phase == "buy":  # buying is optional: the state goes on as it is too
                    nxt.setdefault(_key(st), (st, played, acts))
                    srcs = [s for s in sources(game, st.round) if s.kind != "die" and st.round.resources.covers(s.cost())]
                else:
                    srcs = [Source("die", k) for k in (0, 1) if not st.round.die_spent[k]]
                for src in srcs:
                    for act, copy, _end in number_uses(game, setup, st, src):
                        u = Unit(act, copy, (0, 0), None)
                        try:
                            after, outcome = _play_unit(game, setup, st, u, t, len(acts))
                        except IllegalAction:
                            continue
                        step = acts + ((act,) if copy is None else (act, copy))
                        if outcome == "won":
                            return Line(played + (TurnPlay(game.rolls[t], step, ()),))
                        if outcome == "lost":
                            continue
                        nxt.setdefault(_key(after), (after, played, step))
            beam = sorted(nxt.values(), key=lambda x: _beam_score(setup, x[0]), reverse=True)[:width]
        beam = end_turns(game, beam, t, _key, lambda st: _beam_score(setup, st), width)
        if not beam:
            return None
    return None


# ---- answers -----------------------------------------------------------------------------------

@dataclass
class TurnQuestion:
    """"A win by the end of turn W?": won / impossible (proven) / unknown, with its figures."""

    turn: int
    status: str
    events_per_turn: int
    proven_bound: bool
    cuts: int = 0
    deterministic_time: float = 0.0
    solve_time: float = 0.0
    #: how the question was answered when not by CP-SAT alone
    note: str = ""

    def as_json(self) -> dict[str, Any]:
        return {"turns": self.turn, "status": self.status, "events_per_turn": self.events_per_turn,
                "proven_events_bound": self.proven_bound, "cuts": self.cuts, "note": self.note,
                "deterministic_time": round(self.deterministic_time, 3), "solve_time": round(self.solve_time, 3)}


@dataclass
class Chapter4Result(TurnLadder):
    """The answer to "can these rolls win chapter 4 with this setup, and how early?".

    status: "won" (a line replayed by check_chapter4: won, and every smaller turn count proven
    impossible: the earliest win), "impossible" (proven for every turn count the rolls allow),
    "unknown" (a limit stopped some turn count; a winning line found is still given, its turn
    then not proven the earliest)."""

    setup: Chapter4
    rolls: tuple[tuple[int, int], ...]
    status: str
    questions: list[TurnQuestion] = field(default_factory=list)
    line: Line | None = None
    verdict: Chapter4Verdict | None = None
    solve_time: float = 0.0
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def turns_used(self) -> int | None:
        return len(self.line.turns) if self.line is not None else None

    @property
    def earliest_proven(self) -> bool:
        return self.line is not None and all(q.status == "impossible" for q in self.questions[:-1])

    @property
    def proven_impossible_turns(self) -> list[int]:
        return self.proven_impossible

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "status": self.status,
            "grid": {pos: key for pos, key in zip(GRID_NAMES, self.setup.realms)},
            "target": self.setup.target_text(),
            "difficulty": self.setup.difficulty,
            "win_box": self.setup.win_box,
            "swarm_sources": self.setup.swarm_sources,
            "rolls_turns": len(self.rolls),
            "turns_used": self.turns_used,
            "earliest_proven": self.earliest_proven,
            "proven_impossible_turns": self.proven_impossible_turns,
            "questions": [q.as_json() for q in self.questions],
            "cuts": self.cuts,
            "deterministic_time": round(self.deterministic_time, 3),
            "solve_time": round(self.solve_time, 3),
            "params": self.params,
            "line": None,
        }
        if self.line is not None and self.verdict is not None:
            out["line"] = self.line.to_json()
            out["line_text"] = self.line.to_text()
            v = self.verdict
            out["verdict"] = {"outcome": v.outcome, "turn": v.turn, "action": v.action, "reason": v.reason}
            out["stars"] = list(v.stars)
            out["swarm_boxes"] = [{"turn": t, "action": a} for t, a in v.boxes]
            out["earned"] = v.earned
        return out


def _checked(game: Game, setup: Chapter4, line: Line) -> Chapter4Verdict:
    """The checker's verdict on an ordered model line; anything but won is a bug here."""
    verdict = check_chapter4(game, setup, line)
    if not verdict.won:
        raise ModelDisagreement(f"chapter 4 checker says {verdict.outcome} at turn {verdict.turn}, action "
                                f"{verdict.action} ({verdict.reason}) for a line the solver calls a win:\n{line.to_text()}")
    return verdict


def solve_turns(setup: Chapter4, rolls: Sequence[tuple[int, int]], turns: int, solver: cp_model.CpSolver,
                events_per_turn: int | None = None, hint: Line | None = None,
                on_cut: Callable[[Chapter4Model, cp_model.CpSolver, int], None] | None = None) -> tuple[TurnQuestion, Line | None]:
    """A win by the end of turn `turns` (cut loop): the question's figures and the won line.
    `hint`: a line to hint; `on_cut(cm, solver, t)` sees each solution before its turns 0..t are cut."""
    t0 = time.perf_counter()
    full = setup.game(tuple(rolls))
    bound = events_bound(setup, turns)
    cm = build_chapter4(setup, rolls[:turns], events_per_turn if events_per_turn is not None else bound)
    if hint is not None:
        hint_line(cm, hint)
    proven = cm.events_per_turn >= bound
    budget = solver.parameters.max_deterministic_time
    spent, cuts = 0.0, 0
    q = TurnQuestion(turns, "unknown", cm.events_per_turn, proven)
    while True:
        status = solver.solve(cm.rm.model)
        spent += solver.deterministic_time
        if status == cp_model.INFEASIBLE:
            q.status = "impossible" if proven else "unknown"
            break
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            break
        found = order_line(cm, solver, full)
        if isinstance(found, Line):
            _checked(full, setup, found)
            q.status = "won"
            q.cuts, q.deterministic_time, q.solve_time = cuts, spent, time.perf_counter() - t0
            return q, found
        cuts += 1
        if cuts > MAX_CUTS or (budget and spent >= budget):
            break
        if on_cut is not None:
            on_cut(cm, solver, found)
        forbid_history(cm, solver, found)
        if budget:
            solver.parameters.max_deterministic_time = max(0.1, budget - spent)
    if budget:
        solver.parameters.max_deterministic_time = budget
    q.cuts, q.deterministic_time, q.solve_time = cuts, spent, time.perf_counter() - t0
    return q, None


def solve_chapter4(setup: Chapter4, rolls: Sequence[tuple[int, int]], time_limit: float | None = None,
                   workers: int | None = None, progress: Progress | None = None,
                   events_per_turn: int | None = None, beam: int = BEAM_WIDTH) -> Chapter4Result:
    """The earliest win. First a quick line from the engine (`quick_line`, width `beam`; 0: off):
    it wins at some turn Wb. Then "a win by the end of turn W?" for W = 1, 2, ... below Wb (all
    the rolls' turns without a quick line), each a CP-SAT question (`time_limit` deterministic
    seconds each); the first won W is the answer. The answer is the earliest proven when every
    smaller W is proven impossible (INFEASIBLE with the proven events bound)."""
    rolls = tuple(tuple(r) for r in rolls)  # type: ignore[misc]
    say = progress or (lambda _msg: None)
    t0 = time.perf_counter()
    params = load_params("target")
    res = Chapter4Result(setup, rolls, "unknown")
    quick = quick_line(setup, rolls, beam) if beam > 0 else None
    if quick is not None:
        _checked(setup.game(rolls), setup, quick)
        say(f"chapter 4: quick line (engine beam search) wins at turn {len(quick.turns)}")
    last = len(quick.turns) - 1 if quick is not None else len(rolls)
    for w in range(1, last + 1):
        solver = make_solver(params, time_limit, workers)
        q, line = solve_turns(setup, rolls, w, solver, events_per_turn)
        res.questions.append(q)
        res.params = effective_params(solver)
        say(f"chapter 4: win by turn {w}: {q.status} ({q.deterministic_time:.2f} det-s, {q.cuts} cuts)")
        if line is not None:
            res.status, res.line = "won", line
            break
    if res.line is None and quick is not None:
        res.status, res.line = "won", quick
        res.questions.append(TurnQuestion(len(quick.turns), "won", 0, False, note="quick line (engine beam search)"))
    if res.line is not None:
        res.verdict = check_chapter4(setup.game(rolls), setup, res.line)
        # the earliest-win question: won only when every smaller turn count is proven impossible
        res.status = "won" if res.earliest_proven else "unknown"
    else:
        res.status = "impossible" if res.questions and all(q.status == "impossible" for q in res.questions) else "unknown"
    res.solve_time = time.perf_counter() - t0
    return res


# ---- putting a given line into the model (tests, hints) ----------------------------------------

def line_values(cm: Chapter4Model, line: Line) -> list[tuple[Any, int]]:
    """(variable, value) pairs that put a chapter-4 line's decisions (its first W turns, the
    last one possibly stopped at the win) into the model, swarm pairs included."""
    rm = cm.rm
    out: list[tuple[Any, int]] = []
    for t, turn in enumerate(line.turns[: cm.turns]):
        used = [0] * len(rm.game.realms)
        last: tuple[Activation, tuple[int, int]] | None = None
        for act in turn.actions:
            if not isinstance(act, Activation):
                raise ValueError(f"turn {t + 1}: {act.text()} has no place in a chapter-4 model")
            r = rm.game.index(act.realm)
            evs = rm.encoders[r].turn_events(t)
            if used[r] >= len(evs):
                raise ValueError(f"turn {t + 1}: {act.realm} has more activations than the model's {len(evs)} events")
            e = evs[used[r]]
            used[r] += 1
            if act.source.kind == "swarm":
                assert last is not None, "a swarm copy with no original"
                orig, at = last
                # the copy has the original's value; a shift on a swarm copy (illegal: a rule test)
                # is a copy of v - shift changed by pumpkins to v
                v = orig.source.base_value(turn.roll) + orig.shift
                b = v - act.shift
                src: Source = FreeCopy("create", None, b) if orig.source.kind == "create" else FreeCopy("copy", orig.source.die, b)
                if (at, (r, e.index)) in cm.pairs:  # none for a copy in a non-neighbour (a rule test)
                    out.append((cm.pairs[at, (r, e.index)], 1))
            else:
                src = act.source
                v = src.base_value(turn.roll) + act.shift
                last = (act, (r, e.index))
            out.extend(rm.event_values(r, e, src, v, act.extra, act.choice))
        out.extend(rm.turn_rest_values(t, turn, used))
    return out


def fix_line(cm: Chapter4Model, line: Line) -> None:
    """Force the model to play exactly this line (tests: the model must accept a won line)."""
    cm.rm.fix_values(line_values(cm, line))


def hint_line(cm: Chapter4Model, line: Line) -> None:
    """Hint a known line (a first solution; not a constraint)."""
    cm.rm.hint_values(line_values(cm, line))


# ---- setup choice: the 2 other realms and the layout -------------------------------------------

def layouts(realms: Sequence[str]) -> list[tuple[str, str, str, str]]:
    """The distinct layouts of 4 realms in the 2x2 grid. Only neighbour sets matter to the rules,
    and the square's 8 symmetries (rotations, reflections) keep them, so a layout is fixed by
    which realm lies diagonal to the first: 3 layouts instead of 24 orders."""
    a, *rest = realms
    out = []
    for diag in rest:
        b, c = [x for x in rest if x != diag]
        out.append((a, b, c, diag))  # a top-left, diag bottom-right
    return out


@dataclass
class Candidate:
    """One setup the player may choose: its grid, its answer (or why it was not solved)."""

    grid: tuple[str, str, str, str]
    status: str  # won | impossible | unknown | unsolvable
    answer: Chapter4Result | None = None
    note: str = ""


@dataclass
class FleetResult(SetupChoice):
    """Each choice of the 2 other realms and of the layout, and the best setup (the earliest win)."""

    fleet: tuple[str, ...]
    drawn: tuple[str, str]
    candidates: list[Candidate]
    target: str
    difficulty: str
    solve_time: float = 0.0

    @property
    def best(self) -> Candidate | None:
        """The candidate with a winning line in the fewest turns (ties: the order tried; its
        status says whether that turn is proven the earliest); None if no line wins."""
        won = [c for c in self.candidates if c.answer is not None and c.answer.line is not None]
        return min(won, key=lambda c: c.answer.turns_used or MAX_TURNS) if won else None  # type: ignore[union-attr]

    def as_json(self) -> dict[str, Any]:
        best = self.best
        return {
            "status": self.status, "fleet": list(self.fleet), "drawn": list(self.drawn), "target": self.target,
            "difficulty": self.difficulty, "layout_note": LAYOUT_NOTE,
            "candidates": [{"grid": list(c.grid), "status": c.status, "note": c.note,
                            "turns_used": c.answer.turns_used if c.answer else None,
                            "answer": c.answer.as_json() if c.answer is not None else None} for c in self.candidates],
            "best": list(best.grid) if best else None,
            "solve_time": round(self.solve_time, 3),
        }


LAYOUT_NOTE = ("layouts with the same neighbour sets are the same to the rules (the 2x2 grid's rotations and "
               "reflections keep them): each choice of realms is solved in 3 layouts, one per realm diagonal to the first")


def parse_fleet(fleet: str | Sequence[str], drawn: str | Sequence[str]) -> tuple[tuple[str, ...], tuple[str, str]]:
    """The fleet (6 different non-excluded realms) and the 2 drawn from it; InputError naming the option."""
    f, d = answers.parse_fleet(fleet, drawn, chapter=4, size=FLEET_SIZE, draws=DRAWN, excluded=lambda k: (
        f"chapter 4: {k} is excluded from chapter 4: {EXCLUDED[k]} ({EXCLUSION_RULE})" if k in EXCLUDED else None))
    return f, (d[0], d[1])


def choose_setup(fleet: Sequence[str], drawn: Sequence[str], rolls: Sequence[tuple[int, int]],
                 target: int | tuple[int, int], difficulty: str = "normal", win_box: str = "exact",
                 swarm_sources: str = "every", time_limit: float | None = None, workers: int | None = None,
                 progress: Progress | None = None, beam: int = BEAM_WIDTH) -> FleetResult:
    """Every choice of 2 more realms from the 4 not drawn, each in its 3 layouts: the earliest win
    of each (a realm with no CP-SAT model: `unsolvable`, not decided)."""
    fleet_keys, drawn_keys = parse_fleet(fleet, drawn)
    say = progress or (lambda _msg: None)
    t0 = time.perf_counter()
    rolls = tuple(tuple(r) for r in rolls)  # type: ignore[misc]
    cands: list[Candidate] = []
    rest = [k for k in fleet_keys if k not in drawn_keys]
    for chosen in itertools.combinations(rest, 2):
        for grid in layouts(drawn_keys + chosen):
            unsolvable = [k for k in grid if not is_solvable(get_realm(k))]
            if unsolvable:
                cands.append(Candidate(grid, "unsolvable", None, f"{', '.join(unsolvable)}: no CP-SAT model, not decided"))
                continue
            setup = Chapter4(grid, target, difficulty, win_box=win_box, swarm_sources=swarm_sources)
            say(f"chapter 4: grid {grid[0]} | {grid[1]} / {grid[2]} | {grid[3]} …")
            ans = solve_chapter4(setup, rolls, time_limit, workers, progress, beam=beam)
            cands.append(Candidate(grid, ans.status, ans))
    tgt = str(target) if isinstance(target, int) else f"{target[0]}-{target[1]}"
    return FleetResult(fleet_keys, drawn_keys, cands, tgt, difficulty, time.perf_counter() - t0)


# ---- command line helpers (cli.py wires these) ------------------------------------------------

def parse_grid_option(text: str) -> tuple[str, str, str, str]:
    """'a,b/c,d' (top row / bottom row) or 'a,b,c,d' (reading order): the 4 realms' keys."""
    from .chapter4 import parse_grid

    rows = text.split("/")
    if len(rows) > 2 or (len(rows) == 2 and any(len([x for x in row.split(",") if x.strip()]) != 2 for row in rows)):
        raise InputError(f"--grid: expected 2 rows of 2 realms, top/bottom: a,b/c,d; got {text!r}")
    try:
        return parse_grid(",".join(rows))
    except InputError as exc:
        raise InputError(str(exc.args[0]).replace("--realms", "--grid")) from None


def run_command(rolls_path: str, grid: str | None, target_text: str, difficulty: str = "normal",
                fleet: str | None = None, drawn: str | None = None, win_box: str = "exact",
                swarm_sources: str = "every", time_limit: float | None = None, workers: int | None = None,
                progress: Progress | None = None) -> Chapter4Result | FleetResult:
    """`solve chapter4`: validate the inputs (InputError: one line, exit 2) and ask the question."""
    from ..rolls import load_rolls
    from .chapter4 import parse_target

    check_solver_inputs(time_limit, workers, grid, fleet, drawn, fixed_option="--grid", fixed_text="the 4 realms",
                        fleet_text="the fleet of 6 and the 2 realms drawn from it", chosen_text="2 and the layout")
    try:
        target = parse_target(target_text)
    except InputError as exc:
        raise InputError(str(exc.args[0]).replace("--target", "--resource-target", 1)) from None
    try:  # the target must fit the difficulty (easy: a range of 3); any 4 realms will do to ask
        Chapter4(("euphoria", "scythe", "wingspan", "parks"), target, difficulty)
    except ValueError as exc:
        raise InputError(f"--resource-target: {exc}") from None
    rolls = load_rolls(rolls_path, max_turns=MAX_TURNS)
    if fleet is not None:
        assert drawn is not None
        return choose_setup(fleet, drawn, rolls, target, difficulty, win_box, swarm_sources, time_limit, workers, progress)
    assert grid is not None
    keys = parse_grid_option(grid)
    try:
        setup = Chapter4(keys, target, difficulty, win_box=win_box, swarm_sources=swarm_sources)
    except ValueError as exc:
        raise InputError(f"chapter 4: {exc}") from None
    missing = [k for k in keys if not is_solvable(get_realm(k))]
    if missing:
        raise InputError(f"--grid: {', '.join(missing)} cannot be solved yet (no CP-SAT model); "
                         "`solve check chapter4` checks lines with it")
    if progress:
        progress(f"chapter 4: {' | '.join(keys[:2])} / {' | '.join(keys[2:])}, target {setup.target_text()}, {len(rolls)} turns …")
    return solve_chapter4(setup, rolls, time_limit, workers, progress)


def _turns_words(res: Chapter4Result) -> str:
    used = res.turns_used
    words = f"the rolls give {len(res.rolls)} turn{'s' if len(res.rolls) != 1 else ''} (the chapter has up to {MAX_TURNS})"
    if used is None:
        return words
    proven = ("the earliest: every smaller turn count proven impossible" if res.earliest_proven
              else "not proven the earliest")
    return f"won at turn {used} ({proven}); {words}"


def answer_lines(res: Chapter4Result) -> list[str]:
    """The answer for people: status, the winning line in the line format, the figures."""
    s = res.setup
    head = (f"grid {s.realms[0]} | {s.realms[1]} / {s.realms[2]} | {s.realms[3]}; target {s.target_text()}, "
            f"{s.difficulty}; win_box {s.win_box}, swarm_sources {s.swarm_sources}")
    out = []
    if res.line is not None and res.verdict is not None:
        out.append("line (text format):")
        out.extend(res.line.to_text().rstrip().splitlines())
        word = "WON" if res.status == "won" else "UNKNOWN: a win was found but not proven the earliest; WON"
        out.append(f"{word} at turn {res.verdict.turn}, action {res.verdict.action}: {res.verdict.reason} "
                   f"(checked by check_chapter4) — {head}")
    elif res.status == "impossible":
        out.append(f"IMPOSSIBLE: no line wins by any turn of the rolls, proven (each turn count's model INFEASIBLE "
                   f"with the proven events bound) — {head}")
    else:
        out.append(f"UNKNOWN: no win found and not every turn count proven impossible; this is NOT an answer — {head}")
    out.append(f"  {_turns_words(res)}")
    for q in res.questions:
        how = q.note or (f"CP-SAT, {q.events_per_turn} events per realm and turn"
                         f"{' (the proven bound)' if q.proven_bound else ' (below the proven bound: not a proof)'}")
        out.append(f"  win by turn {q.turn}: {q.status} — {how}; {q.deterministic_time:.2f} det-s, {q.cuts} cut(s)")
    out.append(f"  solve time {res.solve_time:.2f} s (deterministic {res.deterministic_time:.2f})")
    return out


def print_answer(echo: Callable[[str], None], answer: Chapter4Result | FleetResult) -> None:
    """Print the answer line by line through `echo`."""
    if isinstance(answer, Chapter4Result):
        for line in answer_lines(answer):
            echo(line)
        return
    echo(f"chapter 4 setup: drawn {', '.join(answer.drawn)}; 2 more from the fleet and the layout")
    for c in answer.candidates:
        g = c.grid
        detail = c.note
        if c.answer is not None:
            detail = (f"won at turn {c.answer.turns_used}" + ("" if c.status == "won" else " (not proven the earliest)")
                      if c.answer.line is not None else
                      "proven: no win" if c.status == "impossible" else "time limit: not decided")
        echo(f"  {g[0]} | {g[1]} / {g[2]} | {g[3]}: {c.status.upper()} — {detail}")
    echo(f"note: {LAYOUT_NOTE}")
    best = answer.best
    if best is None:
        echo("IMPOSSIBLE: no setup wins (each proven)" if answer.status == "impossible" else
             "UNKNOWN: no winning setup found, and not every setup is proven impossible")
        return
    echo(f"BEST SETUP: {best.grid[0]} | {best.grid[1]} / {best.grid[2]} | {best.grid[3]}")
    assert best.answer is not None
    print_answer(echo, best.answer)
