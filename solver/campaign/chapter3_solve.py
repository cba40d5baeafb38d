"""Solving campaign chapter 3, the Boss Monster (docs/campaign-chapter3.md, "Solving").

The question "can these rolls defeat the Boss in turn W?" is the CP-SAT round model
(solver/model.py, a turn-set relaxation of the base rules) over the first W rolls plus chapter
3's rules (seed 003; solver/campaign/chapter3.py is the judge), each a *sound relaxation* of the
checker's rule, so every line the checker calls won at turn W is still a solution:

- every rolled die is used in every turn before W (compensation is off; W's other die may stay);
- damage space j is marked by one activation `mark[...]`: a resource space by an activation of
  the realm next to the Boss in that turn that gains the resource (its `add_gain` terms), a star
  space by an activation in that turn while the realm next to the Boss scores (star marks
  credited to a realm <= its stars; an activation of that realm itself unless it scores from the
  others, like Between Two Cities and My Little Scythe);
- at most one mark per activation; marks in track order (turn of space j <= turn of j + 1, and
  in one turn the order of the neighbouring realm's own activations);
- the last space is marked in turn W; resources earned per kind <= 11 (the 12th loses).

The per-step rules the order-free model cannot see (marking is automatic, the moment it is
met; stars rise at a given step) are judged by a search over every order of the solution's
turns 1..t together (`order_history`, the checker's rules step by step, states deduplicated):
a won order is replayed by `check_chapter3` and returned; when no order of turns 1..t survives,
exactly that history is cut off (`RoundModel.history_literals` plus the realms' end-of-turn
choices) and the model solved again. INFEASIBLE (cuts included) proves no win at turn W.
"Earliest" asks W over the target turns in order; it is proven earliest only when every earlier
W was proven impossible.
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

from ortools.sat.python import cp_model

from ..engine import Game, RoundState, apply_activation, end_turn, realm_stars, start
from ..errors import IllegalAction, InputError
from ..line import Activation, Line, Source, TurnPlay
from ..model import Event, ModelOptions, RoundModel, extras_bound
from ..realms import get_realm, is_solvable
from ..realms.base import Realm, TurnEnd, Use
from ..resources import KINDS, Resources
from ..solve import MAX_CUTS, ModelDisagreement, effective_params, load_params, make_solver
from . import answers
from .answers import Progress, SetupChoice, TurnLadder, check_solver_inputs, combined_status
from .chapter3_search import quick_line
from .chapter3 import (
    EARN_LIMIT,
    TURNS,
    Chapter3,
    Chapter3Verdict,
    activation_effect,
    check_chapter3,
    damage_hit,
    setup_from_inputs,
)

#: the most 3-pumpkin activations of a whole chapter: each costs 3 pumpkins, paid before the
#: activation's own gain, from pumpkins earned earlier (at most EARN_LIMIT - 1 = 11)
MAX_EXTRAS = (EARN_LIMIT - 1) // 3
#: the fleet (seed 003, campaign setup) and the realms drawn from it; the player adds 1
FLEET_SIZE = 5
DRAWN = 2

Lit = Any


def scores_from_others(realm: Realm) -> bool:
    """A realm whose stars can rise while another realm is activated (Between Two Cities reads
    the others' stars, My Little Scythe every resource earned): its own hooks are overridden."""
    cls = type(realm)
    return cls.stars_in_round is not Realm.stars_in_round or cls.observe_gain is not Realm.observe_gain


# ---- the model ---------------------------------------------------------------------------------

class Chapter3Model:
    """The round model of turns 1..W with the damage marks: `marks[j, r, i]` is true when space j
    of the track is marked by event i of realm r (`mark[space2=P,t3,parks#1]`). Which marks can
    be true is left to the rules (CHAPTER3_RULES), so a test can drop any one of them."""

    def __init__(self, setup: Chapter3, rolls: Sequence[tuple[int, int]], win_turn: int,
                 options: ModelOptions | None = None) -> None:
        self.setup = setup
        self.win_turn = win_turn
        game = setup.game(tuple(rolls[:win_turn]))
        if options is None:
            most = max(extras_bound(game, t) for t in range(game.turns))
            options = ModelOptions(extras=min(MAX_EXTRAS, most))
        self.rm = RoundModel(game, options)
        m = self.rm.model
        self.marks: dict[tuple[int, int, int], Lit] = {}
        for j, sym in enumerate(setup.track):
            for r, evs in enumerate(self.rm.events):
                for e in evs:
                    x = m.new_bool_var(f"mark[space{j + 1}={sym},{e.tag}]")
                    m.add_implication(x, e.active)
                    self.marks[j, r, e.index] = x
            # a space is marked at most once
            m.add(sum(self.space_marks(j)) <= 1)

    @property
    def game(self) -> Game:
        return self.rm.game

    def event(self, r: int, i: int) -> Event:
        return self.rm.events[r][i]

    def space_marks(self, j: int) -> list[Lit]:
        return [x for (jj, _, _), x in self.marks.items() if jj == j]

    def event_marks(self, e: Event) -> list[Lit]:
        return [x for (_, r, i), x in self.marks.items() if r == e.realm and i == e.index]

    def turn_of(self, j: int) -> Any:
        """The (0-based) turn space j is marked in, as a linear expression (0 when unmarked)."""
        return sum(self.event(r, i).t * x for (jj, r, i), x in self.marks.items() if jj == j)

    def marked(self, j: int) -> Any:
        return sum(self.space_marks(j))

    def marked_by(self, j: int, t: int) -> Any:
        """1 when space j is marked in (0-based) turn t or before, as a linear expression."""
        return sum(x for (jj, r, i), x in self.marks.items() if jj == j and self.event(r, i).t <= t)

    def neighbour(self, t: int) -> int:
        """The realm next to the Boss in 0-based turn t (every place neighbours exactly one)."""
        (r,) = self.setup.neighbours(t)
        return r


def all_dice_used_before_win(cm: Chapter3Model) -> None:
    """Every rolled die is used in each turn before W: a # that cannot be used loses, one that
    could be used but is not is illegal. The winning turn stops at the winning step."""
    rm = cm.rm
    for t in range(cm.win_turn - 1):
        for k in (0, 1):
            rm.model.add(sum(e.use[Source("die", k)] for evs in rm.events for e in evs if e.t == t) == 1)


def marks_next_to_boss(cm: Chapter3Model) -> None:
    """A resource space is marked only by an activation of the realm next to the Boss in that
    turn; a star space by one of that realm too, or of any realm when the neighbour scores from
    the others (its stars can rise with another realm's step)."""
    for (j, r, i), x in cm.marks.items():
        t = cm.event(r, i).t
        nb = cm.neighbour(t)
        if r == nb:
            continue
        if cm.setup.track[j] == "S" and scores_from_others(cm.game.realms[nb]):
            continue
        cm.rm.model.add(x == 0)


def resource_marks_gain_it(cm: Chapter3Model) -> None:
    """A P/H/C space needs the marking activation to gain that resource (the card's gain)."""
    for (j, r, i), x in cm.marks.items():
        sym = cm.setup.track[j]
        if sym == "S":
            continue
        gain = cm.rm.encoders[r].gain.get(i, {}).get(sym, 0)
        cm.rm.model.add(gain >= 1).only_enforce_if(x)


def star_marks_within_stars(cm: Chapter3Model) -> None:
    """Each star space is a star scored by the realm next to the Boss at that step, and a
    realm's stars never go down: the star marks credited to a realm are at most its stars."""
    credited: dict[int, list[Lit]] = {}
    for (j, r, i), x in cm.marks.items():
        if cm.setup.track[j] == "S":
            credited.setdefault(cm.neighbour(cm.event(r, i).t), []).append(x)
    for nb, xs in credited.items():
        cm.rm.model.add(sum(xs) <= cm.rm.realm_stars[nb])


def one_mark_per_activation(cm: Chapter3Model) -> None:
    """'You can't mark more than 1 space per realm activation.'"""
    for evs in cm.rm.events:
        for e in evs:
            cm.rm.model.add(sum(cm.event_marks(e)) <= 1)


def marks_in_track_order(cm: Chapter3Model) -> None:
    """The leftmost unmarked space is the one marked: space j + 1 is marked in the same turn as
    space j or later, and within a turn not by an earlier activation. Marks of one turn are steps of the realm next
    to the Boss (unless it scores from the others), whose own activations keep their order."""
    m = cm.rm.model
    n = len(cm.setup.track)
    for j in range(n - 1):
        # by the end of every turn, space j + 1 is marked only if space j is (prefix sums: a
        # tighter LP than comparing the turns of the two marks)
        for t in range(cm.win_turn):
            m.add(cm.marked_by(j + 1, t) <= cm.marked_by(j, t))
        for t in range(cm.win_turn):
            nb = cm.neighbour(t)
            if cm.setup.track[j] == "S" and scores_from_others(cm.game.realms[nb]):
                continue
            if cm.setup.track[j + 1] == "S" and scores_from_others(cm.game.realms[nb]):
                continue
            evs = cm.rm.encoders[nb].turn_events(t)
            for a, b in itertools.product(evs, evs):
                if a.index > b.index:  # one event marking both: one_mark_per_activation's to forbid
                    m.add_bool_or([~cm.marks[j, nb, a.index], ~cm.marks[j + 1, nb, b.index]])


def resource_marks_automatic(cm: Chapter3Model) -> None:
    """Marking is automatic: an activation of the realm next to the Boss that gains the resource
    of the leftmost unmarked space marks it (the model may not save it for later). "Before" is
    the order of the neighbour's activations, turn by turn, which is the order of the marks when
    no realm of the row scores from the others (otherwise a star mark may sit on another
    realm's step of the same turn: the rule is then left to the cuts)."""
    if any(scores_from_others(r) for r in cm.game.realms):
        return
    m = cm.rm.model
    track = cm.setup.track
    for t in range(cm.win_turn):
        nb = cm.neighbour(t)
        enc = cm.rm.encoders[nb]
        for e in enc.turn_events(t):
            def before(j: int) -> Any:
                return sum(x for (jj, r, i), x in cm.marks.items()
                           if jj == j and (cm.event(r, i).t < t or (cm.event(r, i).t == t and r == nb and i < e.index)))
            for j, sym in enumerate(track):
                if sym == "S":
                    continue
                gain = enc.gain.get(e.index, {}).get(sym, 0)
                if isinstance(gain, int) and gain == 0:
                    continue
                g = m.new_bool_var(f"gains[{sym},{e.tag}]")
                m.add(gain <= 0).only_enforce_if(~g)
                prev = before(j - 1) if j else 1
                m.add(cm.marks[j, nb, e.index] >= prev - before(j) + g - 1)


def last_space_in_turn_w(cm: Chapter3Model) -> None:
    """The win: every space marked, the last one in turn W (a target turn; easy: any turn)."""
    m = cm.rm.model
    n = len(cm.setup.track)
    for j in range(n):
        m.add(cm.marked(j) == 1)
    m.add(sum(x for (j, r, i), x in cm.marks.items() if j == n - 1 and cm.event(r, i).t == cm.win_turn - 1) == 1)


def earn_limit(cm: Chapter3Model) -> None:
    """The 12th earned resource of a kind (spent or not) loses at once: at most 11 of each kind
    earned up to the win. With the reading `same_step=won` the winning step may earn the 12th,
    so only the turns before W are bounded."""
    rm = cm.rm
    last = cm.win_turn if cm.setup.same_step == "lost" else cm.win_turn - 1
    for K in KINDS:
        rm.model.add(sum(rm.gains(t, K) for t in range(last)) <= EARN_LIMIT - 1)


def extras_within_pumpkins(cm: Chapter3Model) -> None:
    """Redundant: a 3-pumpkin activation pays 3 pumpkins, earned before it (at most 11), so a
    chapter has at most 3 of them; each turn also keeps the round model's own bound."""
    rm = cm.rm
    every = [e.extra for evs in rm.events for e in evs]
    rm.model.add(sum(every) <= MAX_EXTRAS)
    for t in range(rm.game.turns):
        rm.model.add(rm.turn_extras(t) <= extras_bound(rm.game, t))


#: chapter 3's rules as constraints, each a sound relaxation of the checker's rule (tests drop
#: them one by one: each has an instance whose only 'win' breaks it)
CHAPTER3_RULES: tuple[Callable[[Chapter3Model], None], ...] = (
    all_dice_used_before_win,
    marks_next_to_boss,
    resource_marks_gain_it,
    star_marks_within_stars,
    one_mark_per_activation,
    marks_in_track_order,
    last_space_in_turn_w,
    earn_limit,
)
#: sound rules measured and not kept by default (docs/campaign-chapter3.md, "Measured"): the
#: automatic resource marks cut histories the model would otherwise learn by cuts, but made
#: the 12-instance benchmark worse (5 wins instead of 6 at 10 det-s per turn)
CHAPTER3_TRIED: tuple[Callable[[Chapter3Model], None], ...] = (resource_marks_automatic,)
#: implied by the rules (they remove no win); kept because they help the proofs (measured)
CHAPTER3_REDUNDANT: tuple[Callable[[Chapter3Model], None], ...] = (extras_within_pumpkins,)


def build_chapter3(setup: Chapter3, rolls: Sequence[tuple[int, int]], win_turn: int,
                   options: ModelOptions | None = None,
                   rules: Sequence[Callable[[Chapter3Model], None]] = CHAPTER3_RULES + CHAPTER3_REDUNDANT) -> Chapter3Model:
    """The model of "the Boss is defeated in turn `win_turn`" over the first win_turn rolls."""
    cm = Chapter3Model(setup, rolls, win_turn, options)
    for rule in rules:
        rule(cm)
    return cm


# ---- the checker's rules step by step over every order of the model's turns -------------------

TurnSets = list[tuple[list[list[Activation]], list[Any], list[tuple[str, Any]]]]


def order_history(game: Game, setup: Chapter3, sets: TurnSets, win_turn: int) -> Line | int:
    """A won line whose turns 1..W play the model's action sets (each realm's activations of a
    turn in their order, the realms interleaved in every way), or the first 0-based turn t such
    that no order of turns 1..t together survives the chapter's rules.

    The chapter's state after a turn depends on the order of its steps (marks are automatic, the
    moment a gain or star matches), so every order of every turn is followed, states
    deduplicated (sheet state, marks, resources earned). A line stops when it is lost or illegal
    by the checker's rules (an illegal step, the 12th resource, the last space marked outside
    the target, a die unused, the target passed), or when turn W's steps end without the win."""
    track = setup.track
    target = set(setup.target_turns)
    st0 = start(game)
    frontier: dict[tuple, tuple[RoundState, tuple[int, ...], Resources, int, tuple[TurnPlay, ...]]] = {
        (st0, 0, Resources()): (st0, realm_stars(game, st0), Resources(), 0, ())}
    for t in range(win_turn):
        per_realm, _comps, end = sets[t]
        queues = [q for q in per_realm if q]
        roll = game.rolls[t]
        nb = setup.neighbours(t)
        last = t == win_turn - 1
        survivors: dict[tuple, tuple[RoundState, tuple[int, ...], Resources, int, tuple[TurnPlay, ...]]] = {}
        for st_start, stars_start, earned_start, marks_start, prefix in frontier.values():
            seen: set = set()

            def dfs(st: RoundState, stars: tuple[int, ...], earned: Resources, marks: int,
                    heads: tuple[int, ...], done: tuple[Activation, ...]) -> Line | None:
                key = (heads, st, marks, earned)
                if key in seen:
                    return None
                seen.add(key)
                if all(h == len(q) for h, q in zip(heads, queues)):
                    if last or not all(st.die_spent) or t + 1 >= setup.turns:
                        return None
                    if setup.unwinnable == "lost" and t + 1 >= setup.target_turns[-1]:
                        return None
                    try:
                        nxt = end_turn(game, st, dict(end))
                    except IllegalAction:
                        return None
                    survivors.setdefault((nxt, marks, earned), (nxt, realm_stars(game, nxt), earned, marks,
                                                                prefix + (TurnPlay(roll, done, tuple(end)),)))
                    return None
                for qi, q in enumerate(queues):
                    if heads[qi] == len(q):
                        continue
                    act = q[heads[qi]]
                    try:
                        after = apply_activation(game, st, act)
                    except IllegalAction:
                        continue
                    gain = activation_effect(game, st, act).gain
                    now = realm_stars(game, after)
                    earned2 = earned + gain
                    hit = False
                    if marks < len(track) and damage_hit(track[marks], nb, game.index(act.realm), gain, stars, now) is not None:
                        hit = True
                    marks2 = marks + hit
                    over = any(earned2.get(k) >= EARN_LIMIT for k in KINDS)
                    finished = hit and marks2 == len(track)
                    if finished and t + 1 in target and (not over or setup.same_step == "won"):
                        return Line(prefix + (TurnPlay(roll, done + (act,), ()),))
                    if over or finished:
                        continue  # lost (12th resource; last space outside the target) or unwinnable
                    found = dfs(after, now, earned2, marks2, heads[:qi] + (heads[qi] + 1,) + heads[qi + 1:], done + (act,))
                    if found is not None:
                        return found
                return None

            won = dfs(st_start, stars_start, earned_start, marks_start, tuple(0 for _ in queues), ())
            if won is not None:
                return won
        if not survivors:
            return t
        frontier = survivors
    return win_turn - 1  # not reached: the last turn never survives without the win


def history_cut(cm: Chapter3Model, solver: cp_model.CpSolver, t: int) -> list[Lit]:
    """Literals pinning every decision of turns 0..t: the model's history (actions, choices and
    the realms' end-of-turn choices, which change later sheets; `RoundModel.history_literals`)."""
    return list(cm.rm.history_literals(solver, t))


def realm_star_rises(game: Game, r: int, sets: TurnSets, turns: int) -> list[list[bool]] | None:
    """Per turn, for each activation of realm r in its order: does r's star count (capped) rise?

    For a realm that does not score from the others, its sheet changes only with its own
    activations (value, source, choice) and its end-of-turn steps, so this follows r alone; None
    when the card refuses a step (the full order search then judges the solution)."""
    realm = game.realms[r]
    rules = game.rules
    sheet = realm.initial(rules)
    out: list[list[bool]] = []
    for t in range(turns):
        roll = game.rolls[t]
        rises = []
        placed = [False, False]
        for act in sets[t][0][r]:
            before = min(rules.star_cap, realm.stars(sheet, rules))
            value = act.source.base_value(roll) + act.shift
            try:
                sheet = realm.apply(sheet, Use(value, act.source, roll, t), act.choice, rules).state
            except IllegalAction:
                return None
            rises.append(min(rules.star_cap, realm.stars(sheet, rules)) > before)
            if act.source.kind == "die" and act.source.die is not None:
                placed[act.source.die] = True
        out.append(rises)
        if t + 1 < turns:
            info = TurnEnd(roll, (placed[0], placed[1]), t, t == game.turns - 1)
            wanted = dict(sets[t][2]).get(realm.key, ())
            opts = dict(realm.end_turn_options(sheet, info, rules))
            if wanted not in opts:
                return None
            sheet = opts[wanted]
    return out


def star_cuts(cm: Chapter3Model, solver: cp_model.CpSolver, game: Game, sets: TurnSets) -> list[list[Lit]]:
    """No-goods for star marks the model put on an activation of a realm whose stars do not rise
    there (`realm_star_rises`: it depends on that realm's own decisions only): that realm's
    decisions up to that turn and the mark cannot go together. Realms that score from the others
    are left to the full order search."""
    rm = cm.rm
    cuts: list[list[Lit]] = []
    rises: dict[int, list[list[bool]] | None] = {}
    for (j, r, i), x in cm.marks.items():
        if cm.setup.track[j] != "S" or not solver.boolean_value(x):
            continue
        if scores_from_others(game.realms[r]):
            continue
        if r not in rises:
            rises[r] = realm_star_rises(game, r, sets, cm.win_turn)
        steps = rises[r]
        e = cm.event(r, i)
        if steps is None:
            continue
        k = sum(1 for o in rm.encoders[r].turn_events(e.t) if o.index < e.index)
        if k < len(steps[e.t]) and not steps[e.t][k]:
            cuts.append(realm_history_literals(cm, solver, r, e.t) + [x])
    return cuts


def realm_history_literals(cm: Chapter3Model, solver: cp_model.CpSolver, r: int, t: int) -> list[Lit]:
    """Literals pinning every decision of realm r in turns 0..t, its end-of-turn choices included."""
    return cm.rm.history_literals(solver, t, {r})


def _checked(game: Game, setup: Chapter3, line: Line) -> Chapter3Verdict:
    """The checker's verdict on a line the search calls won; anything else is a bug."""
    verdict = check_chapter3(game, setup, line)
    if not verdict.won:
        raise ModelDisagreement(f"chapter 3 checker says {verdict.outcome} at turn {verdict.turn} ({verdict.reason}) "
                                f"for a line the solver calls a win:\n{line.to_text()}")
    return verdict


def _run(cm: Chapter3Model, game: Game, solver: cp_model.CpSolver) -> tuple[str, Line | None, int, float]:
    """Solve with cuts until a won line, a proof (INFEASIBLE) or the limit:
    (status won/impossible/unknown, line, cuts, deterministic time)."""
    budget = solver.parameters.max_deterministic_time
    spent, cuts = 0.0, 0
    while True:
        status = solver.solve(cm.rm.model)
        spent += solver.deterministic_time
        if status == cp_model.INFEASIBLE:
            return "impossible", None, cuts, spent
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return "unknown", None, cuts, spent
        sets = cm.rm.turn_sets(solver)
        local = star_cuts(cm, solver, game, sets)
        if not local:
            found = order_history(game, cm.setup, sets, cm.win_turn)
            if isinstance(found, Line):
                return "won", found, cuts, spent
            local = [history_cut(cm, solver, found)]
        cuts += 1
        if cuts > MAX_CUTS or (budget and spent >= budget):
            return "unknown", None, cuts, spent
        for lits in local:
            cm.rm.model.add_bool_or([~x for x in lits])
        if budget:
            solver.parameters.max_deterministic_time = max(0.1, budget - spent)


# ---- answers -----------------------------------------------------------------------------------

#: a target turn past the last roll of the rolls file: not asked (counts as not decided)
NO_ROLLS = "no-rolls"


@dataclass
class TurnQuestion:
    """"Is the Boss defeated in turn W?": won (a checked line), impossible (INFEASIBLE, cuts
    included) or unknown (the limit)."""

    turn: int
    status: str
    cuts: int = 0
    deterministic_time: float = 0.0
    solve_time: float = 0.0
    #: how the question was answered when not by CP-SAT ("quick line (engine beam search)")
    note: str = ""

    def how(self) -> str:
        if self.note:
            return f"{self.note}: line found (checked)"
        return {"won": "line found (checked)", "impossible": f"proven: INFEASIBLE ({self.cuts} cut(s))",
                "unknown": f"limit hit: not decided ({self.cuts} cut(s))",
                NO_ROLLS: "not asked: the rolls stop before this turn"}[self.status]

    def as_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "status": self.status, "cuts": self.cuts, "note": self.note,
                "deterministic_time": round(self.deterministic_time, 3), "solve_time": round(self.solve_time, 3)}


@dataclass
class Chapter3Result(TurnLadder):
    """The earliest Boss defeat with these rolls and this setup, and how far it is proven.

    status: "won" (a line, replayed by check_chapter3: won; `proven_earliest` when every earlier
    target turn was proven impossible), "impossible" (every target turn proven INFEASIBLE) or
    "unknown" (a limit stopped a question and nothing won). `questions` lists each turn asked."""

    setup: Chapter3
    rolls: tuple[tuple[int, int], ...]
    status: str
    questions: list[TurnQuestion] = field(default_factory=list)
    line: Line | None = None
    verdict: Chapter3Verdict | None = None
    solve_time: float = 0.0
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def turns(self) -> int:
        return len(self.rolls)

    @property
    def win_turn(self) -> int | None:
        return self.verdict.turn if self.verdict is not None else None

    @property
    def proven_earliest(self) -> bool:
        """Won, and every target turn before the win was proven impossible."""
        w = self.win_turn
        return w is not None and all(q.status == "impossible" for q in self.questions if q.turn < w)

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "status": self.status,
            "realms": list(self.setup.realms),
            "track": list(self.setup.track),
            "turn_target": list(self.setup.turn_target),
            "difficulty": self.setup.difficulty,
            "boss_path": list(self.setup.boss_path),
            "options": {"unwinnable": self.setup.unwinnable, "same_step": self.setup.same_step},
            "turns": self.turns,
            "win_turn": self.win_turn,
            "proven_earliest": self.proven_earliest,
            "proven_impossible_turns": self.proven_impossible,
            "questions": [q.as_json() for q in self.questions],
            "cuts": self.cuts,
            "deterministic_time": round(self.deterministic_time, 3),
            "solve_time": round(self.solve_time, 3),
            "params": self.params,
            "line": None,
        }
        if self.line is not None and self.verdict is not None:
            v = self.verdict
            out["line"] = self.line.to_json()
            out["line_text"] = self.line.to_text()
            out["verdict"] = {"outcome": v.outcome, "turn": v.turn, "action": v.action, "reason": v.reason}
            out["marks"] = [{"turn": m.turn, "action": m.action, "realm": m.realm, "space": m.symbol} for m in v.marks]
            out["stars"] = list(v.stars)
            out["earned"] = {k: v.earned.get(k) for k in KINDS}
        return out


def solve_chapter3(
    setup: Chapter3,
    rolls: Sequence[tuple[int, int]],
    time_limit: float | None = None,
    workers: int | None = None,
    options: ModelOptions | None = None,
    progress: Progress | None = None,
    turns: Sequence[int] | None = None,
    beam: bool = True,
) -> Chapter3Result:
    """The earliest turn the Boss can be defeated. First a quick line from the engine
    (chapter3_search.quick_line; `beam=False`: off), checked: it wins in some target turn Wb.
    Then W = each target turn (easy: 1, 2, ...) before Wb in order, each its own CP-SAT question;
    stop at the first checked win (else the quick line). `time_limit` (deterministic seconds) is
    per question; `turns` restricts the turns asked (tests, benchmarks)."""
    rolls = tuple(tuple(r) for r in rolls)  # type: ignore[misc]
    say = progress or (lambda _msg: None)
    t0 = time.perf_counter()
    game = setup.game(rolls)
    asked = [w for w in setup.target_turns if turns is None or w in turns]
    result = Chapter3Result(setup, rolls, "unknown")
    params = load_params("target")
    quick = quick_line(setup, rolls, progress=progress) if beam and asked else None
    quick_verdict = _checked(game, setup, quick) if quick is not None else None
    if quick is not None:
        say(f"chapter 3: quick line (engine beam search) wins in turn {len(quick.turns)}")
    for w in asked:
        if w > len(rolls):
            result.questions.append(TurnQuestion(w, NO_ROLLS))
            continue
        if quick is not None and quick_verdict is not None and w == quick_verdict.turn:
            result.line, result.verdict = quick, quick_verdict
            result.questions.append(TurnQuestion(w, "won", note="quick line (engine beam search)"))
            break
        q0 = time.perf_counter()
        cm = build_chapter3(setup, rolls, w, options)
        solver = make_solver(params, time_limit, workers)
        status, line, cuts, det = _run(cm, game, solver)
        result.params = effective_params(solver)
        result.questions.append(TurnQuestion(w, status, cuts, det, time.perf_counter() - q0))
        say(f"chapter 3: Boss defeated in turn {w}? {status} ({det:.2f} det-s, {cuts} cut(s))")
        if line is not None:
            result.line, result.verdict = line, _checked(game, setup, line)
            early = [q.turn for q in result.questions if q.status == "impossible" and q.turn >= (result.win_turn or w)]
            if early:
                raise ModelDisagreement(f"a line wins in turn {result.win_turn}, proven impossible before:\n{line.to_text()}")
            break
    result.status = combined_status([q.status for q in result.questions]) if result.questions else "unknown"
    result.solve_time = time.perf_counter() - t0
    return result


# ---- setup choice: the third realm and the row order -----------------------------------------

#: a fleet row not asked: an earlier row already wins in the first target turn
SKIPPED = "skipped"


@dataclass
class Candidate:
    """One row (drawn, drawn and chosen realms in some order) and its answer."""

    realms: tuple[str, str, str]
    status: str  # won | impossible | unknown | unsolvable | skipped
    answer: Chapter3Result | None = None
    note: str = ""
    #: the realm chosen from the fleet (the other two were drawn)
    third: str = ""

    def as_json(self) -> dict[str, Any]:
        a = self.answer
        return {"realms": list(self.realms), "third": self.third, "status": self.status, "note": self.note,
                "win_turn": a.win_turn if a else None, "proven_earliest": a.proven_earliest if a else False,
                "answer": a.as_json() if a else None}


@dataclass
class FleetResult(SetupChoice):
    """Every choice of the third realm in every row order, and the best row (earliest win)."""

    fleet: tuple[str, ...]
    drawn: tuple[str, str]
    candidates: list[Candidate]
    turns: int
    solve_time: float = 0.0

    @property
    def best(self) -> Candidate | None:
        """The winning row with the earliest Boss defeat (ties: fleet order, then row order)."""
        won = [c for c in self.candidates if c.status == "won" and c.answer is not None]
        return min(won, key=lambda c: c.answer.win_turn or TURNS) if won else None  # type: ignore[union-attr]

    def as_json(self) -> dict[str, Any]:
        best = self.best
        return {
            "status": self.status,
            "fleet": list(self.fleet),
            "drawn": list(self.drawn),
            "turns": self.turns,
            "candidates": [c.as_json() for c in self.candidates],
            "best": list(best.realms) if best else None,
            "best_win_turn": best.answer.win_turn if best and best.answer else None,
            "solve_time": round(self.solve_time, 3),
        }


def parse_fleet(fleet: str | Sequence[str], drawn: str | Sequence[str]) -> tuple[tuple[str, ...], tuple[str, str]]:
    """The fleet (5 different realms) and the 2 drawn from it; InputError naming the option."""
    f, d = answers.parse_fleet(fleet, drawn, chapter=3, size=FLEET_SIZE, draws=DRAWN)
    return f, (d[0], d[1])


def choose_setup(
    fleet: Sequence[str] | str,
    drawn: Sequence[str] | str,
    base: Chapter3,
    rolls: Sequence[tuple[int, int]],
    time_limit: float | None = None,
    workers: int | None = None,
    options: ModelOptions | None = None,
    progress: Progress | None = None,
    beam: bool = True,
    every_row: bool = False,
) -> FleetResult:
    """Each fleet realm not drawn as the third realm, in each of the 6 row orders (the Boss's
    neighbours depend on the order): its earliest win. `base` gives the track, target, path.
    Rows are asked in the tie-break order of `FleetResult.best`, so once a row wins in the first
    target turn (no row can win earlier, and ties go to the earlier row) the rest are listed as
    `skipped`, not asked (`every_row=True` asks them all)."""
    fleet_keys, drawn_keys = parse_fleet(fleet, drawn)
    say = progress or (lambda _msg: None)
    t0 = time.perf_counter()
    rolls = tuple(tuple(r) for r in rolls)  # type: ignore[misc]
    cands: list[Candidate] = []
    first = base.target_turns[0]
    done = False
    for third in (k for k in fleet_keys if k not in drawn_keys):
        for row in itertools.permutations((drawn_keys[0], drawn_keys[1], third)):
            if done:
                cands.append(Candidate(row, SKIPPED, None, f"not asked: an earlier row wins in turn {first}, the first "
                                                           f"target turn", third))
                continue
            if not is_solvable(get_realm(third)):
                cands.append(Candidate(row, "unsolvable", None, f"{third} has no CP-SAT model: not decided", third))
                continue
            say(f"chapter 3: row {', '.join(row)} …")
            res = solve_chapter3(replace(base, realms=row), rolls, time_limit, workers, options, progress, beam=beam)
            cands.append(Candidate(row, res.status, res, "", third))
            say(f"chapter 3: row {', '.join(row)}: {res.status}" + (f" in turn {res.win_turn}" if res.win_turn else ""))
            if not every_row and res.status == "won" and res.win_turn == first:
                done = True
    return FleetResult(fleet_keys, drawn_keys, cands, len(rolls), time.perf_counter() - t0)


# ---- command line helpers (cli.py wires these) ----------------------------------------------

def run_command(
    rolls_path: str,
    realms: str | None,
    fleet: str | None,
    drawn: str | None,
    difficulty: str = "normal",
    *,
    track: str | None = None,
    tracks_path: str | None = None,
    damage_roll: int | None = None,
    turn_target: str | None = None,
    boss_path_file: str | None = None,
    unwinnable: str = "lost",
    same_step: str = "lost",
    time_limit: float | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
    quick: bool = True,
    every_row: bool = False,
) -> Chapter3Result | FleetResult:
    """`solve chapter3`: validate the inputs (InputError: one line, exit 2) and ask the question."""
    from ..commands import parse_realm_list
    from ..rolls import load_rolls

    check_solver_inputs(time_limit, workers, realms, fleet, drawn, fixed_option="--realms", fixed_text="the row",
                        fleet_text="the fleet of 5 and the 2 realms drawn from it", chosen_text="the third realm and the order")
    if fleet is not None:
        assert drawn is not None
        fleet_keys, drawn_keys = parse_fleet(fleet, drawn)
        row: tuple[str, ...] = (drawn_keys[0], drawn_keys[1], next(k for k in fleet_keys if k not in drawn_keys))
    else:
        assert realms is not None
        row = parse_realm_list(realms)
        missing = [k for k in row if not is_solvable(get_realm(k))]
        if missing:
            raise InputError(f"--realms: {', '.join(missing)} cannot be solved yet (no CP-SAT model)")
    setup = setup_from_inputs(row, difficulty, track=track, tracks_path=tracks_path, damage_roll=damage_roll,
                              turn_target=turn_target, boss_path_file=boss_path_file, unwinnable=unwinnable,
                              same_step=same_step)
    rolls = load_rolls(rolls_path, max_turns=TURNS)
    if setup.turn_target and setup.turn_target[0] > len(rolls):
        raise InputError(f"--turn-target {setup.target_text()}: {rolls_path} has only {len(rolls)} turn(s) of rolls")
    if fleet is not None:
        assert drawn is not None
        return choose_setup(fleet, drawn, setup, rolls, time_limit, workers, progress=progress, beam=quick,
                            every_row=every_row)
    if progress:
        progress(f"chapter 3: {','.join(setup.realms)}, track {setup.track_text()}, target {setup.target_text()}, "
                 f"{len(rolls)} turns of rolls …")
    return solve_chapter3(setup, rolls, time_limit, workers, progress=progress, beam=quick)


def _turns_words(res: Chapter3Result) -> str:
    """Every answer says how many turns of rolls it had and used."""
    used = res.win_turn or max((q.turn for q in res.questions if q.status != NO_ROLLS), default=0)
    return f"used {used} of the {res.turns} turn(s) of rolls (the chapter has up to {TURNS})"


def print_answer(console: Any, answer: Chapter3Result | FleetResult) -> None:
    """The answer for people: each turn asked, the winning line (text format) and its verdict."""
    from rich.table import Table
    from rich.text import Text

    from .chapter3 import verdict_lines

    def result(res: Chapter3Result) -> None:
        s = res.setup
        tab = Table(title=f"Chapter 3: {', '.join(s.realms)}; track {s.track_text()}; target {s.target_text()} "
                          f"({s.difficulty})")
        for col in ("turn W", "Boss defeated in W?", "how", "det s"):
            tab.add_column(col)
        for q in res.questions:
            tab.add_row(str(q.turn), q.status.upper(), q.how(), f"{q.deterministic_time:.2f}")
        console.print(tab)
        where = _turns_words(res)
        if res.status == "won" and res.line is not None and res.verdict is not None:
            console.print(Text("line (text format):\n" + res.line.to_text().rstrip()))
            console.print(Text("\n".join(verdict_lines(s, res.verdict))))
            proof = ("proven earliest (every earlier target turn, if any, proven impossible)" if res.proven_earliest else
                     "NOT proven earliest (an earlier target turn was not decided)")
            console.print(Text(f"WON in turn {res.win_turn} (checked by check_chapter3), {proof} — {where}",
                               style="bold green"))
        elif res.status == "impossible":
            console.print(Text(f"IMPOSSIBLE: the Boss cannot be defeated in any target turn, proven (each question "
                               f"INFEASIBLE, {res.cuts} cut(s)) — {where}", style="bold yellow"))
        else:
            console.print(Text(f"UNKNOWN: not every target turn was decided and none won; this is NOT an answer — {where}",
                               style="bold red"))
        console.print(Text(f"  solve time {res.solve_time:.2f} s (deterministic {res.deterministic_time:.2f}), cuts {res.cuts}"))

    if isinstance(answer, Chapter3Result):
        result(answer)
        return
    tab = Table(title=f"Chapter 3 setup: drawn {', '.join(answer.drawn)}; the third realm and the row order")
    for col in ("row (left to right)", "status", "win turn", "detail"):
        tab.add_column(col)
    for c in answer.candidates:
        a = c.answer
        detail = c.note if a is None else (
            ("proven earliest" if a.proven_earliest else "earliest not proven") if a.status == "won" else
            ", ".join(f"{q.turn}: {q.status}" for q in a.questions))
        tab.add_row(", ".join(c.realms), c.status.upper(), str(a.win_turn) if a and a.win_turn else "-", detail)
    console.print(tab)
    best = answer.best
    if best is None or best.answer is None:
        word = ("IMPOSSIBLE: no row wins (each proven)" if answer.status == "impossible" else
                "UNKNOWN: no winning row found, and not every row is proven impossible")
        console.print(Text(word, style="bold yellow" if answer.status == "impossible" else "bold red"))
        return
    console.print(Text(f"BEST SETUP: {', '.join(best.realms)} (Boss defeated in turn {best.answer.win_turn})",
                       style="bold green"))
    result(best.answer)
