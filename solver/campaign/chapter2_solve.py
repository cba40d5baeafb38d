"""Solving campaign chapter 2, "Synchronicity": the fewest-turn win, with proofs (docs/campaign-chapter2.md, "Solving").

The question "can the chapter be won at turn W?" is the round model (solver/model.py, a turn-set
relaxation of the base rules) over the first W rolls plus chapter 2's rules as constraints, each a
*sound relaxation* of the checker's rule (solver/campaign/chapter2.py is the judge), so every line
the checker calls won at turn W is still a solution:

- every rolled die is used in every turn before W (a # that cannot be used loses, one that could
  be used but is not is illegal); the winning turn stops at the winning step, so its dice may stay
  unused;
- 6 marked stars in every realm by the end of turn W (stars never drop in a base realm, so the
  stars when the last one is marked are still there at the end of the model's turn W);
- at most 11 resources of each kind earned (spent or not) over the turns played; with
  `win_beats_cap` the winning step may earn the 12th or more, so 11 + the most one activation
  gives; and so at most that many pumpkins spent (redundant: bounds the 3-pumpkin activations).

The order-dependent rules (the rightmost realm may not gain a star, a realm that scores moves to
the far right, the free moves) are relaxed turn by turn as rows over each realm's stars after each
turn (`rightmost_realm_scores_not`, where every realm has timed stars) and decided by an exact
search: a model solution's action sets are
ordered turn by turn **jointly** (every interleaving that keeps each realm's own order, with the
free moves anywhere they are allowed; the chapter state depends on the order of earlier turns, so
every distinct state reached is kept) and replayed by the chapter's own step functions. When no
ordering of turns 1..t is legal, exactly that history (`RoundModel.history_literals`: every
decision of turns 1..t) is forbidden and the model is solved again; no other line is cut, since
the search tried every ordering and every free-move placement of those action sets. A won line is
returned only after `check_chapter2` replays it on the whole rolls and says won; INFEASIBLE (cuts
included) proves that the chapter cannot be won at turn W.

The fewest-turn answer asks W = 1, 2, ... in order: the first W with a checked win is the answer,
proven fewest only when every smaller W was proven impossible.
"""
from __future__ import annotations

import itertools
import math
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterator, Sequence

from ortools.sat.python import cp_model

from ..engine import Game
from ..errors import IllegalAction, InputError
from ..interrupt import no_sigint
from ..line import Activation, Line, Source, TurnPlay
from ..model import ModelOptions, RoundModel, extras_bound
from ..realms import get_realm, is_solvable
from ..resources import KINDS
from ..lp_bound import INF, HighsRelaxation, LpBound, LpRelaxation, Unsupported
from ..mip_hint import hint_from_highs, highs_mip, hint_values, line_mip_limits
from ..solve import (MAX_CUTS, ModelDisagreement, effective_params, load_params, lp_bound_of, lp_options, make_solver,
                     relaxation_of, search_started)
from ..speculate import Speculation, lower_priority, spare_core
from ..split import ExtrasSplit
from . import chapter2 as ch2
from . import answers
from .answers import SetupChoice, TurnLadder, check_solver_inputs, combined_status
from .answers import Progress
from .chapter2 import (
    Chapter2,
    Chapter2Line,
    Chapter2State,
    Chapter2Verdict,
    ExcludedRealm,
    Move,
    apply_chapter2_activation,
    apply_move,
    check_chapter2,
    end_chapter2_turn,
    judge_step,
    start_chapter2,
)

#: realms in the fleet; drawn at random into the active realms (seed 003, chapter 2 setup 2)
FLEET_SIZE = 5
DRAWN = 1
#: default CP-SAT deterministic time per turn-count question (the W of "won at turn W")
DEFAULT_TIME_LIMIT = 20.0

Rule = Callable[[RoundModel, Chapter2], None]


# ---- the model ---------------------------------------------------------------------------------

def dice_used_before_last_turn(rm: RoundModel, setup: Chapter2) -> None:
    """Every rolled die is used exactly once in every turn before the model's last (the winning
    turn W stops at the winning step: there the base model's 'at most once' stays)."""
    for t in range(rm.game.turns - 1):
        for k in (0, 1):
            rm.model.add(sum(e.use[Source("die", k)] for evs in rm.events for e in evs if e.t == t) == 1)


def six_stars_everywhere(rm: RoundModel, setup: Chapter2) -> None:
    """Win: 6 stars in every realm by the end of turn W."""
    for s in rm.realm_stars:
        rm.model.add(s >= ch2.STARS_TO_WIN)  # read at call time, as the checker's `won` does


def cap_of_earned(game: Game, setup: Chapter2) -> int:
    """The most resources of one kind a winning line can have earned by its last step."""
    cap = ch2.RESOURCE_LIMIT - 1  # read at call time, as the checker's `over_limit` does
    if setup.win_beats_cap:
        cap += max(r.max_gain_per_activation(game.rules) for r in game.realms)
    return cap


def earned_within_limit(rm: RoundModel, setup: Chapter2) -> None:
    """At most 11 of each kind earned (spent or not) over the turns played (the 12th loses); with
    `win_beats_cap` the winning step may earn more (cap_of_earned)."""
    cap = cap_of_earned(rm.game, setup)
    for K in KINDS:
        rm.model.add(sum(rm.gains(t, K) for t in range(rm.game.turns)) <= cap)


def pumpkins_spent_within_limit(rm: RoundModel, setup: Chapter2) -> None:
    """Redundant: pumpkins spent on changes are pumpkins earned (<= the cap), so the round has at
    most cap // 3 activations with the 3-pumpkin power."""
    cap = cap_of_earned(rm.game, setup)
    evs = [e for es in rm.events for e in es]
    rm.model.add(sum(e.pumpkins for e in evs) <= cap)
    rm.model.add(sum(e.extra for e in evs) <= cap // 3)


def rightmost_realm_scores_not(rm: RoundModel, setup: Chapter2) -> None:
    """The rightmost realm may not gain a star; a realm that scores moves to the far right; the
    free moves (seed 003), read turn by turn from the stars after each turn (`RoundModel.
    stars_after`; only when every realm has `timed_stars`, otherwise nothing is added).

    scored[t, r]: realm r's marked stars rose in turn t; rightmost[t, r]: r is the rightmost realm
    at the end of turn t (the row's last realm before turn 1); moves[t]: free moves used in turn t.
    In a turn without a free move, where the stars rise only through the scoring realm's own #s:
    - nothing scored: the rightmost realm stays;
    - something scored: the rightmost realm at the turn's end is one that scored (the last to score
      moved to the far right, and nothing moves the row after it);
    - one realm alone scored: it was not the rightmost realm before the turn (its first scoring #
      came while the row was still the previous turn's);
    - the rightmost realm r and one other realm q alone scored, q with a single activation in the
      turn: q scored first (r could not), then r, so r ends the turn the rightmost again.
    A turn with a free move is left free. Every chapter-legal line satisfies these with its own
    stars, row and moves, so the rows only cut solutions no order of the turn sets can play
    (measured: docs/campaign-chapter2.md)."""
    if not reads_the_row(setup):
        return
    realms = range(len(rm.game.realms))
    m = rm.model
    keys = [rm.game.realms[r].key for r in realms]
    free = setup.free_moves
    before = [m.new_constant(1 if r == len(keys) - 1 else 0) for r in realms]
    used = []
    for t in range(rm.game.turns):
        scored = []
        for r in realms:
            x = m.new_bool_var(f"scored[t{t + 1},{keys[r]}]")
            rise = rm.stars_after(r, t) - rm.stars_after(r, t - 1)
            m.add(x <= rise)
            m.add(rise <= rm.game.rules.star_cap * x)
            scored.append(x)
        move = m.new_int_var(0, free, f"moves[t{t + 1}]") if free else 0
        used.append(move)
        after = [m.new_bool_var(f"rightmost[t{t + 1},{keys[r]}]") for r in realms]
        m.add_exactly_one(after)
        active = [sum(e.active for e in rm.events[r] if e.t == t) for r in realms]
        for low, high in turn_rows(scored, before, after, move, active):
            m.add(low <= high)
        before = after
    if free:
        m.add(sum(used) <= free)


def turn_rows(scored: Sequence[Any], before: Sequence[Any], after: Sequence[Any], move: Any,
              active: Sequence[Any]) -> Iterator[tuple[Any, Any]]:
    """`rightmost_realm_scores_not`'s rows of one turn as pairs (low, high), meaning low <= high,
    over numbers or CP-SAT expressions alike: scored[r] (realm r's marked stars rose), before[r] /
    after[r] (r the rightmost realm at the turn's start / end), move (free moves in the turn),
    active[r] (r's activations in the turn). tests/test_timed_stars.py checks them on every
    abstract turn of a few steps, played by the chapter's own row logic."""
    realms = range(len(scored))
    anything = sum(scored)
    for r in realms:
        # nothing scored, no move: the rightmost realm stays
        yield before[r] - anything - move, after[r]
        # q scored and r did not: r does not end the turn the rightmost
        for q in realms:
            if q != r:
                yield after[r], scored[r] + 1 - scored[q] + move
        # r alone scored: it was not the rightmost when its first scoring # came
        yield scored[r] + before[r], 1 + sum(scored[q] for q in realms if q != r) + move
    # r (the rightmost) and q alone scored, q with one activation: q scored first, r last
    for r in realms:
        for q in realms:
            if q == r:
                continue
            others = sum(scored[o] for o in realms if o not in (r, q))
            more = active[q] - scored[q]  # q's activations past one
            yield scored[r] + scored[q] + before[r] - 2 - others - move - more, after[r]


def reads_the_row(setup: Chapter2) -> bool:
    """Whether `rightmost_realm_scores_not` builds its rows for these realms (every realm has
    `timed_stars`): then the CP-SAT model depends on the row's order."""
    return all(get_realm(k).timed_stars for k in setup.realms)


#: chapter 2's rules as constraints, each a sound relaxation of the checker's rule (tests drop
#: them one by one: each has an instance whose only 'win' breaks it)
CHAPTER2_RULES: tuple[Rule, ...] = (
    dice_used_before_last_turn,
    six_stars_everywhere,
    earned_within_limit,
    pumpkins_spent_within_limit,
    rightmost_realm_scores_not,
)


def build_chapter2(setup: Chapter2, rolls: Sequence[tuple[int, int]], options: ModelOptions = ModelOptions(),
                   rules: Sequence[Rule] = CHAPTER2_RULES) -> RoundModel:
    """The question "won by the end of turn len(rolls)?": the round model of those rolls
    (compensation off) with the chapter's rules.

    Sizing (when `options.extras` is None): a realm's activations in a turn are 1 + its 3-pumpkin
    activations there, and the whole game has at most cap // 3 of those (pumpkins spent <= earned
    <= the cap), so each realm gets 1 + min(cap // 3, the proven per-turn bound) events per turn;
    the per-turn bound `extras_bound(game, t)` is kept as a constraint (measured: the example
    rolls' W = 7 / 8 questions 9.70 / 12.79 -> 7.27 / 10.94 det-s)."""
    game = setup.game(tuple(rolls))
    bounds = [extras_bound(game, t) for t in range(game.turns)]
    if options.extras is None:
        options = replace(options, extras=min(cap_of_earned(game, setup) // 3, max(bounds)))
    if rightmost_realm_scores_not in rules and reads_the_row(setup):
        options = replace(options, timed_stars=True)  # the rows read the stars after each turn
    rm = RoundModel(game, options)
    for t, bound in enumerate(bounds):
        if bound < rm.extras[t]:
            rm.model.add(rm.turn_extras(t) <= bound)
    for rule in rules:
        rule(rm, setup)
    return rm


# ---- the order search: turn sets -> a chapter-legal line, or the first turn with none ----------

TurnSet = tuple[list[list[Activation]], list[Any], list[tuple[str, Any]]]


@dataclass(frozen=True)
class _Partial:
    """A line so far: finished turns (actions in order, end choices) and the moves placed."""

    turns: tuple[TurnPlay, ...] = ()
    moves: tuple[Move, ...] = ()


def order_chapter2(game: Game, setup: Chapter2, turn_sets: Sequence[TurnSet]) -> Chapter2Line | int:
    """Order the action sets of every turn under chapter 2's rules: a line that wins by the end of
    the last turn given, or the first (0-based) turn after which no ordering is left.

    Every interleaving of each turn's actions that keeps each realm's own order, with free moves
    before any step and before the turn's end, is tried from every chapter state the earlier
    turns can reach (one line kept per distinct state). A step that loses (the 12th resource)
    ends that branch; a step that wins returns the line up to it."""
    states: dict[Chapter2State, _Partial] = {start_chapter2(game): _Partial()}
    last = len(turn_sets) - 1
    for t, (per_realm, comps, end) in enumerate(turn_sets):
        if comps:
            return t  # the campaign has no compensation (the model has none: compensation off)
        queues = [q for q in per_realm if q]
        roll = game.rolls[t]
        nxt: dict[Chapter2State, _Partial] = {}
        for cs0, part in states.items():
            seen: set = set()
            # DFS over (state, heads, steps so far, moves so far)
            stack: list[tuple[Chapter2State, tuple[int, ...], tuple[Activation, ...], tuple[Move, ...]]] = [
                (cs0, tuple(0 for _ in queues), (), part.moves)]
            while stack:
                cs, heads, done, moves = stack.pop()
                key = (cs, heads)
                if key in seen:
                    continue
                seen.add(key)
                if len(moves) < setup.free_moves:
                    for realm in cs.row[:-1]:
                        moved = apply_move(setup, cs, realm)
                        stack.append((moved, heads, done, moves + (Move(t + 1, len(done), realm),)))
                if all(h == len(q) for h, q in zip(heads, queues)):
                    try:
                        after = end_chapter2_turn(game, cs, dict(end))
                    except IllegalAction:
                        continue
                    decided = judge_step(game, setup, after)
                    play = TurnPlay(roll, done, tuple(end))
                    if decided and decided[0] == "won":
                        return Chapter2Line(Line(part.turns + (play,)), moves)
                    if decided is None and t < last and after not in nxt:
                        nxt[after] = _Partial(part.turns + (play,), moves)
                    continue
                for qi, q in enumerate(queues):
                    if heads[qi] == len(q):
                        continue
                    act = q[heads[qi]]
                    try:
                        after = apply_chapter2_activation(game, cs, act)
                    except IllegalAction:
                        continue
                    decided = judge_step(game, setup, after)
                    steps = done + (act,)
                    if decided and decided[0] == "won":
                        return Chapter2Line(Line(part.turns + (TurnPlay(roll, steps, ()),)), moves)
                    if decided:
                        continue  # lost: the 12th resource of a kind
                    stack.append((after, heads[:qi] + (heads[qi] + 1,) + heads[qi + 1:], steps, moves))
        if not nxt:
            return t
        states = nxt
    return last


# ---- answers -----------------------------------------------------------------------------------

@dataclass
class TurnQuestion:
    """One question "won at turn W?": won (line) / impossible (INFEASIBLE, cuts included, or the
    LP bound, or both by the extras split: `method`) / unknown. `lp_bound`: the checked LP bound
    on the stars, when asked."""

    turn: int
    status: str
    cuts: int = 0
    deterministic_time: float = 0.0
    line: Chapter2Line | None = None
    method: str = "cp-sat"
    lp_bound: LpBound | None = None
    #: method "extras-split": the LP bound `split_lp` of the lines with >= split_k 3-pumpkin
    #: activations is below the win; CP-SAT was asked of the lines with at most split_k - 1
    split_k: int | None = None
    split_lp: LpBound | None = None
    #: HiGHS's MIP asked first for a hint (solver/mip_hint.py): its status, e.g. "Optimal"
    #: (a solution: CP-SAT started from it) or "Node limit reached" (none); None: not asked
    hint: str | None = None
    #: CP-SAT left the question unknown: HiGHS's first solution per region of at most k
    #: 3-pumpkin activations (`mip_win`), e.g. "<= 0: Infeasible; <= 1: Optimal"; None: not asked
    line_mip: str | None = None
    #: still unknown after that: the proof by cases on where the 3-pumpkin activations are
    #: (`refute_extras_cases`): each case's bound; None: not asked
    extras_cases: "ExtrasCases | None" = None
    #: method "lp-prefix": `lp_bound` is the prefix LP of the first lp_turns turns (every die free
    #: to stay unused; `lp_prefix_bound`), below the win: it answers every W <= lp_turns at once
    lp_turns: int | None = None
    #: the part of `cuts` made by `mip_win`'s completions (each on its own region's model, not on
    #: the question's: the fleet's "INFEASIBLE before any cut" looks at the rest)
    line_mip_cuts: int = 0
    #: the CP-SAT stage's solve is still to be asked: it was left until after the proof by cases
    #: (`ask_turn`'s `cases_early` with `extras_cases_before_stage`), and `finish_deferred` asks
    #: it when the cases do not refute the question
    stage_pending: bool = False


@dataclass
class Chapter2Result(TurnLadder):
    """The fewest-turn win of chapter 2 with these rolls and this row, with what is needed to trust it.

    status: "won" (a line won at turn `turn`, replayed by check_chapter2, and every smaller turn
    proven impossible), "impossible" (every turn count the rolls allow proven impossible),
    "unknown" (a limit stopped some question; a line found is still given, its turn count then
    not proven fewest)."""

    setup: Chapter2
    rolls: tuple[tuple[int, int], ...]
    status: str
    questions: list[TurnQuestion] = field(default_factory=list)
    line: Chapter2Line | None = None
    verdict: Chapter2Verdict | None = None
    solve_time: float = 0.0
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def turn(self) -> int | None:
        """The turn of the win found (None: no line)."""
        return self.verdict.turn if self.verdict is not None else None

    @property
    def turns_used(self) -> int:
        """Rolls looked at: the turn counts asked (the rolls file may hold more)."""
        return max((q.turn for q in self.questions), default=0)

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "status": self.status,
            "realms": list(self.setup.realms),
            "difficulty": self.setup.difficulty,
            "win_beats_cap": self.setup.win_beats_cap,
            "last_turn": self.setup.last_turn,
            "rolls": len(self.rolls),
            "turns_used": self.turns_used,
            "turn": self.turn,
            "proven_fewest": self.status == "won",
            "proven_impossible_turns": self.proven_impossible,
            "questions": [{"turn": q.turn, "status": q.status, "method": q.method, "cuts": q.cuts,
                           "deterministic_time": round(q.deterministic_time, 3),
                           "lp_bound": q.lp_bound.as_json() if q.lp_bound is not None else None,
                           "extras_at_least": q.split_k,
                           "split_lp_bound": q.split_lp.as_json() if q.split_lp is not None else None,
                           "mip_hint": q.hint, "line_mip": q.line_mip,
                           "extras_cases": q.extras_cases.as_json() if q.extras_cases is not None else None,
                           "lp_turns": q.lp_turns, "line_mip_cuts": q.line_mip_cuts}
                          for q in self.questions],
            "solve_time": round(self.solve_time, 3),
            "deterministic_time": round(self.deterministic_time, 3),
            "cuts": self.cuts,
            "params": self.params,
            "line": None,
        }
        if self.line is not None and self.verdict is not None:
            out["line"] = line_json(self.line)
            out["line_text"] = line_text(self.line)
            out["verdict"] = {"outcome": self.verdict.outcome, "turn": self.verdict.turn, "step": self.verdict.action,
                              "reason": self.verdict.reason}
            out["moves_used"] = self.verdict.moves_used
        return out


def line_text(cline: Chapter2Line) -> str:
    """The line in the text format with its `move REALM` steps (parse_chapter2_text reads it back)."""
    base = cline.line.to_text().splitlines()
    out: list[str] = []
    i = 0
    for t, turn in enumerate(cline.line.turns):
        out.append(base[i])
        i += 1
        for step in cline.steps(t):
            out.append("  " + step.text())
        i += len(turn.actions)
        out.extend(base[i:i + len(turn.end)])
        i += len(turn.end)
    return "\n".join(out) + "\n"


def line_json(cline: Chapter2Line) -> list[dict[str, Any]]:
    """The line in the JSON format with `{"move": REALM}` entries (parse_chapter2_json reads it back)."""
    turns = cline.line.to_json()
    for t, turn in enumerate(turns):
        here = sorted((m for m in cline.moves if m.turn == t + 1), key=lambda m: m.after, reverse=True)
        for m in here:  # from the back, so earlier positions stay valid
            turn["actions"].insert(m.after, {"move": m.realm})
    return turns


def _checked(setup: Chapter2, rolls: tuple[tuple[int, int], ...], cline: Chapter2Line) -> Chapter2Verdict:
    """check_chapter2 on the whole rolls; anything but won is a disagreement (a bug)."""
    verdict = check_chapter2(setup.game(rolls), setup, cline)
    if not verdict.won:
        raise ModelDisagreement(
            f"chapter 2 checker says {verdict.outcome} at turn {verdict.turn} ({verdict.reason}) "
            f"for a line the solver calls a win:\n{line_text(cline)}")
    return verdict


def stars_to_win(setup: Chapter2) -> int:
    """6 marked stars in every realm (read at call time, as the checker's `won` does)."""
    return ch2.STARS_TO_WIN * len(setup.realms)


def lp_base(setup: Chapter2, rolls: Sequence[tuple[int, int]], options: ModelOptions = ModelOptions(),
            rules: Sequence[Rule] = CHAPTER2_RULES) -> RoundModel:
    """The model every LP bound of these turns is asked of: chapter 2's model rules with the win
    rule itself dropped (the win is what is bounded: the model's stars are capped at 6 per realm,
    so a win needs stars = 6 x the realms), without compensation's condition (`solve.lp_options`;
    chapter 2 has no compensation anyway). CP-SAT never solves it (the proof by cases asks its
    own models with the same options, `case_bound`). The rightmost-realm rows are
    left out too: they are the only rule that reads the row's order, and the fleet asks one LP per
    realm set for all its rows (`test_fleet_chooses_the_realms_and_the_row` failed with them)."""
    return build_chapter2(setup, rolls, lp_options(options),
                          [r for r in rules if r not in (six_stars_everywhere, rightmost_realm_scores_not)])


def lp_star_bound(setup: Chapter2, rolls: Sequence[tuple[int, int]], params: dict[str, Any],
                  options: ModelOptions = ModelOptions(), rules: Sequence[Rule] = CHAPTER2_RULES) -> LpBound | None:
    """The checked LP bound (solver/lp_bound.py) on the stars of any line playing these turns under
    chapter 2's model rules (`lp_base`). Below `stars_to_win`: no line wins by the end of these
    turns (the model and its LP are relaxations of the rules)."""
    rm = lp_base(setup, rolls, options, rules)
    return lp_bound_of(rm.model, rm.stars, params)


def lp_prefix_bound(setup: Chapter2, rolls: Sequence[tuple[int, int]], params: dict[str, Any],
                    options: ModelOptions = ModelOptions(), rules: Sequence[Rule] = CHAPTER2_RULES) -> LpBound | None:
    """The checked LP bound on the stars of the first len(rolls) turns with every die free to stay
    unused: `lp_base` without `dice_used_before_last_turn` too. Below the win, no line wins at
    any turn W <= len(rolls), not only at the last: such a line, stopped at its winning step with
    nothing played after it, is a line of these turns this model accepts (the base round model
    lets a die stay unused; the caps on earned and spent resources hold for less play; stars never
    drop, so 6 marked stars everywhere are 6 stars everywhere at the end). One LP proves a whole
    run of the ladder's first turn counts (measured: the bound equals `lp_star_bound`'s at every W
    7-9 of the bench's seeds 0-5)."""
    rm = lp_base(setup, rolls, options, [r for r in rules if r is not dice_used_before_last_turn])
    return lp_bound_of(rm.model, rm.stars, params)


def prefix_questions(setup: Chapter2, rolls: Sequence[tuple[int, int]], most: int, params: dict[str, Any],
                     options: ModelOptions = ModelOptions()) -> list[TurnQuestion]:
    """The ladder's start: the prefix LP (`lp_prefix_bound`) at W0 = `prefix_lp_turn` (at most
    `most`), then at smaller W while it reaches the win, `prefix_lp_tries` LPs in all; the first
    below the win answers every W up to its own (method "lp-prefix", `lp_turns` its W). [] when
    none is (or when off: W0 < 2, or no LP limit). A time choice only: the ladder asks those W
    one by one otherwise (measured: docs/campaign-chapter2.md)."""
    start = min(int(params.get("prefix_lp_turn", 0) or 0), most)
    tries = int(params.get("prefix_lp_tries", 1) or 1)
    win = stars_to_win(setup)
    for w in range(start, max(start - tries, 1), -1):
        lp = lp_prefix_bound(setup, tuple(rolls)[:w], params, options)
        if lp is None:
            return []
        if lp.bound < win:
            return [TurnQuestion(v, "impossible", method="lp-prefix", lp_bound=lp, lp_turns=w) for v in range(1, w + 1)]
    return []


def chapter2_split(setup: Chapter2, base: RoundModel, params: dict[str, Any],
                   task: Speculation | None = None) -> ExtrasSplit:
    """The proof by cases on 3-pumpkin activations (solver/split.py) over `lp_base`'s model: the
    LP of the lines with at least k of them, k = 1 .. min(split_max_extras, cap // 3) (a winning
    line spends at most the cap of earned pumpkins, `pumpkins_spent_within_limit`). `task`: the
    speculative stage asking it, whose cancel stops its LPs."""
    most = min(int(params.get("split_max_extras", 0)), cap_of_earned(base.game, setup) // 3)
    return ExtrasSplit(base.game, base.options, lambda mdl, obj: lp_bound_of(mdl, obj, params), max_k=most,
                       relaxation_of=lambda mdl, obj: relaxation_of(mdl, obj, params),
                       lp_model_options=base.options, base=base, task=task)


def split_region(options: ModelOptions, split_k: int) -> ModelOptions:
    """The extras split's region: the lines with at most split_k - 1 3-pumpkin activations (and
    never more than `options` already allowed)."""
    most = split_k - 1 if options.max_total_extras is None else min(split_k - 1, options.max_total_extras)
    return replace(options, max_total_extras=most)


@dataclass(frozen=True)
class _Solved:
    """What `split_and_solve` found: the extras split's k and LP (None: no split), HiGHS's hint
    status, and CP-SAT's (status, cuts, deterministic seconds, line)."""

    split_k: int | None
    split_lp: Any
    hint: str | None
    status: str
    cuts: int
    spent: float
    line: Chapter2Line | None
    #: CP-SAT's solve not asked yet (`split_and_solve`'s `deferred`)
    deferred: bool = False


def split_and_solve(setup: Chapter2, rolls: tuple[tuple[int, int], ...], base: RoundModel | None, lp: LpBound | None,
                    options: ModelOptions, rules: Sequence[Rule], solver: cp_model.CpSolver,
                    lp_params: dict[str, Any] | None, hint_params: dict[str, Any] | None, line_first: bool,
                    task: Speculation | None = None, deferred: bool = False) -> _Solved:
    """`ask_turn`'s CP-SAT stage: the extras split on `base`'s LPs (when the question's LP `lp`
    was asked), then `region_solve` on the split's region or the whole model of `rolls`. `task`:
    run as a speculative solve beside HiGHS's lines (its `cancel` stops CP-SAT; `solver` is then
    the task's own). `deferred`: the split alone, CP-SAT's solve left for later (status
    "unknown", `_Solved.deferred`; `ask_turn`'s `cases_early` with `extras_cases_before_stage`)."""
    win = stars_to_win(setup)
    split_k: int | None = None
    split_lp = None
    if lp_params is not None and six_stars_everywhere in rules and lp is not None and base is not None:
        found_k = chapter2_split(setup, base, lp_params, task).smallest_k(win - 1)
        if found_k is not None:
            split_k, split_lp = found_k
    if deferred:
        return _Solved(split_k, split_lp, None, "unknown", 0, 0.0, None, deferred=True)
    if task is not None:
        task.solver(solver)
        if task.cancelled.is_set():
            return _Solved(split_k, split_lp, None, "unknown", 0, 0.0, None)  # (dropped: never taken)
    region = split_region(options, split_k) if split_k is not None else options
    hint, status, cuts, spent, line = region_solve(setup, rolls, region, rules, solver, hint_params, line_first)
    return _Solved(split_k, split_lp, hint, status, cuts, spent, line)


def region_solve(setup: Chapter2, rolls: tuple[tuple[int, int], ...], options: ModelOptions, rules: Sequence[Rule],
                 solver: cp_model.CpSolver, hint_params: dict[str, Any] | None,
                 line_first: bool) -> tuple[str | None, str, int, float, Chapter2Line | None]:
    """The CP-SAT part of the stage: HiGHS's hint if asked, then CP-SAT (`solve_ordered`) on the
    model of `options` (the split's region, or the whole question) within the solver's limit.
    Returns (the hint's status, won | impossible | unknown, cuts, deterministic seconds, the line)."""
    win = stars_to_win(setup)
    rm = build_chapter2(setup, rolls, options, rules)
    hint: str | None = None
    hint_asked = not line_first or bool(hint_params.get("mip_hint_after_line_mip", True)) if hint_params else False
    if hint_params is not None and six_stars_everywhere in rules and hint_asked:
        hint = hint_from_highs(rm.model, rm.stars, hint_params, solver.parameters.max_deterministic_time,
                               objective_bound=win)
    status, cuts, spent, line = solve_ordered(rm, setup, solver, solver.parameters.max_deterministic_time)
    return hint, status, cuts, spent, line


def ask_turn(setup: Chapter2, rolls: Sequence[tuple[int, int]], w: int, solver: cp_model.CpSolver,
             options: ModelOptions = ModelOptions(), rules: Sequence[Rule] = CHAPTER2_RULES,
             lp_params: dict[str, Any] | None = None, hint_params: dict[str, Any] | None = None,
             extras_cases: bool = True, line_beside_lp: bool = False, cp_sat_beside_lines: bool = False,
             cases_early: CasesEarly | None = None, refuted: RefutedCases | None = None,
             lines: Speculation | None = None, lines_later: Speculation | None = None) -> TurnQuestion:
    """Can the chapter be won at turn w (by the end of it)? With `lp_params` (their
    `lp_deterministic_time` > 0), first the LP bound on the stars of the first w turns: below the
    win, impossible (proven by it). Else, with `split_max_extras` > 0 there, the extras split: the
    smallest k whose LP over lines with at least k 3-pumpkin activations is below the win leaves
    only the lines with at most k - 1 of them, a far smaller model (docs/campaign-chapter2.md).
    With `hint_params` (`mip_hint_max_nodes` > 0), HiGHS's MIP solution of that model is CP-SAT's
    hint (solver/mip_hint.py: it finds wins CP-SAT alone did not; it proves nothing); not after
    the lines of `line_mip_first` unless `mip_hint_after_line_mip`.
    Then CP-SAT on that model (or the whole one): solve, order, cut, repeat. Left unknown (and with
    `hint_params`): a win from HiGHS's first solution of smaller regions (`mip_win`; with
    `line_mip_first` asked before the split instead: a win found there needs none of the rest,
    method "line-mip"), then (with `extras_cases`) the proof by cases (`settle_by_cases`; the ladders ask it after their first
    pass instead, once they know which turn counts are worth it).

    `line_beside_lp` (with `line_mip_first` and the LP asked): HiGHS's lines (`mip_win`) run on a
    spare core while the LP is solved (solver/speculate.py), on a solver of their own; the LP below
    the win cancels them (without waiting), otherwise their answer is taken. The answer is the one
    asked in turn: the lines are used only where the LP reaches the win, as then. A time choice:
    the caller asks it where the LP is likely to reach the win (`solve_chapter2`).

    `cp_sat_beside_lines` (with `line_mip_first`): the CP-SAT stage (`split_and_solve`) runs on a
    spare core while HiGHS's lines are searched, on a solver of its own; a win from the lines
    cancels it, otherwise its answer is taken: the answer asked in turn, sooner where the lines
    find nothing (the caller asks it when no other speculative solve is running).

    `cases_early` (with `cp_sat_beside_lines`): when that CP-SAT stage leaves the question
    unknown, it starts the question's proof by cases there and then (`cases_of`, on the spare
    core, which the stage no longer uses), while the lines are still searched; the caller takes
    it as its cases ahead when the question ends unknown (`solve_chapter2`), and cancels it when
    the lines win. A time choice: the proof is the one the second pass asks first. With
    `extras_cases_before_stage` too, the stage's CP-SAT solve is left for later: the proof starts
    right after the split's LPs, and the question (unknown, `stage_pending`) asks that solve only
    when the proof does not refute it (`finish_deferred`, from `settle_ladder`): the same answer,
    since a refuted question holds no win for the solve to find.

    `refuted`: the cases the proof by cases refutes, as it refutes them (`RefutedCases`): HiGHS's
    lines skip or stop a case region found there.

    `lines` (with `line_beside_lp`): this question's lines, started earlier by the caller
    (`lines_task`, the ladder's `lines_ahead`), used as the lines beside the LP. `lines_later`: a
    later question's lines running ahead, cancelled (without waiting) when this question's LP
    reaches the win: the spare core is then this question's."""
    lp = None
    base: RoundModel | None = None
    win = stars_to_win(setup)
    line_first = hint_params is not None and six_stars_everywhere in rules and bool(hint_params.get("line_mip_first"))
    beside: Speculation | None = None
    if line_first and line_beside_lp and lp_params is not None:
        assert hint_params is not None
        beside = lines if lines is not None else lines_task(setup, rolls, w, solver, options, rules, hint_params,
                                                            refuted)
    elif lines is not None:
        lines.cancel(wait=False)  # (not asked here: the lines were started under the same conditions)
    first_notes: str | None = None
    first_spent, first_cuts = 0.0, 0
    cp_beside: Speculation | None = None
    solved: _Solved | None = None
    try:
        if lp_params is not None and six_stars_everywhere in rules:
            base = lp_base(setup, tuple(rolls)[:w], options, rules)
            lp = lp_bound_of(base.model, base.stars, lp_params)
            if lp is not None and lp.bound < win:
                return TurnQuestion(w, "impossible", method="lp-bound", lp_bound=lp)
        if lines_later is not None:
            lines_later.cancel(wait=False)  # (this question may be won: the spare core is its own now)
        if line_first:
            assert hint_params is not None
            if cp_sat_beside_lines:
                mine = no_sigint(cp_model.CpSolver())  # the task's own solver (a cancelled task may run on)
                mine.parameters.copy_from(solver.parameters)
                args = (setup, tuple(rolls)[:w], base, lp, options, rules, mine, lp_params, hint_params, True)

                defer = cases_early is not None and bool(hint_params.get("extras_cases_before_stage"))

                def stage(task: Speculation) -> _Solved:
                    if refuted is not None and hint_params.get("line_mip_cp_sat_beside_after_first"):
                        refuted.wait_first_searches(w, task.cancelled)
                    staged = split_and_solve(*args, task=task, deferred=defer)
                    if cases_early is not None and staged.status == "unknown" and not task.cancelled.is_set():
                        cases_early.start(("cases", w), lambda cases_task: cases_of(
                            setup, rolls, w, staged.split_k, options, rules, hint_params or {}, cases_task, refuted))
                    return staged

                cp_beside = Speculation(("cp-sat", w), stage)
            taken = beside.take(("line-mip", w)) if beside is not None else None
            found, first_notes, first_spent, first_cuts = taken if taken is not None else \
                mip_win(setup, tuple(rolls)[:w], solver, options, rules, hint_params, refuted=refuted)
            if found is not None:
                return TurnQuestion(w, "won", first_cuts, first_spent, found, method="line-mip", lp_bound=lp,
                                    line_mip=first_notes, line_mip_cuts=first_cuts)
        solved = cp_beside.take(("cp-sat", w)) if cp_beside is not None else None
    finally:
        if beside is not None:
            beside.cancel(wait=False)  # (nothing to stop once taken)
        if cp_beside is not None:
            cp_beside.cancel(wait=False)
    if solved is None:
        solved = split_and_solve(setup, tuple(rolls)[:w], base, lp, options, rules, solver, lp_params, hint_params,
                                 line_first)
    split_k, split_lp = solved.split_k, solved.split_lp
    if split_k is not None:
        options = split_region(options, split_k)
    method = "cp-sat" if split_k is None else "extras-split"
    status, cuts, spent, line = solved.status, solved.cuts, solved.spent, solved.line
    asked = TurnQuestion(w, status, cuts + first_cuts, spent + first_spent, line, method=method, lp_bound=lp,
                         split_k=split_k, split_lp=split_lp, hint=solved.hint, line_mip=first_notes,
                         line_mip_cuts=first_cuts, stage_pending=solved.deferred)
    if status != "unknown" or hint_params is None or six_stars_everywhere not in rules:
        return asked
    if not line_first:  # HiGHS's lines now (with line_mip_first they were asked before the split)
        found, notes, more, more_cuts = mip_win(setup, tuple(rolls)[:w], solver, options, rules, hint_params,
                                                refuted=refuted)
        asked = replace(asked, status="won" if found is not None else "unknown", line=found, cuts=asked.cuts + more_cuts,
                        deterministic_time=asked.deterministic_time + more, line_mip=notes, line_mip_cuts=more_cuts)
        if found is not None:
            return asked
    if not extras_cases:
        return asked
    settled = settle_by_cases(setup, rolls, asked, options, rules, hint_params, refuted)
    return finish_deferred(setup, rolls, settled, options, rules, solver, hint_params)


def lines_task(setup: Chapter2, rolls: Sequence[tuple[int, int]], w: int, solver: cp_model.CpSolver,
               options: ModelOptions, rules: Sequence[Rule], params: dict[str, Any],
               refuted: RefutedCases | None) -> Speculation:
    """Question w's HiGHS lines (`mip_win`) started now on a spare core (solver/speculate.py), on a
    CP-SAT solver of their own (a cancelled task may still be running later); `ask_turn` takes
    their answer (`lines`) or cancels them."""
    own = no_sigint(cp_model.CpSolver())
    own.parameters.copy_from(solver.parameters)
    line_rolls = tuple(rolls)[:w]
    return Speculation(("line-mip", w), lambda task: mip_win(setup, line_rolls, own, options, rules, params,
                                                            task=task, refuted=refuted))


def finish_deferred(setup: Chapter2, rolls: Sequence[tuple[int, int]], q: TurnQuestion, options: ModelOptions,
                    rules: Sequence[Rule], solver: cp_model.CpSolver, params: dict[str, Any]) -> TurnQuestion:
    """A question whose CP-SAT stage is still to be asked (`stage_pending`: its proof by cases
    came first) and that the proof left unknown: that solve now, on the split's region, as the
    stage would have asked it (`region_solve`; `solver` with the question's parameters). Its win
    or proof decides the question, as it would have in the stage. Other questions are returned
    as they are."""
    if not q.stage_pending or q.status != "unknown":
        return q
    region = split_region(options, q.split_k) if q.split_k is not None else options
    hint, status, cuts, spent, line = region_solve(setup, tuple(rolls)[:q.turn], region, rules, solver, params, True)
    return replace(q, status=status, line=line, hint=hint, cuts=q.cuts + cuts,
                   deterministic_time=q.deterministic_time + spent, stage_pending=False)


def settle_by_cases(setup: Chapter2, rolls: Sequence[tuple[int, int]], q: TurnQuestion, options: ModelOptions,
                    rules: Sequence[Rule], params: dict[str, Any], refuted: RefutedCases | None = None) -> TurnQuestion:
    """An unknown question asked once more as a proof by cases (`cases_of`); other questions are
    returned as they are."""
    if q.status != "unknown":
        return q
    return with_cases(q, cases_of(setup, rolls, q.turn, q.split_k, options, rules, params, refuted=refuted))


def cases_of(setup: Chapter2, rolls: Sequence[tuple[int, int]], w: int, split_k: int | None, options: ModelOptions,
             rules: Sequence[Rule], params: dict[str, Any], task: Speculation | None = None,
             refuted: RefutedCases | None = None) -> ExtrasCases | None:
    """The proof by cases (`refute_extras_cases`) of "won at turn w?", in the extras split's
    region when the question had one (`split_k`). `task`: run as a speculative solve (the cases
    ahead: `solve_chapter2`, `ask_turn`'s `cases_early`; its `cancel` stops it); `refuted`: told
    of each case as it is refuted (`RefutedCases`)."""
    if split_k is not None:
        options = split_region(options, split_k)
    return refute_extras_cases(setup, tuple(rolls)[:w], options, rules, params, task, refuted)


def with_cases(q: TurnQuestion, cases: ExtrasCases | None) -> TurnQuestion:
    """An unknown question with its proof by cases' answer (None: not asked): impossible when
    every case is refuted, else still unknown."""
    if cases is None:
        return q
    return replace(q, status="impossible" if cases.refuted else "unknown",
                   method="extras-cases" if cases.refuted else q.method,
                   deterministic_time=q.deterministic_time + cases.deterministic_time, extras_cases=cases)


def lines_infeasible_sign(params: dict[str, Any]) -> int:
    """How many of a turn count's case regions HiGHS must find infeasible before its proof by
    cases is taken for the answer's path (`line_mip_infeasible_sign`; thread priorities only)."""
    return max(1, int(params.get("line_mip_infeasible_sign", 1) or 1))


class RefutedCases:
    """The extras cases (turn count, 3-pumpkin activations per realm) the proof by cases has
    refuted so far in one solve: no line of such a case wins at that turn count. HiGHS's line
    search (`mip_win`) skips a case region found here, and a search running in one is stopped
    the moment its case is refuted (`watch`). A line finder's time only: a refuted case holds no
    win, so skipping it never loses one (each region's completions have their own limit, so the
    other regions are asked exactly as they would be). Thread-safe: the cases run on the spare
    core while the lines run in the asking thread. It also notes the turn counts where HiGHS found
    case regions infeasible (`lines_found_infeasible`, counted), which set the cases' thread priority,
    and the own line searches asked first while they run (`first_search_running`), which the CP-SAT
    stage beside the lines waits for."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._refuted: set[tuple[int, tuple[int, ...]]] = set()
        self._stops: dict[tuple[int, tuple[int, ...]], list[Callable[[], None]]] = {}
        self._lines_infeasible: dict[int, int] = {}
        self._proofs: dict[int, int] = {}  # turn count -> proofs by cases running
        self._first: dict[int, int] = {}  # turn count -> own line searches asked first, running
        self._first_ended = threading.Condition(self._lock)

    def first_search_running(self, w: int, running: bool) -> None:
        """CP-SAT's own line search asked first at turn count `w` (`OwnSearchFirst`) starts (True)
        or ends (False)."""
        with self._first_ended:
            self._first[w] = self._first.get(w, 0) + (1 if running else -1)
            self._first_ended.notify_all()

    def wait_first_searches(self, w: int, stop: threading.Event) -> None:
        """Wait until no own line search asked first at turn count `w` runs, or `stop` is set (a
        time choice only: `ask_turn`'s CP-SAT stage beside the lines starts after it)."""
        with self._first_ended:
            while self._first.get(w, 0) > 0 and not stop.is_set():
                self._first_ended.wait(0.2)

    def proof_running(self, w: int, running: bool) -> None:
        """A proof by cases of turn count `w` starts (True) or ends (False)."""
        with self._lock:
            self._proofs[w] = self._proofs.get(w, 0) + (1 if running else -1)

    def proofs_running_below(self, w: int) -> bool:
        """Is a proof by cases of a turn count below `w` running?"""
        with self._lock:
            return any(n > 0 for v, n in self._proofs.items() if v < w)

    def lines_found_infeasible(self, w: int) -> None:
        """HiGHS found one more case region at turn count `w` infeasible: a sign (floating point,
        never a proof) that `w` holds no win, so that its proof by cases is the answer's path."""
        with self._lock:
            self._lines_infeasible[w] = self._lines_infeasible.get(w, 0) + 1

    def lines_infeasible(self, w: int, at_least: int = 1) -> bool:
        """Has HiGHS found at least `at_least` case regions at `w` infeasible (`lines_found_infeasible`)?"""
        with self._lock:
            return self._lines_infeasible.get(w, 0) >= max(1, at_least)

    def add(self, w: int, counts: Sequence[int]) -> None:
        """Case `counts` at turn count `w` is refuted: stop the searches watching it."""
        key = (w, tuple(counts))
        with self._lock:
            self._refuted.add(key)
            stops = self._stops.pop(key, [])
        for stop in stops:
            stop()

    def refuted(self, w: int, counts: Sequence[int] | None) -> bool:
        """Is case `counts` at `w` refuted? (None, a region "<= k" of the lines: never.)"""
        if counts is None:
            return False
        with self._lock:
            return (w, tuple(counts)) in self._refuted

    def watch(self, w: int, counts: Sequence[int] | None, stop: Callable[[], None]) -> None:
        """Call `stop` when case `counts` at `w` is refuted (at once if it already is; never for None)."""
        if counts is None:
            return
        key = (w, tuple(counts))
        with self._lock:
            if key not in self._refuted:
                self._stops.setdefault(key, []).append(stop)
                return
        stop()

    def unwatch(self, w: int, counts: Sequence[int] | None) -> None:
        """The search of case `counts` at `w` has ended: its stops are dropped."""
        if counts is None:
            return
        with self._lock:
            self._stops.pop((w, tuple(counts)), None)


class CasesEarly:
    """The first unknown turn count's proof by cases, started by `ask_turn`'s CP-SAT stage on the
    spare core the moment that stage leaves the question unknown, while HiGHS's lines are still
    searched (`cases_early`). The caller closes it once the question is answered (`adopt`): no
    proof starts after that; the started one is kept when the question is unknown and cancelled
    otherwise (the lines won)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._closed = False
        self.task: Speculation | None = None

    def start(self, key: Any, fn: Callable[[Speculation], Any]) -> None:
        with self._lock:
            if not self._closed and self.task is None:
                self.task = Speculation(key, fn)

    def adopt(self, unknown: bool) -> Speculation | None:
        """No proof starts from now on. The one started, if any, when the question ended
        `unknown`; otherwise it is cancelled (the lines won: it is not needed) and None."""
        with self._lock:
            self._closed = True
            task = self.task
        if task is not None and not unknown:
            task.cancel(wait=False)
            return None
        return task


def settle_ladder(setup: Chapter2, rolls: Sequence[tuple[int, int]], questions: list[TurnQuestion],
                  options: ModelOptions, params: dict[str, Any], say: Callable[[str], None],
                  ahead: Speculation | None = None, solver: cp_model.CpSolver | None = None,
                  taken: dict[int, "ExtrasCases | None"] | None = None) -> bool:
    """The ladder's second pass: its unknown questions (below the win, if one was found), fewest
    turns first, each asked as a proof by cases (`settle_by_cases`), in place; it stops at the
    first one not proven, since the answer needs them all. Why after the first pass: the cases
    can take minutes, and the turn counts worth proving are known only once the win is found.
    `ahead`: the first unknown question's cases, already started on a spare core (`cases_ahead`),
    taken for it; `taken`: proofs the first pass already took, by turn count (`cases_chain`). A
    question whose CP-SAT stage is still to be asked (`stage_pending`) and that
    the cases leave unknown asks it now (`finish_deferred`, on `solver`): a win found there is
    the answer's (the fewest turns: every smaller count is proven impossible), and the questions
    after it are dropped. Returns whether every question is now decided."""
    for i, q in enumerate(questions):
        if q.status != "unknown":
            continue
        if taken is not None and q.turn in taken:
            settled = with_cases(q, taken[q.turn])
        elif ahead is not None and ahead.key == ("cases", q.turn) and not ahead.taken:
            settled = with_cases(q, ahead.take(ahead.key))
        else:
            settled = settle_by_cases(setup, rolls, q, options, CHAPTER2_RULES, params)
        questions[i] = settled
        if settled.extras_cases is not None:
            say(f"chapter 2 {','.join(setup.realms)}: won at turn {q.turn}? {settled.status} by cases "
                f"({settled.extras_cases.note()}; {settled.extras_cases.deterministic_time:.2f} det-s)")
        if settled.stage_pending and settled.status == "unknown":
            assert solver is not None, "a pending CP-SAT stage needs the question's solver"
            before = settled.deterministic_time
            settled = questions[i] = finish_deferred(setup, rolls, settled, options, CHAPTER2_RULES, solver, params)
            say(f"chapter 2 {','.join(setup.realms)}: won at turn {q.turn}? {settled.status} by CP-SAT after the cases "
                f"({settled.deterministic_time - before:.2f} det-s)")
            if settled.status == "won":
                del questions[i + 1:]
                return True
        if settled.status != "impossible":
            return False
    return True


def solve_ordered(rm: RoundModel, setup: Chapter2, solver: cp_model.CpSolver,
                  budget: float | None, rehint: bool = False) -> tuple[str, int, float, Chapter2Line | None]:
    """CP-SAT on `rm` within `budget` deterministic seconds in all: each solution's turn sets
    ordered by `order_chapter2`; one it cannot order is cut off (`forbid_history`) and the model
    solved again. Returns (won | impossible | unknown, cuts, deterministic seconds, the line).

    `rehint`: each re-solve after a cut is hinted with the solution just cut off (its other turns
    are likely still right) instead of the model's first hint (`mip_win`'s completions of HiGHS's
    solution, round.toml `line_mip_rehint`). A hint only steers the search: the answers are the
    same kind, the path differs."""
    spent, cuts = 0.0, 0
    saved = solver.parameters.max_deterministic_time
    if budget:
        solver.parameters.max_deterministic_time = budget
    try:
        while True:
            status = solver.solve(rm.model)
            spent += solver.deterministic_time
            if status == cp_model.INFEASIBLE:
                return "impossible", cuts, spent, None
            if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                return "unknown", cuts, spent, None
            found = order_chapter2(rm.game, setup, rm.turn_sets(solver))
            if isinstance(found, Chapter2Line):
                return "won", cuts, spent, found
            cuts += 1
            if cuts > MAX_CUTS or (budget and spent >= budget):
                return "unknown", cuts, spent, None
            if rehint:
                hint_values(rm.model, tuple(solver.response_proto.solution))
            rm.forbid_history(solver, found)
            if budget:
                solver.parameters.max_deterministic_time = max(0.1, budget - spent)
    finally:
        solver.parameters.max_deterministic_time = saved


def mip_win(setup: Chapter2, rolls: Sequence[tuple[int, int]], solver: cp_model.CpSolver, options: ModelOptions,
            rules: Sequence[Rule], params: dict[str, Any], task: Speculation | None = None,
            refuted: RefutedCases | None = None) -> tuple[Chapter2Line | None, str | None, float, int]:
    """A win at turn len(rolls) found by HiGHS's MIP and completed by CP-SAT (a line finder, never
    a proof), asked first (`line_mip_first`) or when CP-SAT left the question unknown: for each
    model of `_line_regions` (the lines with at most k 3-pumpkin activations, k in
    `line_mip_regions`, or with `line_mip_cases` their count cases), HiGHS's first solution
    (round.toml's `line_mip_max_nodes` nodes and `line_mip_max_checks` root checks at most, its
    work limits; `line_mip_seconds`, a last wall-clock guard whose firing drops what it found)
    becomes CP-SAT's hint in that model, and CP-SAT solves, orders and cuts as ever, each
    completion at most `line_mip_case_deterministic_time` (when it is 0: at most
    `line_mip_deterministic_time` for all its completions together; with a limit per completion,
    the models × variants bound the whole, and no region's limit depends on what the others
    spent, so skipping a refuted one changes nothing for the rest). HiGHS's MIP per case: each of
    `line_mip_exactness` in turn (e.g. [["caps", "ors"], ["caps"]]: `mip_hint.exact_rows`'s caps
    and ORs made exact, or the caps alone), the next only when the last gave a solution CP-SAT
    did not complete within its limit (its first solutions differ, and which one CP-SAT completes
    is partly luck: docs/campaign-chapter2.md); the next is asked of a fresh model of the case, without that
    completion's cuts (with them, bench seed 0's W 11 caps-alone MIP ran to its node limit; fresh,
    it is a win: docs/campaign-chapter2.md).
    Returns (the line, HiGHS's statuses per model,
    CP-SAT's deterministic seconds, cuts).

    Why: on bench seeds 2 and 4 (`bench/chapter2.py`) turn 9 is the first whose LP reaches 18
    and CP-SAT neither found nor refuted a win there; HiGHS's first solution of the region of no
    (seed 2) or at most one (seed 4) 3-pumpkin activation is a win CP-SAT completes in 1.4 / 2.0
    det-s, which decides both (turns 1-8 proven by the LP). The same stage as the round
    solver's 2e (solve.mip_line); smaller regions first, as their MIPs are far smaller.

    `task`: run as a speculative solve (`ask_turn`'s `line_beside_lp`): HiGHS and `solver` are
    registered with it so that its `cancel` stops them, and no further model is asked once it is
    cancelled. `refuted`: the cases the proof by cases has refuted so far (running beside): a case
    model found there is skipped, and HiGHS is stopped when its case is refuted while it runs
    (noted "refuted by the cases"; such a case holds no win). A case region HiGHS finds
    infeasible is noted there too (`RefutedCases.lines_found_infeasible`), and run as a task the
    search then goes on `line_mip_nice` steps below its priority once `line_mip_infeasible_sign` of
    them were: the turn count likely holds no win, so the proof by cases beside is the answer's
    path (a time choice only).

    `line_mip_root_only`: in the cases of at most `line_mip_cp_sat_most_extras` 3-pumpkin
    activations, HiGHS stops where its search would branch (its first limit check past the root
    node, a deterministic point of its one-thread run), and a case it leaves without a win (no
    solution, or none CP-SAT completed; not one HiGHS found infeasible) is searched by CP-SAT
    itself (`_cp_sat_case_line`: no hint, linearization level `line_mip_cp_sat_linearization_level`,
    at most `line_mip_cp_sat_deterministic_time`). Measured (docs/campaign-chapter2.md, sixtieth
    session): HiGHS finds the bench's fast wins at its root (3-10 s), the slow ones in its tree
    (102-399 nodes, 15-108 s), all in the case without 3-pumpkin activations, which CP-SAT at
    level 0 finds in 2.4-8.5 det-s. In every case, it cost bench seed 0's W 10 four futile searches
    (40 det-s), and the bench's budget then stopped its ladder before its win at 11.

    `line_mip_cp_sat_first`: in the first such case, that own search is asked first, for that many
    det-s (`OwnSearchFirst`: beside HiGHS's root on a spare core, its win taken first, so the
    answer is the sequential one)."""
    if int(params.get("line_mip_max_nodes", 0) or 0) <= 0:
        return None, None, 0.0, 0
    if task is not None:
        task.solver(solver)
    cases = refuted if refuted is not None else RefutedCases()  # (none: nothing is refuted)
    first = OwnSearchFirst(setup, solver, params, task, cases, len(rolls))
    try:
        return _line_cases(setup, rolls, solver, options, rules, params, task, refuted, cases, first)
    finally:
        first.cancel()


class OwnSearchFirst:
    """CP-SAT's own search (`_cp_sat_case_line`) of `mip_win`'s first case without 3-pumpkin
    activations, at most `line_mip_cp_sat_first` det-s, asked before HiGHS in that case: on a spare
    core (`line_mip_cp_sat_beside_root`) started when the case starts, beside HiGHS's root, at
    `line_mip_cp_sat_first_nice` steps below the lines' priority; without one, asked there and then.
    Its win is the lines' answer (HiGHS is stopped then), and any other win is taken only once it
    ended without one, so the answer is the one a sequential "this search first, then HiGHS" gives,
    on any machine. Why: its level-0 search wins in 0.5-2.9 det-s where HiGHS's root runs 3-13 s
    (bench seeds 7, 9, 11; docs/campaign-chapter2.md, sixty-seventh session)."""

    def __init__(self, setup: Chapter2, solver: cp_model.CpSolver, params: dict[str, Any],
                 task: Speculation | None, cases: RefutedCases, w: int) -> None:
        self.setup, self.solver, self.params, self.task, self.cases, self.w = setup, solver, params, task, cases, w
        self.limit = float(params.get("line_mip_cp_sat_first", 0) or 0)
        self.started = False
        self.run: Speculation | None = None
        self.counts: tuple[int, ...] | None = None
        self.before: tuple[int, float, int] = (0, 0.0, 0)  # the lines' notes, det-s and cuts when it started
        self._stops: list[Callable[[], None]] = []
        self._lock = threading.Lock()
        self._won = threading.Event()
        self.answer: tuple[str, int, float, Chapter2Line | None] | None = None

    def start(self, counts: tuple[int, ...] | None, build: Callable[[], RoundModel],
              before: tuple[int, float, int]) -> None:
        """Ask it in this case, once (`before`: the count of the lines' notes, their det-s and cuts so
        far, which its win's answer keeps)."""
        if self.limit <= 0 or self.started:
            return
        self.started, self.counts, self.before = True, counts, before
        if not _on_spare_core(self.params, "line_mip_cp_sat_beside_root", self.solver):
            self.answer = _cp_sat_case_line(self.setup, build, self.solver, self.params, self.limit, self.task,
                                            self.cases, self.w, counts)
            return

        def search(own_task: Speculation) -> tuple[str, int, float, Chapter2Line | None]:
            try:
                got = _cp_sat_case_line(self.setup, build, self.solver, self.params, self.limit, own_task,
                                        self.cases, self.w, counts)
            finally:
                self.cases.first_search_running(self.w, False)
            if got[3] is not None:
                self._won.set()
                with self._lock:
                    stops = list(self._stops)
                for stop in stops:
                    stop()
            return got

        self.cases.first_search_running(self.w, True)

        self.run = Speculation(("own-first", self.w, counts), search,
                               nice=int(self.params.get("line_mip_cp_sat_first_nice", 0) or 0))
        if self.task is not None:
            run = self.run
            self.task.stoppable(lambda: run.cancel(wait=False))

    def asked(self, counts: tuple[int, ...] | None) -> bool:
        """Was it asked in this case?"""
        return self.started and counts == self.counts

    def running(self, counts: tuple[int, ...] | None) -> bool:
        """Is this the case of the search, still running? (A time choice only.)"""
        return self.run is not None and counts == self.counts and not self.run.done()

    def stoppable(self, stop: Callable[[], None]) -> None:
        """A later search (HiGHS's) to stop once this one wins."""
        with self._lock:
            self._stops.append(stop)

    def won(self, wait: bool) -> tuple[str, int, float, Chapter2Line | None] | None:
        """Its answer (status, cuts, det-s, line) when it won, else None; with `wait`, waiting
        for it to end (else a running search is None)."""
        if self.answer is None and self.run is not None:
            if not wait and not self._won.is_set():
                return None
            self.answer = self.run.take(("own-first", self.w, self.counts))
        return self.answer if self.answer is not None and self.answer[3] is not None else None

    def drop(self, counts: tuple[int, ...] | None) -> None:
        """HiGHS found this search's case infeasible: the search is stopped and its answer dropped,
        as the line search trusts HiGHS's "infeasible" everywhere (the case holds no win, so the
        search can only find nothing; were HiGHS ever wrong there, a win it had found first would
        be taken)."""
        if self.run is not None and counts == self.counts and not self._won.is_set():
            self.run.cancel(wait=False)
            self.answer = ("impossible", 0, 0.0, None)

    def cancel(self) -> None:
        """Stop it if it still runs (the lines are answered, or cancelled)."""
        if self.run is not None and not self.run.taken:
            self.run.cancel(wait=False)


def _line_cases(setup: Chapter2, rolls: Sequence[tuple[int, int]], solver: cp_model.CpSolver, options: ModelOptions,
                rules: Sequence[Rule], params: dict[str, Any], task: Speculation | None,
                refuted: RefutedCases | None, cases: RefutedCases,
                first: OwnSearchFirst) -> tuple[Chapter2Line | None, str | None, float, int]:
    """`mip_win`'s search, case by case (its docstring), with `first` asked before HiGHS in the
    first case without 3-pumpkin activations. Returns (the line, notes, det-s, cuts)."""
    nodes = int(params.get("line_mip_max_nodes", 0) or 0)
    own_search = float(params.get("line_mip_cp_sat_deterministic_time", 0) or 0)  # CP-SAT searches ...
    own_most = int(params.get("line_mip_cp_sat_most_extras", 0) or 0)  # ... the cases of at most this many
    win = stars_to_win(setup)
    budget = float(params.get("line_mip_deterministic_time", 15.0))  # CP-SAT's completions, in all ...
    per_case = float(params.get("line_mip_case_deterministic_time", 0) or 0)  # ... or each (0: the budget)
    variants = [frozenset(v) for v in params.get("line_mip_exactness", [[]])] or [frozenset()]
    notes: list[str] = []
    spent, cuts = 0.0, 0
    w = len(rolls)
    niced = False  # (a task's thread lowered once)

    def done(line: Chapter2Line | None) -> tuple[Chapter2Line | None, str | None, float, int]:
        """The answer: `first`'s win (waited for) with the notes, det-s and cuts of asking it first,
        else `line`."""
        got = first.won(wait=True)
        if got is not None:
            n, spent_before, cuts_before = first.before
            said = notes[:n] + ["= " + ",".join(map(str, first.counts or ())) + ": CP-SAT's own search first won"]
            return got[3], "; ".join(said), spent_before + got[2], cuts_before + got[1]
        return line, "; ".join(notes) or None, spent, cuts

    for label, counts, build in _line_regions(setup, rolls, options, rules, params):
        # HiGHS stops where its search would branch in a case CP-SAT's own search then takes
        root_only = own_search > 0 and bool(params.get("line_mip_root_only", False)) and counts is not None \
            and sum(counts) <= own_most
        if root_only and not cases.refuted(w, counts) and not (task is not None and task.cancelled.is_set()):
            first.start(counts, build, (len(notes), spent, cuts))
        if first.won(wait=False) is not None:
            return done(None)
        asked = False  # HiGHS asked in this case
        no_line = False  # HiGHS found it infeasible, or a completion proved it holds no line
        # CP-SAT's own search of the case, started beside HiGHS's root at one of its checks
        # (`start_own`, `own_search_beside_root`), taken only where the sequence below asks it: the
        # same answer, sooner
        started_own: list[Speculation] = []  # (at most one)

        def start_own(checks: int, counts: tuple[int, ...] | None = counts,
                      build: Callable[[], RoundModel] = build) -> None:
            """At HiGHS's root check `checks`: start the own search beside (`own_search_beside_root`)
            from the `line_mip_cp_sat_beside_root_checks`-th on, unless an earlier turn count's proof
            by cases is running (the answer's path: the search beside would take its core)."""
            if started_own or checks < own_after or cases.refuted(w, counts) or cases.proofs_running_below(w) \
                    or first.running(counts) or (task is not None and task.cancelled.is_set()):
                return  # (while the first search of this case runs, the same search would repeat it)
            early = own_search_beside_root(setup, build, solver, params, own_search, task, cases, w, counts)
            if early is not None:
                started_own.append(early)

        own_after = int(params.get("line_mip_cp_sat_beside_root_checks", 0) or 0)
        try:
            for n, exact in enumerate(variants):
                if task is not None and task.cancelled.is_set():
                    return done(None)
                if cases.refuted(w, counts):
                    notes.append(f"{label}: refuted by the cases")
                    break
                rm = build()  # (each variant on a fresh model: the last completion's cuts steer HiGHS elsewhere)

                def stop_with(stop: Callable[[], None], counts: tuple[int, ...] | None = counts) -> None:
                    first.stoppable(stop)
                    if task is not None:
                        task.stoppable(stop)
                    cases.watch(w, counts, stop)

                try:
                    found = highs_mip(rm.model, rm.stars, nodes, objective_bound=win, first_solution=True,
                                      **line_mip_limits(params), exact_caps="caps" in exact, exact_ors="ors" in exact,
                                      stop_with=stop_with if task is not None or refuted is not None or first.limit > 0
                                      else None,
                                      root_only=root_only, at_root_check=start_own if root_only and n == 0 else None)
                finally:
                    cases.unwatch(w, counts)
                if first.won(wait=False) is not None:
                    return done(None)
                if found is None:
                    break
                again = f" (again, exact: {'+'.join(sorted(exact)) or 'none'})" if n else ""
                if cases.refuted(w, counts):
                    notes.append(f"{label}{again}: refuted by the cases")
                    break  # (HiGHS stopped, or its solution is of a case without a win)
                notes.append(f"{label}{again}: {found.status}")
                asked, no_line = True, no_line or found.status == "Infeasible"
                if found.status == "Infeasible":
                    first.drop(counts)
                    cases.lines_found_infeasible(w)
                    if task is not None and not niced and cases.lines_infeasible(w, lines_infeasible_sign(params)):
                        lower_priority(int(params.get("line_mip_nice", 0) or 0))
                        niced = True
                if found.usable is None or (task is not None and task.cancelled.is_set()):
                    break  # (no solution: the next variant is not asked)
                hint_values(rm.model, found.usable)
                status, more_cuts, used, line = solve_ordered(rm, setup, solver, per_case if per_case else budget - spent,
                                                              rehint=bool(params.get("line_mip_rehint", False)))
                spent += used
                cuts += more_cuts
                if line is not None or first.won(wait=False) is not None:
                    return done(line)
                if not per_case and spent >= budget:
                    notes.append("CP-SAT's budget spent")
                    return done(None)
                if status == "impossible":
                    no_line = True
                    break  # (CP-SAT proved the case holds no line: no other variant can find one)
            # no win from HiGHS's solutions (none, or none completed): CP-SAT's own search of the case,
            # unless the search asked first in this case won (its answer) or was that search already
            # (its limit at least the own search's: the same search again could only fail again)
            if root_only and asked and not no_line and first.asked(counts):
                if first.won(wait=True) is not None:
                    return done(None)
                repeat = first.limit >= own_search
            else:
                repeat = False
            if root_only and asked and not no_line and not repeat and not cases.refuted(w, counts) \
                    and not (task is not None and task.cancelled.is_set()):
                status, more_cuts, used, line = started_own[0].take(("own-search", w, counts)) if started_own \
                    else _cp_sat_case_line(setup, build, solver, params, own_search, task, cases, w, counts)
                spent += used
                cuts += more_cuts
                notes.append(f"{label}: CP-SAT {status}")
                if line is not None:
                    return done(line)
        finally:
            for early in started_own:
                if not early.taken:
                    early.cancel(wait=False)
    return done(None)


def _cp_sat_case_line(setup: Chapter2, build: Callable[[], RoundModel], solver: cp_model.CpSolver,
                      params: dict[str, Any], limit: float, task: Speculation | None, cases: RefutedCases,
                      w: int, counts: tuple[int, ...] | None) -> tuple[str, int, float, Chapter2Line | None]:
    """CP-SAT's own search for a win in one of `mip_win`'s case models (no hint; linearization level
    `line_mip_cp_sat_linearization_level`; solved, ordered and cut as ever), at most `limit` det-s;
    stopped when the case is refuted meanwhile. Returns `solve_ordered`'s (status, cuts, det-s, line)."""
    own = no_sigint(cp_model.CpSolver())
    own.parameters.copy_from(solver.parameters)
    own.parameters.linearization_level = int(params.get("line_mip_cp_sat_linearization_level", 0))
    if task is not None:
        task.solver(own)
    cases.watch(w, counts, own.stop_search)
    try:
        return solve_ordered(build(), setup, own, limit)
    finally:
        cases.unwatch(w, counts)


def own_search_beside_root(setup: Chapter2, build: Callable[[], RoundModel], solver: cp_model.CpSolver,
                           params: dict[str, Any], limit: float, task: Speculation | None, cases: RefutedCases,
                           w: int, counts: tuple[int, ...] | None) -> Speculation | None:
    """`mip_win`'s own CP-SAT search of a case (`_cp_sat_case_line`), started as a speculative solve
    while HiGHS's root search of that case runs (`mip_win` calls it at the root's
    `line_mip_cp_sat_beside_root_checks`-th check), `line_mip_cp_sat_beside_root_nice` steps below
    the lines' priority (round.toml `line_mip_cp_sat_beside_root`; one CP-SAT worker and a second
    core), or None. `mip_win` takes its answer exactly where it would have asked that search
    (HiGHS's root left the case without a win) and cancels it otherwise, so the answer is the one
    asked in turn. Why: where HiGHS's root finds nothing (bench seeds 11 and 1's winning turn
    counts, 12-14 s), CP-SAT's search then took 2.6-7.6 det-s more, one core mostly idle meanwhile
    (measured: seed 11 about 3 s sooner). Its thread is cancelled with the lines' task (`task`)."""
    if not _on_spare_core(params, "line_mip_cp_sat_beside_root", solver):
        return None
    nice = int(params.get("line_mip_cp_sat_beside_root_nice", 0) or 0)
    early = Speculation(("own-search", w, counts),
                        lambda own_task: _cp_sat_case_line(setup, build, solver, params, limit, own_task, cases, w,
                                                           counts), nice=nice)
    if task is not None:
        task.stoppable(lambda: early.cancel(wait=False))
    return early


def _line_regions(setup: Chapter2, rolls: Sequence[tuple[int, int]], options: ModelOptions, rules: Sequence[Rule],
                  params: dict[str, Any]) -> Iterator[tuple[str, tuple[int, ...] | None, Callable[[], RoundModel]]]:
    """`mip_win`'s models, in order: for each k of `line_mip_regions` (never above the region in
    `options`, each k once), the lines with at most k 3-pumpkin activations ("<= k"), or with
    `line_mip_cases` the lines with exactly c_r of them in realm r for each count vector of sum k
    ("= 1,0,0"; together the same lines as the regions, in smaller MIPs). Each with its counts
    (None for a region "<= k") and a function that builds it afresh (one model per call)."""
    asked: set[int] = set()
    cases = bool(params.get("line_mip_cases", False))
    for k in params.get("line_mip_regions", [0]):
        most = int(k) if options.max_total_extras is None else min(int(k), options.max_total_extras)
        if most in asked:
            continue
        asked.add(most)
        if not cases:
            yield f"<= {most}", None, lambda most=most: build_chapter2(
                setup, rolls, replace(options, max_total_extras=most), rules)
            continue
        low = max((a for a in asked if a < most), default=-1)  # the counts of smaller sums were asked already
        for counts in extras_counts(len(setup.realms), most):
            if sum(counts) <= low:
                continue
            yield "= " + ",".join(map(str, counts)), counts, lambda counts=counts: case_model(
                setup, rolls, options, rules, counts)


def case_model(setup: Chapter2, rolls: Sequence[tuple[int, int]], options: ModelOptions, rules: Sequence[Rule],
               counts: Sequence[int]) -> RoundModel:
    """The question's model restricted to one count case: exactly counts[r] 3-pumpkin activations
    in realm r (the extras cases' proof and HiGHS's line search by cases both ask it)."""
    rm = build_chapter2(setup, rolls, replace(options, max_total_extras=sum(counts)), rules)
    for r, n in enumerate(counts):
        rm.model.add(sum(e.extra for e in rm.events[r]) == n)
    return rm


def first_extra_turn_is(rm: RoundModel, turn: int) -> None:
    """Restrict `rm` to the lines whose first 3-pumpkin activation is in `turn` (0-based): none
    before it, at least one in it. For a case with at least one such activation, the sub-cases of
    turns 0 .. W-1 hold each of its lines exactly once (its earliest one)."""
    for t in range(turn):
        rm.model.add(rm.turn_extras(t) == 0)
    rm.model.add(rm.turn_extras(turn) >= 1)


def extras_counts(realms: int, most: int) -> list[tuple[int, ...]]:
    """Every way to place exactly k 3-pumpkin activations among the realms, k = 0 .. most, as
    counts per realm (fewest first; within k, the first realm's most first)."""
    return [c for k in range(most + 1)
            for c in sorted((c for c in itertools.product(range(k + 1), repeat=realms) if sum(c) == k), reverse=True)]


@dataclass(frozen=True)
class ExtrasCase:
    """One case of `refute_extras_cases`: exactly `counts[r]` 3-pumpkin activations in realm r;
    CP-SAT's proven bound on the stars there (None: INFEASIBLE), and whether it is below the win."""

    counts: tuple[int, ...]
    refuted: bool
    bound: float | None
    deterministic_time: float
    #: the case not refuted whole, asked again split on the turn of its first 3-pumpkin activation
    #: (`first_extra_turn_is`): each sub-case's (turn, 1-based; its bound, None: INFEASIBLE;
    #: deterministic seconds), up to the first not refuted. Empty: not split.
    by_first_turn: tuple[tuple[int, float | None, float], ...] = ()
    #: refuted by CP-SAT's interleaved portfolio, asked last (`case_portfolio`): INFEASIBLE with the win
    by_portfolio: bool = False
    #: refuted by the case's LP (`CaseLps`) before any CP-SAT solve: `bound` is its checked bound
    by_lp: bool = False


@dataclass(frozen=True)
class ExtrasCases:
    """The proof by cases on where the 3-pumpkin activations are: `refuted` when every case is
    (then no line wins at that turn); else it stops at the first case that is not."""

    refuted: bool
    cases: tuple[ExtrasCase, ...]
    #: the realms the counts are of (the row, left to right)
    realms: tuple[str, ...]
    most: int
    limit: float
    params: dict[str, Any]

    @property
    def deterministic_time(self) -> float:
        return sum(c.deterministic_time for c in self.cases)

    def as_json(self) -> dict[str, Any]:
        return {"status": "INFEASIBLE" if self.refuted else "unknown", "realms": list(self.realms), "most_extras": self.most,
                "case_limit": self.limit, "params": self.params,
                "cases": [{"extras_per_realm": list(c.counts), "refuted": c.refuted, "star_bound": c.bound,
                           "deterministic_time": round(c.deterministic_time, 3),
                           "by_first_extra_turn": [{"turn": t, "star_bound": b, "deterministic_time": round(d, 3)}
                                                   for t, b, d in c.by_first_turn],
                           "by_portfolio": c.by_portfolio, "by_lp": c.by_lp} for c in self.cases]}

    def note(self) -> str:
        """'extras cases: all 20 refuted' / 'extras cases: 6 refuted, then wingspan 1 pendulum 1 not
        (bound 18 at 30.0 det-s)'."""
        if self.refuted:
            return f"extras cases: all {len(self.cases)} refuted"
        last = self.cases[-1]
        if last.refuted:
            return f"extras cases: {len(self.cases)} refuted, then their budget was spent"
        where = " ".join(f"{realm} {n}" for realm, n in zip(self.realms, last.counts) if n) or "none"
        split = ""
        if last.by_first_turn:
            turn, bound, _ = last.by_first_turn[-1]
            refuted = f"turns 1-{turn - 1} refuted, " if turn > 1 else ""
            split = f"; split on its first 3-pumpkin turn: {refuted}turn {turn} not (bound {bound:g})"
        return (f"extras cases: {len(self.cases) - 1} refuted, then {where} not "
                f"(bound {last.bound:g} at {last.deterministic_time:.1f} det-s{split})")


class _StopAtWin(cp_model.CpSolverSolutionCallback):
    """Stops the search at a solution with the win's stars: such a case cannot be refuted."""

    def __init__(self, win: int) -> None:
        super().__init__()
        self.win = win

    def on_solution_callback(self) -> None:
        if self.objective_value >= self.win:
            self.stop_search()


def _win_stars(rm: RoundModel) -> Any:
    """Sum over the realms of min(stars, the stars a win needs there): at least `stars_to_win`
    exactly when the line wins. With the real rules (6 = the realms' cap) it is the model's stars."""
    need = ch2.STARS_TO_WIN  # read at call time, as the checker's `won` does
    terms = []
    for r, s in enumerate(rm.realm_stars):
        if need >= rm.game.rules.star_cap:
            terms.append(s)
            continue
        part = rm.model.new_int_var(0, need, f"win_stars[{rm.game.realms[r].key}]")
        rm.model.add(part <= s)
        terms.append(part)
    return sum(terms)


def bounded_case_model(setup: Chapter2, rolls: tuple[tuple[int, int], ...], options: ModelOptions,
                       rules: Sequence[Rule], counts: tuple[int, ...], params: dict[str, Any]) -> RoundModel:
    """The case model the proof by cases asks (`case_bound`, `case_portfolio`): with
    `extras_case_lp_model`, of the LP bounds' model (`solve.lp_options`), which has every legal
    line of the case among its solutions."""
    if params.get("extras_case_lp_model", False):
        options = lp_options(options)
    return case_model(setup, rolls, options, rules, counts)


def case_bound(setup: Chapter2, rolls: tuple[tuple[int, int], ...], options: ModelOptions, rules: Sequence[Rule],
               counts: tuple[int, ...], limit: float, params: dict[str, Any], lb_tree: bool, first_turn: int | None = None,
               task: Speculation | None = None) -> tuple[bool, float | None, float]:
    """One model of `refute_extras_cases`: the case `counts` (with its first 3-pumpkin activation
    in `first_turn`, 0-based, unless None), the win rule left out, its stars maximised within
    `limit` det-s on one worker, stopped as soon as its bound falls below the win or a solution
    reaches it. Returns (refuted, the proven bound or None for INFEASIBLE, det-s).

    With `extras_case_lp_model` the case is asked of the LP bounds' model (`solve.lp_options`:
    the LP-only rows, Feast for Odin's placements per turn, pumpkin changes as a distance): it
    has every legal line of the case among its solutions, so its bound is still a bound, and
    no line is read from it (a solution at the win only leaves the case unrefuted). Measured:
    CP-SAT's LP-tree search bounds the cases faster there (docs/campaign-chapter2.md)."""
    win = stars_to_win(setup)
    solver = make_solver(params, limit, 1)
    solver.parameters.optimize_with_lb_tree_search = lb_tree
    if task is not None:
        task.solver(solver)
    rm = bounded_case_model(setup, rolls, options, rules, counts, params)
    if first_turn is not None:
        first_extra_turn_is(rm, first_turn)
    rm.model.maximize(_win_stars(rm))
    if task is not None and task.cancelled.is_set():
        return False, None, 0.0  # (dropped: a cancelled task's answer is never taken)
    below: list[float] = []  # the bounds below the win the search reported (it stops at the first)

    def on_bound(b: float) -> None:
        if b < win:
            below.append(b)
            solver.stop_search()

    solver.best_bound_callback = on_bound
    status = solver.solve(rm.model, _StopAtWin(win))
    if status == cp_model.INFEASIBLE:
        return True, None, solver.deterministic_time
    if below:
        return True, min(below), solver.deterministic_time
    if status == cp_model.UNKNOWN and not search_started(solver):
        # the limit hit during presolve: the response's bound (0) is no bound; `win` is the
        # trivial one (`_win_stars` is at most the win)
        return False, float(win), solver.deterministic_time
    bound = solver.best_objective_bound
    return bound < win, bound, solver.deterministic_time


def case_portfolio(setup: Chapter2, rolls: tuple[tuple[int, int], ...], options: ModelOptions, rules: Sequence[Rule],
                   counts: tuple[int, ...], params: dict[str, Any],
                   task: Speculation | None = None) -> tuple[bool, float]:
    """The last try of a case `refute_extras_cases` left open: "a win in case `counts`?" (the win
    rule as a constraint) asked of CP-SAT's interleaved portfolio (`interleave_search`,
    `extras_case_portfolio_workers` subsolvers, at most `extras_case_portfolio_batches` of its
    batches: a deterministic stop, where its deterministic time is not quite). Returns (refuted:
    INFEASIBLE, det-s); (False, 0) when off. Why: bench seed 6's W 10 case without 3-pumpkin
    activations stays at 18 for the one-worker search (12 + 30 det-s, and 60 more at levels 0 and
    2), and the portfolio proves it INFEASIBLE in 4-8 batches (20.4-21.3 det-s, both cores); seed
    8's W 8 case of two in Pendulum too (64.9-78.9 det-s over three runs). It does not refute
    seeds 1 and 3's hard cases in 60 det-s, which the one-worker search refutes in 11, so it is
    asked last."""
    batches = int(params.get("extras_case_portfolio_batches", 0) or 0)
    if batches <= 0 or (task is not None and task.cancelled.is_set()):
        return False, 0.0
    asked = {**params, "num_workers": int(params.get("extras_case_portfolio_workers", 8)),
             "interleave_search": True, "max_num_deterministic_batches": batches}
    solver = make_solver(asked, None, None)  # (the batches are the limit)
    if task is not None:
        task.solver(solver)
    rm = bounded_case_model(setup, rolls, options, rules, counts, params)
    rm.model.add(_win_stars(rm) >= stars_to_win(setup))
    if task is not None and task.cancelled.is_set():
        return False, 0.0
    return solver.solve(rm.model) == cp_model.INFEASIBLE, solver.deterministic_time


class CaseLps:
    """The checked LP bound of each case of `refute_extras_cases`, asked before any CP-SAT solve
    of it: one relaxation of the question's LP bounds' model (`lp_options`, the win rule left
    out, at most `most` 3-pumpkin activations), with a row per realm for its 3-pumpkin
    activations, set to each case's counts in turn and re-solved warm by HiGHS's dual simplex
    (`extras_case_lp_iterations` iterations per solve at most: a work limit). The cases are
    solved in their order, whichever thread asks (a lock; case i after cases 0 .. i-1), so
    each bound is the same on every run. Why: a case whose LP is below the win needs no CP-SAT
    presolve and search, which take 1.5-3 s a case even where CP-SAT's first LP refutes it
    (measured on bench seed 1's W 9: 8 of its 20 cases, the ones of three activations; seed
    3's W 8: 6 of 10; docs/campaign-chapter2.md)."""

    def __init__(self, setup: Chapter2, rolls: tuple[tuple[int, int], ...], options: ModelOptions,
                 rules: Sequence[Rule], most: int, cases: Sequence[tuple[int, ...]], iterations: int) -> None:
        self.setup, self.rolls, self.options, self.rules, self.most = setup, rolls, options, rules, most
        self.cases = list(cases)
        self.iterations = iterations
        self.bounds: list[LpBound | None] = []
        self._lock = threading.Lock()
        self._relaxation: LpRelaxation | None = None
        self._rows: list[int] = []
        self._failed = False  # (the relaxation could not be built: no bounds at all)

    def _build(self) -> None:
        rm = build_chapter2(self.setup, self.rolls, lp_options(replace(self.options, max_total_extras=self.most)),
                            self.rules)
        try:
            self._relaxation = HighsRelaxation(rm.model, _win_stars(rm), self.iterations)
        except Unsupported:
            self._failed = True
            return
        self._rows = [self._relaxation.add_row({e.extra.index: 1 for e in events}, 0, INF) for events in rm.events]

    def bound(self, counts: tuple[int, ...]) -> LpBound | None:
        """The checked LP bound of the case `counts` (None: no optimum within the limit)."""
        i = self.cases.index(counts)
        with self._lock:
            while len(self.bounds) <= i:
                if self._relaxation is None and not self._failed:
                    self._build()
                if self._failed or self._relaxation is None:
                    return None
                for row, n in zip(self._rows, self.cases[len(self.bounds)]):
                    self._relaxation.set_bounds(row, n, n)
                self.bounds.append(self._relaxation.solve())
            return self.bounds[i]


def refute_extras_cases(setup: Chapter2, rolls: Sequence[tuple[int, int]], options: ModelOptions,
                        rules: Sequence[Rule], params: dict[str, Any], task: Speculation | None = None,
                        refuted_cases: RefutedCases | None = None) -> ExtrasCases | None:
    """"No win at turn len(rolls)", proven case by case on where the 3-pumpkin activations are:
    for every count vector c (c_r activations with the 3-pumpkin power in realm r, sum c at most
    the proven bound cap // 3 of `pumpkins_spent_within_limit`, or the extras split's region in
    `options`), the question's model without the win rule, with those counts, maximises the stars
    (each realm's up to the win's 6: `_win_stars`) and CP-SAT's proven bound must fall below the win. Every line is in
    exactly one case, so when all are refuted no line wins. None when off
    (`extras_case_deterministic_time` = 0) or the win rule is not among `rules`. A case still at
    the win is asked again split on the turn of its first 3-pumpkin activation
    (`extras_case_turn_deterministic_time` per sub-case; `first_extra_turn_is`), and one still
    open after that is asked last of CP-SAT's interleaved portfolio (`case_portfolio`).

    Why: where the LP reaches 18 (bench/chapter2.py seeds 0, 1, 3 at the turn before their win) the
    whole question stays unknown at 60 det-s, while CP-SAT's LP-tree search
    (`optimize_with_lb_tree_search`) bounds one case at 17 in 0.2-30 det-s (docs/campaign-chapter2.md).

    With `extras_cases_beside` and a spare core, the next case is solved beside the current one
    (solver/speculate.py, each case on a solver of its own); answers are taken in order and the
    cases past the stop cancelled, so the answer is the one asked a case at a time. `task`: the
    whole proof run as a speculative solve (`settle_by_cases`); its `cancel` stops the case in
    this thread, and the cases beside it are cancelled as ever when this returns. `refuted_cases`:
    each case refuted is added to it at once (HiGHS's lines beside skip or stop that case's region)."""
    limit = float(params.get("extras_case_deterministic_time", 0) or 0)
    if limit <= 0 or six_stars_everywhere not in rules:
        return None
    rolls = tuple(rolls)
    # each case is asked with the rightmost-realm rows first (at most `extras_case_order_rows_limit`),
    # then, if not refuted, without them (at most `limit`): measured, each refutes cases the other
    # leaves at 18 (docs/campaign-chapter2.md)
    base_rules = [r for r in rules if r is not six_stars_everywhere]
    rows_limit = float(params.get("extras_case_order_rows_limit", 0) or 0)
    tries: list[tuple[list[Rule], float]] = []
    if rows_limit > 0 and rightmost_realm_scores_not in base_rules and reads_the_row(setup):
        tries.append((base_rules, rows_limit))
    tries.append(([r for r in base_rules if r is not rightmost_realm_scores_not], limit))
    most = cap_of_earned(setup.game(rolls), setup) // 3
    if options.max_total_extras is not None:
        most = min(most, options.max_total_extras)
    lb_tree = bool(params.get("extras_case_lb_tree_search", True))
    # a case still at the win after `tries`: asked again split on the turn of its first 3-pumpkin
    # activation, each sub-case at most this long (0: not split). Measured: bench seed 0's W 9,
    # case "1 in Pendulum", stays 18 at 36 det-s whole and every sub-case is bounded at 17 in
    # 0.2-10.7 det-s (docs/campaign-chapter2.md)
    turn_limit = float(params.get("extras_case_turn_deterministic_time", 0) or 0)
    budget = float(params.get("extras_cases_deterministic_time", 0) or 0)
    done: list[ExtrasCase] = []
    shown = make_solver(params, limit, 1)
    shown.parameters.optimize_with_lb_tree_search = lb_tree

    def answer(refuted: bool) -> ExtrasCases:
        return ExtrasCases(refuted, tuple(done), setup.realms, most, limit, effective_params(shown))

    def told(case: ExtrasCase) -> ExtrasCase:
        """A refuted case, added to `refuted_cases` (the lines beside need not search it)."""
        if refuted_cases is not None:
            refuted_cases.add(len(rolls), case.counts)
        return case

    def last_try(case: ExtrasCase, task: Speculation | None = None) -> ExtrasCase:
        """A case every try above left open, asked of the portfolio (`case_portfolio`)."""
        refuted, used = case_portfolio(setup, rolls, options, tries[-1][0], case.counts, params, task)
        if task is not None and task.cancelled.is_set():
            return ExtrasCase(case.counts, False, None, 0.0)
        case = replace(case, deterministic_time=case.deterministic_time + used)
        return told(replace(case, refuted=True, bound=None, by_portfolio=True)) if refuted else case

    # each case's LP first (`CaseLps`, with the rules of the first try), when
    # `extras_case_lp_iterations` > 0
    lp_iterations = int(params.get("extras_case_lp_iterations", 0) or 0)
    case_lps = CaseLps(setup, rolls, options, tries[0][0], most, extras_counts(len(setup.realms), most),
                       lp_iterations) if lp_iterations > 0 else None

    def one_case(counts: tuple[int, ...], task: Speculation | None = None) -> ExtrasCase:
        """One case, on a solver of its own (the cases do not depend on each other): its LP
        (`case_lps`); then each of `tries` (rules, limit) in turn until one refutes it; then, with
        `turn_limit`, split on the turn of its first 3-pumpkin activation."""
        if case_lps is not None:
            lp = case_lps.bound(counts)
            if lp is not None and lp.integer_bound < stars_to_win(setup):
                return told(ExtrasCase(counts, True, float(lp.bound), 0.0, by_lp=True))
        spent, bound = 0.0, None
        for case_rules, case_limit in tries:
            if task is not None and task.cancelled.is_set():
                return ExtrasCase(counts, False, None, 0.0)  # (dropped: a cancelled task's answer is never taken)
            refuted, bound, used = case_bound(setup, rolls, options, case_rules, counts, case_limit, params, lb_tree,
                                              None, task)
            spent += used
            if refuted:
                return told(ExtrasCase(counts, True, bound, spent))
        if turn_limit <= 0 or sum(counts) == 0:
            return last_try(ExtrasCase(counts, False, bound, spent), task)
        by_turn: list[tuple[int, float | None, float]] = []
        for first_turn in range(len(rolls)):  # without the rows (the last of `tries`)
            if task is not None and task.cancelled.is_set():
                return ExtrasCase(counts, False, None, 0.0)
            refuted, sub_bound, used = case_bound(setup, rolls, options, tries[-1][0], counts, turn_limit, params,
                                                  lb_tree, first_turn, task)
            spent += used
            by_turn.append((first_turn + 1, sub_bound, used))
            if not refuted:
                return last_try(ExtrasCase(counts, False, bound, spent, tuple(by_turn)), task)
        return told(ExtrasCase(counts, True, max((b for _, b, _ in by_turn if b is not None), default=None), spent,
                               tuple(by_turn)))

    # with a spare core the next case is solved beside the current one (`extras_cases_beside`): the
    # answers are taken in the order above and the ones past the stop are cancelled, so the answer
    # is the one asked in turn (the cases are independent questions, each on one worker)
    beside = bool(params.get("extras_cases_beside")) and spare_core()
    # each case's thread at a lower priority than the answer's own path (`extras_cases_nice`),
    # unless HiGHS's lines found a case region of this turn count infeasible: then the proof is
    # likely the answer's path (a time choice only)
    nice = int(params.get("extras_cases_nice", 0) or 0)
    cases = extras_counts(len(setup.realms), most)
    running: dict[int, Speculation] = {}
    # every case started beside, so that cancelling the whole proof (`task`, e.g. the early cases
    # of a question the lines won) cancels them too: this thread may be waiting for one of them
    # (`take`), which alone would run on to its limit, its answer dropped (measured: bench seed 2's
    # early cases burned a core for minutes after its win)
    started: list[Speculation] = []

    def start(i: int) -> None:
        if beside and i < len(cases) and i not in running:
            lines_failed = refuted_cases is not None and refuted_cases.lines_infeasible(len(rolls),
                                                                                     lines_infeasible_sign(params))
            running[i] = Speculation(("case", i), lambda case_task, c=cases[i]: one_case(c, case_task),
                                     nice=0 if lines_failed else nice)
            started.append(running[i])
            if task is not None and task.cancelled.is_set():
                running[i].cancel(wait=False)  # (cancelled after `stop_beside` looked at `started`)

    def stop_beside() -> None:
        for case_task in list(started):
            case_task.cancel(wait=False)

    if task is not None and beside:
        task.stoppable(stop_beside)
    if refuted_cases is not None:
        refuted_cases.proof_running(len(rolls), True)
    try:
        for i, counts in enumerate(cases):
            if budget and sum(c.deterministic_time for c in done) >= budget:
                return answer(False)
            if task is not None and task.cancelled.is_set():
                return answer(False)  # (dropped: a cancelled task's answer is never taken)
            start(i)
            start(i + 1)
            case = running.pop(i).take(("case", i)) if i in running else one_case(counts, task)
            done.append(case)
            if not case.refuted:
                return answer(False)
        return answer(True)
    finally:
        for case_task in running.values():
            case_task.cancel()
        if refuted_cases is not None:
            refuted_cases.proof_running(len(rolls), False)


def lp_still_useful(q: TurnQuestion) -> bool:
    """Ask the LP at the next turn count too? Not once it failed to prove one (its bound reached
    the win, or no bound within its limit): later turns hold more rolls, so their LPs are larger
    and, in every instance measured, no lower (docs/campaign-chapter2.md). A time choice only:
    skipping a bound never makes an answer wrong."""
    return q.method in ("lp-bound", "lp-prefix") or q.split_k is not None


def lines_beside_lp(setup: Chapter2, asked: Sequence[TurnQuestion], params: dict[str, Any],
                    solver: cp_model.CpSolver) -> bool:
    """Run the next question's HiGHS lines beside its LP (`ask_turn`'s `line_beside_lp`)? When
    round.toml's `line_mip_beside_lp` is on, CP-SAT has one worker, a second core is there, and the
    last LP asked (the previous turn count's, or the prefix LP's) is within
    `line_mip_beside_lp_within` stars of the win, so the next LP is likely to reach it. Why: there
    the LP (1.4-1.9 s on bench seeds 2 and 4 at W = 9) only delays HiGHS's search for the win; a
    time choice, never an answer's."""
    if not _on_spare_core(params, "line_mip_beside_lp", solver):
        return False
    last = next((q.lp_bound for q in reversed(asked) if q.lp_bound is not None), None)
    within = float(params.get("line_mip_beside_lp_within", 1.0))
    return last is not None and float(last.bound) >= stars_to_win(setup) - within


def lines_ahead_turn(setup: Chapter2, asked: Sequence[TurnQuestion], w: int, most: int, params: dict[str, Any],
                     solver: cp_model.CpSolver) -> int | None:
    """The later turn count whose HiGHS lines to start now, before question `w` is asked
    (`line_mip_ahead`, round.toml: at most that many turns ahead; 0: never): the turn the last LP
    asked (turn t, bound b; the prefix LP's too) foresees as the first to reach the win, t +
    (win - b) / rise rounded, when that is past w. None: nothing to start (or the conditions of
    `lines_beside_lp`, one CP-SAT worker and a second core, do not hold). Why: the LPs of the
    turn counts before the win run one after another on one core while the other is idle, and
    the lines of the first turn count that reaches the win are the answer's path on the bench's
    won instances (the LP rose by 0.5-2 stars a turn on bench seeds 1-11). A time choice only:
    lines started too early or for the wrong turn count are cancelled (`ask_turn`'s
    `lines_later`; the ladder when the foreseen turn changes), and taken only by their own
    question, as that question would ask them. The LP is taken to rise by its last rise a turn
    (between the last two turn counts asked, the prefix LP's included), at least 1: bench seed
    10's rose 1.5 and 1.25 a turn, seeds 1-9's 0.65-1.4."""
    ahead = int(params.get("line_mip_ahead", 0) or 0)
    if ahead <= 0 or not _on_spare_core(params, "line_mip_beside_lp", solver):
        return None
    bounds = {q.turn: float(q.lp_bound.bound) for q in asked if q.lp_bound is not None}
    if not bounds:
        return None
    t = max(bounds)
    short = stars_to_win(setup) - bounds[t]
    rise = max(1.0, bounds[t] - bounds.get(t - 1, bounds[t]))  # (stars a turn: the last rise, at least 1)
    foreseen = t + max(1, math.floor(short / rise + 0.5))  # (rounded: lines started early cost only the idle core)
    return foreseen if w < foreseen <= min(most, w + ahead) else None


def cases_ahead(params: dict[str, Any], solver: cp_model.CpSolver) -> bool:
    """Start the ladder's first unknown question's proof by cases at once, on a spare core, while
    the first pass asks the next turn counts (round.toml `extras_cases_ahead`; one CP-SAT worker
    and a second core)? Why: the second pass (`settle_ladder`) always asks that proof first, so
    it is never wasted, and the first pass leaves a core idle (HiGHS's line search and CP-SAT run
    one thread each). A time choice: the proof's answer is the same in either thread."""
    return _on_spare_core(params, "extras_cases_ahead", solver)


def cases_early(params: dict[str, Any], solver: cp_model.CpSolver) -> bool:
    """Let the question's CP-SAT stage beside the lines start its proof by cases as soon as it
    leaves the question unknown (`ask_turn`'s `cases_early`; round.toml `extras_cases_early`, with
    `cases_ahead`'s conditions)? Why: on bench seed 1's W 9 the lines ran 13 s on after that
    stage ended, one core idle, and the cases ahead started only then (docs/campaign-chapter2.md).
    A time choice: the proof's answer is the same in any thread."""
    return cases_ahead(params, solver) and bool(params.get("extras_cases_early"))


def cases_chain(params: dict[str, Any], solver: cp_model.CpSolver) -> bool:
    """Once the proof by cases running ahead has ended during the first pass, take it, and when it
    refuted its question start the next unknown question's proof on the spare core (or, none
    being unknown yet, leave the core to the next question's stage and early cases)? round.toml
    `extras_cases_chain`, with `cases_ahead`'s conditions. Why: on bench seed 0 the W 8 cases were
    refuted at 22 s and the spare core then idled until the win at 538 s, while W 9's cases
    (260 det-s) waited for the second pass. A time choice: the second pass would ask the same
    proofs in the same order, and stops at the first one not refuted, as the chain does."""
    return cases_ahead(params, solver) and bool(params.get("extras_cases_chain"))


def next_cases_ahead(setup: Chapter2, rolls: Sequence[tuple[int, int]], questions: Sequence[TurnQuestion],
                     ahead: Speculation, taken: dict[int, "ExtrasCases | None"], options: ModelOptions,
                     params: dict[str, Any], refuted: RefutedCases | None) -> tuple[Speculation | None, bool]:
    """`cases_chain`'s step, `ahead` having ended: its answer goes to `taken` (the second pass uses
    it), and when it refuted its question the next unknown question's proof is started ahead.
    Returns (the proof now running ahead, or None; whether the spare core is free for the next
    question's stage: not once a proof failed, since the second pass stops there)."""
    turn = int(ahead.key[1])
    answer = ahead.take(ahead.key)
    taken[turn] = answer
    if answer is None or not answer.refuted:
        return None, False
    q = next((q for q in questions if q.status == "unknown" and q.turn not in taken), None)
    if q is None:
        return None, True
    return proof_ahead(setup, rolls, q, options, params, refuted), True


def proof_ahead(setup: Chapter2, rolls: Sequence[tuple[int, int]], q: TurnQuestion, options: ModelOptions,
                params: dict[str, Any], refuted: RefutedCases | None) -> Speculation:
    """Question `q`'s proof by cases (`cases_of`) started on the spare core, keyed ("cases", turn)
    as `settle_ladder` takes it."""
    return Speculation(("cases", q.turn), lambda task: cases_of(setup, rolls, q.turn, q.split_k, options,
                                                                 CHAPTER2_RULES, params, task, refuted))


def _on_spare_core(params: dict[str, Any], setting: str, solver: cp_model.CpSolver) -> bool:
    """A speculative stage's switch: the round.toml setting on, one CP-SAT worker, a second core."""
    return bool(params.get(setting)) and solver.parameters.num_workers <= 1 and spare_core()


def cp_sat_beside(params: dict[str, Any], solver: cp_model.CpSolver) -> bool:
    """Run a question's CP-SAT stage beside HiGHS's lines (`ask_turn`'s `cp_sat_beside_lines`;
    round.toml `line_mip_cp_sat_beside`, one CP-SAT worker and a second core)? Why: on the turn
    counts whose lines find nothing (the one before the win, on bench seeds 1, 3, 5) the two
    ran one after the other, one core idle. A time choice: the answer is the one asked in turn."""
    return _on_spare_core(params, "line_mip_cp_sat_beside", solver)


def lp_note(q: TurnQuestion) -> str:
    """', LP bound 16.33' for the answer's lines (empty when the LP was not asked), and the split's
    k when CP-SAT was asked only the lines with fewer 3-pumpkin activations."""
    note = f", LP bound {float(q.lp_bound.bound):.2f}" if q.lp_bound is not None else ""
    if q.split_k is not None and q.split_lp is not None:
        note += f"; with >= {q.split_k} 3-pumpkin activations {float(q.split_lp.bound):.2f}"
    return note


def solve_chapter2(setup: Chapter2, rolls: Sequence[tuple[int, int]], time_limit: float | None = None,
                   workers: int | None = None, options: ModelOptions = ModelOptions(),
                   progress: Progress | None = None, turns: Sequence[int] | None = None,
                   total_limit: float | None = None) -> Chapter2Result:
    """The fewest-turn win: ask W = 1, 2, ... (at most the rolls given and the chapter's last
    turn) until a checked win; `time_limit` is CP-SAT deterministic time per question,
    `total_limit` stops asking once the questions together used that much (benchmarks; the later
    W are then not asked and the answer is unknown; the second pass, `settle_ladder`, is not
    counted against it). `turns` restricts the W asked (tests). With `cases_ahead`, the first
    unknown W's proof by cases starts on the spare core as soon as it is unknown; with
    `cases_chain`, the next unknown W's once that one is refuted."""
    rolls = tuple(tuple(r) for r in rolls)  # type: ignore[misc]
    say = progress or (lambda _msg: None)
    t0 = time.perf_counter()
    params = load_params("target")
    solver = make_solver(params, time_limit if time_limit is not None else DEFAULT_TIME_LIMIT, workers)
    result = Chapter2Result(setup, rolls, "unknown", params=effective_params(solver))
    most = min(len(rolls), setup.last_turn)
    planned = list(turns if turns is not None else range(1, most + 1))
    lp_live = True
    ahead: Speculation | None = None
    refuted = RefutedCases()  # (the cases refuted on the spare core, for the lines beside them)
    if turns is None:
        result.questions.extend(prefix_questions(setup, rolls, most, params, options))
        if result.questions:
            q = result.questions[-1]
            say(f"chapter 2 {','.join(setup.realms)}: won by turn {q.turn}? impossible (the prefix LP bound "
                f"{float(q.lp_bound.bound):.2f}; every turn count 1-{q.turn} answered at once)")  # type: ignore[union-attr]
    taken: dict[int, ExtrasCases | None] = {}  # proofs by cases taken during the first pass (`cases_chain`)
    lines_ahead: tuple[int, Speculation] | None = None  # a later turn count's lines, running (`lines_ahead_turn`)
    spare_free = True  # no proof by cases runs ahead, and none is worth starting (the chain not broken)
    try:  # (the cases ahead, if started, are stopped however this ends)
        for w in planned:
            if any(q.turn == w for q in result.questions):
                continue
            if total_limit is not None and result.deterministic_time >= total_limit:
                break
            if ahead is not None and ahead.done() and cases_chain(params, solver):
                ahead, spare_free = next_cases_ahead(setup, rolls, result.questions, ahead, taken, options, params,
                                                     refuted)
            beside_lp = lp_live and lines_beside_lp(setup, result.questions, params, solver)
            free = ahead is None and spare_free
            # a later turn count's lines started now, while the LPs before it are solved (`lines_ahead_turn`)
            foreseen = lines_ahead_turn(setup, result.questions, w, most, params, solver) if lp_live and free else None
            if lines_ahead is not None and lines_ahead[0] != w and lines_ahead[0] != foreseen:
                lines_ahead[1].cancel(wait=False)
                lines_ahead = None
            if foreseen is not None and lines_ahead is None:
                lines_ahead = (foreseen, lines_task(setup, rolls, foreseen, solver, options, CHAPTER2_RULES, params,
                                                    refuted))
            here = lines_ahead[1] if lines_ahead is not None and lines_ahead[0] == w else None
            later = lines_ahead[1] if lines_ahead is not None and lines_ahead[0] > w else None
            if here is not None:
                lines_ahead = None  # (the question takes or cancels them)
            early = CasesEarly() if free and cases_early(params, solver) else None
            try:
                q = ask_turn(setup, rolls, w, solver, options, lp_params=params if lp_live else None,
                             hint_params=params, extras_cases=False, line_beside_lp=beside_lp or here is not None,
                             cp_sat_beside_lines=free and cp_sat_beside(params, solver), cases_early=early,
                             refuted=refuted, lines=here, lines_later=later)
            except BaseException:
                if early is not None:
                    early.adopt(False)
                raise
            if later is not None and q.status != "impossible":
                lines_ahead = None  # (cancelled by the question, whose LP reached the win)
            if early is not None:
                ahead = early.adopt(q.status == "unknown")
            lp_live = lp_live and lp_still_useful(q)
            result.questions.append(q)
            say(f"chapter 2 {','.join(setup.realms)}: won at turn {w}? {q.status} "
                f"({q.deterministic_time:.2f} det-s, {q.cuts} cut(s){lp_note(q)})")
            if ahead is None and spare_free and q.status == "unknown" and cases_ahead(params, solver):
                ahead = proof_ahead(setup, rolls, q, options, params, refuted)
            if q.status == "won":
                assert q.line is not None
                result.line = q.line
                result.verdict = _checked(setup, rolls, q.line)
                break
        settle_ladder(setup, rolls, result.questions, options, params, say, ahead, solver, taken)
        last = result.questions[-1] if result.questions else None
        if last is not None and last.status == "won" and last.line is not result.line:
            assert last.line is not None  # (a win found by the second pass: `finish_deferred`)
            result.line = last.line
            result.verdict = _checked(setup, rolls, last.line)
    finally:
        if ahead is not None:
            ahead.cancel()  # (nothing to stop once taken)
        if lines_ahead is not None:
            lines_ahead[1].cancel(wait=False)
    statuses = [q.status for q in result.questions]
    if result.line is not None:
        result.status = "won" if all(s == "impossible" for s in statuses[:-1]) else "unknown"
    else:
        asked_all = len(statuses) == len(planned) > 0
        result.status = "impossible" if asked_all and all(s == "impossible" for s in statuses) else "unknown"
    result.solve_time = time.perf_counter() - t0
    return result


# ---- setup choice: the 2 chosen realms and the row order ---------------------------------------

@dataclass
class Candidate:
    """One setup (the row, left to right) and its fewest-turn answer (or why it was not asked)."""

    realms: tuple[str, str, str]
    status: str  # won | impossible | unknown | unsolvable
    answer: Chapter2Result | None = None
    note: str = ""


@dataclass
class FleetResult(SetupChoice):
    """Every choice of the 2 realms beside the drawn one and every row order, with the best setup:
    the one that wins in fewest turns (ties: first in fleet order)."""

    fleet: tuple[str, ...]
    drawn: str
    candidates: list[Candidate]
    difficulty: str
    rolls: int
    solve_time: float = 0.0

    @property
    def best(self) -> Candidate | None:
        won = [c for c in self.candidates if c.answer is not None and c.answer.turn is not None]
        return min(won, key=lambda c: c.answer.turn) if won else None  # type: ignore[union-attr]

    @property
    def status(self) -> str:
        """won: the best setup's turn count is proven fewest over every candidate; impossible:
        every candidate proven impossible; unknown otherwise."""
        best = self.best
        if best is None:
            return combined_status([c.status for c in self.candidates])
        assert best.answer is not None and best.answer.turn is not None
        w = best.answer.turn
        for c in self.candidates:
            if c is best:
                if c.status != "won":
                    return "unknown"
                continue
            a = c.answer
            if a is None or any(q.status != "impossible" for q in a.questions if q.turn < w) \
                    or len([q for q in a.questions if q.turn < w]) < w - 1:
                return "unknown"
        return "won"

    def as_json(self) -> dict[str, Any]:
        best = self.best
        return {
            "status": self.status,
            "fleet": list(self.fleet),
            "drawn": self.drawn,
            "difficulty": self.difficulty,
            "rolls": self.rolls,
            "candidates": [{"realms": list(c.realms), "status": c.status, "note": c.note,
                            "answer": c.answer.as_json() if c.answer is not None else None} for c in self.candidates],
            "best": list(best.realms) if best else None,
            "best_turn": best.answer.turn if best and best.answer else None,
            "solve_time": round(self.solve_time, 3),
        }


def parse_fleet(fleet: str | Sequence[str], drawn: str | Sequence[str]) -> tuple[tuple[str, ...], str]:
    """The fleet (5 different, non-excluded realms) and the 1 drawn from it; InputError naming the option."""
    f, d = answers.parse_fleet(fleet, drawn, chapter=2, size=FLEET_SIZE, draws=DRAWN, excluded=_exclusion)
    return f, d[0]


def _exclusion(key: str) -> str | None:
    try:
        ch2.check_not_excluded(key)
    except ExcludedRealm as exc:
        return str(exc)
    return None


def fleet_setups(fleet: Sequence[str], drawn: str) -> list[tuple[str, str, str]]:
    """Every row the player may set up: the drawn realm and 2 chosen from the other 4, in every
    order (seed 003, chapter 2 setup 2-3; the order matters through the rightmost-realm rule)."""
    others = [k for k in fleet if k != drawn]
    rows = []
    for pair in itertools.combinations(others, 2):
        rows.extend(itertools.permutations((drawn,) + pair))
    return rows  # type: ignore[return-value]


def choose_setup(fleet: Sequence[str], drawn: str | Sequence[str], rolls: Sequence[tuple[int, int]],
                 difficulty: str = "normal", win_beats_cap: bool = False, time_limit: float | None = None,
                 workers: int | None = None, options: ModelOptions = ModelOptions(),
                 progress: Progress | None = None) -> FleetResult:
    """The fewest-turn win over every setup, asked turn count by turn count for all setups
    together (W = 1, 2, ...) and stopped at the first setup that wins: every setup was proven
    impossible at every smaller W (or the answer says unknown), so nothing can beat it; the setups
    not asked at that W are reported with what was proven for them.

    The LP (`lp_base`) does not look at the row order, so the prefix LP (`prefix_questions`) is
    asked once per realm set, before the first W, and its answers hold for every order of the set;
    an LP below the win at W likewise marks the set's other orders impossible at W. The CP-SAT
    model looks at the row order only through the rightmost-realm rows (`reads_the_row`): where
    they are not built, a model INFEASIBLE before any cut for one order is INFEASIBLE for every
    order, and the other orders are marked impossible at that W without solving again."""
    fleet_keys, drawn_key = parse_fleet(fleet, drawn)
    say = progress or (lambda _msg: None)
    t0 = time.perf_counter()
    rolls = tuple(tuple(r) for r in rolls)  # type: ignore[misc]
    params = load_params("target")
    solver = make_solver(params, time_limit if time_limit is not None else DEFAULT_TIME_LIMIT, workers)
    cands: list[Candidate] = []
    live: list[Candidate] = []
    for row in fleet_setups(fleet_keys, drawn_key):
        unsolvable = [k for k in row if not is_solvable(get_realm(k))]
        if unsolvable:
            cands.append(Candidate(row, "unsolvable", None, f"{unsolvable[0]} has no CP-SAT model: not decided"))
            continue
        setup = Chapter2(row, difficulty, win_beats_cap=win_beats_cap)
        c = Candidate(row, "unknown", Chapter2Result(setup, rolls, "unknown", params=effective_params(solver)))
        cands.append(c)
        live.append(c)
    most = min(len(rolls), Chapter2(cands[0].realms, difficulty).last_turn) if cands else 0
    lp_spent: set[frozenset[str]] = set()  # realm sets whose LP no longer proves (lp_still_useful); like the
    # model, the LP does not look at the row order
    prefixed: dict[frozenset[str], list[TurnQuestion]] = {}  # the prefix LP's answers, once per realm set
    for c in live:
        assert c.answer is not None
        key = frozenset(c.realms)
        if key not in prefixed:
            prefixed[key] = prefix_questions(c.answer.setup, rolls, most, params, options)
            if prefixed[key]:
                say(f"chapter 2 {','.join(sorted(key))} (every row order): no win by turn {prefixed[key][-1].turn} "
                    f"(the prefix LP)")
        c.answer.questions.extend(prefixed[key])
    for w in range(1, most + 1):
        if not live:
            break
        free: set[frozenset[str]] = set()  # realm sets whose model is INFEASIBLE at w before any cut
        for c in live:
            a = c.answer
            assert a is not None
            if any(q.turn == w for q in a.questions):
                continue  # answered by the prefix LP
            if frozenset(c.realms) in free:
                a.questions.append(TurnQuestion(w, "impossible"))
                continue
            lp_on = frozenset(c.realms) not in lp_spent
            q = ask_turn(a.setup, rolls, w, solver, options, lp_params=params if lp_on else None, hint_params=params,
                         extras_cases=False, line_beside_lp=lp_on and lines_beside_lp(a.setup, a.questions, params, solver))
            if not lp_still_useful(q):
                lp_spent.add(frozenset(c.realms))
            a.questions.append(q)
            if q.status == "impossible" and q.cuts - q.line_mip_cuts == 0 and (q.method == "lp-bound" or not reads_the_row(a.setup)):
                free.add(frozenset(c.realms))
            say(f"chapter 2 {','.join(c.realms)}: won at turn {w}? {q.status} ({q.deterministic_time:.2f} det-s{lp_note(q)})")
            if q.status == "won":
                assert q.line is not None
                a.line, a.verdict = q.line, _checked(a.setup, rolls, q.line)
                break
        if any(c.answer is not None and c.answer.line is not None for c in live):
            break
    # the second pass (settle_ladder), setup by setup, the winning one first; it stops at the first
    # setup left undecided, since the fleet's answer is then unknown whatever the others give
    for c in sorted(live, key=lambda c: c.answer is None or c.answer.line is None):
        assert c.answer is not None
        if not settle_ladder(c.answer.setup, rolls, c.answer.questions, options, params, say, solver=solver):
            break
    for c in cands:
        a = c.answer
        if a is None:
            continue
        statuses = [q.status for q in a.questions]
        if a.line is not None:
            a.status = "won" if all(s == "impossible" for s in statuses[:-1]) else "unknown"
        elif statuses and len(statuses) == most and all(s == "impossible" for s in statuses):
            a.status = "impossible"
        else:
            a.status = "unknown"
            if all(s == "impossible" for s in statuses):
                upto = f"turns 1-{len(statuses)}" if statuses else "no turn"
                c.note = f"no win at {upto} (proven); later turns not asked: another setup wins no later"
        c.status = a.status
        a.solve_time = sum(q.deterministic_time for q in a.questions)
    return FleetResult(fleet_keys, drawn_key, cands, difficulty, len(rolls), time.perf_counter() - t0)


# ---- command line helpers (cli.py wires these) ------------------------------------------------

def run_command(rolls_path: str, realms: str | None, difficulty: str, win_beats_cap: bool, fleet: str | None,
                drawn: str | None, time_limit: float | None, workers: int | None = None,
                progress: Progress | None = None) -> Chapter2Result | FleetResult:
    """`solve chapter2`: validate the inputs (InputError: one line, exit 2) and ask the question."""
    from ..commands import parse_realm_list, require_solver_model
    from ..rolls import load_rolls

    check_solver_inputs(time_limit, workers, realms, fleet, drawn, fixed_option="--realms", fixed_text="the row",
                        fleet_text="the fleet of 5 and the realm drawn from it", chosen_text="the setup")
    most = ch2.MAX_TURNS[difficulty]
    rolls = load_rolls(rolls_path)
    if len(rolls) > most:
        raise InputError(f"{rolls_path}: {len(rolls)} turns, but chapter 2 ({difficulty}) has at most {most}")
    if fleet is not None:
        assert drawn is not None
        return choose_setup(fleet, drawn, rolls, difficulty, win_beats_cap, time_limit, workers, progress=progress)
    assert realms is not None
    keys = parse_realm_list(realms)
    try:
        setup = Chapter2(keys, difficulty, win_beats_cap=win_beats_cap)  # type: ignore[arg-type]
    except ValueError as exc:
        raise InputError(f"chapter 2: {exc}") from None
    require_solver_model(setup.game(rolls))
    return solve_chapter2(setup, rolls, time_limit, workers, progress=progress)


def answer_lines(res: Chapter2Result) -> list[str]:
    """The answer for people: status, turns asked and proven, the line (text format) if any."""
    s = res.setup
    head = f"{', '.join(s.realms)} (row left to right); {s.difficulty}; {len(res.rolls)} roll(s) given, turns 1-{res.turns_used} asked"
    proven = res.proven_impossible
    proof = f"proven impossible at turn(s) {_ranges(proven)}" if proven else "no turn count proven impossible"
    out = []
    if res.status == "won":
        assert res.verdict is not None
        out.append(f"WON at turn {res.turn} (fewest, proven: {proof}) — {head}")
    elif res.status == "impossible":
        out.append(f"IMPOSSIBLE: no line wins within the {res.turns_used} turn(s) of the rolls ({proof}) — {head}")
    elif res.line is not None:
        out.append(f"UNKNOWN: a win at turn {res.turn} was found, but not proven fewest ({proof}; "
                   f"the limit stopped turn(s) {_ranges([q.turn for q in res.questions if q.status == 'unknown'])}) — {head}")
    else:
        out.append(f"UNKNOWN: the time limit stopped the solver before deciding; this is NOT an answer ({proof}) — {head}")
    for q in res.questions:
        if q.method == "lp-bound":
            assert q.lp_bound is not None
            out.append(f"  turn {q.turn:2d}: {q.status:10s} by the LP bound: at most {float(q.lp_bound.bound):.2f} stars "
                       f"< {stars_to_win(s)} ({q.lp_bound.seconds:.2f} s)")
        elif q.method == "lp-prefix":  # one line for the turns it answered together
            assert q.lp_bound is not None
            if q.turn == 1:
                out.append(f"  turns 1-{q.lp_turns}: {q.status:10s} by the LP bound of turns 1-{q.lp_turns} with every die free "
                           f"to stay unused: at most {float(q.lp_bound.bound):.2f} stars < {stars_to_win(s)} by any of those "
                           f"turns ({q.lp_bound.seconds:.2f} s)")
        else:
            how = " (LP; the extras split: CP-SAT asked of the lines with fewer)" if q.method == "extras-split" else ""
            if q.hint is not None:
                how += f"; HiGHS hint: {q.hint}"
            if q.line_mip is not None:
                how += f"; HiGHS line ({q.line_mip})"
            if q.extras_cases is not None:
                how += f"; {q.extras_cases.note()}"
            out.append(f"  turn {q.turn:2d}: {q.status:10s} {q.deterministic_time:7.2f} det-s, {q.cuts} cut(s){lp_note(q)}{how}")
    if res.line is not None and res.verdict is not None:
        out.append(f"  checked by check_chapter2: {res.verdict.outcome.upper()} at turn {res.verdict.turn}, "
                   f"step {res.verdict.action}: {res.verdict.reason}; free moves used {res.verdict.moves_used} of {s.free_moves}")
        out.append("line (text format, `solve check chapter2 --line` replays it):")
        out.extend(line_text(res.line).rstrip().splitlines())
    out.append(f"  solve time {res.solve_time:.2f} s (deterministic {res.deterministic_time:.2f}), cuts {res.cuts}")
    return out


def _ranges(turns: Sequence[int]) -> str:
    """[1, 2, 3, 5] -> '1-3, 5'."""
    out: list[str] = []
    for _, grp in itertools.groupby(enumerate(sorted(turns)), key=lambda p: p[1] - p[0]):
        g = [v for _, v in grp]
        out.append(str(g[0]) if len(g) == 1 else f"{g[0]}-{g[-1]}")
    return ", ".join(out)


def print_answer(echo: Callable[[str], None], answer: Chapter2Result | FleetResult) -> None:
    """Plain text lines through `echo` (click.echo in the CLI)."""
    if isinstance(answer, Chapter2Result):
        for text in answer_lines(answer):
            echo(text)
        return
    echo(f"Chapter 2 setups: drawn {answer.drawn}; 2 more from the fleet ({', '.join(answer.fleet)}) in every row order")
    for c in answer.candidates:
        a = c.answer
        detail = c.note
        if a is not None and a.turn is not None:
            detail = f"won at turn {a.turn}" + ("" if a.status == "won" else " (not proven fewest)")
        elif a is not None and not detail:
            detail = f"proven impossible at turn(s) {_ranges(a.proven_impossible) or '-'}"
        echo(f"  {' '.join(c.realms):45s} {c.status.upper():11s} {detail}")
    best = answer.best
    if best is None:
        echo("IMPOSSIBLE: no setup wins (each proven)" if answer.status == "impossible" else
             "UNKNOWN: no winning setup found, and not every setup is proven impossible")
        return
    assert best.answer is not None
    word = "BEST SETUP (fewest turns, proven over every setup)" if answer.status == "won" else \
        "BEST SETUP FOUND (fewest turns NOT proven over every setup)"
    echo(f"{word}: {', '.join(best.realms)} — won at turn {best.answer.turn}")
    for text in answer_lines(best.answer):
        echo(text)
