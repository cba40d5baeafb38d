"""Proof by cases on how the stars are shared among the realms (docs/model.md, "The star cases").

"No line has S + 1 stars" is one question per minimal way to share S + 1 stars among the realms:
a vector c with c_r <= the realm's cap and sum c = S + 1, asked as "every realm r has at least
c_r stars". Every line with at least S + 1 stars is in one of them (lower its realms' stars one
by one, never below 0, until they sum to S + 1: a vector of the list, met by the line), so when
CP-SAT finds every case INFEASIBLE, no line has S + 1 stars. Why: asked as one question
("maximise the stars") CP-SAT trades stars between realms and its bound stays above the best
line; a case that says "this realm makes all 6" propagates through that realm's whole sheet.
Measured (docs/performance.md, fifteenth session): bench seed 1's region of no 3-pumpkin
activation, 16 stars, its maximum not proven in 60 deterministic s; its three cases of 17 stars
INFEASIBLE in 0.8-2.1 s each. A solver trick, never a rule: the engine knows nothing of it.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from .engine import Game
from .line import Line
from .lp_bound import INF, LpBound, LpRelaxation
from .model import RoundModel


def star_cases(caps: Sequence[int], total: int) -> list[tuple[int, ...]]:
    """Every vector c (one entry per realm, 0 <= c_r <= caps[r]) with sum c = `total`: the cases
    that together hold every line with at least `total` stars, in decreasing lexicographic order
    (none when `total` is above the caps' sum: no line has that many stars)."""
    cases = [c for c in itertools.product(*(range(cap + 1) for cap in caps)) if sum(c) == max(total, 0)]
    return sorted(cases, reverse=True)


@dataclass
class CaseAnswer:
    """CP-SAT's answer to one case: 'infeasible', 'line' (a legal line with the case's stars) or
    'unknown'; its cuts, deterministic time and the parameters it ran with."""

    status: str
    line: Line | None
    cuts: int
    deterministic_time: float
    params: dict[str, Any]


def refute_by_cases(
    game: Game,
    make_model: Callable[[], RoundModel],
    stars: int,
    solve_case: Callable[[RoundModel], CaseAnswer],
    case_lp: Callable[[tuple[int, ...]], LpBound | None] | None = None,
) -> tuple[dict[str, Any], Line | None]:
    """Asks "at least `stars` + 1 stars?" case by case (`star_cases`) on fresh models from
    `make_model`, each with the case's rows `stars[realm] >= c_r`, solved by `solve_case`;
    with `case_lp`, a case whose checked LP bound of sum min(stars[realm], c_r) is below the
    case's total is refuted by it, no CP-SAT. Stops at the first case not INFEASIBLE. Returns
    the proof (status INFEASIBLE when every case is, with each case's answer) and the line a
    case found (None if none): a line with more than `stars` stars."""
    caps = [game.rules.star_cap] * len(game.realms)  # the model's stars[realm] are capped so
    answers: list[dict[str, Any]] = []
    status, found, params = "INFEASIBLE", None, {}
    for case in star_cases(caps, stars + 1):
        label = dict(zip((realm.key for realm in game.realms), case))
        lp = case_lp(case) if case_lp is not None else None
        if lp is not None and lp.integer_bound <= stars:
            answers.append({"stars_at_least": label, "status": "INFEASIBLE", "lp": lp.as_json(), "deterministic_time": 0.0})
            continue
        rm = make_model()
        for r, at_least in enumerate(case):
            if at_least > 0:
                rm.model.add(rm.realm_stars[r] >= at_least)
        answer = solve_case(rm)
        answers.append({"stars_at_least": label, "status": answer.status.upper(), "cuts": answer.cuts,
                        "deterministic_time": answer.deterministic_time})
        params = answer.params
        if answer.status != "infeasible":
            status, found = ("FEASIBLE" if answer.line is not None else "UNKNOWN"), answer.line
            break
    return {
        "question": f"stars >= {stars + 1}",
        "status": status,
        "method": "star-cases",
        "cases": answers,
        "deterministic_time": sum(a["deterministic_time"] for a in answers),
        "params": params,
    }, found


def case_lp_bounds(rm: RoundModel, relaxation_of: Callable[[Any, Any], LpRelaxation | None]
                   ) -> Callable[[tuple[int, ...]], LpBound | None]:
    """The cases' LP check on `rm` (a model for LP bounds, solve.lp_model; read only after
    this): new variables y_r <= stars[realm r], the objective sum y_r, and per case the rows
    y_r <= c_r. Its checked bound below sum c means no point of the LP, hence no line, has
    every stars[realm r] >= c_r. One relaxation, re-solved warm case by case (None: no LP)."""
    ys = []
    for r, realm_stars in enumerate(rm.realm_stars):
        y = rm.model.new_int_var(0, rm.game.rules.star_cap, f"case_stars[{rm.game.realms[r].key}]")
        rm.model.add(y <= realm_stars)
        ys.append(y)
    state: dict[str, Any] = {}

    def bound(case: tuple[int, ...]) -> LpBound | None:
        if "rel" not in state:
            state["rel"] = relaxation_of(rm.model, sum(ys))
            if state["rel"] is not None:
                state["rows"] = [state["rel"].add_row({y.index: 1}, -INF, INF) for y in ys]
        rel = state["rel"]
        if rel is None:
            return None
        for row, at_most in zip(state["rows"], case):
            rel.set_bounds(row, -INF, at_most)
        return rel.solve()

    return bound
