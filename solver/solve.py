"""Questions about a round, answered by the CP-SAT model and checked by the engine.

Every answer states its status: "optimal" (proven), "reachable" (witness line), "unreachable"
(proven: the solver's INFEASIBLE), or "unknown" (limit hit: best line so far and the bound).
Every line returned has been replayed by the engine; a disagreement raises ModelDisagreement.
"""
from __future__ import annotations

import time
import tomllib
from dataclasses import dataclass, field
from importlib import resources as ir
from typing import Any, Callable

import ortools
from ortools.sat.python import cp_model

from .engine import Game, Replay, replay
from .line import Line
from .model import ModelOptions, RoundModel

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
    slots: list[int] = field(default_factory=list)
    proof: dict[str, Any] | None = None

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


class _Progress(cp_model.CpSolverSolutionCallback):
    def __init__(self, report: Callable[[int, int], None], rm: RoundModel) -> None:
        super().__init__()
        self.report = report

    def on_solution_callback(self) -> None:
        self.report(int(self.objective_value) // STAR_WEIGHT, int(self.best_objective_bound) // STAR_WEIGHT)


def _solver(params: dict[str, Any], time_limit: float | None, workers: int | None) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    for key, value in params.items():
        if key.startswith("quick_"):
            continue  # our own settings, not CP-SAT's
        setattr(solver.parameters, key, value)
    if time_limit is not None:
        solver.parameters.max_deterministic_time = float(time_limit)
    if workers is not None:
        solver.parameters.num_workers = int(workers)
    return solver


def _checked(game: Game, line: Line, stars: int, leftover: int) -> Replay:
    rep = replay(game, line)
    if not rep.legal:
        raise ModelDisagreement(f"the engine rejects the model's line: {rep.error}\n{line.to_text()}")
    if rep.stars_total != stars or rep.final.resources.total() != leftover:
        raise ModelDisagreement(
            f"engine scores {rep.stars_total} stars + {rep.final.resources.total()} leftover, model {stars} + {leftover}\n{line.to_text()}"
        )
    return rep


def build(game: Game, options: ModelOptions = ModelOptions()) -> RoundModel:
    return RoundModel(game, options)


def solve_optimal(
    game: Game,
    time_limit: float | None = None,
    workers: int | None = None,
    options: ModelOptions = ModelOptions(),
    progress: Callable[[int, int], None] | None = None,
    prove: bool = True,
) -> RoundResult:
    """Most stars, then most leftover resources; proven when status is 'optimal'.

    Two phases: a quick search with one slot per realm and turn finds a good line (a lower
    bound only: it may miss lines with more actions in a turn); it is hinted to the full model,
    whose slots per turn are the proven bound, and only the full model's answer is a proof."""
    params = load_params("optimal")
    t0 = time.perf_counter()
    first = _quick_line(game, params, time_limit, options) if options.slots is None else None
    rm = build(game, options)
    rm.model.maximize(STAR_WEIGHT * rm.stars + rm.leftover)
    if first is not None:
        rm.hint_line(first)
    solver = _solver(params, time_limit, workers)
    status = solver.solve(rm.model, _Progress(progress, rm) if progress else None)
    elapsed = time.perf_counter() - t0
    result = RoundResult("optimal", "unknown", params=_effective(solver), slots=[len(s) for s in rm.turn_slots])
    result.deterministic_time = solver.deterministic_time
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        stars = sum(solver.value(s) for s in rm.realm_stars)
        leftover = int(solver.value(rm.leftover))
        line = rm.decode(solver)
        result.stars, result.leftover, result.line = stars, leftover, line
        result.replay = _checked(game, line, stars, leftover)
    result.star_bound = int(solver.best_objective_bound) // STAR_WEIGHT if status != cp_model.UNKNOWN else None
    if first is not None and status != cp_model.OPTIMAL:
        rep = replay(game, first)
        if result.stars is None or STAR_WEIGHT * rep.stars_total + rep.final.resources.total() > STAR_WEIGHT * result.stars + (result.leftover or 0):
            result.stars, result.leftover, result.line, result.replay = rep.stars_total, rep.final.resources.total(), first, rep
    if status == cp_model.OPTIMAL:
        result.status = "optimal"
        result.star_bound = result.stars
    elif status == cp_model.INFEASIBLE:
        raise ModelDisagreement("the model has no line at all (the empty line is always legal)")
    result.solve_time = elapsed
    if result.status == "optimal" and prove:
        result.proof = prove_no_more(game, result.stars or 0, time_limit, workers, options)
        result.solve_time = time.perf_counter() - t0
        if result.proof["status"] != "INFEASIBLE":
            result.status = "unknown"  # the optimum was found but the certificate proof did not finish
    return result


def _quick_line(game: Game, params: dict[str, Any], time_limit: float | None, options: ModelOptions) -> Line | None:
    """A good line from the small model (one slot per realm and turn), checked by the engine."""
    rm = build(game, ModelOptions(tricks=options.tricks, slots=len(game.realms), trick_list=options.trick_list))
    rm.model.maximize(STAR_WEIGHT * rm.stars + rm.leftover)
    solver = _solver(params, None, 1)
    limit = params.get("quick_deterministic_time", 2.0)
    solver.parameters.max_deterministic_time = min(limit, time_limit or limit)
    status = solver.solve(rm.model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    line = rm.decode(solver)
    _checked(game, line, sum(solver.value(x) for x in rm.realm_stars), int(solver.value(rm.leftover)))
    return line


def prove_no_more(game: Game, stars: int, time_limit: float | None = None, workers: int | None = None, options: ModelOptions = ModelOptions()) -> dict[str, Any]:
    """The certificate's proof: 'stars >= stars + 1' solved as a feasibility question."""
    params = load_params("proof")
    rm = build(game, options)
    rm.model.add(rm.stars >= stars + 1)
    solver = _solver(params, time_limit, workers)
    status = solver.solve(rm.model)
    return {
        "question": f"stars >= {stars + 1}",
        "status": solver.status_name(status),
        "deterministic_time": solver.deterministic_time,
        "wall_time": solver.wall_time,
        "params": _effective(solver),
    }


def solve_target(
    game: Game,
    target: int,
    time_limit: float | None = None,
    workers: int | None = None,
    options: ModelOptions = ModelOptions(),
) -> RoundResult:
    """Can the rolls give at least `target` stars? reachable (witness) / unreachable (proof) / unknown."""
    params = load_params("target")
    rm = build(game, options)
    rm.model.add(rm.stars >= target)
    rm.model.maximize(STAR_WEIGHT * rm.stars + rm.leftover)
    solver = _solver(params, time_limit, workers)
    solver.parameters.stop_after_first_solution = True
    t0 = time.perf_counter()
    status = solver.solve(rm.model)
    result = RoundResult("target", "unknown", target=target, params=_effective(solver), slots=[len(s) for s in rm.turn_slots])
    result.solve_time = time.perf_counter() - t0
    result.deterministic_time = solver.deterministic_time
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        stars = sum(solver.value(s) for s in rm.realm_stars)
        leftover = int(solver.value(rm.leftover))
        line = rm.decode(solver)
        result.stars, result.leftover, result.line = stars, leftover, line
        result.replay = _checked(game, line, stars, leftover)
        if stars < target:
            raise ModelDisagreement(f"witness has {stars} stars, below the target {target}")
        result.status = "reachable"
    elif status == cp_model.INFEASIBLE:
        result.status = "unreachable"
        result.star_bound = target - 1
        result.proof = {"question": f"stars >= {target}", "status": "INFEASIBLE", "deterministic_time": solver.deterministic_time, "params": _effective(solver)}
    return result


def _effective(solver: cp_model.CpSolver) -> dict[str, Any]:
    p = solver.parameters
    return {
        "num_workers": p.num_workers,
        "linearization_level": p.linearization_level,
        "max_deterministic_time": p.max_deterministic_time,
        "stop_after_first_solution": p.stop_after_first_solution,
        "ortools": ORTOOLS_VERSION,
    }
