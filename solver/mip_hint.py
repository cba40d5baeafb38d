"""HiGHS as a line finder for CP-SAT: the model's linear form solved as a MIP, its solution hinted.

Why: on chapter 2's late turn counts CP-SAT found no winning line in 60 deterministic seconds,
where HiGHS (a branch-and-cut MIP solver: LP bound, cuts, LP-based heuristics) found one in
3 s on the same model (docs/campaign-chapter2.md, "HiGHS's solution as CP-SAT's start"). CP-SAT
is then given that solution as its hint and reaches a solution in well under a second; the
engine orders it and the checker replays it as before. Chapter 1 asks it too
(docs/campaign-solving.md); the round solver does not (measured: no answer changed, +10-20 s).

HiGHS is trusted for nothing: its MIP is the relaxation of solver/lp_bound.py with integrality
restored, made exact where that relaxation is not (`exact_rows`: a row with one hole such as
`a != b` by one side selector; `max` by one selector per argument only with `exact_max`, because
measured it made HiGHS 4x slower on Parks' many `max` rows and lost a win it found without
them; with `exact_caps` the caps alone, `stars = min(raw, 6)`, because chapter 2 reads every
turn's stars; with `exact_ors` a `max` of 0/1 values by one row, z <= their sum), so that its
solution is one CP-SAT can keep, or nearly. It only points CP-SAT somewhere:
every answer still comes from CP-SAT (INFEASIBLE, or a solution) and the engine / checker. Its
"infeasible" proves nothing here (floating point) and is not used.

Determinism: HiGHS is deterministic with one thread. Its work limits are its node limit (the
tree) and a count of its limit checks at the root node (`max_checks`: HiGHS calls its MIP
interrupt callback at each check, at fixed points of its search, many of them while it works
on the root node; the callback stops it at the n-th made before the first branching; a root
check took 0.06-2 s here, more on larger MIPs, `root_check_limit`; a 500-node tree makes about
two a node). A run
stopped by either ends in the same state on any machine, and what it found is used. Until the
forty-third session the root node was bounded by a wall-clock limit only, and bench rounds 12
and 31 changed answers with the machine's load. The time limit stays as a last guard,
far above what the work limits take here; if it ever fires, whatever HiGHS found is dropped
(`MipHint.usable`), so the answer cannot depend on how far it got.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import highspy
from ortools.sat.python import cp_model

from .highs import highs_lp, quiet_highs
from .lp_bound import INF, Row, Unsupported, _objective, box, expr_terms, linear_terms, readable_proto, relax, slack_of


@dataclass(frozen=True)
class MipHint:
    """What HiGHS found: the values of the CP-SAT model's variables (None: no solution)."""

    status: str  # HiGHS's model status, e.g. "Optimal", "Node limit reached", "Infeasible"
    values: tuple[int, ...] | None
    objective: float | None
    seconds: float
    checks: int = 0  # HiGHS's limit checks made at its root node

    @property
    def usable(self) -> tuple[int, ...] | None:
        """The values to hint: none when the wall-clock guard stopped HiGHS (what it had found by
        then depends on the machine's speed; the same input must give the same answer)."""
        return None if self.status == TIME_LIMIT else self.values


#: HiGHS's status when its wall-clock guard stopped it
TIME_LIMIT = "Time limit reached"
#: the status shown when the count of HiGHS's limit checks stopped it (HiGHS says "Interrupted by user")
WORK_LIMIT = "Work limit reached"


def hint_from_highs(model: cp_model.CpModel, objective: Any, params: dict[str, Any], deterministic_limit: float | None,
                    objective_bound: float | None = None, first_solution: bool = False) -> str | None:
    """The question's HiGHS hint (settings in solver/params/round.toml: `mip_hint_max_nodes`, 0 or
    absent: not asked; `mip_hint_max_checks`, HiGHS's root-node limit checks, at most
    `mip_hint_checks_per_second` per deterministic second CP-SAT gets (`deterministic_limit`),
    for a MIP of `mip_hint_checks_nonzeros` nonzeros (`root_check_limit`);
    `mip_hint_seconds`, the wall-clock guard); a usable solution replaces the model's hint.
    Returns HiGHS's status for the answer (None: not asked or a model it cannot take)."""
    nodes = int(params.get("mip_hint_max_nodes", 0) or 0)
    if nodes <= 0:
        return None
    checks = int(params.get("mip_hint_max_checks", 0) or 0)
    if deterministic_limit and checks:
        checks = max(1, min(checks, int(float(deterministic_limit) * float(params.get("mip_hint_checks_per_second", 1.0)))))
    found = highs_mip(model, objective, nodes, float(params.get("mip_hint_seconds", 600.0)), objective_bound=objective_bound,
                      first_solution=first_solution, max_checks=checks,
                      checks_nonzeros=int(params.get("mip_hint_checks_nonzeros", 0) or 0))
    if found is None:
        return None
    if found.usable is not None:
        hint_values(model, found.usable)
    return found.status


def highs_mip(model: cp_model.CpModel, objective: Any, max_nodes: int, time_guard: float,
              objective_bound: float | None = None, exact_max: bool = False,
              first_solution: bool = False, stop_with: Callable[[Callable[[], None]], None] | None = None,
              max_checks: int = 0, checks_nonzeros: int = 0, exact_caps: bool = False,
              exact_ors: bool = False, root_only: bool = False,
              at_root_check: Callable[[int], None] | None = None) -> MipHint | None:
    """Maximise `objective` over `model` as a MIP in HiGHS (one thread, `max_nodes` nodes and
    `max_checks` limit checks at its root node at most, 0: no count; with `checks_nonzeros`,
    that count is for a MIP of that many nonzeros and scales as the square of the size ratio,
    `root_check_limit`; `time_guard` wall seconds, the last guard).
    `objective_bound`: a value no solution can beat (it stops
    at the first solution reaching it); `first_solution`: stop at the first solution (a
    feasibility question); `stop_with`: given HiGHS's stop call before the run (a speculative
    solve's `Speculation.stoppable`; HiGHS then checks for it in its interrupt callbacks, which
    leave its search as it is). `exact_max` / `exact_caps` / `exact_ors`: `exact_rows`. `root_only`:
    stop at the first limit check past the root node (a deterministic point of the one-thread
    run; status "Work limit reached" when no solution was found by then; chapter 2's `mip_win`).
    `at_root_check`: called with the count at each of HiGHS's limit checks at the root node (chapter
    2's `mip_win` starts CP-SAT's own search beside the root there).
    None: the model holds a constraint kind the linear form does not know."""
    t0 = time.perf_counter()
    try:
        proto = readable_proto(model)
        lo, hi, rows = relax(proto)
        c, _const = _objective(model, objective)
        lo, hi = list(lo), list(hi)
        rows = rows + exact_rows(proto, lo, hi, exact_max, exact_caps, exact_ors)  # (appends the selectors to lo, hi)
    except Unsupported:
        return None
    n = len(lo)
    if max_checks and checks_nonzeros:
        max_checks = root_check_limit(max_checks, checks_nonzeros, sum(len(row.coeffs) for row in rows))
    lp = highs_lp(lo, hi, rows, c)
    lp.integrality_ = [highspy.HighsVarType.kInteger] * n
    h = quiet_highs()
    h.setOptionValue("threads", 1)
    h.setOptionValue("mip_max_nodes", int(max_nodes))
    h.setOptionValue("time_limit", float(time_guard))
    if objective_bound is not None:
        h.setOptionValue("objective_bound", float(objective_bound))
    if first_solution:
        h.setOptionValue("mip_max_improving_sols", 1)
    h.passModel(lp)
    if stop_with is not None:
        h.HandleUserInterrupt = True
        stop_with(h.cancelSolve)
    checks = 0  # limit checks while at the root node (the tree has its node limit)
    branched = False  # stopped at its first check past the root node (`root_only`)

    def count_check(event: Any) -> None:
        """HiGHS's MIP interrupt callback, called at each of its limit checks: stop at the n-th
        made at the root node."""
        nonlocal checks, branched
        if event.data_out.mip_node_count == 0:
            checks += 1
            if at_root_check is not None:
                at_root_check(checks)
            if max_checks and checks >= max_checks:
                event.interrupt()
        elif root_only:
            branched = True
            event.interrupt()

    h.cbMipInterrupt.subscribe(count_check)
    h.run()
    info = h.getInfo()
    values = None
    if info.primal_solution_status:  # a feasible MIP solution (within HiGHS's tolerances)
        values = tuple(int(round(x)) for x in h.getSolution().col_value[:len(model.proto.variables)])  # no selectors
    status = status_name(h.modelStatusToString(h.getModelStatus()), values is not None)
    if status == "Interrupted by user" and (branched or (max_checks and checks >= max_checks)):
        status = WORK_LIMIT
    return MipHint(status, values, float(info.objective_function_value) if values is not None else None,
                   time.perf_counter() - t0, checks)


def line_mip_limits(params: dict[str, Any]) -> dict[str, Any]:
    """The line finder's HiGHS limits from round.toml (`line_mip_seconds`, the last guard;
    `line_mip_max_checks` root checks for a MIP of `line_mip_checks_nonzeros` nonzeros), as
    `highs_mip`'s keywords: one reading for the round's stages 2e / 3e and chapter 2's `mip_win`."""
    return {"time_guard": float(params.get("line_mip_seconds", 600.0)),
            "max_checks": int(params.get("line_mip_max_checks", 0) or 0),
            "checks_nonzeros": int(params.get("line_mip_checks_nonzeros", 0) or 0)}


def root_check_limit(checks: int, at_nonzeros: int, nonzeros: int) -> int:
    """The root checks a MIP of `nonzeros` gets, `checks` being the count for one of
    `at_nonzeros`: scaled as the square of the size ratio, at least 1. Why: a root check costs
    more on a larger MIP, about as that square (measured, issue-2 bench, several solves sharing
    the two cores: 0.06-0.24 s a check at 18 000 nonzeros, rounds without Feast for Odin, and
    0.5-2 s at 43 000-57 000, rounds with it), so the count stays near the same wall time; one
    count for every size cut the small MIPs' roots at a fifth of that (bench seeds 5, 6, 45,
    whose roots need 84-292 checks, 12-28 s). The law was measured on the rounds' MIPs only:
    chapter 1's, 118 000-446 000 nonzeros, make 0.3-4.6 s checks, so the campaign hints are not
    scaled (round.toml `mip_hint_checks_nonzeros` = 0)."""
    return max(1, round(checks * (at_nonzeros / max(1, nonzeros)) ** 2))


def status_name(highs_status: str, found: bool) -> str:
    """HiGHS's status as the answers show it. HiGHS 1.16 says "Solution limit reached" for its
    node limit too (measured: chapter 2's bench seed 5, W 9, case 1,0,0: 5 000 nodes, no
    solution), which read as "a solution was found"; without a solution it is the node limit,
    the only other limit of that kind asked here."""
    if highs_status == "Solution limit reached" and not found:
        return "Node limit reached"
    return highs_status


def exact_rows(proto: Any, lo: list[int], hi: list[int], exact_max: bool = True, exact_caps: bool = False,
               exact_ors: bool = False) -> list[Row]:
    """Rows (and new 0/1 selector columns, appended to lo / hi) that make the relaxation exact on
    integers where solver/lp_bound.relax is not: `z = max(e_j)` (with `exact_max`; with
    `exact_caps` only the caps, a max with an argument of fixed variables, as the model's
    `stars = min(raw, 6)`: -stars = max(-raw, -6)) gets
    selectors s_j, sum s_j = 1, z <= e_j + M (1 - s_j); an enforced linear row whose domain has
    one hole, [l1, h1] u [l2, h2], gets a side selector d: a.x <= h1 + M (d + slack),
    a.x >= l2 - M (1 - d + slack), with slack = the number of false enforcement literals. More
    holes: Unsupported."""
    out: list[Row] = []

    def new_selector() -> int:
        lo.append(0)
        hi.append(1)
        return len(lo) - 1

    for ct in proto.constraints:
        kind = ct.WhichOneof("constraint")
        if kind == "lin_max" and (exact_max or (exact_caps and is_cap(ct.lin_max, lo, hi))):
            z, z0 = expr_terms(ct.lin_max.target, "lin_max")
            zmax = box(lo, hi, z)[1] + z0
            selectors = []
            for e in ct.lin_max.exprs:
                t, t0 = expr_terms(e, "lin_max")
                big = zmax - (box(lo, hi, t)[0] + t0)
                sel = new_selector()
                selectors.append(sel)
                row = dict(z)
                for v, a in t.items():
                    row[v] = row.get(v, 0) - a
                row[sel] = row.get(sel, 0) + big  # z - e + big * s <= big - z0 + t0
                out.append(Row(row, -INF, big - z0 + t0))
            out.append(Row({sel: 1 for sel in selectors}, 1, 1))
        elif kind == "lin_max" and exact_ors and is_or(ct.lin_max, lo, hi):
            # an OR (with `exact_ors`; Parks' reached sites): z <= the sum of its 0/1 arguments
            # (with relax's z >= each one, exact on integers; one row, no selector)
            z, z0 = expr_terms(ct.lin_max.target, "lin_max")
            row, const = dict(z), z0
            for e in ct.lin_max.exprs:
                t, t0 = expr_terms(e, "lin_max")
                for v, a in t.items():
                    row[v] = row.get(v, 0) - a
                const -= t0
            out.append(Row(row, -INF, -const))
        elif kind == "linear" and len(ct.linear.domain) > 2:
            dom = [int(x) for x in ct.linear.domain]
            if len(dom) != 4:
                raise Unsupported("a linear row with more than one hole")
            h1, l2 = dom[1], dom[2]
            terms = linear_terms(ct.linear.vars, ct.linear.coeffs, "a linear row")
            mn, mx = box(lo, hi, terms)
            slack, slack_const = slack_of(ct.enforcement_literal)
            d = new_selector()
            # a.x - (mx - h1) (d + slack) <= h1
            row = dict(terms)
            row[d] = row.get(d, 0) - (mx - h1)
            for v, a in slack.items():
                row[v] = row.get(v, 0) - (mx - h1) * a
            out.append(Row(row, -INF, h1 + (mx - h1) * slack_const))
            # a.x >= l2 - (l2 - mn) (1 - d + slack): a.x - (l2 - mn) (d - slack) >= l2 - (l2 - mn) (1 + slack_const)
            row = dict(terms)
            row[d] = row.get(d, 0) - (l2 - mn)
            for v, a in slack.items():
                row[v] = row.get(v, 0) + (l2 - mn) * a
            out.append(Row(row, l2 - (l2 - mn) * (1 + slack_const), INF))
    return out


def is_cap(lin_max: Any, lo: Sequence[int], hi: Sequence[int]) -> bool:
    """Is this `max` a cap, one of its arguments a constant (every variable in it fixed)? The
    relaxation keeps only z >= each argument, so a capped `min` may sit below both of its sides
    (chapter 2: a realm's stars after a turn below what it scored, which moves the row's order)."""
    def fixed(v: int) -> bool:
        i = v if v >= 0 else -v - 1
        return lo[i] == hi[i]
    return any(all(fixed(v) for v in e.vars) for e in lin_max.exprs)


def is_or(lin_max: Any, lo: Sequence[int], hi: Sequence[int]) -> bool:
    """Is this `max` an OR: its target and every argument within 0..1 over the boxes?"""
    def unit(e: Any) -> bool:
        t, t0 = expr_terms(e, "lin_max")
        mn, mx = box(lo, hi, t)  # type: ignore[arg-type]  (read only: no copy per argument)
        return mn + t0 >= 0 and mx + t0 <= 1
    return unit(lin_max.target) and all(unit(e) for e in lin_max.exprs)


def hint_values(model: cp_model.CpModel, values: tuple[int, ...]) -> None:
    """Replace the model's hint by these values (one per variable, in proto order)."""
    model.clear_hints()
    for i, x in enumerate(values):
        model.add_hint(model.get_int_var_from_proto_index(i), x)


def hint_by_name(model: cp_model.CpModel, source: cp_model.CpModel, values: tuple[int, ...]) -> None:
    """Replace `model`'s hint by the values found for `source`'s variables (one per variable, in
    its proto order), matched by name: the two models share their named variables but not their
    order (one has rows, and their variables, that the other lacks). Unmatched ones get no hint."""
    by_name = {var.name: x for var, x in zip(source.proto.variables, values) if var.name}
    model.clear_hints()
    for i, var in enumerate(model.proto.variables):
        if var.name in by_name:
            model.add_hint(model.get_int_var_from_proto_index(i), by_name[var.name])
