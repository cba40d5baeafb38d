"""Repairing a cut optimum: the model's best play that the engine cannot order, nearby.

The round model relaxes the order inside a turn, so its optimum can be a play the engine finds no
legal order for (for example a compensation that is legal only while a Parks site's cost cannot be
paid). `solve.solve_with_cuts` then cuts that play off and solves again from scratch, which costs
about what the first solve did. A legal play with the same objective often differs from the cut
one only in the turns around the illegal one. So before solving again, the same model is asked,
hinted with the cut play, with its first turns pinned as played (CP-SAT assumptions) and the last
few turns before the illegal one set free, step by step, each within a small deterministic limit.
A line found there that meets the first solve's bound is optimal: that bound holds for every
legal line (the cut removes only illegal plays). The bounds of the pinned solves are not used.

Measured on the bundled game's round 2 (docs/performance.md, forty-first session): the region
solve's optimum of 17 stars was cut twice and the solve ended at 16 after 60 det-s; pinning turns
1-2 (turns 3 and 4, before the illegal turn 5, set free) found a legal 17 in 1.1 det-s.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from .model import RoundModel


@dataclass(frozen=True)
class CutRepair:
    """When and how a cut optimum is repaired (round.toml, `cut_repair_*`)."""

    #: only when the solve that found the cut optimum took at least this many det-s (a cheaper
    #: solve is simply asked again, as before)
    after: float
    #: each repair solve's deterministic limit
    budget: float
    #: the steps: how many turns before the illegal one are set free (the earlier ones stay pinned)
    free_turns: tuple[int, ...]

    @staticmethod
    def from_params(params: dict[str, Any]) -> CutRepair | None:
        """The settings of a question's parameters, or None when repair is off (budget 0)."""
        budget = float(params.get("cut_repair_deterministic_time", 0) or 0)
        if budget <= 0:
            return None
        return CutRepair(float(params.get("cut_repair_after_deterministic_time", 0.0)), budget,
                         tuple(int(f) for f in params.get("cut_repair_free_turns", (0,))))


def repair_questions(rm: RoundModel, solver: cp_model.CpSolver, turn: int,
                     repair: CutRepair) -> tuple[list[int], list[list[Any]]]:
    """From the solver's cut optimum (its illegal turn `turn`, 0-based): every variable's value
    (the hint) and, per step, the literals pinning the turns before the free ones. Read before
    the next solve overwrites the solver's response."""
    proto = rm.model.proto
    values = [int(solver.value(rm.model.get_int_var_from_proto_index(i))) for i in range(len(proto.variables))]
    steps: list[list[Any]] = []
    seen: set[int] = set()
    for free in repair.free_turns:
        last_pinned = max(turn - 1 - free, -1)
        if last_pinned in seen:
            continue
        seen.add(last_pinned)
        steps.append(rm.history_literals(solver, last_pinned) if last_pinned >= 0 else [])
    return values, steps


def solve_pinned(rm: RoundModel, solver: cp_model.CpSolver, values: list[int], pinned: list[Any],
                 limit: float, callback: cp_model.CpSolverSolutionCallback) -> float:
    """One repair step: the model hinted with `values`, `pinned` assumed, within `limit` det-s;
    its lines go to `callback`. The model's own hint and assumptions are restored; the solver's
    limit is the caller's to set again (it is the loop's own solver, so that a speculative solve's
    cancel stops a repair step too). Returns the deterministic time spent."""
    model = rm.model
    hint = model.proto.solution_hint
    saved = list(zip(list(hint.vars), list(hint.values)))
    model.clear_hints()
    for i, v in enumerate(values):
        model.add_hint(model.get_int_var_from_proto_index(i), v)
    model.add_assumptions(pinned)
    solver.parameters.max_deterministic_time = limit
    try:
        solver.solve(model, callback)
    finally:
        model.clear_assumptions()
        model.clear_hints()
        for i, v in saved:
            model.add_hint(model.get_int_var_from_proto_index(i), v)
    return solver.deterministic_time
