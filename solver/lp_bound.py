"""An upper bound from the LP relaxation of a CP-SAT model, checked in exact arithmetic.

Why: on 9-turn rounds CP-SAT's own objective bound stays at the 18-star cap for the whole time
limit, although the plain LP relaxation of the same model is lower (16.98 / 17.15 / 17.33 on the
promo-pool bench seeds 2 / 0 / 1; docs/performance.md). An LP bound below a star target proves
the target unreachable at once; below the best line + 1 it proves the line's stars optimal.

The relaxation (every rule below keeps every integer solution, so the LP optimum bounds the
model's optimum, which bounds every legal line — the model is itself a relaxation of the rules):
- each variable keeps its domain's [min, max], integrality dropped;
- a literal is x or 1 - x; a clause `e1 & ... => l1 | l2 | ...` is sum(l) + sum(1 - e) >= 1;
- `e => (l1 & l2 ...)` is l + sum(1 - e) >= 1 per l;
- a linear row lo <= a.x <= hi enforced by literals e is relaxed with big-M from the row's own
  bounds over the variable box: a.x >= lo - (lo - min a.x) * sum(1 - e) (and alike for hi);
- `z = max(exprs)` keeps z >= each expr and z <= the largest expr's box maximum;
- at-most-one / exactly-one as sums. Any other constraint kind: no bound (None), never a guess.

GLOP (OR-Tools' LP solver) solves it, or HiGHS's dual simplex (`HighsRelaxation`, faster on the
leftover LP); the bound reported is not the solver's
floating-point optimum but the weak-duality bound of its dual values recomputed with fractions:
for any row multipliers y, max c.x <= sum_i (y_i > 0 ? y_i hi_i : y_i lo_i) + max over the box
of (c - A'y).x. Any y gives a valid bound, so tolerances cannot make it unsound.
"""
from __future__ import annotations

import math
import os
import tempfile
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import highspy
import numpy as np
from ortools.linear_solver import linear_solver_pb2, pywraplp
from ortools.sat import cp_model_pb2
from ortools.sat.python import cp_model

from .highs import INF, highs_lp, quiet_highs, side  # (INF: the relaxation's infinite side)


class Unsupported(Exception):
    """The model holds a constraint kind this relaxation does not know."""


@dataclass(frozen=True)
class Row:
    coeffs: dict[int, int]
    lo: float
    hi: float


@dataclass(frozen=True)
class LpBound:
    """What the LP relaxation says about max objective."""

    lp_value: float  # GLOP's optimum (floating point, for information)
    bound: Fraction  # the checked dual bound: max objective <= bound
    rows: int
    columns: int
    iterations: int
    seconds: float

    @property
    def integer_bound(self) -> int:
        """The bound on an integer objective (stars): floor of the checked bound."""
        return self.bound.numerator // self.bound.denominator

    def as_json(self) -> dict[str, Any]:
        up = Fraction(math.ceil(self.bound * 10**6), 10**6)  # rounded up: still a valid bound
        return {"method": "lp-relaxation", "lp_value": round(self.lp_value, 6), "bound": float(up),
                "bound_exact": f"{self.bound.numerator}/{self.bound.denominator}",
                "integer_bound": self.integer_bound, "rows": self.rows, "columns": self.columns,
                "iterations": self.iterations, "seconds": round(self.seconds, 3)}


class _Rows:
    def __init__(self, lo: list[int], hi: list[int]) -> None:
        self.lo, self.hi = lo, hi
        self.rows: list[Row] = []

    def add(self, terms: dict[int, int], const: int, lo: float, hi: float) -> None:
        """lo <= terms + const <= hi."""
        terms = {v: c for v, c in terms.items() if c}
        if not terms or (lo == -INF and hi == INF):
            return
        self.rows.append(Row(terms, lo - const, hi - const))

    def box(self, terms: dict[int, int]) -> tuple[int, int]:
        return box(self.lo, self.hi, terms)


def box(lo: list[int], hi: list[int], terms: dict[int, int]) -> tuple[int, int]:
    """Min and max of sum(c * x) over the variables' boxes."""
    mn = mx = 0
    for v, c in terms.items():
        a, b = c * lo[v], c * hi[v]
        mn += min(a, b)
        mx += max(a, b)
    return mn, mx


def linear_terms(vars_: Any, coeffs: Any, where: str) -> dict[int, int]:
    """{var: coeff} of a proto's linear part (repeated variables summed)."""
    terms: dict[int, int] = {}
    for v, c in zip(vars_, coeffs):
        if v < 0:
            raise Unsupported(f"negated variable in {where}")
        terms[v] = terms.get(v, 0) + int(c)
    return terms


def expr_terms(e: Any, where: str) -> tuple[dict[int, int], int]:
    """A LinearExpressionProto as ({var: coeff}, offset)."""
    return linear_terms(e.vars, e.coeffs, where), int(e.offset)


def slack_of(enforcement: Any) -> tuple[dict[int, int], int]:
    """sum(1 - e) over enforcement literals as (terms, constant): 0 when every one holds."""
    slack: dict[int, int] = {}
    const = 0
    for e in enforcement:
        const = _lit(slack, const + 1, e, -1)
    return slack, const


def _lit(terms: dict[int, int], const: int, lit: int, sign: int = 1) -> int:
    """Add sign * literal to terms; return the updated constant."""
    if lit >= 0:
        terms[lit] = terms.get(lit, 0) + sign
        return const
    v = -lit - 1
    terms[v] = terms.get(v, 0) - sign
    return const + sign


def readable_proto(model: cp_model.CpModel) -> cp_model_pb2.CpModelProto:
    """The model's proto as a protobuf message, read back from its binary form. Why: reading every
    constraint of a 9-turn round through CpModel.proto (pybind) took 0.3 s of a relaxation's
    1.3 s where the message takes 0.05 s (docs/performance.md, fifty-fourth session), and the
    pybind proto can be written only to a file."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "model.pb")
        if not model.export_to_file(path):
            raise RuntimeError("CP-SAT did not write the model")
        with open(path, "rb") as f:
            return cp_model_pb2.CpModelProto.FromString(f.read())


def relax(proto: cp_model_pb2.CpModelProto) -> tuple[list[int], list[int], list[Row]]:
    """The LP relaxation of a CpModelProto (`readable_proto`): variable boxes and rows (module
    docstring)."""
    doms = [v.domain for v in proto.variables]
    lo = [int(d[0]) for d in doms]
    hi = [int(d[-1]) for d in doms]
    out = _Rows(lo, hi)
    for ct in proto.constraints:
        kind = ct.WhichOneof("constraint")
        en = ct.enforcement_literal
        slack, slack_const = slack_of(en)
        if kind == "bool_or":
            terms, const = dict(slack), slack_const
            for lit in ct.bool_or.literals:
                const = _lit(terms, const, lit)
            out.add(terms, const, 1, INF)
        elif kind == "bool_and":
            for lit in ct.bool_and.literals:
                terms, const = dict(slack), slack_const
                const = _lit(terms, const, lit)
                out.add(terms, const, 1, INF)
        elif kind in ("at_most_one", "exactly_one"):
            if en:
                raise Unsupported("enforced at_most_one / exactly_one")
            lits = ct.at_most_one.literals if kind == "at_most_one" else ct.exactly_one.literals
            terms, const = {}, 0
            for lit in lits:
                const = _lit(terms, const, lit)
            out.add(terms, const, 1 if kind == "exactly_one" else -INF, 1)
        elif kind == "linear":
            L = ct.linear
            terms = linear_terms(L.vars, L.coeffs, "a linear row")
            dom = L.domain
            rlo, rhi = int(dom[0]), int(dom[-1])
            mn, mx = out.box(terms)
            if not en:
                out.add(terms, 0, rlo if rlo > mn else -INF, rhi if rhi < mx else INF)
                continue
            if rlo > mn:  # a.x >= rlo - (rlo - mn) * slack
                t = dict(terms)
                for v, c in slack.items():
                    t[v] = t.get(v, 0) + (rlo - mn) * c
                out.add(t, (rlo - mn) * slack_const, rlo, INF)
            if rhi < mx:  # a.x <= rhi + (mx - rhi) * slack
                t = dict(terms)
                for v, c in slack.items():
                    t[v] = t.get(v, 0) - (mx - rhi) * c
                out.add(t, -(mx - rhi) * slack_const, -INF, rhi)
        elif kind == "lin_max":
            if en:
                raise Unsupported("enforced lin_max")
            M = ct.lin_max
            z, z0 = expr_terms(M.target, "lin_max")
            best = -INF
            for e in M.exprs:
                t, t0 = expr_terms(e, "lin_max")
                row = dict(z)
                for v, c in t.items():
                    row[v] = row.get(v, 0) - c
                out.add(row, z0 - t0, 0, INF)  # z >= expr
                best = max(best, out.box(t)[1] + t0)
            out.add(z, z0, -INF, best)  # z <= the largest expr's box maximum
        else:
            raise Unsupported(f"constraint {ct.name or '?'} of an unrelaxed kind")
    return lo, hi, out.rows


def _objective(model: cp_model.CpModel, objective: Any) -> tuple[dict[int, Fraction], Fraction]:
    """The linear objective to maximise as {var: coeff}, constant (read from a clone's proto)."""
    clone = model.clone()
    clone.maximize(objective)
    o = clone.proto.objective
    sf = Fraction(o.scaling_factor or 1)
    c: dict[int, Fraction] = {}
    for v, a in zip(o.vars, o.coeffs):
        if v < 0:
            raise Unsupported("negated variable in the objective")
        c[v] = c.get(v, Fraction(0)) + sf * a
    return c, sf * Fraction(o.offset)


#: row multipliers are rounded to multiples of 1 / DUAL_SCALE before the exact check: any
#: multipliers give a valid bound, and sums of integers are far quicker than sums of the exact
#: fractions of floats (measured on a 9-turn round, 18 474 rows: 0.2 s -> 0.03 s a check)
DUAL_SCALE = 1 << 30


def _exact(side: float) -> Fraction:
    return Fraction(int(side)) if float(side).is_integer() else Fraction(side)


def safe_bound(lo: list[int], hi: list[int], rows: list[Row], c: dict[int, Fraction], const: Fraction,
               y: list[float]) -> Fraction:
    """Weak duality in exact arithmetic: a valid upper bound on max c.x for any multipliers y
    (each rounded to a multiple of 1 / DUAL_SCALE; a multiplier whose side of its row is infinite
    is taken as 0). Everything is scaled by D = DUAL_SCALE x the objective's denominators, so the
    sums are of integers."""
    den = math.lcm(*(Fraction(a).denominator for a in c.values()), Fraction(const).denominator)
    scale = DUAL_SCALE * den
    d: dict[int, int] = {v: int(Fraction(a) * scale) for v, a in c.items()}
    total = Fraction(const) * scale
    for row, yi in zip(rows, y):
        q = round(yi * DUAL_SCALE) * den  # the multiplier q / scale
        if q == 0:
            continue
        side = row.hi if q > 0 else row.lo
        if side in (INF, -INF):
            continue
        total += q * _exact(side)
        for v, a in row.coeffs.items():
            d[v] = d.get(v, 0) - q * a
    extra = 0
    for v, dv in d.items():
        if dv:
            extra += max(dv * lo[v], dv * hi[v])
    return (total + extra) / scale


def mp_model(lo: list[int], hi: list[int], rows: list[Row], c: dict[int, Fraction]) -> linear_solver_pb2.MPModelProto:
    """max c.x over lo <= x <= hi and the rows, as OR-Tools' linear model proto (for GLOP)."""
    proto = linear_solver_pb2.MPModelProto(maximize=True)
    add_var, add_row = proto.variable.add, proto.constraint.add
    for i, (a, b) in enumerate(zip(lo, hi)):
        add_var(lower_bound=a, upper_bound=b, objective_coefficient=float(c.get(i, 0)))
    for row in rows:  # (INF is the float infinity the proto takes for a free side)
        add_row(lower_bound=row.lo, upper_bound=row.hi, var_index=list(row.coeffs),
                coefficient=[float(a) for a in row.coeffs.values()])
    return proto


class LpRelaxation:
    """A model's LP relaxation kept in GLOP, so that rows can be added or tightened and the LP
    solved again from GLOP's last basis. Measured on 9-turn rounds (docs/performance.md): the
    LP of "at least k 3-pumpkin activations" for k = 2, 3 re-solved in 1.3-1.7 s after k = 1,
    where each from scratch took about 7 s. Raises Unsupported for an unrelaxed model."""

    def __init__(self, model: cp_model.CpModel, objective: Any, glop_params: str = "") -> None:
        self._relax(model, objective)
        self.solver = pywraplp.Solver.CreateSolver("GLOP")
        if glop_params:
            self.solver.SetSolverSpecificParametersAsString(glop_params)
        # loaded as one MPModelProto: the same LP as a call per coefficient, in about a quarter
        # of the wall time (0.49 -> 0.13 s on bench seed 24: docs/performance.md, fifty-fourth session)
        error = self.solver.LoadModelFromProto(mp_model(self.lo, self.hi, self.rows, self.c))
        if error:
            raise RuntimeError(f"GLOP did not load the relaxation: {error}")
        self.xs = self.solver.variables()
        self.cons = self.solver.constraints()

    def _relax(self, model: cp_model.CpModel, objective: Any) -> None:
        """The rows, boxes and objective of the relaxation (`relax`), timed from here."""
        self.t0: float | None = time.perf_counter()
        self.lo, self.hi, self.rows = relax(readable_proto(model))
        self.c, self.const = _objective(model, objective)

    def _constraint(self, row: Row) -> Any:
        inf = self.solver.infinity()
        ct = self.solver.RowConstraint(-inf if row.lo == -INF else row.lo, inf if row.hi == INF else row.hi, "")
        for v, a in row.coeffs.items():
            ct.SetCoefficient(self.xs[v], a)
        return ct

    def add_row(self, coeffs: dict[int, int], lo: float, hi: float) -> int:
        """A new row lo <= coeffs.x <= hi (variable indices of the model); its index."""
        self.rows.append(Row(dict(coeffs), lo, hi))
        self.cons.append(self._constraint(self.rows[-1]))
        return len(self.rows) - 1

    def interrupt(self) -> None:
        """Stop a GLOP solve running in another thread (it then reaches no optimum: no bound)."""
        self.solver.InterruptSolve()

    def set_bounds(self, i: int, lo: float, hi: float) -> None:
        """Change row i's sides (the next solve starts from the last basis)."""
        self.rows[i] = Row(self.rows[i].coeffs, lo, hi)
        inf = self.solver.infinity()
        self.cons[i].SetBounds(-inf if lo == -INF else lo, inf if hi == INF else hi)

    def _optimum(self) -> tuple[float, list[float], int] | None:
        """GLOP's optimum of the rows as they are now: (value, row duals, iterations), or None."""
        if self.solver.Solve() != pywraplp.Solver.OPTIMAL:
            return None
        return (float(self.solver.Objective().Value()), [ct.dual_value() for ct in self.cons],
                int(self.solver.iterations()))

    def solve(self) -> LpBound | None:
        """The checked bound of the rows as they are now (None: the LP solver reached no optimum)."""
        t0 = time.perf_counter()
        optimum = self._optimum()
        if optimum is None:
            return None
        value, duals, iterations = optimum
        lo, hi, rows, c, const = self.lo, self.hi, self.rows, self.c, self.const
        # any multipliers give a valid bound, so the sign convention of the solver's duals need
        # not be trusted: both signs are checked and the lower bound kept
        bound = min(safe_bound(lo, hi, rows, c, const, duals), safe_bound(lo, hi, rows, c, const, [-y for y in duals]))
        seconds = time.perf_counter() - (self.t0 if self.t0 is not None else t0)
        self.t0 = None  # later solves count their own time only
        return LpBound(value + float(const), bound, len(rows), len(lo), iterations, seconds)


class HighsRelaxation(LpRelaxation):
    """The same relaxation kept in HiGHS's dual simplex (one thread), for the LPs where GLOP is
    slow: measured on the leftover LP at the proven star count (docs/performance.md, twenty-sixth
    session), bench seeds 13 / 14 / 38: GLOP 11.6 / 24.8 / 9.9 s, HiGHS 4.5 / 13.6 / 3.2 s, the
    same checked bounds; on the star LPs GLOP was the faster (2.3 / 7.4 s against 5.9 / 13.2).
    Its work limit is a count of simplex iterations per solve (deterministic, unlike its time
    limit; measured: counted per solve, not summed over warm re-solves); the bound is checked
    from its duals exactly as GLOP's."""

    def __init__(self, model: cp_model.CpModel, objective: Any, iteration_limit: int, presolve: bool = True) -> None:
        self._relax(model, objective)
        self.highs = quiet_highs()
        for option, value in (("threads", 1), ("solver", "simplex"), ("simplex_strategy", 1),
                              ("simplex_iteration_limit", int(iteration_limit)),
                              ("presolve", "on" if presolve else "off")):
            self.highs.setOptionValue(option, value)
        self.highs.passModel(highs_lp(self.lo, self.hi, self.rows, self.c))

    def interrupt(self) -> None:
        """Not interrupted: its iteration limit bounds each solve (HiGHS's own interrupt needs a
        Python callback at every check, `HandleUserInterrupt`, not worth it on these LPs)."""

    def add_row(self, coeffs: dict[int, int], lo: float, hi: float) -> int:
        self.rows.append(Row(dict(coeffs), lo, hi))
        index = np.array(list(coeffs.keys()), dtype=np.int32)
        value = np.array([float(a) for a in coeffs.values()], dtype=float)
        self.highs.addRow(side(lo), side(hi), len(index), index, value)
        return len(self.rows) - 1

    def set_bounds(self, i: int, lo: float, hi: float) -> None:
        self.rows[i] = Row(self.rows[i].coeffs, lo, hi)
        self.highs.changeRowBounds(i, side(lo), side(hi))

    def _optimum(self) -> tuple[float, list[float], int] | None:
        self.highs.run()
        if self.highs.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            return None
        info = self.highs.getInfo()
        return (float(info.objective_function_value), list(self.highs.getSolution().row_dual),
                int(info.simplex_iteration_count))


def lp_upper_bound(model: cp_model.CpModel, objective: Any, glop_params: str = "") -> LpBound | None:
    """Max `objective` over the LP relaxation of `model`, as a checked bound; None when the
    model has a constraint kind the relaxation does not know or GLOP does not reach an optimum."""
    try:
        relaxation = LpRelaxation(model, objective, glop_params)
    except Unsupported:
        return None
    return relaxation.solve()
