"""Questions about a round, answered by the CP-SAT model and checked by the engine.

Every answer states its status: "optimal" (proven), "reachable" (witness line), "unreachable"
(proven: the solver's INFEASIBLE, or the model's LP relaxation bound below the target; the proof
says which), or "unknown" (limit hit: best line so far and the bound).
Every line returned has been replayed by the engine; a disagreement raises ModelDisagreement.
"""
from __future__ import annotations

import math
import threading
import time
import tomllib
from dataclasses import dataclass, field, replace as dc_replace
from importlib import resources as ir
from typing import Any, Callable, NamedTuple

import ortools
from ortools.sat.python import cp_model

from .engine import Game, Replay, apply_action, end_turn, replay, start
from .errors import IllegalAction
from .line import Line, TurnPlay
from .ordering import order_turn
from .playout import greedy_line
from .progress import (STAGE_FIRST_LINE, STAGE_LEFTOVER, STAGE_LP, STAGE_MIP_LINES, STAGE_SPLIT, STAGE_STAR_SEARCH,
                       STAGE_WINDOWS, ProgressCallback, RoundProgress)
from .interrupt import no_sigint
from .improve import ImproveSettings, WindowModel, improve_line, line_score, pair_windows
from .lp_bound import INF, HighsRelaxation, LpBound, LpRelaxation, Unsupported, lp_upper_bound
from .mip_hint import highs_mip, hint_by_name, hint_values, line_mip_limits
from .model import ModelOptions, RoundModel, turn_extras_bounds
from .cut_repair import CutRepair, repair_questions, solve_pinned
from .speculate import Speculation, spare_core
from .split import ExtrasSplit, extras_terms, line_extras, split_proof
from .star_cases import CaseAnswer, case_lp_bounds, refute_by_cases

#: stars come first, leftover resources break ties (rolling-realms.md 6.6)
STAR_WEIGHT = 1000

ORTOOLS_VERSION = ortools.__version__


class ModelDisagreement(AssertionError):
    """The engine rejected a line the model produced: a bug in one of the two judges."""


def load_params(question: str) -> dict[str, Any]:
    text = ir.files("solver").joinpath("params", "round.toml").read_text(encoding="utf-8")
    return dict(tomllib.loads(text)[question])


@dataclass
class RoundResult:
    """The answer to a question about a round, with what is needed to trust it."""

    question: str  # "optimal" or "target"
    status: str  # optimal | reachable | unreachable | unknown
    target: int | None = None
    stars: int | None = None
    leftover: int | None = None
    star_bound: int | None = None  # proven upper bound on stars (None if nothing proven)
    line: Line | None = None
    replay: Replay | None = None
    solve_time: float = 0.0
    deterministic_time: float = 0.0
    params: dict[str, Any] = field(default_factory=dict)
    #: 3-pumpkin activations per realm and turn the model allows (its proven bound)
    extras: list[int] = field(default_factory=list)
    proof: dict[str, Any] | None = None
    #: plays cut off because the engine found no legal order for them
    cuts: int = 0
    #: the star count is proven best (the leftover tie-break may still be unproven)
    stars_proven: bool = False
    #: proven bound on leftover resources among lines with the best star count
    leftover_bound: int | None = None
    #: the first turns as given (`ModelOptions.played`); the answer is about the rest of the round
    played: Line | None = None

    @property
    def played_turns(self) -> int:
        return len(self.played.turns) if self.played is not None else 0

    @property
    def success(self) -> bool:
        return self.status in ("optimal", "reachable")

    @property
    def exit_code(self) -> int:
        return {"optimal": 0, "reachable": 0, "unreachable": 1}.get(self.status, 3)

    @property
    def score(self) -> float | None:
        if self.stars is None or self.leftover is None:
            return None
        return self.stars + self.leftover / 10


def one_worker(params: dict[str, Any], workers: int | None) -> bool:
    """Does the question run on one CP-SAT worker (`workers`, else its parameters)? Then it is
    deterministic: the same model, hint and limit give the same answer."""
    return int(workers if workers is not None else params.get("num_workers", 1)) == 1


#: the prefixes of round.toml's keys that are the solver's own settings, not CP-SAT's parameters
OWN_SETTINGS = ("quick_", "improve_", "cut_repair_", "lp_", "leftover_lp_", "leftover_proof_", "leftover_finder_", "split_", "mip_hint_", "line_mip_",
                "region_", "star_cases_", "extras_case", "prefix_lp_", "speculate")


def make_solver(params: dict[str, Any], time_limit: float | None, workers: int | None) -> cp_model.CpSolver:
    """A CP-SAT solver with the question's parameters (solver/params/round.toml), a deterministic
    time limit and the worker count (1: the same input gives the same answer). Ctrl-C is left to
    the command line (solver/interrupt.py)."""
    solver = no_sigint(cp_model.CpSolver())
    for key, value in params.items():
        if key.startswith(OWN_SETTINGS):
            continue  # our own settings, not CP-SAT's
        setattr(solver.parameters, key, value)
    if time_limit is not None:
        solver.parameters.max_deterministic_time = float(time_limit)
    if workers is not None:
        solver.parameters.num_workers = int(workers)
    return solver


def _replayed(game: Game, line: Line) -> Replay:
    rep = replay(game, line)
    if not rep.legal:
        raise ModelDisagreement(f"the engine rejects the model's line: {rep.error}\n{line.to_text()}")
    return rep


def build(game: Game, options: ModelOptions = ModelOptions()) -> RoundModel:
    return RoundModel(game, options)


def lp_bound_of(model: cp_model.CpModel, objective: Any, params: dict[str, Any]) -> LpBound | None:
    """Max `objective` over the LP relaxation of `model` (solver/lp_bound.py: a checked bound)
    within the question's GLOP deterministic limit `lp_deterministic_time` (absent or 0: not asked)."""
    limit = float(params.get("lp_deterministic_time", 0) or 0)
    return lp_upper_bound(model, objective, f"max_deterministic_time: {limit}") if limit > 0 else None


def relaxation_of(model: cp_model.CpModel, objective: Any, params: dict[str, Any]) -> LpRelaxation | None:
    """The LP relaxation of `model` kept for warm re-solves, with the question's GLOP limit
    (None: not asked, or a constraint kind the relaxation does not know)."""
    limit = float(params.get("lp_deterministic_time", 0) or 0)
    if limit <= 0:
        return None
    try:
        if params.get("lp_solver", "glop") == "highs":
            return HighsRelaxation(model, objective, int(params["lp_iterations"]), bool(params.get("lp_presolve", True)))
        return LpRelaxation(model, objective, f"max_deterministic_time: {limit}")
    except Unsupported:
        return None


def leftover_lp_params(params: dict[str, Any]) -> dict[str, Any]:
    """The question's parameters for the leftover LP of stage 3 (stars >= the proven count): its
    GLOP limit is `leftover_lp_deterministic_time` when given. Measured on bench seed 15 (Feast
    for Odin + Libertalia + Würfelwelten, 18 stars): that LP needs about 16 GLOP units (None at 8
    and 12), where the round's star LP needs about 4 (docs/performance.md). With
    `leftover_lp_solver = "highs"` HiGHS's dual simplex solves it instead, at most
    `leftover_lp_iterations` iterations, its presolve as `leftover_lp_presolve` says
    (`lp_bound.HighsRelaxation`: measured 2-3x faster there)."""
    out = dict(params)
    if "leftover_lp_deterministic_time" in params:
        out["lp_deterministic_time"] = params["leftover_lp_deterministic_time"]
    if params.get("leftover_lp_solver", "glop") == "highs":
        out["lp_solver"], out["lp_iterations"] = "highs", params["leftover_lp_iterations"]
        out["lp_presolve"] = bool(params.get("leftover_lp_presolve", True))
    return out


def lp_options(options: ModelOptions) -> ModelOptions:
    """The options of the model every LP bound is asked of: compensation's condition dropped
    (`ModelOptions.free_compensation`): more plays than the rules allow, so the bound stays valid
    for every legal line; measured, the same LP values from 2.3x fewer rows (docs/performance.md).
    Lines are never taken from that model (solve_with_cuts refuses it; chapter 2's proof by cases
    solves it for its bound only, `extras_case_lp_model`). It also gets the rows
    that only help an LP (`ModelOptions.lp_rows`), and the realms state their placements per
    turn where they can (`ModelOptions.placements_by_turn`: a smaller LP, still a relaxation),
    and each activation's pumpkin changes are priced as a distance on the values
    (`ModelOptions.pumpkins_by_thresholds`: a third fewer columns, the same LP optimum)."""
    return dc_replace(options, free_compensation=True, lp_rows=True, placements_by_turn=True,
                      pumpkins_by_thresholds=True)


def lp_model(game: Game, options: ModelOptions) -> RoundModel:
    """A fresh round model for LP bounds (`lp_options`): never one holding cut rows, so the
    certificate's LP and `solve verify`'s are the same."""
    return build(game, lp_options(options))


def star_lp(lp_rm: RoundModel, params: dict[str, Any]) -> tuple[LpBound | None, LpRelaxation | None]:
    """The round's star LP (`lp_bound_of` of the LP's model `lp_rm`) and its relaxation, kept for
    the extras split's rows (`extras_split(relaxation=...)`), which GLOP then solves warm."""
    rel = relaxation_of(lp_rm.model, lp_rm.stars, params)
    return (rel.solve() if rel is not None else None), rel


def extras_split(game: Game, options: ModelOptions, params: dict[str, Any], base: RoundModel | None = None,
                 relaxation: LpRelaxation | None = None) -> ExtrasSplit:
    """The question's proof by cases on 3-pumpkin activations (solver/split.py); `base`: the
    LP's round model already built (`lp_model`; the model is not built again); `relaxation`:
    base's relaxation already built and solved by `star_lp` (the split's row goes into it, so
    neither is built again)."""
    return ExtrasSplit(game, options, lambda mdl, obj: lp_bound_of(mdl, obj, params), lp_model_options=lp_options(options),
                       max_k=int(params.get("split_max_extras", 0)),
                       relaxation_of=lambda mdl, obj: relaxation_of(mdl, obj, params), base=base,
                       relaxation=relaxation)


def lp_proof(question: str, lp: LpBound) -> dict[str, Any]:
    """A proof by the LP relaxation: the model (itself a relaxation of the rules) has no
    fractional solution with that many stars, so no line has them. `solve verify` re-runs it."""
    return {"question": question, "status": "INFEASIBLE", **lp.as_json(), "ortools": ORTOOLS_VERSION}


def decode_line(rm: RoundModel, solver: cp_model.CpSolver) -> Line | int:
    """The model's action sets put in a legal order by the engine, or the first turn with none."""
    game = rm.game
    state = start(game)
    turns = []
    for t, (per_realm, comps, end) in enumerate(rm.turn_sets(solver)):
        order = order_turn(game, state, per_realm, comps)
        if order is None:
            return t
        for action in order:
            state = apply_action(game, state, action)
        try:
            state = end_turn(game, state, dict(end))
        except IllegalAction:
            return t
        turns.append(TurnPlay(game.rolls[t], tuple(order), tuple(end)))
    return Line(tuple(turns))


#: at most this many plays cut off (no legal order) before giving up with 'unknown'
MAX_CUTS = 200


class _ShownLines(list[Line]):
    """The legal lines a round solve has found (the stages append to it): each new one is shown
    by the solve's progress (solver/progress.py), whichever stage found it."""

    def __init__(self, game: Game, shown: RoundProgress, lines: list[Line]) -> None:
        super().__init__()
        self.game, self.shown = game, shown
        for found in lines:
            self.append(found)

    def append(self, found: Line) -> None:
        super().append(found)
        if self.shown.callback is not None:
            self.shown.line(replay(self.game, found).stars_total)


class LateStop:
    """A stop line a solve learns while it runs (a speculative solve's: solver/speculate.py): the
    asking thread sets `value` once it knows the bound; the solve reads it at each line."""

    def __init__(self) -> None:
        self.value: int | None = None


#: the improving legal lines of a solve, in the order found: (objective, line, cuts made before it)
Trail = list[tuple[int, Line, int]]


class _LineKeeper(cp_model.CpSolverSolutionCallback):
    """Orders every improving solution with the engine and keeps the best legal line (each
    improving one also in `trail`, when given)."""

    def __init__(self, rm: RoundModel, progress: Callable[[int, int], None] | None, stop_at: int | LateStop | None = None,
                 scale: int = STAR_WEIGHT, trail: Trail | None = None) -> None:
        super().__init__()
        self.scale = scale
        self.rm = rm
        self.progress = progress
        self.stop_at = stop_at
        self.best: tuple[int, Line] | None = None
        self.trail = trail
        self.cuts = 0  # (set by the solve: the cuts made so far)

    def stop(self) -> int | None:
        """The objective at which the search stops (None: none, or not known yet)."""
        return self.stop_at.value if isinstance(self.stop_at, LateStop) else self.stop_at

    def on_solution_callback(self) -> None:
        found = decode_line(self.rm, self)
        if isinstance(found, Line):
            value = int(self.objective_value)
            if self.best is None or value > self.best[0]:
                self.best = (value, found)
                if self.trail is not None:
                    self.trail.append((value, found, self.cuts))
            stop = self.stop()
            if stop is not None and value >= stop:
                self.stop_search()
        if self.progress is not None and self.best is not None:
            self.progress(self.best[0] // self.scale, int(self.best_objective_bound) // self.scale)


def search_started(solver: cp_model.CpSolver) -> bool:
    """Did an UNKNOWN solve get past presolve? A limit hit during presolve leaves the response
    empty: its `best_objective_bound` is 0, not a bound (measured: a 9-turn round at 2 det-s said
    "bound 0" beside a 15-star line). Once the search has loaded the model the bound is valid."""
    return solver.response_proto.num_booleans > 0 and math.isfinite(solver.best_objective_bound)


class CutSolve(NamedTuple):
    """What solve_with_cuts found (see there)."""

    status: str
    line: Line | None
    bound: int | None
    cuts: int
    deterministic_time: float


def solve_with_cuts(
    rm: RoundModel,
    solver: cp_model.CpSolver,
    progress: Callable[[int, int], None] | None = None,
    stop_at: int | LateStop | None = None,
    scale: int = STAR_WEIGHT,
    cancelled: threading.Event | None = None,
    repair: CutRepair | None = None,
    trail: Trail | None = None,
) -> CutSolve:
    """Solve; when the model's optimum has a turn with no legal order, cut that play off and
    solve again. Returns (status, best legal line, proven objective bound, cuts, deterministic
    time of every solve) with status 'optimal' (the line reaches the bound), 'infeasible', or
    'unknown'. The solver's limit is shared by the solves and restored at the end (so that the
    parameters an answer reports are the ones asked, not what was left after a cut).

    The model is a relaxation of the rules and every cut removes only plays the engine proved
    illegal in every order, so each solve's bound is valid for every legal line. `cancelled`
    (a speculative solve, solver/speculate.py): set, no further solve is started. `repair`
    (solver/cut_repair.py): before solving again after a cut optimum, look for a legal line with
    the same objective near the cut play. `trail`: every improving legal line is appended to it
    (objective, line, cuts made before it); `stop_at` may be a `LateStop`."""
    assert not rm.options.free_compensation, "lines are never taken from the LP's model"
    budget = solver.parameters.max_deterministic_time
    try:
        return _solve_with_cuts(rm, solver, budget, progress, stop_at, scale, cancelled, repair, trail)
    finally:
        solver.parameters.max_deterministic_time = budget


def _solve_with_cuts(rm: RoundModel, solver: cp_model.CpSolver, budget: float,
                     progress: Callable[[int, int], None] | None, stop_at: int | LateStop | None, scale: int,
                     cancelled: threading.Event | None = None, repair: CutRepair | None = None,
                     trail: Trail | None = None) -> CutSolve:
    cuts = 0
    spent = 0.0
    keeper = _LineKeeper(rm, progress, stop_at, scale, trail)
    bound: int | None = None

    def settled() -> CutSolve | None:
        """The answer once the best legal line meets the bound (optimal) or `stop_at`, else None."""
        best = keeper.best
        if best is not None and bound is not None and best[0] >= bound:
            return CutSolve("optimal", best[1], bound, cuts, spent)
        stop = keeper.stop()
        if best is not None and stop is not None and best[0] >= stop:
            return CutSolve("unknown", best[1], bound, cuts, spent)
        return None

    while True:
        if cancelled is not None and cancelled.is_set():
            return CutSolve("unknown", None, None, cuts, spent)
        status = solver.solve(rm.model, keeper)
        this_solve = solver.deterministic_time
        spent += this_solve
        if status == cp_model.INFEASIBLE:
            return CutSolve("infeasible", None, None, cuts, spent)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE) or (status == cp_model.UNKNOWN and search_started(solver)):
            # the bound is valid even when no solution was found (the model is a relaxation)
            b = int(solver.best_objective_bound)
            bound = b if bound is None else min(bound, b)
        if (done := settled()) is not None:
            return done
        best = keeper.best
        if status != cp_model.OPTIMAL:
            return CutSolve("unknown", best[1] if best else None, bound, cuts, spent)
        found = decode_line(rm, solver)
        if isinstance(found, Line):  # the callback may have missed the final solution
            return CutSolve("optimal", found, bound, cuts, spent)
        cuts += 1
        if cuts > MAX_CUTS or (budget and spent >= budget):
            return CutSolve("unknown", best[1] if best else None, bound, cuts, spent)
        asked = repair_questions(rm, solver, found, repair) if repair is not None and this_solve >= repair.after else None
        rm.forbid_history(solver, found)
        keeper.cuts = cuts
        if asked is not None and repair is not None:
            values, steps = asked
            for pinned in steps:
                if (cancelled is not None and cancelled.is_set()) or (budget and spent >= budget):
                    break
                spent += solve_pinned(rm, solver, values, pinned, min(repair.budget, budget - spent) if budget else repair.budget,
                                      keeper)
                if (done := settled()) is not None:
                    return done
            if budget and spent >= budget:
                best = keeper.best
                return CutSolve("unknown", best[1] if best else None, bound, cuts, spent)
        if budget:
            solver.parameters.max_deterministic_time = max(0.1, budget - spent)


def solve_optimal(
    game: Game,
    time_limit: float | None = None,
    workers: int | None = None,
    options: ModelOptions = ModelOptions(),
    progress: ProgressCallback | None = None,
    prove: bool = True,
    speculate: bool | None = None,
) -> RoundResult:
    """Most stars, then most leftover resources; proven when status is 'optimal'.

    1. A quick line from the small model (no 3-pumpkin activations): a lower bound and a hint.
    2. Most stars, on the full model (proven bounds only): its optimum proves the star count.
       Not proven within the limit: the LP relaxation's checked bound (2b), then the window
       improver (2c; first on the round without compensation, a restriction whose windows are
       far smaller), stopping when the line meets that bound (which then proves its stars;
       once its windows converge, 2d's opening before its pairs: `opening_after_windows`);
       then the split on 3-pumpkin activations (2d, solver/split.py). Long rounds
       (`lp_first_turns`) ask 2b and 2c first (2a), then 2d; CP-SAT's star search only when
       the LP gave no bound (or `lp_first_star_search`).
    3. With that many stars, most leftover resources (in the split's small model when the stars
       were proven by the LP or the split and no line outside it has that many); still unproven,
       the window improver raises the line's leftover (3c; a line source only), then HiGHS's
       MIP is asked for lines with more (3e, `leftover_mip_lines`; a line source only), and
       the split's region the best line needs is asked once more, longer (3f,
       `leftover_last_question`). The split's regions bound the leftover even when they do not
       prove it (`_leftover_split`), so a line of 3c or 3e meeting that bound is proven.
    Measured: asking for stars alone first proves far faster than the weighted objective
    (docs/performance.md). The time limit applies to each of 2 and 3.
    `speculate` (None: round.toml's `speculate`): on long rounds the star LP and then the
    extras split's LPs run beside stage 1 (the quick line without compensation asked while this
    thread would wait for them: `speculate_off_quick_line`), and stage 3's leftover solve
    without 3-pumpkin activations beside its LPs, on a spare core (solver/speculate.py; the
    same answer, less wall time); only with one CP-SAT worker and a second core."""
    params = load_params("optimal")
    speculate_on = (speculate if speculate is not None else bool(params.get("speculate", False))) \
        and one_worker(params, workers) and spare_core()
    t0 = time.perf_counter()
    # (the turns still to play: played turns are fixed, `ModelOptions.played`)
    free_turns = game.turns - options.played_turns
    long_round = free_turns >= int(params.get("lp_first_turns", 0) or game.turns + 1)
    # long rounds ask the star LP first (2a) whatever the quick line: on a spare core it is built
    # and solved beside the quick line (solver/speculate.py; the same LP, less wall time)
    tasks: list[Speculation] = []  # every task started, stopped at the end (a task may add one)
    star_lp_task = Speculation("star-lp", lambda task: _star_lp_of(game, options, params, task, tasks)) \
        if long_round and speculate_on else None
    if star_lp_task is not None:
        tasks.insert(0, star_lp_task)
    try:
        return _solve_optimal(game, time_limit, workers, options, progress, prove, params, t0, long_round,
                              speculate_on, star_lp_task, tasks)
    finally:
        for task in tasks:
            task.cancel()  # (a task taken or finished: nothing to do)


def _star_lp_of(game: Game, options: ModelOptions, params: dict[str, Any], task: Speculation,
                tasks: list[Speculation]) -> tuple[RoundModel, LpBound | None, LpRelaxation | None,
                                                   ExtrasSplit | None, Speculation | None]:
    """The long round's star LP (2a) on the spare core: its model (`lp_model`), bound and
    relaxation; with a bound, the extras split (2d) made of them and its LPs started at once in
    a task of their own (added to `tasks`, so it is stopped at the end), beside stage 1's quick
    line rather than after it: asked in the order smallest_k asks them, on the same relaxation,
    so the same values. Measured: docs/performance.md, thirty-sixth session."""
    lp_rm = lp_model(game, options)
    lp, rel = star_lp(lp_rm, params)
    split: ExtrasSplit | None = None
    split_task: Speculation | None = None
    if lp is not None and not task.cancelled.is_set():
        split = extras_split(game, options, params, base=lp_rm, relaxation=rel)
        split_task = Speculation("split-lps", lambda _task: _split_lps(split))
        tasks.append(split_task)
    return lp_rm, lp, rel, split, split_task


def _split_lps(split: ExtrasSplit) -> None:
    """The split's LPs k = 1, 2, ... as `ExtrasSplit.smallest_k` asks them (in order, warm, up to
    the first with no bound), kept in `split.lps`."""
    for k in range(1, split.max_k + 1):
        if split.lp(k) is None:
            return


def _solve_optimal(game: Game, time_limit: float | None, workers: int | None, options: ModelOptions,
                   progress: ProgressCallback | None, prove: bool, params: dict[str, Any], t0: float,
                   long_round: bool, speculate_on: bool, star_lp_task: Speculation | None,
                   tasks: list[Speculation]) -> RoundResult:
    """solve_optimal's stages (see there)."""
    cap = game.rules.star_cap * len(game.realms)  # the most stars any line can have
    shown = RoundProgress(progress, cap, stage="")  # what the caller sees while this runs (solver/progress.py)
    shown.enter(STAGE_FIRST_LINE)
    greedy = greedy_line(game, options.played)  # always a legal line to start from (and to show)
    first = _quick_line(game, params, time_limit, options, shown.line if progress else None,
                        max_variables=_quick_max_variables(game, params, options, greedy), greedy=greedy) \
        if options.extras is None else None
    if first is None:
        first = greedy
    result = RoundResult("optimal", "unknown", params={})
    lines = _ShownLines(game, shown, [first])
    # 2. most stars (the whole round's model is built only when its star search is asked: long
    # rounds with an LP bound never ask it, `lp_first_star_search`)
    solver = make_solver(params, time_limit, workers)
    result.params, result.extras = effective_params(solver), turn_extras_bounds(game, options)

    def whole_progress(best: int, bound: int) -> None:
        """The whole model's star search: its lines and its bound are the round's."""
        shown.line(best)
        shown.proven_bound(bound)

    def region_shown(best: int, _bound: int) -> None:
        """A region's search (a restriction of the round): its lines are the round's, its bound
        is not."""
        shown.line(best)

    def star_bound_proven(bound: int) -> None:
        """`bound` is proven for the round: the answer keeps the lowest proven so far, and shows it."""
        result.star_bound = bound if result.star_bound is None else min(result.star_bound, bound)
        shown.proven_bound(result.star_bound)

    # (None without a caller to show them to: the searches then run exactly as before)
    star_progress = whole_progress if progress else None
    region_progress = region_shown if progress else None

    stars_proven, proven_by, line = False, None, None
    lp: LpBound | None = None
    star_rel: LpRelaxation | None = None  # the star LP's relaxation, which the extras split re-solves warm

    def best_so_far() -> Line:
        return max(lines, key=lambda cand: line_score(game, cand, STAR_WEIGHT))

    def meets_bound(cand: Line) -> str | None:
        """Which proven bound the line's stars meet (that proves them best), if any."""
        cand_stars = replay(game, cand).stars_total
        if lp is not None and cand_stars >= lp.integer_bound:
            return "lp"  # the LP bound proves the line's star count
        if result.star_bound is not None and cand_stars >= result.star_bound:
            return "cp-sat"  # CP-SAT's own proven bound (e.g. 18 stars, the cap)
        if cand_stars >= cap:
            return "cap"
        return None

    # 2d's split on 3-pumpkin activations (solver/split.py) and its regions, asked there and by 2c
    # (`opening_after_windows`)
    split: ExtrasSplit | None = None
    split_task: Speculation | None = None  # the split's LPs on a spare core
    portfolio = region_portfolio_params(params)
    star_cases_on = star_cases_enabled(params)
    region_max: dict[int, int] = {}  # k -> a proven bound on the stars of that region's lines
    regions_tried: set[int] = set()  # k asked by region_solved
    regions_asked: set[tuple[Any, ...]] = set()  # (k, hint) asked by region_solved

    def region_solved(k: int, hinted: bool = True, portfolio: dict[str, Any] | None = None) -> None:
        """Most stars among the lines with at most k - 1 3-pumpkin activations (the split's
        region k: `ExtrasSplit.region`), proven or not (`portfolio`: the parameters of CP-SAT's
        interleaved portfolio, `region_portfolio_params`)."""
        regions_tried.add(k)
        hint = _best_in_region(game, lines, k - 1) if hinted else None
        # one CP-SAT worker and a deterministic limit: the same question gets the same answer, so
        # a question asked before (2c's opening, then 2d's with the same hint) is not asked again
        question = (k, hint) if portfolio is None and one_worker(params, workers) else None
        if question is not None and question in regions_asked:
            return
        rmr = split.region(k)
        rmr.model.maximize(rmr.stars)
        if hint is not None:  # the best line that is a line of the region (the quick line is)
            rmr.hint_line(hint)
        status_r, bound_r = _solve_into(rmr, portfolio or params, time_limit,
                                        None if portfolio else workers, result, lines, progress=region_progress, scale=1,
                                        stop_at=result.star_bound)
        if question is not None:
            regions_asked.add(question)
        if status_r == "optimal" and bound_r is not None:
            region_max[k] = min(region_max.get(k, bound_r), bound_r)

    cases_asked: set[tuple[int, int]] = set()  # (k, stars refuted) already asked by cases
    case_lps: dict[int, Any] = {}  # k -> the cases' LP check of region k (built once, re-solved warm)

    def best_stars() -> int:
        return replay(game, best_so_far()).stars_total

    def needed_k() -> int | None:
        """The region the split needs proven for the best line: the smallest k whose LP of the
        lines with at least k 3-pumpkin activations is at most the best line's stars."""
        found = split.smallest_k(best_stars())
        return None if found is None else found[0]

    def split_proves() -> bool:
        k = needed_k()
        return k is not None and region_max.get(k, best_stars() + 1) <= best_stars()

    def region_by_cases() -> None:
        """The needed region has no line above the best: by cases on how those stars would be
        shared among the realms (solver/star_cases.py); a case with a line is a better line,
        and the cases are asked again above it."""
        while (k := needed_k()) is not None and (k, best_stars()) not in cases_asked:
            stars_now = best_stars()
            cases_asked.add((k, stars_now))
            if k not in case_lps:
                case_lps[k] = _case_lp(game, split, k, params)
            proof, found = refute_by_cases(game, lambda: split.region(k), stars_now,
                                           _case_solver(params, time_limit, workers, result, lines), case_lps[k])
            if proof["status"] == "INFEASIBLE":
                region_max[k] = min(region_max.get(k, stars_now), stars_now)
            if found is None:
                return

    # the improver's round models, built once per rule variant and shared by 2c and 3c (a model
    # takes about 0.8 s wall to build on a 9-turn promo round; improve.WindowModel)
    window_models: dict[str, WindowModel] = {}
    improve_budget = time_limit if time_limit is not None else params.get("improve_deterministic_time", 20.0)

    def improve_from(best_line: Line, stop_at: int | None,
                     on_better: Callable[[int], None] | None = None,
                     off_converged: Callable[[], None] | None = None, off_restart: bool = True) -> None:
        """The window improver (2c, 3c) from `best_line` with 2c's budget, stopping at a line of
        score `stop_at` (`off_converged`, `off_restart`: improve_both's); its line joins the
        lines found, its time the answer's."""
        found, used = improve_both(game, best_line, improve_budget, params, workers, options, on_better, stop_at=stop_at,
                                   shared=window_models, off_converged=off_converged, off_restart=off_restart)
        result.deterministic_time += used
        lines.append(found)

    def improve_by_pairs(stop_at: int, on_better: Callable[[int], None] | None = None) -> None:
        """After the windows (2c, 3c), the line still scoring below `stop_at`: every two turns,
        adjacent or not (improve.pair_windows), re-solved on the round itself with the rest
        fixed, each within `improve_pair_deterministic_time`, all within their own budget
        (`improve_pairs_deterministic_time`, or --time-limit), stopping at `stop_at`. Measured
        on the issue-2 bench (docs/performance.md, nineteenth session): seeds 12 and 42 17 -> 18
        stars, seed 33's leftover 10 -> 12 (its bound), where the 4-turn windows had stopped.
        With `improve_region_pairs`, on the region `_region_pass` names for the best line, every
        `improve_region_pair_turns` turns: that model is far smaller, so each set is solved well
        within its limit (docs/performance.md, thirty-eighth session)."""
        best_line = best_so_far()
        budget = time_limit if time_limit is not None else params.get("improve_pairs_deterministic_time", 0.0)
        if not budget or line_score(game, best_line, STAR_WEIGHT) >= stop_at:
            return
        settings = improve_settings(params)
        on_region = bool(params.get("improve_region_pairs", False))
        pair_options = _region_pass(options, best_line, settings, params)[0] if on_region else options
        # (never more turns than are left to play: a 2-turn round still gets its pair)
        size = max(2, min(int(params.get("improve_region_pair_turns", 2)), game.turns - options.played_turns)) if on_region else 2
        found, used = improve_line(game, best_line, budget, _window_solver(params, workers), STAR_WEIGHT, settings,
                                   pair_options, on_better, stop_at=stop_at,
                                   windows=pair_windows(options.played_turns, game.turns, size), per_window=settings.per_pair,
                                   shared=_window_model(window_models, game, pair_options))
        result.deterministic_time += used
        lines.append(found)

    def split_ready() -> None:
        """The split's LPs (2d) asked: taken from the spare core, or the split made now."""
        nonlocal split
        if split_task is not None:
            split_task.take("split-lps")  # (asked beside 2c: wait for them; a second take is a no-op)
        elif split is None and lp is not None:
            split = extras_split(game, options, params, base=lp_round_model(), relaxation=star_rel)

    def split_opening() -> None:
        """2d's opening: the needed region being the one without 3-pumpkin activations, its star
        cases first (`star_cases_first`); then that region's hinted solve, unless proven."""
        shown.enter(STAGE_SPLIT)
        if star_cases_on and params.get("star_cases_first", False) and needed_k() == 1 and not split_proves():
            # the region needed is this one: its star cases before its hinted solve (measured on
            # the bench, twenty-first session: same answers, proven rounds' median 31.3 -> 27.9 s)
            region_by_cases()
        if not split_proves() and 1 not in region_max:  # (2c may have proven it: opening_after_windows)
            region_solved(1)

    proven_in_2c = False  # the stars proven by split_opening in 2c (`opening_after_windows`)
    windows_converged = False  # 2c's windows without compensation ended within their budget

    def off_windows_converged() -> None:
        """improve_both's `off_converged`: its windows without compensation converged (noted)."""
        nonlocal windows_converged
        windows_converged = True

    def opening_after_windows() -> None:
        """2c, long rounds with an LP bound (`split_after_converged_windows`): the windows
        without compensation converged (ended within their budget) and the windows left the line
        below the bound, so 2d's opening (`split_opening`: the star cases or the hinted solve of
        the region without 3-pumpkin activations) is asked before the pairs; when it proves the
        stars, 2c ends there. 2d asks nothing of it again (`region_solved`: the same question).
        Measured on the bundled game's rounds 2 and 3 and on the issue-2 bench
        (docs/performance.md, thirty-fifth session)."""
        nonlocal proven_in_2c
        if not windows_converged or not long_round or lp is None:
            return
        split_ready()
        if split is None or split.max_k < 1:
            return
        split_opening()
        proven_in_2c = split_proves()

    def improve_to_bound() -> None:
        """2c: improve the best line window by window, then two turns at a time, stopping when
        it meets the bound."""
        best_line = best_so_far()
        if meets_bound(best_line) is None:
            shown_bound = result.star_bound
            shown.enter(STAGE_WINDOWS)
            on_better = shown.line if progress else None
            # no bound: the star cap (measured on bench seed 41, no star LP within its limit: four
            # more windows after the line's 18 stars, 6 s wall, none better)
            stop_at = STAR_WEIGHT * (shown_bound if shown_bound is not None else cap)
            opening = bool(params.get("split_after_converged_windows", False))
            improve_from(best_line, stop_at, on_better, off_converged=off_windows_converged if opening else None)
            if meets_bound(best_so_far()) is None:
                opening_after_windows()
            if meets_bound(best_so_far()) is None and not proven_in_2c:
                shown.enter(STAGE_WINDOWS)
                improve_by_pairs(stop_at, on_better)

    def improve_leftover(stars: int) -> None:
        """3c: the leftover still unproven, the window improver on the best line with that many
        stars (its windows maximise stars, then leftover; the stars are proven, so leftover),
        stopping when the line meets the leftover bound (which then proves it). Measured on the
        issue-2 bench at the 18-star cap: seed 15 leftover 4 -> 9 (docs/performance.md)."""
        best_line = best_so_far()
        rep = replay(game, best_line)
        bound = result.leftover_bound
        if rep.stars_total < stars or (bound is not None and rep.final.resources.total() >= bound):
            return
        improve_from(best_line, STAR_WEIGHT * stars + bound if bound is not None else None,
                     off_restart=bool(params.get("improve_leftover_off_restart", True)))
        if bound is not None:
            improve_by_pairs(STAR_WEIGHT * stars + bound)

    # 2a. long rounds: the LP relaxation's checked bound first (solver/lp_bound.py), then the
    # window improver up to it; CP-SAT's star search only if the line is still below it and the
    # LP gave no bound, or `lp_first_star_search` asks it (measured: on 9-turn rounds that search
    # never proved the stars, nor found better lines than the improver; docs/performance.md)
    lp_rm: RoundModel | None = None

    def lp_round_model() -> RoundModel:
        nonlocal lp_rm
        if lp_rm is None:
            lp_rm = lp_model(game, options)
        return lp_rm

    if long_round:
        if star_lp_task is not None and not star_lp_task.done() and params.get("speculate_off_quick_line", False):
            # the star LP still running on the spare core: the quick line of the round without
            # compensation asked now, while this thread would wait, when 2c's improver will ask
            # it first (the line compensates: improve_both); the same question, answered ahead
            off = _without_compensation(game)
            if _off_first(game, off, options) and not replay(off, best_so_far()).legal:
                _off_quick_line(window_models, off, improve_budget, params, options)
        if star_lp_task is not None:
            # (with the split's LPs already started on the spare core: `_star_lp_of`)
            lp_rm, lp, star_rel, split, split_task = star_lp_task.take("star-lp")
        else:
            shown.enter(STAGE_LP)
            lp, star_rel = star_lp(lp_round_model(), params)
        if lp is not None:
            star_bound_proven(lp.integer_bound)
        improve_to_bound()
        proven_by = meets_bound(best_so_far())
        if proven_by is not None:
            stars_proven, line = True, best_so_far()
        elif proven_in_2c:
            stars_proven, proven_by, line = True, "split", best_so_far()
            star_bound_proven(replay(game, line).stars_total)
    if not stars_proven and (not long_round or lp is None or params.get("lp_first_star_search", True)):
        rm = build(game, options)
        rm.model.maximize(rm.stars)
        rm.hint_line(best_so_far())
        shown.enter(STAGE_STAR_SEARCH)
        status, found_line, bound, cuts, used = solve_with_cuts(rm, solver, star_progress, scale=1,
                                                                repair=CutRepair.from_params(params))
        if status == "infeasible":
            raise ModelDisagreement("the model has no line at all (the empty line is always legal)")
        result.params, result.cuts = effective_params(solver), cuts
        result.deterministic_time += used
        if found_line is not None:
            lines.append(found_line)
        if bound is not None:
            star_bound_proven(bound)
        if status == "optimal":
            stars_proven, proven_by, line = True, "cp-sat", found_line
    # 2b. not proven: the LP relaxation's checked bound (solver/lp_bound.py) may be lower than
    # CP-SAT's, which stays at the 18-star cap on 9-turn rounds (docs/performance.md)
    if not stars_proven and not long_round:
        shown.enter(STAGE_LP)
        lp, star_rel = star_lp(lp_round_model(), params)
        if lp is not None:
            star_bound_proven(lp.integer_bound)
        improve_to_bound()
    if not stars_proven:
        proven_by = meets_bound(best_so_far())
        if proven_by is not None:
            stars_proven, line = True, best_so_far()
    # 2d. still not proven, the LP reached but not met: proof by cases on the round's 3-pumpkin
    # activations (solver/split.py): lines with >= k of them are below the best line by the LP,
    # the rest are asked of a far smaller model (the stars proven, stage 3 waits for the split's
    # LPs only after starting its speculative leftover solve)
    if not stars_proven:
        split_ready()
    if not stars_proven and split is not None and split.max_k >= 1:
        # the lines with no 3-pumpkin activation first, the smallest region, whatever k the best
        # line would ask: its optimum is often a better line, which lowers k (measured on bench
        # seed 34: 14 stars / LP 16 unknown before; the region proves 15 and so the round).
        # Not proven: the needed region by star cases (measured, fifteenth session: regions whose
        # maximum CP-SAT did not prove in 60 det-s refuted case by case in a few). Still not
        # proven: region 1 once more without a hint, CP-SAT's path there is chaotic (measured,
        # bench seed 22 was proven (17 stars) with the hint and not without (16), seed 18 (16
        # stars) without it and not with it (15)), and then by the interleaved portfolio
        # (deterministic), whose large-neighbourhood searches find lines the one-worker search
        # does not (measured on the bench: seeds 0, 3, 7, 21, 28, 31, 42 gained 1-3 stars)
        split_opening()
        if not split_proves() and star_cases_on:
            region_by_cases()
        if not split_proves() and 1 not in region_max:
            region_solved(1, hinted=False)
            if not split_proves() and 1 not in region_max and portfolio is not None:
                region_solved(1, portfolio=portfolio)
        if not split_proves() and (k := needed_k()) is not None and k not in regions_tried:
            region_solved(k)  # the other region is below the best line by the LP
        if not split_proves() and star_cases_on:
            region_by_cases()  # the best line or the needed region changed since
        if split_proves():
            stars_proven, proven_by = True, "split"
            line = best_so_far()
            star_bound_proven(replay(game, line).stars_total)
    if long_round and not stars_proven:
        # 2e, once 2d (or, with no LP bound, CP-SAT's star search) has left the stars open: lines
        # with one star more than the best from HiGHS's MIP (`mip_line`), while they are found and
        # below the bound, at most `line_mip_asks` questions. (Asked before 2d where the split
        # could not prove the best line, it cost the bundled game's round 2 two HiGHS questions,
        # 163 s wall, for the line 2d finds in less: docs/performance.md, twenty-eighth session)
        for _ in range(int(params.get("line_mip_asks", 0))):
            if meets_bound(best_so_far()) is not None:
                break
            shown.enter(STAGE_MIP_LINES)
            found = mip_line(game, options, replay(game, best_so_far()).stars_total + 1, params, workers, result)
            if found is None:
                break
            lines.append(found)
        proven_by = meets_bound(best_so_far())
        if proven_by is not None:
            stars_proven, line = True, best_so_far()
    if lp is not None and not stars_proven:
        lp = None  # it proves nothing the answer claims
    # 3. most leftover with the proven star count (when stars were proven by the LP or the split,
    # first in the split's region of lines that can have that many stars at all)
    if stars_proven and line is not None:
        stars = replay(game, line).stars_total
        shown.proven_bound(stars)
        shown.enter(STAGE_LEFTOVER)
        left_options = dc_replace(options, first_activations_paid=True)  # (ModelOptions: measured here)
        # long rounds: the leftover solve of the lines without 3-pumpkin activations, which 3b
        # (or stage 3's own solve, when that is its model) asks after the LPs, started now on a
        # spare core (solver/speculate.py: used only if asked exactly so; the same answers)
        spec: LeftoverSpeculation | None = None
        gate = FinderGate.from_params(params)  # (the line finder's misses in this round)
        if long_round and speculate_on:
            region0, hint0 = dc_replace(left_options, max_total_extras=0), _best_in_region(game, lines, 0, stars)
            spec = LeftoverSpeculation(game, region0, stars, hint0, params, time_limit, workers, gate)
        try:
            rm2_options = left_options
            # (after the speculative solve started: the split's LPs may still run on the spare
            # core; measured on bench seeds 14 and 36, until 16 s after the stars were proven)
            split_ready()
            if split is not None:
                found_k2 = split.smallest_k(stars, strict=True)
                if found_k2 is not None:
                    # lines with more 3-pumpkin activations have fewer stars: the split's region
                    rm2_options = dc_replace(left_options, max_total_extras=found_k2[0] - 1)
            rm2_hint = line if rm2_options.max_total_extras is None or line_extras(line) <= rm2_options.max_total_extras else None
            leftover_proven = False
            kept_cases: LeftoverCases | None = None  # 3b's cases, for 3f

            def leftover_by_lp_and_split(whole_bound: int | None) -> None:
                """The LP relaxation's checked bound on leftover with that many stars (as in 2b; in
                the split's region it is a bound of the round too: no line outside has that many
                stars), then, while the best line is below it, the leftover split (3b)."""
                nonlocal leftover_proven, kept_cases
                rl = lp_model(game, rm2_options)  # stage 3's lines and more (lp_options), none with fewer stars
                rl.model.add(rl.stars >= stars)
                rel = relaxation_of(rl.model, rl.leftover, leftover_lp_params(params))
                if rel is None:
                    return
                extras_row = rel.add_row(extras_terms(rl), 0, INF)
                leftover_lp = rel.solve()
                if leftover_lp is None:
                    return
                result.leftover_bound = leftover_lp.integer_bound if whole_bound is None else min(whole_bound, leftover_lp.integer_bound)
                if spec is not None:
                    spec.learn_stop(result.leftover_bound)  # (its line finder may stop at its line now)
                if _best_leftover(game, lines, stars) < leftover_lp.integer_bound:
                    kept_cases = leftover_cases(game, rm2_options, rel, extras_row, params)
                    if kept_cases is None:
                        return
                    proven_left = _leftover_split(game, left_options, kept_cases, stars, lines, params,
                                                  time_limit, workers, result, bound=result.leftover_bound, spec=spec,
                                                  gate=gate)
                    if proven_left is not None:
                        result.leftover_bound, leftover_proven = proven_left, True

            # long rounds: the split first (measured: where stage 3's model is the whole round, its
            # leftover solve proved nothing at the 18-star cap; where it is a star-split region, the
            # LP and the region without 3-pumpkin activations proved bench seeds 2, 11, 23 in 1.3 /
            # 2.2 / 3.5 det-s, where that region's solve took 6.6 / 10 + 2.2 / 9.0; docs/performance.md)
            if long_round:
                leftover_by_lp_and_split(None)
            if not leftover_proven:
                answer = spec.answer(rm2_options, stars, rm2_hint, result.leftover_bound) if spec is not None else None
                if answer is None:
                    answer = leftover_solve(game, rm2_options, stars, rm2_hint, params, time_limit, workers,
                                            stop_at=result.leftover_bound, gate=gate)
                status2, bound2 = _count(answer, result, lines), answer.bound
                if bound2 is not None:
                    result.leftover_bound = bound2 if result.leftover_bound is None else min(result.leftover_bound, bound2)
                leftover_proven = status2 == "optimal" or (
                    result.leftover_bound is not None and _best_leftover(game, lines, stars) >= result.leftover_bound)
                if not leftover_proven and not long_round:
                    leftover_by_lp_and_split(bound2)
        finally:
            if spec is not None:
                spec.cancel()
        if not leftover_proven:
            improve_leftover(stars)
            leftover_mip_lines(game, options, stars, lines, params, workers, result)
            if kept_cases is not None:
                leftover_last_question(game, left_options, stars, lines, params, workers, result, kept_cases, gate)
    else:
        leftover_proven = False
    best_value = -1
    for cand in lines:
        rep = _replayed(game, cand)
        value = STAR_WEIGHT * rep.stars_total + rep.final.resources.total()
        if value > best_value:
            best_value = value
            result.stars, result.leftover, result.line, result.replay = rep.stars_total, rep.final.resources.total(), cand, rep
    _show_played(game, options, result)
    result.stars_proven = stars_proven
    if stars_proven:
        result.star_bound = result.stars
    if stars_proven and not leftover_proven and result.leftover_bound is not None and result.leftover is not None \
            and result.leftover >= result.leftover_bound:
        leftover_proven = True  # the best line meets the (LP) bound on leftover
    if stars_proven and leftover_proven:
        result.status = "optimal"
    result.solve_time = time.perf_counter() - t0
    if result.status == "optimal" and prove:
        if lp is not None and lp.integer_bound <= (result.stars or 0):
            result.proof = lp_proof(f"stars >= {(result.stars or 0) + 1}", lp)  # (a fresh model's LP)
        else:
            result.proof = prove_no_more(game, result.stars or 0, time_limit, workers, options,
                                         split_first=proven_by == "split")
        result.solve_time = time.perf_counter() - t0
        if result.proof["status"] != "INFEASIBLE":
            result.status = "unknown"  # the optimum was found but the certificate proof did not finish
    return result


def _solve_into(rm: RoundModel, params: dict[str, Any], time_limit: float | None, workers: int | None,
                result: RoundResult, lines: list[Line], **kwargs: Any) -> tuple[str, int | None]:
    """One stage's solve (with the cut loop): its cuts and time go to `result`, its line to
    `lines`; returns (status, proven objective bound)."""
    answer = solve_with_cuts(rm, make_solver(params, time_limit, workers), repair=CutRepair.from_params(params), **kwargs)
    return _count(answer, result, lines), answer.bound


def star_cases_enabled(params: dict[str, Any]) -> bool:
    """Are the star cases asked (solver/star_cases.py)? `star_cases_deterministic_time` > 0 (round.toml)."""
    return float(params.get("star_cases_deterministic_time", 0) or 0) > 0


def _case_solver(params: dict[str, Any], time_limit: float | None, workers: int | None, result: RoundResult,
                 lines: list[Line]) -> Callable[[RoundModel], CaseAnswer]:
    """One star case's solve (solver/star_cases.py): most stars with the case's rows, the cut
    loop, at most `star_cases_deterministic_time` (and the question's limit); its cuts and time
    go to `result`, its line to `lines`."""
    limit = float(params.get("star_cases_deterministic_time", 0) or 0)
    limit = min(limit, time_limit) if time_limit is not None and limit > 0 else (limit or time_limit)

    def solve_case(rm: RoundModel) -> CaseAnswer:
        rm.model.maximize(rm.stars)
        solver = make_solver(params, limit, workers)
        status, found, _, cuts, used = solve_with_cuts(rm, solver, scale=1, repair=CutRepair.from_params(params))
        result.cuts += cuts
        result.deterministic_time += used
        if found is not None:
            lines.append(found)
        answer = "infeasible" if status == "infeasible" else ("line" if found is not None else "unknown")
        return CaseAnswer(answer, found, cuts, used, effective_params(solver))

    return solve_case


def _case_lp(game: Game, split: ExtrasSplit, k: int, params: dict[str, Any]) -> Callable[[tuple[int, ...]], LpBound | None] | None:
    """The star cases' LP check on the split's region k (solver/star_cases.case_lp_bounds; its
    LP model drops compensation's condition as every LP bound's does), or None when
    `star_cases_lp` is off."""
    if not params.get("star_cases_lp", False):
        return None
    return case_lp_bounds(lp_model(game, dc_replace(split.options, max_total_extras=k - 1)),
                          lambda model, objective: relaxation_of(model, objective, params))


def _best_leftover(game: Game, lines: list[Line], stars: int) -> int:
    """The most leftover among the lines with at least `stars` stars (-1: none)."""
    reps = [replay(game, cand) for cand in lines]
    return max((rep.final.resources.total() for rep in reps if rep.legal and rep.stars_total >= stars), default=-1)


def _best_in_region(game: Game, lines: list[Line], max_extras: int, min_stars: int = 0) -> Line | None:
    """The best of `lines` (stars, then leftover) with at most `max_extras` 3-pumpkin activations
    and at least `min_stars` stars: a hint for a region of the split (None: no such line)."""
    return max((cand for cand in lines if line_extras(cand) <= max_extras and replay(game, cand).stars_total >= min_stars),
               key=lambda cand: line_score(game, cand, STAR_WEIGHT), default=None)


def leftover_solve(game: Game, options: ModelOptions, stars: int, hint: Line | None, params: dict[str, Any],
                   time_limit: float | None, workers: int | None, task: Speculation | None = None,
                   floor: int | None = None, stop_at: int | None = None, found: TrailedRun | None = None,
                   gate: FinderGate | None = None, found_whole: TrailedRun | None = None) -> CutSolve:
    """Most leftover among the lines of `options`' model with at least `stars` stars (stage 3),
    started from `hint`; `task`: run as a speculative solve (solver/speculate.py); `floor`: only
    the lines with at least that much leftover (3f); `stop_at`: a proven bound on that leftover
    (stage 3's LP): CP-SAT stops at the first line meeting it, the line a whole solve would end
    with, instead of proving what the LP has proven. Measured on the issue-2 bench
    (docs/performance.md, fiftieth session): seed 14's line with the LP's 7 came at 2.4 s of a
    7.5 s solve; 10 of 50 rounds took 0.1-4.8 det-s less, the same answers.

    With `stop_at`, a line finder first (`leftover_finder`; `found`: its run already made on the
    spare core): a line meeting `stop_at`, or the finder's own proof, ends the question; else
    the solve above runs as it would alone (`found_whole`: its run already made on the spare
    core, `LeftoverSpeculation`), and the answer is its status with the better line and the
    lower bound of the two (both solves ask the same question). `gate`: the round's finder
    misses (`FinderGate`): once it is closed, no finder is asked."""
    if stop_at is None or task is not None or not finder_on(params) or (gate is not None and not gate.open):
        return _leftover_solve(game, options, stars, hint, params, time_limit, workers, task, floor, stop_at)
    if found is None:
        found = leftover_finder(game, options, stars, hint, params, time_limit, workers, floor=floor, stop_at=stop_at)
    finder = found.stopped_at(stop_at)
    if _settles(game, finder, stop_at):
        return finder
    if gate is not None:
        gate.misses += 1
    # (a model of its own, not the finder's: a cut the finder made would change this solve's
    # path, and it is to answer exactly as it does alone; building costs about 0.2 s)
    if found_whole is not None:
        whole = found_whole.stopped_at(stop_at)
    else:
        whole = _leftover_solve(game, options, stars, hint, params, time_limit, workers, floor=floor, stop_at=stop_at)
    line = whole.line
    if finder.line is not None and (line is None or _leftover(game, finder.line) > _leftover(game, line)):
        line = finder.line
    bounds = [b for b in (finder.bound, whole.bound) if b is not None]
    return CutSolve(whole.status, line, min(bounds) if bounds else None, finder.cuts + whole.cuts,
                    finder.deterministic_time + whole.deterministic_time)


def _settles(game: Game, finder: CutSolve, stop_at: int | None) -> bool:
    """Does a line finder's answer end its question: its own proof, or (with a stop known) a
    line meeting the stop?"""
    return finder.status in ("optimal", "infeasible") or (
        stop_at is not None and finder.line is not None and _leftover(game, finder.line) >= stop_at)


class LeftoverSpeculation:
    """Stage 3's leftover question of the lines without 3-pumpkin activations, asked on the spare
    core before its bound is known (solver/speculate.py). With the finder off, the whole solve.
    With it on, the line finder's run, which learns its stop when the asking thread knows it
    (`LateStop`), then, unless its line already meets the stop known by then, the question's own
    solve with the same late stop: a finder that misses costs the asking thread no wall time.
    Both keep their improving lines (`TrailedRun`), so `answer` gives what `leftover_solve`
    gives in the asking thread."""

    def __init__(self, game: Game, options: ModelOptions, stars: int, hint: Line | None, params: dict[str, Any],
                 time_limit: float | None, workers: int | None, gate: FinderGate | None = None) -> None:
        self.game, self.params, self.time_limit, self.workers, self.gate = game, params, time_limit, workers, gate
        self.late = LateStop()
        self.finder = finder_on(params)
        self._lock = threading.Lock()  # (the late stop and the finder's run, read by both threads)
        self._found: TrailedRun | None = None
        late = self.late

        def run(task: Speculation) -> tuple[TrailedRun, TrailedRun | None] | CutSolve:
            if not self.finder:
                return leftover_solve(game, options, stars, hint, params, time_limit, workers, task)
            found = leftover_finder(game, options, stars, hint, params, time_limit, workers, task, stop_at=late)
            with self._lock:
                self._found = found
                stop = late.value
                settled = task.cancelled.is_set() or _settles(game, found.stopped_at(stop), stop)
            if settled:
                return found, None
            trail: Trail = []
            whole = _leftover_solve(game, options, stars, hint, params, time_limit, workers, task, stop_at=late, trail=trail)
            return found, TrailedRun(whole, trail)

        self.task = Speculation((options, stars, hint), run)

    def learn_stop(self, stop_at: int) -> None:
        """The question's bound as soon as the asking thread knows it (stage 3's leftover LP), so
        that the finder stops at its line. It must be at least the stop `answer` is asked with
        (a bound only falls): a run stopped at a line meeting it has met that one too."""
        with self._lock:
            if self.late.value is None or stop_at < self.late.value:
                self.late.value = stop_at

    def answer(self, options: ModelOptions, stars: int, hint: Line | None, stop_at: int | None) -> CutSolve | None:
        """`leftover_solve(options, stars, hint, stop_at=stop_at)` from the spare core's run when
        it asked exactly that question (None: ask it in this thread). With the finder off, the
        whole solve's answer, which ran on past the stop (only its deterministic time differs)."""
        key = (options, stars, hint)
        if self.task.taken or self.task.key != key or (self.finder and (stop_at is None or not self.gate_open)):
            return None  # (no stop, or the gate closed: this thread asks no finder, so the run is not its question)
        if not self.finder:
            return self.task.take(key)
        with self._lock:
            self.late.value = stop_at
            settled = self._found is not None and _settles(self.game, self._found.stopped_at(stop_at), stop_at)
        if settled:
            self.task.cancel()  # (the question's own solve, started before the stop was known, is not needed)
        found, whole = self.task.take(key)
        return leftover_solve(self.game, options, stars, hint, self.params, self.time_limit, self.workers,
                              stop_at=stop_at, found=found, gate=self.gate, found_whole=whole)

    @property
    def gate_open(self) -> bool:
        return self.gate is None or self.gate.open

    def cancel(self) -> None:
        self.task.cancel()


@dataclass
class FinderGate:
    """A round's line-finder misses: after `allowed` finder runs that neither met their bound nor
    proved (None: no limit), the round's later leftover solves ask none. Why: a round whose first
    finder misses is mostly one whose later ones miss too (measured on the issue-2 bench, fifty-first
    session: seeds 3 and 6 paid three failed runs each)."""

    allowed: int | None
    misses: int = 0

    @property
    def open(self) -> bool:
        return self.allowed is None or self.misses < self.allowed

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> "FinderGate":
        allowed = params.get("leftover_finder_misses")
        return cls(None if allowed is None else int(allowed))


def finder_on(params: dict[str, Any]) -> bool:
    """Do the question's leftover solves with a bound ask the line finder first?"""
    return float(params.get("leftover_finder_deterministic_time", 0) or 0) > 0


@dataclass
class TrailedRun:
    """A leftover solve (the line finder's, `leftover_finder`, or the question's own on the spare
    core) and every improving line it found, in order: enough to give the answer a solve
    stopping at any bound would have given, whether its stop was known from the start or learnt
    on the way (a speculative run: `LateStop`)."""

    answer: CutSolve
    trail: Trail

    def stopped_at(self, stop_at: int | None) -> CutSolve:
        """The answer of the same solve stopping at the first line meeting `stop_at`: CP-SAT's
        one-worker path does not depend on where it is stopped, so that line is the trail's first
        meeting it (the deterministic time is the run's: it may have gone past it). None: no
        stop, the run's own answer."""
        answer = self.answer
        if stop_at is None:
            return answer
        for value, line, cuts in self.trail:
            if value >= stop_at:
                proven = answer.bound is not None and value >= answer.bound
                return CutSolve("optimal" if proven else "unknown", line, answer.bound, cuts, answer.deterministic_time)
        return answer


def leftover_finder(game: Game, options: ModelOptions, stars: int, hint: Line | None, params: dict[str, Any],
                    time_limit: float | None, workers: int | None, task: Speculation | None = None,
                    floor: int | None = None, stop_at: int | LateStop | None = None) -> TrailedRun:
    """`leftover_solve`'s line finder: the same question within `leftover_finder_deterministic_time`,
    with CP-SAT's settings `leftover_finder_solver_*` (no probing: it finds the line with the
    most leftover but proves less; measured, docs/performance.md, fifty-first session)."""
    budget = float(params.get("leftover_finder_deterministic_time", 0) or 0)
    trail: Trail = []
    answer = _leftover_solve(game, options, stars, hint, prefixed_params(params, "leftover_finder_solver_"),
                             min(budget, time_limit) if time_limit is not None else budget, workers, task,
                             floor=floor, stop_at=stop_at, trail=trail)
    return TrailedRun(answer, trail)


def _leftover(game: Game, line: Line) -> int:
    """A line's leftover resources (replayed)."""
    return replay(game, line).final.resources.total()


def _leftover_solve(game: Game, options: ModelOptions, stars: int, hint: Line | None, params: dict[str, Any],
                    time_limit: float | None, workers: int | None, task: Speculation | None = None,
                    floor: int | None = None, stop_at: int | LateStop | None = None, trail: Trail | None = None) -> CutSolve:
    """One CP-SAT solve of `leftover_solve`'s question with the CP-SAT parameters `params`."""
    rm = build(game, options)
    rm.model.add(rm.stars >= stars)
    if floor is not None:
        rm.model.add(rm.leftover >= floor)
    rm.model.maximize(rm.leftover)
    if hint is not None:
        rm.hint_line(hint)
    solver = make_solver(params, time_limit, workers)
    if task is not None:
        task.solver(solver)
    return solve_with_cuts(rm, solver, cancelled=task.cancelled if task is not None else None,
                           repair=CutRepair.from_params(params), stop_at=stop_at, trail=trail)


def _count(answer: CutSolve, result: RoundResult, lines: list[Line]) -> str:
    """A stage's solve counted in the answer (as `_solve_into`): its cuts and time go to
    `result`, its line to `lines`; returns its status."""
    result.cuts += answer.cuts
    result.deterministic_time += answer.deterministic_time
    if answer.line is not None:
        lines.append(answer.line)
    return answer.status


@dataclass
class LeftoverCases:
    """Stage 3's cases on 3-pumpkin activations as 3b left them, for 3f (`leftover_last_question`):
    the leftover LP of stage 3's model at the proven stars with its row on their count, that LP's
    integer bound for "at least k of them" (None: it reached no optimum), and a proven bound on
    the leftover of the region "at most k - 1" (-1: no line there has that many stars)."""

    game: Game
    model_options: ModelOptions  # stage 3's model (the LP's)
    rel: LpRelaxation
    extras_row: int
    max_k: int  # the largest k asked (split_max_extras, or stage 3's own region)
    lps: dict[int, int | None] = field(default_factory=dict)
    region_bounds: dict[int, int] = field(default_factory=dict)
    star_split: ExtrasSplit | None = None  # the star LPs of "at least k" of the same model (3f)

    def lp(self, k: int) -> int | None:
        """The leftover LP's integer bound of the lines with at least k 3-pumpkin activations
        (asked once, warm; None: no optimum)."""
        if k not in self.lps:
            self.rel.set_bounds(self.extras_row, k, INF)
            lp_k = self.rel.solve()
            self.lps[k] = None if lp_k is None else lp_k.integer_bound
        return self.lps[k]

    def rest_bound(self, k: int, stars: int, params: dict[str, Any]) -> int | None:
        """A proven bound on the leftover of the lines with at least k 3-pumpkin activations and
        `stars` stars: the leftover LP's; where that LP reached no optimum (infeasible, often: no
        such line), -1 when the star LP of those lines (checked from its duals) is below
        `stars`; None: neither. Measured on bench seed 37 (18 stars): the leftover LP of at
        least 2 reached no optimum, the star LP of at least 2 is 17.5."""
        lp_k = self.lp(k)
        if lp_k is not None:
            return lp_k
        if self.star_split is None:  # (the leftover LP's settings, HiGHS: measured on seed 37, the
            # round's own split, GLOP, reaches no optimum for at least 2; HiGHS says 17.5)
            lp_params = leftover_lp_params(params)
            self.star_split = ExtrasSplit(self.game, self.model_options, None, max_k=self.max_k,
                                          relaxation_of=lambda mdl, obj: relaxation_of(mdl, obj, lp_params),
                                          lp_model_options=lp_options(self.model_options))
        star_lp = self.star_split.lp(k)
        return -1 if star_lp is not None and star_lp.integer_bound < stars else None


def leftover_cases(game: Game, rm2_options: ModelOptions, rel: LpRelaxation, extras_row: int,
                   params: dict[str, Any]) -> LeftoverCases | None:
    """3b's cases for stage 3's model `rm2_options` (None: split off, `split_max_extras` < 1)."""
    max_k = int(params.get("split_max_extras", 0))
    if rm2_options.max_total_extras is not None:  # stage 3's model is itself a region of the star split
        max_k = min(max_k, rm2_options.max_total_extras)
    return LeftoverCases(game, rm2_options, rel, extras_row, max_k) if max_k >= 1 else None


def _leftover_split(game: Game, options: ModelOptions, cases: LeftoverCases,
                    stars: int, lines: list[Line], params: dict[str, Any], time_limit: float | None,
                    workers: int | None, result: RoundResult, bound: int | None = None,
                    spec: LeftoverSpeculation | None = None, gate: FinderGate | None = None) -> int | None:
    """3b: the most leftover with `stars` stars, proven by cases on 3-pumpkin activations (as the
    extras split does for stars; docs/model.md). The lines with none are asked first (the
    smallest model; measured, that is where the most leftover was); then k is the smallest count
    whose leftover LP (of stage 3's model with the row `total_extras >= k`) is at most the best leftover
    found, and the lines with at most k - 1 are asked of their small model: its proven optimum
    is the round's. Each 3-pumpkin activation costs 3 pumpkins and the LP pays them: measured on
    a 9-turn Ark Nova + Libertalia + Würfelwelten round at 18 stars, leftover LP 12.25 / 9.75 /
    6.75 / 1.5 for k = 0..3. `bound`: a proven bound on the round's leftover (the whole LP's):
    a line meeting it needs no LP of k (measured on bench seed 13: 9.8 s of GLOP saved). Returns
    the proven leftover, or None (a region not proven within the limit, or no k up to
    `split_max_extras`). `cases`: stage 3's LP and its cases (`leftover_cases`: of a region of
    the star split, or of the round), kept for 3f; `spec`: a speculative leftover solve, used
    when it asked the same question; `gate`: the round's line-finder misses (`FinderGate`).

    Unproven, the cases may still bound the round's leftover below `result.leftover_bound`: a
    region's solve that ends at its limit still bounds its lines, and with the LP of the rest,
    max(region's bound, LP's) bounds the round (measured on bench seed 37: 3 where the whole LP
    says 4); `result.leftover_bound` is lowered to it, so that a later line meeting it (3c, 3e)
    is proven."""
    region_bounds = cases.region_bounds  # k -> a proven bound on the leftover of the lines with at most k - 1

    def region_solved(k: int) -> bool:
        """Most leftover among the lines with at most k - 1 3-pumpkin activations: proven?"""
        region = dc_replace(options, max_total_extras=k - 1)
        hint = _best_in_region(game, lines, k - 1, stars)
        answer = spec.answer(region, stars, hint, bound) if spec is not None else None
        if answer is None:
            answer = leftover_solve(game, region, stars, hint, params, time_limit, workers, stop_at=bound, gate=gate)
        status = _count(answer, result, lines)
        if status == "infeasible":
            region_bounds[k] = -1  # no line of the region has that many stars
        elif answer.bound is not None:
            region_bounds[k] = answer.bound
        return status == "optimal"

    none_solved = region_solved(1)
    best = _best_leftover(game, lines, stars)
    if bound is not None and best >= bound:
        return best  # the line found meets the proven bound
    for k in range(1, cases.max_k + 1):
        lp_k = cases.lp(k)
        if lp_k is None:
            return None
        if lp_k <= best:
            solved = none_solved if k == 1 else region_solved(k)
            _lower_round_bound(result, cases, k)
            # a better line in the region only raises the best above the LP's part
            return _best_leftover(game, lines, stars) if solved else None
        _lower_round_bound(result, cases, k)
    return None


def _lower_round_bound(result: RoundResult, cases: LeftoverCases, k: int, rest: int | None = None) -> None:
    """The round's leftover is at most the larger of region k's bound and the bound of the rest
    (the LP's of at least k 3-pumpkin activations, or `rest`)."""
    rest = cases.lps.get(k) if rest is None else rest
    if k in cases.region_bounds and rest is not None:
        both = max(cases.region_bounds[k], rest)
        if result.leftover_bound is None or both < result.leftover_bound:
            result.leftover_bound = both


def region_portfolio_params(params: dict[str, Any]) -> dict[str, Any] | None:
    """The CP-SAT parameters of the split region's portfolio solve (round.toml, 2d; None: off):
    several subsolvers interleaved, which CP-SAT documents as deterministic whatever the thread
    count, so the same input still gives the same answer."""
    if int(params.get("region_portfolio_workers", 0)) <= 0:
        return None
    portfolio = dict(params)
    portfolio["num_workers"] = int(params["region_portfolio_workers"])
    portfolio["interleave_search"] = True
    portfolio["linearization_level"] = int(params.get("region_portfolio_linearization_level", 1))
    return portfolio


def improve_settings(params: dict[str, Any]) -> ImproveSettings:
    """The window search's settings from the question's parameters (solver/params/round.toml)."""
    d = ImproveSettings()
    return ImproveSettings(
        window=int(params.get("improve_window", d.window)),
        per_window=float(params.get("improve_window_deterministic_time", d.per_window)),
        passes=int(params.get("improve_passes", d.passes)),
        per_pair=float(params.get("improve_pair_deterministic_time", d.per_pair)),
    )


def prefixed_params(params: dict[str, Any], prefix: str) -> dict[str, Any]:
    """The question's CP-SAT parameters with each `PREFIX + NAME` key (solver/params/round.toml)
    setting NAME: one kind of solve tuned apart from the rest."""
    out = dict(params)
    for key, value in params.items():
        if key.startswith(prefix):
            out[key[len(prefix):]] = value
    return out


def window_solver_params(params: dict[str, Any]) -> dict[str, Any]:
    """The CP-SAT parameters of the improver's window solves: the question's, each
    `improve_solver_NAME` key (solver/params/round.toml) setting NAME. Why: a window's model is
    the whole round with most turns fixed, and CP-SAT's full presolve of it took most of a
    window's wall time (docs/performance.md, twentieth session)."""
    return prefixed_params(params, "improve_solver_")


def _window_solver(params: dict[str, Any], workers: int | None) -> Callable[[RoundModel, float], tuple[Line | None, float]]:
    """Solve one window model of the improver (cuts included) within a deterministic limit, with
    the question's CP-SAT parameters and its `improve_solver_*` keys in place of theirs."""
    window_params = window_solver_params(params)

    def solve_window(rm: RoundModel, limit: float) -> tuple[Line | None, float]:
        solver = make_solver(window_params, limit, workers)
        _, line, _, _, used = solve_with_cuts(rm, solver)
        if line is not None:
            _replayed(rm.game, line)
        return line, used

    # one worker: the same question gets the same answer, so a repeated window takes its earlier
    # one (improve.WindowModel.solved); `question` is what the solve asks besides model and limit
    if one_worker(window_params, workers):
        solve_window.question = repr(sorted(window_params.items()))  # type: ignore[attr-defined]
    return solve_window


def _window_model(shared: dict[str, WindowModel], game: Game, options: ModelOptions) -> WindowModel:
    """The improver's round model of `game` kept in `shared` (by its compensation rule, and the
    region's bound on 3-pumpkin activations when it has one), made when missing (cheap:
    `WindowModel` builds its model at its first window)."""
    key = game.rules.compensation
    if options.max_total_extras is not None:
        key += f", at most {options.max_total_extras} 3-pumpkin activations"
    return shared.setdefault(key, WindowModel(game, options, STAR_WEIGHT))


def improve_both(game: Game, line: Line, budget: float, params: dict[str, Any], workers: int | None,
                 options: ModelOptions, progress: Callable[[int], None] | None = None,
                 stop_at: int | None = None, shared: dict[str, WindowModel] | None = None,
                 off_converged: Callable[[], None] | None = None, off_restart: bool = True) -> tuple[Line, float]:
    """The window improver (solver/improve.py), first on the round under the rule option
    `compensation=off`, then with what is left of `budget` on the round itself (each pass on the
    region `_region_pass` names); the best line (engine-scored in `game`) and the deterministic
    time spent.

    Compensation is a choice (rolling-realms.md 6.3), so a line of the round without it is a legal
    line of the round: the first pass finds lines only, proves nothing. It comes first because
    its window models are far smaller (a compensation pumpkin per die lets the proven 3-pumpkin
    bound grow to 6 per turn; without compensation it stays at 2): measured on 9-turn promo
    rounds from the same start and budget, 9 -> 14 and 9 -> 15 stars where the round's own
    windows gave 10 and 12 (docs/performance.md).

    `shared`: the window models kept between the caller's improver runs, by the compensation
    rule they were built under (filled here when missing).

    `off_converged()`: called when the first pass's windows ended within their budget (they
    converged) below `stop_at` (solve_optimal's `split_after_converged_windows`, 2c).

    `off_restart`: when `line` compensates (so is no line of the round without compensation),
    the first pass starts from that round's quick line; False: no first pass then, the whole
    budget goes to the round's own windows from `line` (3c: `improve_leftover_off_restart`)."""
    solve_window = _window_solver(params, workers)
    shared = {} if shared is None else shared
    settings = improve_settings(params)
    best, spent = line, 0.0
    off = _without_compensation(game)
    # (not when the turns already played compensate: the round without compensation has no such line)
    off_first = _off_first(game, off, options)
    line_off = off_first and replay(off, line).legal  # the line is a line of `off` too
    if off_first and (off_restart or line_off):
        start = line
        if not line_off:  # it compensates somewhere: start from the quick line of `off`
            found_quick, quick = _off_quick_line(shared, off, budget, params, options)
            start = found_quick or greedy_line(off, options.played)
            spent += quick
        off_budget = max(0.0, budget - spent)
        first, first_settings = _region_pass(options, start, settings, params)
        found, used = improve_line(off, start, off_budget, solve_window, STAR_WEIGHT, first_settings, first,
                                   progress, stop_at, shared=_window_model(shared, off, first))
        spent += used
        _replayed(game, found)  # legal in the round itself, not only without compensation
        if line_score(game, found, STAR_WEIGHT) > line_score(game, best, STAR_WEIGHT):
            best = found
        if stop_at is not None and line_score(game, best, STAR_WEIGHT) >= stop_at:
            return best, spent
        if off_converged is not None and off_budget - used > 0.05:  # (improve_line's own budget test)
            off_converged()
    second, second_settings = _region_pass(options, best, settings, params)
    found, used = improve_line(game, best, max(0.0, budget - spent), solve_window, STAR_WEIGHT, second_settings, second,
                               progress, stop_at, shared=_window_model(shared, game, second))
    return found, spent + used


def _region_pass(options: ModelOptions, line: Line, settings: ImproveSettings,
                 params: dict[str, Any]) -> tuple[ModelOptions, ImproveSettings]:
    """The model options and window settings of an improve_both pass from `line`: with
    `improve_region_windows`, the region of the lines with at most `improve_region_extra_room`
    more 3-pumpkin activations than `line` (split.ExtrasSplit's regions; never above the
    caller's own bound), in windows of `improve_region_window` turns of
    `improve_region_window_deterministic_time` each; otherwise `options` and `settings`.
    Why: the region's model is far smaller (game 1's round 3: 6 751 variables against 31 887), so
    a wider window is solved within its limit (docs/performance.md, thirty-seventh session)."""
    if not params.get("improve_region_windows", False):
        return options, settings
    extras = line_extras(line) + int(params.get("improve_region_extra_room", 0))
    if options.max_total_extras is not None:
        extras = min(extras, options.max_total_extras)
    return (dc_replace(options, max_total_extras=extras),
            dc_replace(settings, window=int(params.get("improve_region_window", settings.window)),
                       per_window=float(params.get("improve_region_window_deterministic_time", settings.per_window))))


def _without_compensation(game: Game) -> Game:
    """The round under the rule option `compensation=off`: its lines are legal lines of `game`
    (compensation is a choice, rolling-realms.md 6.3)."""
    return dc_replace(game, rules=dc_replace(game.rules, compensation="off"))


def _off_first(game: Game, off: Game, options: ModelOptions) -> bool:
    """Does improve_both's first pass run on `off` (the round without compensation)? Not when
    the rule is off already, nor when the turns already played compensate."""
    return game.rules.compensation != "off" and (options.played is None or replay(off, options.played, partial=True).legal)


def _off_quick_line(shared: dict[str, WindowModel], off: Game, budget: float, params: dict[str, Any],
                    options: ModelOptions) -> tuple[Line | None, float]:
    """improve_both's start on `off` when its line compensates: the quick line of `off` within
    the improver's `budget`, and the limit it was asked with (kept with `off`'s window model:
    3c asks it again after 2c, and 2a may ask it ahead, the same question)."""
    quick = min(params.get("quick_deterministic_time", 2.0), budget)
    quick_lines = _window_model(shared, off, options).quick_lines
    if quick not in quick_lines:
        quick_lines[quick] = _quick_line(off, params, quick, options)
    return quick_lines[quick], quick


def mip_line(game: Game, options: ModelOptions, stars: int, params: dict[str, Any], workers: int | None,
             result: RoundResult, leftover: int | None = None) -> Line | None:
    """A legal line with at least `stars` stars (and, given `leftover`, at least that much
    leftover) and no 3-pumpkin activation, found by HiGHS's MIP and completed by CP-SAT, or None
    (stages 2e and 3e; a line finder, never a proof).

    HiGHS (solver/mip_hint.py) gets the region's model (`max_total_extras` 0) with
    `stars >= stars` and stops at its first solution. CP-SAT then starts from it (its hint, by
    variable name) in the same region with the realms' first #s paid together
    (`first_activations_paid`: HiGHS's solutions often pay a created # with a compensation that
    is legal only later in the turn, which the engine cannot order), maximises the stars (3e:
    the leftover) and stops at the first legal line reaching the question (cuts as ever); the
    engine replays it. No line: the same once more with HiGHS on the model with that row too.
    Why both: measured on the issue-2 bench (docs/performance.md, twenty-eighth session), either
    order alone lost rounds the other found. Why at all: rounds whose best line stayed one or two
    stars below an LP bound of 17-18 for 60-140 s had better lines that HiGHS's heuristics found
    in 8-50 s; rounds whose leftover stayed below its bound had lines with 1-5 more (thirty-ninth
    session). Settings (round.toml): `line_mip_max_nodes` (0: not asked) and
    `line_mip_max_checks`, HiGHS's work limits (the same stop on any machine),
    `line_mip_seconds`, a last wall-clock guard whose firing drops what HiGHS found
    (`MipHint.usable`), and `line_mip_deterministic_time`, each CP-SAT completion's limit;
    `--time-limit` does not shorten them: 2e and 3e are stages of their own."""
    nodes = int(params.get("line_mip_max_nodes", 0) or 0)
    if nodes <= 0:
        return None
    limit = float(params.get("line_mip_deterministic_time", 10.0))

    def region(paid: bool) -> RoundModel:
        """The lines without 3-pumpkin activations with at least `stars` stars (and `leftover`)
        (`paid`: with `first_activations_paid`), a fresh model."""
        rm_ = build(game, dc_replace(options, max_total_extras=0, first_activations_paid=paid))
        rm_.model.add(rm_.stars >= stars)
        if leftover is not None:
            rm_.model.add(rm_.leftover >= leftover)
        return rm_

    for paid_in_highs in (False, True):
        asked = region(paid_in_highs)
        objective = asked.stars if leftover is None else asked.leftover
        found = highs_mip(asked.model, objective, nodes, first_solution=True, **line_mip_limits(params))
        if found is None or found.usable is None:
            continue
        if paid_in_highs:
            rm = asked
            hint_values(rm.model, found.usable)
        else:
            rm = region(True)
            hint_by_name(rm.model, asked.model, found.usable)
        rm.model.maximize(rm.stars if leftover is None else rm.leftover)
        answer = solve_with_cuts(rm, make_solver(params, limit, workers), stop_at=stars if leftover is None else leftover,
                                 scale=1, repair=CutRepair.from_params(params))
        result.deterministic_time += answer.deterministic_time
        result.cuts += answer.cuts
        if answer.line is not None:
            _replayed(game, answer.line)
            return answer.line
    return None


def leftover_mip_lines(game: Game, options: ModelOptions, stars: int, lines: list[Line], params: dict[str, Any],
                       workers: int | None, result: RoundResult) -> None:
    """3e: the stars proven and the leftover not, after 3c's windows (which end some rounds at
    their bound sooner): lines with one more leftover than the best of `lines` (and `stars`) from
    HiGHS's MIP (`mip_line`), added to `lines` while they are found and below
    `result.leftover_bound`, at most `line_mip_leftover_asks` questions. A line finder, never a
    proof (a line meeting the bound is proven by the bound). Measured on the issue-2 bench
    (docs/performance.md, thirty-ninth session): the best lines of 9 of 14 such rounds had 1-5
    less leftover than lines HiGHS found in 11-58 s each."""
    for _ in range(int(params.get("line_mip_leftover_asks", 0))):
        best = _best_leftover(game, lines, stars)
        if result.leftover_bound is not None and best >= result.leftover_bound:
            return
        found = mip_line(game, options, stars, params, workers, result, leftover=best + 1)
        if found is None:
            return
        lines.append(found)


def leftover_last_question(game: Game, options: ModelOptions, stars: int, lines: list[Line], params: dict[str, Any],
                           workers: int | None, result: RoundResult, cases: LeftoverCases,
                           gate: FinderGate | None = None) -> None:
    """3f: the stars proven and the leftover still not, after 3e's lines: 3b's question asked
    once more of the best line as it now is, with more time. k is the smallest count whose
    lines with at least k 3-pumpkin activations have at most the best leftover
    (`LeftoverCases.rest_bound`); the lines with at most k - 1 are asked "most leftover", without
    a hint (`leftover_proof_deterministic_time`), then, still open, "most leftover, at least one
    more than the best" (`leftover_proof_floor_deterministic_time`; 0: a question not asked).
    The region's proven optimum, or INFEASIBLE with the floor (the region's leftover is at most
    the best), proves the round's. Unproven, the region's bound at the limit still lowers the
    round's. `options`: stage 3's (`first_activations_paid`); the limits are 3f's own, as 2e's
    and 3e's (`--time-limit` does not shorten them). Why both questions: measured on the issue-2
    bench (docs/performance.md, fortieth session), the first proves seeds 3, 6, 12, 16, 25, 37
    in 8-30 det-s where 3b's (hinted, 10 det-s) did not; with the floor it proved seed 19 (23.7)
    and not 3, 12 or 16 within 30."""
    for key, floored in (("leftover_proof_deterministic_time", False), ("leftover_proof_floor_deterministic_time", True)):
        budget = float(params.get(key, 0) or 0)
        best = _best_leftover(game, lines, stars)
        if budget <= 0 or (result.leftover_bound is not None and best >= result.leftover_bound):
            continue
        for k in range(1, cases.max_k + 1):
            rest = cases.rest_bound(k, stars, params)
            if rest is not None and rest <= best:
                break
        else:
            return  # no k whose rest is below the best line
        if cases.region_bounds.get(k, best + 1) <= best:
            _lower_round_bound(result, cases, k, rest)  # 3b's region at its limit already says so
            continue
        answer = leftover_solve(game, dc_replace(options, max_total_extras=k - 1), stars, None, params, budget, workers,
                                floor=best + 1 if floored else None, stop_at=result.leftover_bound, gate=gate)
        status = _count(answer, result, lines)
        if status == "infeasible":  # with the floor: at most the best; without: no line there has the stars
            region: int | None = best if floored else -1
        else:  # (with the floor, the region's lines below it have at most the best)
            region = None if answer.bound is None else max(best, answer.bound) if floored else answer.bound
        if region is not None:
            cases.region_bounds[k] = min(cases.region_bounds.get(k, region), region)
            _lower_round_bound(result, cases, k, rest)


def _quick_max_variables(game: Game, params: dict[str, Any], options: ModelOptions, greedy: Line) -> int | None:
    """Stage 1's quick line is not asked of a small model with more variables than this (None: no
    limit): `quick_max_variables` (round.toml), when the greedy line `greedy` compensates. Why: on such
    models the quick line kept its greedy hint's stars, leftover and compensation (measured on
    the issue-2 bench, fifty-fifth session), and a first line that compensates is not where 2c
    starts: improve_both restarts from the quick line of the round without compensation."""
    limit = params.get("quick_max_variables")
    if limit is None:
        return None
    off = _without_compensation(game)
    if not _off_first(game, off, options) or replay(off, greedy).legal:
        return None
    return int(limit)


def _quick_line(game: Game, params: dict[str, Any], time_limit: float | None, options: ModelOptions,
                on_line: Callable[[int], None] | None = None, max_variables: int | None = None,
                greedy: Line | None = None) -> Line | None:
    """A good line from the small model (one slot per realm and turn), checked by the engine;
    `on_line(stars)`: each better line's stars as the search finds it (progress); None when there
    is none, or when the small model has more than `max_variables` variables (not solved).
    `greedy`: the round's greedy line (its hint), when the caller has it already."""
    if options.played is not None and line_extras(options.played) > 0:
        return None  # the played turns need 3-pumpkin activations, which this small model lacks
    rm = build(game, ModelOptions(tricks=options.tricks, extras=0, trick_list=options.trick_list, played=options.played))
    if max_variables is not None and len(rm.model.proto.variables) > max_variables:
        return None
    rm.model.maximize(STAR_WEIGHT * rm.stars + rm.leftover)
    rm.hint_line(greedy if greedy is not None else greedy_line(game, options.played))
    solver = make_solver(params, None, 1)
    limit = params.get("quick_deterministic_time", 2.0)
    solver.parameters.max_deterministic_time = min(limit, time_limit or limit)
    keeper_progress = (lambda best, _bound: on_line(best)) if on_line is not None else None  # (its bound: the small model's)
    line = solve_with_cuts(rm, solver, keeper_progress).line
    if line is not None:
        _replayed(game, line)
    return line


def prove_no_more(game: Game, stars: int, time_limit: float | None = None, workers: int | None = None,
                  options: ModelOptions = ModelOptions(), lp_first: bool = False, split_first: bool = False) -> dict[str, Any]:
    """The certificate's proof: 'stars >= stars + 1' is INFEASIBLE.

    With `lp_first` (an optimum the LP relaxation proved) the LP bound is tried first; with
    `split_first` (one the extras split proved, solver/split.py) the split: the LP bound of the
    lines with >= k 3-pumpkin activations, and CP-SAT's INFEASIBLE on the model of the others
    (asked whole, then as its proven maximum, then case by case: solver/star_cases.py).
    When neither decides, CP-SAT is asked of the whole model as usual.

    Asked of the relaxed model; a solution the engine cannot order is cut off and the question
    asked again (deterministically, so `solve verify` repeats it). A solution the engine can
    order would be a better legal line: then the claimed optimum was wrong."""
    params = load_params("proof")
    lp_rm = lp_model(game, options) if lp_first or split_first else None
    star_rel: LpRelaxation | None = None
    if lp_first and lp_rm is not None:
        lp, star_rel = star_lp(lp_rm, params)
        if lp is not None and lp.integer_bound <= stars:
            return lp_proof(f"stars >= {stars + 1}", lp)
    rm = build(game, options)
    if split_first:
        split = extras_split(game, options, params, base=lp_rm, relaxation=star_rel)
        found_k = split.smallest_k(stars)
        if found_k is not None:
            k, lp_k = found_k
            region = _no_more(split.region(k), stars, params, time_limit, workers)
            if region["status"] != "INFEASIBLE":
                region = _most_at_most(split.region(k), stars, params, time_limit, workers)
            if region["status"] != "INFEASIBLE" and star_cases_enabled(params):
                # case by case (solver/star_cases.py), as stage 2d may have proven it
                region, found = refute_by_cases(game, lambda: split.region(k), stars,
                                                _case_solver(params, time_limit, workers, RoundResult("proof", "unknown"), []),
                                                _case_lp(game, split, k, params))
                if found is not None and replay(game, found).stars_total > stars:
                    raise ModelDisagreement(f"a legal line with more than {stars} stars exists:\n{found.to_text()}")
            if region["status"] == "INFEASIBLE":
                return split_proof(f"stars >= {stars + 1}", k, lp_k, region)
    return _no_more(rm, stars, params, time_limit, workers)


def _most_at_most(rm: RoundModel, stars: int, params: dict[str, Any], time_limit: float | None,
                  workers: int | None) -> dict[str, Any]:
    """'stars >= stars + 1' has no solution on `rm` when CP-SAT's proven maximum there (no hint,
    the cut loop) is at most `stars`: the same fact as INFEASIBLE by another search, which is
    the one that decides some regions (measured: bench seed 34's region of no 3-pumpkin
    activation, not decided as INFEASIBLE in 60 det-s, its maximum proven in 9.2)."""
    rm.model.maximize(rm.stars)
    solver = make_solver(params, time_limit, workers)
    status, line, bound, cuts, used = solve_with_cuts(rm, solver, scale=1, repair=CutRepair.from_params(params))
    if line is not None and replay(rm.game, line).stars_total > stars:
        raise ModelDisagreement(f"a legal line with more than {stars} stars exists:\n{line.to_text()}")
    proven = status == "infeasible" or (bound is not None and bound <= stars)  # a valid bound (a relaxation)
    return {
        "question": f"stars >= {stars + 1}",
        "status": "INFEASIBLE" if proven else "UNKNOWN",
        "method": "cp-sat-maximum",
        "maximum_bound": bound,
        "cuts": cuts,
        "deterministic_time": used,
        "params": effective_params(solver),
    }


def _no_more(rm: RoundModel, stars: int, params: dict[str, Any], time_limit: float | None,
             workers: int | None) -> dict[str, Any]:
    """CP-SAT's answer to 'stars >= stars + 1' on `rm`, with the cut loop (see prove_no_more)."""
    rm.model.add(rm.stars >= stars + 1)
    solver = make_solver(params, time_limit, workers)
    cuts, det, wall = 0, 0.0, 0.0
    while True:
        status = solver.solve(rm.model)
        det += solver.deterministic_time
        wall += solver.wall_time
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            break
        found = decode_line(rm, solver)
        if isinstance(found, Line):
            raise ModelDisagreement(f"a legal line with more than {stars} stars exists:\n{found.to_text()}")
        cuts += 1
        if cuts > MAX_CUTS:
            status = cp_model.UNKNOWN
            break
        rm.forbid_history(solver, found)
    return {
        "question": f"stars >= {stars + 1}",
        "status": solver.status_name(status),
        "method": "cp-sat",
        "cuts": cuts,
        "deterministic_time": det,
        "wall_time": wall,
        "params": effective_params(solver),
    }


def _show_played(game: Game, options: ModelOptions, result: RoundResult) -> None:
    """With turns already played (`ModelOptions.played`), the answer's line shows them exactly as
    played: the models fixed their actions, not the order the engine found for them, so the
    played turns are put back and the whole line is replayed; any other score is a bug."""
    if options.played is None:
        return
    k = options.played_turns
    result.played = options.played
    if result.line is None:
        return
    line = Line(tuple(options.played.turns) + tuple(result.line.turns[k:]))
    rep = _replayed(game, line)
    if result.replay is not None and rep.score_tenths != result.replay.score_tenths:
        raise ModelDisagreement(f"the answer's line does not keep the {k} turns played (score {rep.score_tenths / 10} "
                                f"with them, {result.replay.score_tenths / 10} without)")
    result.line, result.replay = line, rep


def solve_target(
    game: Game,
    target: int,
    time_limit: float | None = None,
    workers: int | None = None,
    options: ModelOptions = ModelOptions(),
    progress: ProgressCallback | None = None,
) -> RoundResult:
    """Can the rolls give at least `target` stars? reachable (witness) / unreachable (proof) / unknown.
    With `options.played`, the first turns are those played and the question is about the rest.
    `progress`: as solve_optimal's (solver/progress.py)."""
    shown = RoundProgress(progress, game.rules.star_cap * len(game.realms), stage="")
    result = _solve_target(game, target, time_limit, workers, options, shown)
    _show_played(game, options, result)
    return result


def _solve_target(game: Game, target: int, time_limit: float | None, workers: int | None,
                  options: ModelOptions, shown: RoundProgress) -> RoundResult:
    params = load_params("target")
    t_lp = time.perf_counter()
    shown.enter(STAGE_LP)
    lp_rm = lp_model(game, options)
    lp, star_rel = star_lp(lp_rm, params)
    if lp is not None:
        shown.proven_bound(lp.integer_bound)
    if lp is not None and lp.integer_bound < target:
        # the LP relaxation alone decides it (measured: 9-turn rounds where CP-SAT's bound stays at 18)
        result = RoundResult("target", "unreachable", target=target, params=effective_params(make_solver(params, time_limit, workers)),
                             star_bound=lp.integer_bound, proof=lp_proof(f"stars >= {target}", lp))
        result.solve_time = time.perf_counter() - t_lp
        return result
    if lp is not None:
        shown.enter(STAGE_SPLIT)
    split_answer = _target_by_split(game, target, lp, params, time_limit, workers, options, lp_rm, star_rel) if lp is not None else None
    if split_answer is not None:
        split_answer.solve_time = time.perf_counter() - t_lp
        return split_answer
    rm = build(game, options)
    rm.model.add(rm.stars >= target)
    rm.model.maximize(STAR_WEIGHT * rm.stars + rm.leftover)
    solver = make_solver(params, time_limit, workers)
    t0 = time.perf_counter()
    shown.enter(f"a line with {target} ★ (CP-SAT)")
    status, line, bound, cuts, used = solve_with_cuts(rm, solver, stop_at=STAR_WEIGHT * target, repair=CutRepair.from_params(params))
    result = RoundResult("target", "unknown", target=target, params=effective_params(solver), extras=list(rm.extras))
    result.solve_time = time.perf_counter() - t0
    result.deterministic_time = used
    result.cuts = cuts
    if lp is not None:
        result.star_bound = lp.integer_bound  # proven (LP relaxation), whatever CP-SAT finds below
    if line is not None:
        rep = _replayed(game, line)
        result.stars, result.leftover, result.line, result.replay = rep.stars_total, rep.final.resources.total(), line, rep
        if rep.stars_total < target:
            raise ModelDisagreement(f"witness has {rep.stars_total} stars, below the target {target}")
        result.status = "reachable"
    elif status == "unknown":
        # no witness and no proof within the limit: look for a witness window by window
        shown.enter(STAGE_WINDOWS)
        witness, used = witness_search(game, target, params, time_limit, workers, options)
        result.deterministic_time += used
        if witness is None:
            # still none: HiGHS's MIP (stage 2e of solve_optimal), whose lines CP-SAT's searches
            # missed on the issue-2 bench (docs/performance.md, twenty-eighth session)
            shown.enter(STAGE_MIP_LINES)
            witness = mip_line(game, options, target, params, workers, result)
        if witness is not None:
            rep = _replayed(game, witness)
            result.stars, result.leftover, result.line, result.replay = rep.stars_total, rep.final.resources.total(), witness, rep
            result.status = "reachable"
    elif status == "infeasible":
        result.status = "unreachable"
        result.star_bound = target - 1
        result.proof = {"question": f"stars >= {target}", "status": "INFEASIBLE", "method": "cp-sat",
                        "deterministic_time": used, "params": effective_params(solver)}
    result.solve_time = time.perf_counter() - t_lp
    return result


def _target_by_split(game: Game, target: int, lp: LpBound, params: dict[str, Any], time_limit: float | None,
                     workers: int | None, options: ModelOptions, lp_rm: RoundModel | None = None,
                     star_rel: LpRelaxation | None = None) -> RoundResult | None:
    """The target asked by cases on 3-pumpkin activations (solver/split.py): when the lines with
    >= k of them are below the target by the LP, the target is asked of the small model of the
    others. INFEASIBLE there: unreachable (proof method extras-split); a line: a witness. None when
    the split does not apply or does not decide (the whole model is asked next)."""
    split = extras_split(game, options, params, base=lp_rm, relaxation=star_rel)
    found_k = split.smallest_k(target - 1)
    if found_k is None:
        return None
    k, lp_k = found_k
    rm = split.region(k)
    rm.model.add(rm.stars >= target)
    rm.model.maximize(STAR_WEIGHT * rm.stars + rm.leftover)
    solver = make_solver(params, time_limit, workers)
    status, line, _, cuts, used = solve_with_cuts(rm, solver, stop_at=STAR_WEIGHT * target, repair=CutRepair.from_params(params))
    result = RoundResult("target", "unknown", target=target, params=effective_params(solver), extras=list(rm.extras),
                         star_bound=lp.integer_bound, cuts=cuts, deterministic_time=used)
    if line is not None:
        rep = _replayed(game, line)
        if rep.stars_total < target:
            raise ModelDisagreement(f"witness has {rep.stars_total} stars, below the target {target}")
        result.stars, result.leftover, result.line, result.replay = rep.stars_total, rep.final.resources.total(), line, rep
        result.status = "reachable"
        return result
    if status == "infeasible":
        region = {"status": "INFEASIBLE", "method": "cp-sat", "cuts": cuts,
                  "deterministic_time": used, "params": effective_params(solver)}
        result.status, result.star_bound = "unreachable", target - 1
        result.proof = split_proof(f"stars >= {target}", k, lp_k, region)
        return result
    if star_cases_enabled(params) and target < game.rules.star_cap * len(game.realms):
        # the region case by case (solver/star_cases.py; for the cap there is one case, the question itself)
        lines: list[Line] = []
        region, found = refute_by_cases(game, lambda: split.region(k), target - 1,
                                        _case_solver(params, time_limit, workers, result, lines), _case_lp(game, split, k, params))
        if found is not None and replay(game, found).stars_total >= target:
            rep = _replayed(game, found)
            result.stars, result.leftover, result.line, result.replay = rep.stars_total, rep.final.resources.total(), found, rep
            result.status = "reachable"
            return result
        if region["status"] == "INFEASIBLE":
            result.status, result.star_bound = "unreachable", target - 1
            result.proof = split_proof(f"stars >= {target}", k, lp_k, region)
            return result
    return None


def witness_search(game: Game, target: int, params: dict[str, Any], time_limit: float | None, workers: int | None,
                   options: ModelOptions = ModelOptions()) -> tuple[Line | None, float]:
    """A line with at least `target` stars from the quick line improved window by window
    (`improve_both`: first without compensation, then the round itself), or None; and the
    deterministic time spent. Finds only, never proves."""
    start = _quick_line(game, params, time_limit, options) or greedy_line(game, options.played)
    spent = min(params.get("quick_deterministic_time", 2.0), time_limit or params.get("quick_deterministic_time", 2.0))
    budget = time_limit if time_limit is not None else params.get("improve_deterministic_time", 20.0)
    line, used = improve_both(game, start, budget, params, workers, options, stop_at=STAR_WEIGHT * target)
    return (line if replay(game, line).stars_total >= target else None), spent + used


def effective_params(solver: cp_model.CpSolver) -> dict[str, Any]:
    """The parameters a certificate records: workers, linearization, the limit, the ortools version."""
    p = solver.parameters
    return {
        "num_workers": p.num_workers,
        "linearization_level": p.linearization_level,
        "max_deterministic_time": p.max_deterministic_time,
        "ortools": ORTOOLS_VERSION,
    }
