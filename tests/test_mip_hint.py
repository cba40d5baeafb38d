"""HiGHS as CP-SAT's line finder (solver/mip_hint.py): it solves the model's linear form, says
nothing on standard output, and its values land as the model's hint."""
from __future__ import annotations

import subprocess
from functools import lru_cache
import sys
from pathlib import Path

from ortools.sat.python import cp_model

from solver.mip_hint import highs_mip, hint_values, status_name

ROOT = Path(__file__).resolve().parents[1]


def knapsack() -> tuple[cp_model.CpModel, cp_model.LinearExpr, list[cp_model.IntVar]]:
    """A small model with clauses, enforced rows and an integer: its optimum is 13 (b2 and n = 5)."""
    m = cp_model.CpModel()
    b = [m.new_bool_var(f"b{i}") for i in range(4)]
    n = m.new_int_var(0, 5, "n")
    m.add(3 * b[0] + 4 * b[1] + 2 * b[2] + 5 * b[3] + n <= 7)
    m.add_bool_or([~b[1], ~b[2]])
    m.add(n <= 2).only_enforce_if(b[0])
    objective = 4 * b[0] + 5 * b[1] + 3 * b[2] + 6 * b[3] + 2 * n
    return m, objective, b + [n]


def test_highs_finds_the_optimum_of_the_linear_form() -> None:
    m, objective, xs = knapsack()
    found = highs_mip(m, objective, max_nodes=1000, time_guard=60)
    assert found is not None and found.values is not None
    solver = cp_model.CpSolver()
    m.maximize(objective)
    assert solver.solve(m) == cp_model.OPTIMAL and solver.objective_value == 13
    assert found.status == "Optimal" and round(found.objective) == 13


def test_its_values_become_the_hint_and_cp_sat_keeps_them() -> None:
    m, objective, xs = knapsack()
    found = highs_mip(m, objective, max_nodes=1000, time_guard=60)
    assert found is not None and found.values is not None
    hint_values(m, found.values)
    solver = cp_model.CpSolver()
    solver.parameters.fix_variables_to_their_hinted_value = True
    assert solver.solve(m) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    assert tuple(solver.value(x) for x in xs) == found.values  # the hint is HiGHS's solution, var by var
    hint_values(m, found.values)  # replaces, never adds a second hint
    assert len(m.proto.solution_hint.vars) == len(found.values)


def test_an_unknown_constraint_kind_gives_no_hint() -> None:
    m = cp_model.CpModel()
    x, y, z = (m.new_int_var(0, 3, k) for k in "xyz")
    m.add_multiplication_equality(z, [x, y])
    assert highs_mip(m, z, max_nodes=10, time_guard=10) is None


def test_no_banner_on_standard_output() -> None:
    """HiGHS prints a banner from C++ on its first instance; `--json` must stay one object."""
    code = ("import sys; sys.path.insert(0, %r)\n"
            "from ortools.sat.python import cp_model\n"
            "from solver.mip_hint import highs_mip\n"
            "m = cp_model.CpModel(); x = m.new_int_var(0, 4, 'x')\n"
            "print(highs_mip(m, x, 10, 10).values)\n") % str(ROOT)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "(4,)\n"


def exact_agrees(m: cp_model.CpModel, objective, exact_max: bool = False) -> None:
    found = highs_mip(m, objective, max_nodes=1000, time_guard=60, exact_max=exact_max)
    assert found is not None and found.values is not None
    solver = cp_model.CpSolver()
    m.maximize(objective)
    assert solver.solve(m) == cp_model.OPTIMAL
    assert round(found.objective) == solver.objective_value
    hint_values(m, found.values)
    solver.parameters.fix_variables_to_their_hinted_value = True
    assert solver.solve(m) == cp_model.OPTIMAL  # HiGHS's solution keeps every constraint


def test_max_is_exact_for_highs() -> None:
    """The LP relaxation only keeps z >= each argument (and z <= the box maximum): HiGHS would
    take z = 5 with x = y = 0. Exact (`exact_max`): z - x - y = -min(x, y) <= 0."""
    m = cp_model.CpModel()
    x, y, z = (m.new_int_var(0, 5, k) for k in "xyz")
    m.add_max_equality(z, [x, y])
    exact_agrees(m, z - x - y, exact_max=True)
    loose = highs_mip(m, z - x - y, max_nodes=1000, time_guard=60)  # the default: max stays relaxed
    assert loose is not None and round(loose.objective) == 5


def test_caps_are_exact_for_highs() -> None:
    """A cap, s = min(x, 6), relaxes to s <= x, s <= 6: HiGHS would take s = 0 below both. With
    `exact_caps` it is exact (x - s is 4 at best, not 10), while a max of variables alone stays
    relaxed (Parks' many `max` rows, mip_hint's docstring)."""
    m = cp_model.CpModel()
    x, s = m.new_int_var(0, 10, "x"), m.new_int_var(0, 10, "s")
    m.add_min_equality(s, [x, 6])
    loose = highs_mip(m, x - s, max_nodes=1000, time_guard=60)
    assert loose is not None and round(loose.objective) == 10
    exact = highs_mip(m, x - s, max_nodes=1000, time_guard=60, exact_caps=True)
    assert exact is not None and round(exact.objective) == 4
    m2 = cp_model.CpModel()
    y, z, w = (m2.new_int_var(0, 5, k) for k in "yzw")
    m2.add_max_equality(z, [y, w])
    still = highs_mip(m2, z - y - w, max_nodes=1000, time_guard=60, exact_caps=True)
    assert still is not None and round(still.objective) == 5


def test_ors_are_exact_for_highs() -> None:
    """An OR, z = max(a, b) of 0/1 values (Parks' reached sites), relaxes to z >= a, z >= b: HiGHS
    would take z = 1 with a = b = 0. With `exact_ors` one row, z <= a + b, makes it exact."""
    m = cp_model.CpModel()
    a, b, z = (m.new_bool_var(k) for k in "abz")
    m.add_max_equality(z, [a, b])
    loose = highs_mip(m, z - a - b, max_nodes=1000, time_guard=60)
    assert loose is not None and round(loose.objective) == 1
    exact = highs_mip(m, z - a - b, max_nodes=1000, time_guard=60, exact_ors=True)
    assert exact is not None and round(exact.objective) == 0


def test_a_hole_is_exact_for_highs() -> None:
    """`b => x != y` is a row with a hole; the LP relaxation drops the hole (b = 1 with x = y)."""
    m = cp_model.CpModel()
    x, y = (m.new_int_var(0, 5, k) for k in "xy")
    b, c = m.new_bool_var("b"), m.new_bool_var("c")
    m.add(x == y).only_enforce_if(c)
    m.add(x != y).only_enforce_if(b)
    m.add_bool_or([c])
    exact_agrees(m, 2 * b + x)
    m2 = cp_model.CpModel()
    x2, y2 = (m2.new_int_var(0, 5, k) for k in "xy")
    b2 = m2.new_bool_var("b")
    m2.add(x2 + y2 != 4).only_enforce_if(b2)
    exact_agrees(m2, 3 * b2 + x2 + y2)  # b and x + y = 4 cannot both hold: 3 + 5 (x + y = 5)


def test_a_solution_limit_without_a_solution_is_the_node_limit() -> None:
    """HiGHS says "Solution limit reached" at its node limit too: without a solution the answer
    says "Node limit reached", so that no note reads as if HiGHS had found one. A real first
    solution keeps HiGHS's wording."""
    assert status_name("Solution limit reached", False) == "Node limit reached"
    assert status_name("Solution limit reached", True) == "Solution limit reached"
    assert status_name("Infeasible", False) == "Infeasible"
    m = cp_model.CpModel()
    xs = [m.new_int_var(0, 5, f"x{i}") for i in range(3)]
    m.add(sum(xs) <= 7)
    found = highs_mip(m, sum(xs), 1000, 10.0, first_solution=True)
    assert found.values is not None and found.status in ("Solution limit reached", "Optimal")


def test_a_guard_stop_gives_no_hint() -> None:
    """What HiGHS found when its wall-clock guard fired depends on the machine: never hinted."""
    from solver.mip_hint import TIME_LIMIT, MipHint
    assert MipHint(TIME_LIMIT, (1, 2), 3.0, 9.9).usable is None
    assert MipHint("Node limit reached", (1, 2), 3.0, 0.5).usable == (1, 2)
    assert MipHint("Optimal", (1, 2), 3.0, 0.5).usable == (1, 2)


def test_a_count_of_highs_limit_checks_stops_it_the_same_way_on_every_run() -> None:
    """`max_checks` is a work limit, not a clock: HiGHS stopped at its n-th limit check ends in the
    same state each time (status, checks, what it found), and what it found stays usable; without
    the count the same MIP runs on to its optimum, past n checks (so the count did stop it)."""
    from solver.engine import Game
    from solver.mip_hint import WORK_LIMIT
    from solver.model import ModelOptions
    from solver.realms import get_realm
    from solver.rules import RuleSet
    from solver.solve import build
    game = Game(tuple(get_realm(k) for k in ("libertalia", "parks", "wurfelwelten")), ((3, 5), (1, 1)), RuleSet())
    rm = build(game, ModelOptions(max_total_extras=0))
    whole = highs_mip(rm.model, rm.stars, 1000, 600)
    assert whole is not None and whole.status == "Optimal" and whole.checks > 5
    runs = [highs_mip(rm.model, rm.stars, 1000, 600, max_checks=5) for _ in range(2)]
    assert runs[0] is not None and runs[1] is not None
    assert runs[0].status == WORK_LIMIT and runs[0].checks >= 5
    assert (runs[0].status, runs[0].checks, runs[0].values) == (runs[1].status, runs[1].checks, runs[1].values)
    assert runs[0].usable == runs[0].values


def test_smaller_mips_get_more_root_checks_as_the_square_of_their_size() -> None:
    """A root check costs more on a larger MIP (measured: about as the square of its nonzeros),
    so the count is scaled to keep about the same work at every size, never below one check."""
    from solver.mip_hint import root_check_limit
    assert root_check_limit(100, 50_000, 50_000) == 100
    assert root_check_limit(100, 50_000, 25_000) == 400
    assert root_check_limit(100, 50_000, 100_000) == 25
    assert root_check_limit(1, 50_000, 10_000_000) == 1


def test_hint_from_highs_follows_the_settings() -> None:
    from solver.mip_hint import hint_from_highs
    m, objective, xs = knapsack()
    assert hint_from_highs(m, objective, {"mip_hint_max_nodes": 0}, 10.0) is None  # off
    assert len(m.proto.solution_hint.vars) == 0
    assert hint_from_highs(m, objective, {"mip_hint_max_nodes": 100, "mip_hint_seconds": 60}, 10.0) == "Optimal"
    assert len(m.proto.solution_hint.vars) == len(xs)
    first = highs_mip(m, objective, 100, 60, first_solution=True)
    assert first is not None and first.values is not None  # a feasible point, not necessarily the best


def test_hint_by_name_follows_names_not_positions() -> None:
    """Two models with the same named variables in another order (and one more): each hinted
    value lands on the variable of that name, the extra one gets none."""
    from solver.mip_hint import hint_by_name
    src = cp_model.CpModel()
    a, b = src.new_int_var(0, 9, "a"), src.new_int_var(0, 9, "b")
    dst = cp_model.CpModel()
    extra = dst.new_bool_var("extra")
    b2, a2 = dst.new_int_var(0, 9, "b"), dst.new_int_var(0, 9, "a")
    hint_by_name(dst, src, (3, 7))  # a = 3, b = 7 in src's order
    hinted = dict(zip(dst.proto.solution_hint.vars, dst.proto.solution_hint.values))
    assert hinted == {a2.index: 3, b2.index: 7} and extra.index not in hinted
    del a, b


@lru_cache(maxsize=None)
def _three_turns():  # type: ignore[no-untyped-def]
    """A 3-turn round and its proven optimum among the lines without 3-pumpkin activations (the
    region `mip_line` searches), solved once, before any test patches the solver."""
    from solver.engine import Game
    from solver.model import ModelOptions
    from solver.realms import get_realm
    from solver.rules import RuleSet
    from solver.solve import solve_optimal
    game = Game(tuple(get_realm(k) for k in ("libertalia", "parks", "wurfelwelten")), ((3, 5), (1, 1), (6, 2)),
                RuleSet(compensation="choice"))
    return game, solve_optimal(game, options=ModelOptions(max_total_extras=0), prove=False, speculate=False)


def test_the_line_finders_stop_highs_by_work_not_by_the_clock(monkeypatch) -> None:
    """Stages 2e / 3e (solve.mip_line) and the campaign hint (hint_from_highs) give HiGHS the
    settings' count of root-node limit checks, and a wall-clock guard far above what that count
    takes here (so a loaded machine does not change what HiGHS finds)."""
    import solver.solve as S
    from solver import mip_hint
    from solver.model import ModelOptions
    seen: list[tuple[float, int]] = []
    scaled: list[int] = []

    def spy(model, objective, max_nodes, time_guard, **kw):  # type: ignore[no-untyped-def]
        seen.append((time_guard, kw.get("max_checks", 0)))
        scaled.append(kw.get("checks_nonzeros", 0))
        return None

    for section in ("optimal", "target"):
        params = S.load_params(section)
        assert params["line_mip_max_checks"] > 0 and params["line_mip_seconds"] >= 300
    monkeypatch.setattr(S, "highs_mip", spy)
    game, _ = _three_turns()
    assert S.mip_line(game, ModelOptions(), 1, S.load_params("optimal"), None, S.RoundResult("optimal", "unknown")) is None
    assert seen and all(checks == S.load_params("optimal")["line_mip_max_checks"] and guard >= 300 for guard, checks in seen)
    assert all(n == S.load_params("optimal")["line_mip_checks_nonzeros"] > 0 for n in scaled)  # (scaled to the MIP's size)
    seen.clear()
    scaled.clear()
    monkeypatch.setattr(mip_hint, "highs_mip", spy)
    m, objective, _ = knapsack()
    target = S.load_params("target")
    assert target["mip_hint_seconds"] >= 300
    mip_hint.hint_from_highs(m, objective, target, 5.0)
    assert seen == [(target["mip_hint_seconds"], int(5.0 * target["mip_hint_checks_per_second"]))]
    assert scaled == [target["mip_hint_checks_nonzeros"]]


def test_mip_line_finds_a_line_with_the_stars_asked_or_none() -> None:
    """Stage 2e (solve.mip_line) on a 3-turn round: asked for the proven optimum it returns a
    legal line with that many stars and no 3-pumpkin activation (the engine replays it); asked
    for one star more than the region can hold, none; switched off (0 nodes), none."""
    from solver.engine import replay
    from solver.model import ModelOptions
    from solver.solve import RoundResult, load_params, mip_line
    from solver.split import line_extras
    game, best = _three_turns()
    assert best.stars_proven and best.stars is not None and best.stars > 0
    params = {**load_params("optimal"), "line_mip_seconds": 600.0}  # (the guard is not what is tested)
    result = RoundResult("optimal", "unknown")
    line = mip_line(game, ModelOptions(), best.stars, params, None, result)
    assert line is not None and line_extras(line) == 0
    rep = replay(game, line)
    assert rep.legal and rep.stars_total >= best.stars
    assert mip_line(game, ModelOptions(), best.stars + 1, params, None, result) is None
    assert mip_line(game, ModelOptions(), best.stars, {**params, "line_mip_max_nodes": 0}, None, result) is None


def test_a_target_question_takes_its_witness_from_highs_when_cp_sat_finds_none(monkeypatch) -> None:
    """solve_target: CP-SAT's target search and the window search made to find nothing, the
    witness comes from HiGHS (solve.mip_line) and is replayed; with HiGHS off the answer stays
    unknown, never reachable without a line."""
    import solver.solve as S

    game, best = _three_turns()
    target = best.stars
    assert target
    real_cuts, real_params = S.solve_with_cuts, S.load_params

    def no_target_line(rm, solver, *args, **kwargs):  # the target's own search (weighted objective)
        if kwargs.get("scale", S.STAR_WEIGHT) == S.STAR_WEIGHT:
            return S.CutSolve("unknown", None, None, 0, 0.0)
        return real_cuts(rm, solver, *args, **kwargs)

    monkeypatch.setattr(S, "solve_with_cuts", no_target_line)
    monkeypatch.setattr(S, "witness_search", lambda *a, **k: (None, 0.0))
    monkeypatch.setattr(S, "_target_by_split", lambda *a, **k: None)
    monkeypatch.setattr(S, "load_params", lambda q: {**real_params(q), "line_mip_seconds": 600.0})
    res = S.solve_target(game, target)
    assert res.status == "reachable" and res.line is not None and res.stars is not None and res.stars >= target
    monkeypatch.setattr(S, "load_params", lambda q: {**real_params(q), "line_mip_max_nodes": 0})
    res = S.solve_target(game, target)
    assert res.status == "unknown" and res.line is None


def test_mip_line_asked_for_leftover_finds_a_line_with_that_much_or_none() -> None:
    """Stage 3e's question (solve.mip_line with `leftover`) on a 3-turn round: asked for the
    region's proven optimum (its stars and leftover) it returns a legal line with at least both;
    asked for one leftover more with those stars, none (the optimum is proven)."""
    from solver.engine import replay
    from solver.model import ModelOptions
    from solver.solve import RoundResult, load_params, mip_line
    game, best = _three_turns()
    assert best.status == "optimal" and best.stars is not None and best.leftover is not None
    params = {**load_params("optimal"), "line_mip_seconds": 600.0}
    result = RoundResult("optimal", "unknown")
    line = mip_line(game, ModelOptions(), best.stars, params, None, result, leftover=best.leftover)
    assert line is not None
    rep = replay(game, line)
    assert rep.legal and rep.stars_total >= best.stars and rep.final.resources.total() >= best.leftover
    assert mip_line(game, ModelOptions(), best.stars, params, None, result, leftover=best.leftover + 1) is None


def test_3e_raises_the_leftover_one_question_at_a_time_up_to_the_bound(monkeypatch) -> None:
    """solve.leftover_mip_lines from the greedy line: each question asks one more than the best
    line so far with the stars asked (the greedy line has fewer: any line with them) and its
    line joins the lines; it stops at the bound (here the proven optimum),
    and with no questions allowed nothing is added."""
    import solver.solve as S
    from solver.playout import greedy_line
    game, best = _three_turns()
    assert best.stars is not None and best.leftover is not None
    params = {**S.load_params("optimal"), "line_mip_seconds": 600.0, "line_mip_leftover_asks": 20}
    start = greedy_line(game)
    before = S._best_leftover(game, [start], best.stars)  # (-1: the greedy line has fewer stars)
    assert before < best.leftover  # (else nothing to ask)
    asked: list[int] = []
    real = S.mip_line

    def spy(*args, **kwargs):
        asked.append(kwargs["leftover"])
        return real(*args, **kwargs)

    result = S.RoundResult("optimal", "unknown")
    result.leftover_bound = best.leftover
    lines = [start]
    monkeypatch.setattr(S, "mip_line", spy)
    S.leftover_mip_lines(game, S.ModelOptions(), best.stars, lines, params, None, result)
    assert S._best_leftover(game, lines, best.stars) == best.leftover
    assert asked and asked == sorted(set(asked)) and asked[-1] <= best.leftover
    assert asked[0] == before + 1
    lines2 = [start]
    S.leftover_mip_lines(game, S.ModelOptions(), best.stars, lines2, {**params, "line_mip_leftover_asks": 0}, None, result)
    assert lines2 == [start]
