"""The LP relaxation bound (solver/lp_bound.py): each relaxed constraint kind, the exact
weak-duality check, and soundness against the engine (a bound below a legal line is a bug)."""
from __future__ import annotations

import dataclasses
import itertools
import random
from fractions import Fraction

from hypothesis import given, settings, strategies as st
from ortools.linear_solver import linear_solver_pb2
from ortools.sat.python import cp_model

from solver.engine import Game, replay
from solver.lp_bound import INF, HighsRelaxation, LpRelaxation, Row, lp_upper_bound, readable_proto, safe_bound
from solver.model import ModelOptions, RoundModel
from solver.hull import upper_hull
from solver.playout import random_line
from solver.realms import get_realm, solvable_keys
from solver.realms.base import Use
from solver.line import Source
from solver.rules import RuleSet
from solver.solve import leftover_lp_params, lp_options, relaxation_of, solve_target
from solver.split import extras_terms

from conftest import make_game

ALL = sorted(solvable_keys())


def bound_of(m: cp_model.CpModel, objective) -> int:  # type: ignore[no-untyped-def]
    b = lp_upper_bound(m, objective)
    assert b is not None
    return b.integer_bound


def test_an_implication_is_kept() -> None:
    m = cp_model.CpModel()
    x, y = m.new_bool_var("x"), m.new_bool_var("y")
    m.add_implication(x, y)  # x - y <= 0; without the row the LP would reach 1
    assert bound_of(m, x - y) == 0


def test_a_clause_is_kept() -> None:
    m = cp_model.CpModel()
    x, y = m.new_bool_var("x"), m.new_bool_var("y")
    m.add_bool_or([x, ~y])
    assert bound_of(m, y - x) == 0


def test_an_enforced_linear_row_is_relaxed_with_big_m() -> None:
    m = cp_model.CpModel()
    b, x = m.new_bool_var("b"), m.new_int_var(0, 5, "x")
    m.add(x <= 1).only_enforce_if(b)
    # integer max of x + 5b is 6 (b = 1, x = 1); the big-M row x <= 1 + 4(1 - b) gives 6 too;
    # dropping it would give 10
    assert bound_of(m, x + 5 * b) == 6


def test_a_capped_count_is_bounded_by_what_it_caps() -> None:
    m = cp_model.CpModel()
    raw, capped = m.new_int_var(0, 10, "raw"), m.new_int_var(0, 6, "capped")
    m.add_min_equality(capped, [raw, m.new_constant(6)])
    m.add(raw <= 3)
    assert bound_of(m, capped) == 3


def test_an_unknown_constraint_kind_gives_no_bound() -> None:
    m = cp_model.CpModel()
    xs = [m.new_int_var(0, 3, f"x{i}") for i in range(3)]
    m.add_all_different(xs)
    assert lp_upper_bound(m, sum(xs)) is None


def test_the_readable_proto_is_the_model_s_proto() -> None:
    """`readable_proto` (the proto read back from its binary form, for a fast relaxation) holds
    every variable and constraint of the model as CP-SAT sees it."""
    rm = RoundModel(make_game(("parks", "libertalia", "wurfelwelten"), [(1, 2), (3, 5)]))
    proto, pb = rm.model.proto, readable_proto(rm.model)
    assert [(v.name, list(v.domain)) for v in proto.variables] == [(v.name, list(v.domain)) for v in pb.variables]
    assert [c.name for c in proto.constraints] == [c.name for c in pb.constraints]
    assert [list(c.enforcement_literal) for c in proto.constraints] == [list(c.enforcement_literal) for c in pb.constraints]


def test_glop_is_given_every_row_column_and_objective_coefficient() -> None:
    """The relaxation loaded into GLOP as one proto (`mp_model`) is the relaxation: each row's
    sides and coefficients, each column's box and objective coefficient."""
    rm = RoundModel(make_game(("parks", "ark-nova", "feast-for-odin"), [(1, 2), (3, 5)]))
    rel = LpRelaxation(rm.model, rm.stars)
    held = linear_solver_pb2.MPModelProto()
    rel.solver.ExportModelToProto(held)  # what GLOP's solver holds
    assert held.maximize
    assert [(x.lower_bound, x.upper_bound, x.objective_coefficient) for x in held.variable] == \
        [(a, b, float(rel.c.get(i, 0))) for i, (a, b) in enumerate(zip(rel.lo, rel.hi))]
    assert [(ct.lower_bound, ct.upper_bound, dict(zip(ct.var_index, ct.coefficient))) for ct in held.constraint] == \
        [(row.lo, row.hi, {v: float(a) for v, a in row.coeffs.items()}) for row in rel.rows]


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_weak_duality_holds_for_any_multipliers(data) -> None:  # type: ignore[no-untyped-def]
    """The checked bound is valid whatever the row multipliers are: never below the best
    integer point of a small box (brute force)."""
    n = data.draw(st.integers(1, 3))
    lo = [0] * n
    hi = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    rows = []
    for _ in range(data.draw(st.integers(1, 3))):
        coeffs = {v: data.draw(st.integers(-3, 3)) for v in range(n)}
        a = data.draw(st.integers(-4, 4))
        rows.append(Row(coeffs, a - data.draw(st.integers(0, 4)) if data.draw(st.booleans()) else -float("inf"), a))
    c = {v: Fraction(data.draw(st.integers(-3, 3)), data.draw(st.integers(1, 4))) for v in range(n)}
    feasible = [x for x in itertools.product(*(range(lo[v], hi[v] + 1) for v in range(n)))
                if all(r.lo <= sum(k * x[v] for v, k in r.coeffs.items()) <= r.hi for r in rows)]
    if not feasible:
        return
    best = max(sum(k * x[v] for v, k in c.items()) for x in feasible)
    y = data.draw(st.lists(st.floats(-5, 5, allow_nan=False), min_size=len(rows), max_size=len(rows)))
    const = Fraction(data.draw(st.integers(-2, 2)), 3)
    bound = safe_bound(lo, hi, rows, c, const, y)
    assert bound >= best + const


@settings(max_examples=12, deadline=None)
@given(keys=st.permutations(ALL).map(lambda p: p[:3]),
       rolls=st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6)), min_size=1, max_size=3),
       seed=st.integers(0, 10**6))
def test_the_bound_holds_on_random_legal_lines(keys, rolls, seed) -> None:  # type: ignore[no-untyped-def]
    """A random legal line: its stars are below the round's LP bound, and with the line fixed in
    the LP's model (solve.lp_options: compensation's condition dropped, the LP-only rows in;
    tricks off: they keep one optimal line, not every line) the LP stays feasible."""
    game = make_game(keys, rolls)
    line = random_line(game, random.Random(seed), max_actions=5, stop=0.1)
    stars = replay(game, line).stars_total
    rm = RoundModel(game, lp_options(ModelOptions(tricks=False)))
    free = lp_upper_bound(rm.model, rm.stars)
    assert free is not None and free.bound >= stars
    rm.fix_line(line)
    fixed = lp_upper_bound(rm.model, rm.stars)
    assert fixed is not None, "the LP relaxation rejects a legal line"
    assert fixed.bound >= stars


@settings(max_examples=10, deadline=None)
@given(keys=st.permutations(ALL).map(lambda p: p[:3]),
       rolls=st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6)), min_size=1, max_size=3))
def test_pumpkins_by_thresholds_give_the_pairs_lp_optimum(keys, rolls) -> None:  # type: ignore[no-untyped-def]
    """The LP's model states an event's pumpkin changes as 2 x the distance between its base
    values and its values (`ModelOptions.pumpkins_by_thresholds`): the cheapest fractional
    transport on a line costs exactly that, so the LP optimum of stars and of leftover is the one
    of the literal per (base value, value) pair."""
    game = make_game(keys, rolls)
    for objective in ("stars", "leftover"):
        values = []
        for by_thresholds in (False, True):
            options = dataclasses.replace(lp_options(ModelOptions()), pumpkins_by_thresholds=by_thresholds)
            rm = RoundModel(game, options)
            b = lp_upper_bound(rm.model, getattr(rm, objective))
            assert b is not None
            values.append(b.lp_value)
        assert abs(values[0] - values[1]) < 1e-6, (objective, values)


def test_pumpkins_by_thresholds_cost_two_per_step_and_three_for_the_power() -> None:
    """One event alone: a rolled 1..6 changed to a value costs 2 pumpkins per step (the least the
    model and its LP allow), 3 for a +-1 with the 3-pumpkin power; the same as the pairs' model."""
    for die in range(1, 7):
        game = make_game(("wurfelwelten", "parks", "libertalia"), [(die, die % 6 + 1)])
        for value in range(1, 7):
            for extra in ((False, True) if abs(value - die) == 1 else (False,)):
                want = 3 if extra else 2 * abs(value - die)
                for by_thresholds in (False, True):
                    rm = RoundModel(game, ModelOptions(pumpkins_by_thresholds=by_thresholds))
                    m = rm.model = cp_model.CpModel()  # one event alone: no realm, no resources
                    e = rm._event(0, 0, 0, 0)
                    m.add(e.use[Source("die", 0)] == 1)
                    m.add(e.val[value] == 1)
                    m.add(e.extra == int(extra))
                    solver = cp_model.CpSolver()
                    solver.parameters.num_workers = 1
                    least = lp_upper_bound(m, -e.pumpkins)
                    m.minimize(e.pumpkins)
                    assert solver.solve(m) == cp_model.OPTIMAL
                    assert round(solver.objective_value) == want, (die, value, extra, by_thresholds)
                    assert least is not None and abs(-least.lp_value - want) < 1e-6, (die, value, extra, by_thresholds)


def _one_turn_game() -> Game:
    # the LP bound of this round is 1.907 (measured): a 2-star target is decided by the LP
    return make_game(("charterstone", "between-two-castles", "wurfelwelten"), [(4, 4)])


def test_a_target_above_the_lp_bound_is_unreachable_by_the_lp() -> None:
    res = solve_target(_one_turn_game(), 2)
    assert res.status == "unreachable"
    assert res.proof is not None and res.proof["method"] == "lp-relaxation"
    assert res.proof["integer_bound"] == 1 and res.star_bound == 1


def test_a_target_within_the_lp_bound_is_still_asked_of_cp_sat() -> None:
    game = _one_turn_game()
    res = solve_target(game, 1)
    assert res.status == "reachable" and res.line is not None
    assert replay(game, res.line).stars_total >= 1


def test_an_optimum_proven_by_the_lp_bound_alone() -> None:
    """With no CP-SAT time at all, the LP bound (1.907 -> 1) meets the best line: optimal, and the
    certificate proof is the LP's; the optimum is the exhaustive one and the certificate verifies."""
    from solver.certificate import make_certificate, parse_certificate, verify_certificate
    from solver.playout import exhaustive_best
    from solver.solve import solve_optimal

    game = _one_turn_game()
    res = solve_optimal(game, 0.0)
    assert res.status == "optimal" and res.line is not None
    assert replay(game, res.line).score_tenths == exhaustive_best(game)[0]  # stars and leftover, in tenths
    assert res.proof is not None and res.proof["method"] == "lp-relaxation"
    ver = verify_certificate(parse_certificate(make_certificate(game, res)), 0.0)
    assert ver.status == "verified", [c.detail for c in ver.checks]


def test_an_lp_bound_above_the_best_line_proves_nothing() -> None:
    """LP bound 4.84 on this round (9.39 before Ark Nova's crossed <= outlined row), above the
    line found with no CP-SAT time: the answer is unknown, and the bound shown is the LP's."""
    from solver.solve import solve_optimal

    game = make_game(("scythe", "tapestry", "ark-nova"), [(5, 4), (4, 3)])
    res = solve_optimal(game, 0.0)
    assert res.status == "unknown" and not res.stars_proven
    assert res.star_bound == 4 and (res.stars or 0) < 4


def test_stars_proven_by_the_lp_but_not_leftover_stay_unknown() -> None:
    """Stars meet the LP bound (4), the leftover does not meet its bound (1) with no CP-SAT
    time: the stars are proven, the answer is still unknown (the tie-break is part of optimal)."""
    from solver.solve import solve_optimal

    res = solve_optimal(make_game(("libertalia", "parks", "azul"), [(4, 2), (1, 1)]), 0.0)
    assert res.stars_proven and res.stars == 4 and res.star_bound == 4
    assert res.leftover is not None and res.leftover_bound is not None and res.leftover < res.leftover_bound
    assert res.status == "unknown" and res.proof is None
    from solver.report import round_report

    obj = round_report(make_game(("libertalia", "parks", "azul"), [(4, 2), (1, 1)]), res)
    assert obj["status"] == "unknown" and obj["stars_proven"] is True and obj["bound"] == 4
    assert obj["leftover_bound"] == res.leftover_bound and obj["leftover"] < obj["leftover_bound"]


def test_ark_nova_crosses_no_more_circles_than_outlined_in_the_lp() -> None:
    """Ark Nova's redundant row (crossed so far <= outlined so far): on this 3-turn round (optimum
    4) the LP bound is 6.87 with it and 12.11 without (measured)."""
    game = make_game(("ark-nova", "parks", "wurfelwelten"), [(4, 4), (1, 3), (5, 4)])
    rm = RoundModel(game)
    assert bound_of(rm.model, rm.stars) <= 7


def test_ark_nova_gains_circle_by_circle_in_the_lp() -> None:
    """Ark Nova's circle-by-circle rows (each outlined circle crossed by at most one later #, a #
    gaining at most its share of each): Ark Nova's own stars on this 3-turn round are at most 1
    (the CP-SAT optimum); the LP says 1.67 with the rows and 2.0 without (a # a quarter in column
    4 gained a whole star through the big-M of "no gain unless the column is taken")."""
    game = make_game(("ark-nova", "parks", "libertalia"), [(5, 1), (4, 3), (1, 1)])
    rm = RoundModel(game, lp_options(ModelOptions()))
    assert bound_of(rm.model, rm.realm_stars[0]) == 1


@given(st.lists(st.integers(0, 9), min_size=1, max_size=12))
def test_the_upper_hull_lies_above_every_point(ys) -> None:  # type: ignore[no-untyped-def]
    """Each hull segment's line is a valid row: no point above it (exact integer arithmetic)."""
    pts = list(enumerate(ys))
    hull = upper_hull(ys)
    segs = list(zip(hull, hull[1:]))
    assert segs or len(pts) == 1
    for (k1, s1), (k2, s2) in segs:
        assert k2 > k1
        for k, y in pts:
            assert (k2 - k1) * y <= (s2 - s1) * (k - k1) + s1 * (k2 - k1)
    # and the hull touches its end points (a row through them, no slack where it matters)
    assert segs == [] or (segs[0][0] == pts[0] and segs[-1][1] == pts[-1])


def _most_stars_found(key: str, most_k: int) -> list[int]:
    """The most stars an exhaustive engine search finds with 0..most_k #s of any value in one
    realm (every choice; costs ignored: a relaxation of what a round allows)."""
    realm, rules = get_realm(key), RuleSet()
    states = {realm.initial(rules)}
    found = [0]
    for k in range(1, most_k + 1):
        nxt = set(states)  # a realm may also get fewer #s
        for state in states:
            for v in range(1, 7):
                for _, eff in realm.options(state, Use(v, Source("die", 0), (v, v), k - 1), rules):
                    nxt.add(eff.state)
        states = nxt
        found.append(max(realm.stars(state, rules) for state in states))
    return found


def test_pendulum_s_stars_for_k_numbers_agree_with_the_engine() -> None:
    """Pendulum's card-derived bound (most stars k #s can give) is what an exhaustive engine
    search over every value and choice finds (Pendulum has no costs)."""
    realm = get_realm("pendulum")
    assert list(realm.most_stars_by_count) == _most_stars_found("pendulum", realm.max_events(0, RuleSet()))


def test_pendulum_s_count_bound_tightens_the_lp() -> None:
    """The hull rows of Pendulum's stars for its #s (`lp_rows`; Parks and Libertalia have none):
    with at most 3 #s in Pendulum over this 5-turn round, the LP of Pendulum's own stars is 2.4
    with them (5 x stars <= 4 x #s) and 3.0 without (measured). (On a 2-turn round they lowered
    it 5.59 -> 4.35 before Pendulum's marks and pays rows, which now give 2.80 alone.)"""
    game = make_game(("pendulum", "parks", "libertalia"), [(6, 5), (4, 3), (2, 1), (6, 4), (5, 3)])
    for rows, most in ((True, 2.4), (False, 3.0)):
        rm = RoundModel(game, dataclasses.replace(lp_options(ModelOptions()), lp_rows=rows))
        relaxation = LpRelaxation(rm.model, rm.realm_stars[0])
        relaxation.add_row({e.active.index: 1 for e in rm.encoders[0].events}, -INF, 3)
        assert abs(relaxation.solve().lp_value - most) < 1e-6


def test_pendulum_s_marks_and_pays_rows_tighten_the_lp() -> None:
    """Pendulum's two LP rows in every model: a mark marks exactly its own number, and a space
    pays at most once per hourglass and only as far as it is outlined. On this 2-turn round the
    LP of Pendulum's own stars (without the count rows) is 2.80 with both, 3.72 with the marks'
    row alone, 4.85 with the pays' row alone and 5.59 with neither (measured): the bound is 2."""
    game = make_game(("pendulum", "parks", "libertalia"), [(5, 4), (4, 5)])
    plain = RoundModel(game, ModelOptions(free_compensation=True))
    assert bound_of(plain.model, plain.realm_stars[0]) == 2


def test_scythe_s_value_row_keeps_a_fractional_value_to_one_cell() -> None:
    """Scythe's LP row (the LP bounds' model only, `lp_rows`): the cells showing v are marked
    val[v] times in all. Without it the LP marks both cells showing 5 (top and bottom) with half
    a 5 each, so their marks exceed the 5's share by 0.5 (measured); with it by nothing."""
    game = make_game(("scythe", "libertalia", "wurfelwelten"), [(5, 2)])
    scythe = get_realm("scythe")
    top, bottom = scythe.top.index(5) + 1, scythe.bottom.index(5) + 1
    for rows, most in ((True, 0.0), (False, 0.5)):
        rm = RoundModel(game, dataclasses.replace(lp_options(ModelOptions()), lp_rows=rows))
        named = {v.name: i for i, v in enumerate(rm.model.proto.variables)}
        var = lambda name: rm.model.get_int_var_from_proto_index(named[name])  # noqa: E731
        excess = (var(f"scythe.mark[t1,scythe#1,top,column{top}]") + var(f"scythe.mark[t1,scythe#1,bottom,column{bottom}]")
                  - var("value[t1,scythe#1]=5"))
        assert abs(lp_upper_bound(rm.model, excess).lp_value - most) < 1e-6


def test_feast_for_odin_s_stars_for_k_numbers_agree_with_the_engine() -> None:
    """Feast for Odin's card-derived bound (a piece covers at most one star square, an island
    needs 3 pieces: k #s, at most k stars) is what the engine finds for up to 2 #s. (For 3 #s it
    finds 3 as well, measured once: 569k sheets, 110 s, too long to run here.)"""
    most = get_realm("feast-for-odin").most_stars_by_count
    assert most[:7] == (0, 1, 2, 3, 4, 5, 6)
    assert list(most[:3]) == _most_stars_found("feast-for-odin", 2)


def test_feast_for_odin_s_count_bound_tightens_the_lp() -> None:
    """On this 2-turn round the LP of Feast for Odin's own stars is 3.70 with the count rows and
    4.59 without (measured): the bound drops from 4 to 3."""
    game = make_game(("feast-for-odin", "parks", "libertalia"), [(5, 1), (6, 4)])
    rm = RoundModel(game, lp_options(ModelOptions()))
    assert bound_of(rm.model, rm.realm_stars[0]) == 3
    plain = RoundModel(game, ModelOptions(free_compensation=True))  # the same LP model without them
    assert bound_of(plain.model, plain.realm_stars[0]) == 4


def test_an_lp_taken_after_cuts_is_still_the_certificate_s_proof(monkeypatch) -> None:
    """Stage 2 ended with cuts in its model (faked here: CP-SAT's star search reports one cut
    and no answer): the LP bound is asked of a fresh model anyway (`lp_model`), so it is the
    certificate's proof and `solve verify`, which re-computes it, agrees."""
    import solver.solve as S
    from solver.certificate import make_certificate, parse_certificate, verify_certificate

    game = _one_turn_game()
    real = S.solve_with_cuts

    def one_cut(rm, solver, *args, **kwargs):
        if kwargs.get("scale") == 1:
            solver.parameters.max_deterministic_time = 0.0001
            solver.solve(rm.model)  # (so the solver has a response to read times from)
            return S.CutSolve("unknown", None, None, 1, solver.deterministic_time)
        return real(rm, solver, *args, **kwargs)

    monkeypatch.setattr(S, "solve_with_cuts", one_cut)
    res = S.solve_optimal(game, 5.0)
    assert res.status == "optimal" and res.cuts == 1 and res.stars == 1
    assert res.proof is not None and res.proof["method"] == "lp-relaxation"
    ver = verify_certificate(parse_certificate(make_certificate(game, res)), 0.0)
    assert ver.status == "verified", [c.detail for c in ver.checks]


def test_the_lp_s_model_drops_only_compensation_s_condition() -> None:
    """`free_compensation` (the LP's model, solve.lp_options): a compensation the rules forbid (the
    rolled 3 fits Libertalia) is rejected by the engine and by the round model, accepted by the
    LP's model, whose LP bound then still holds for it."""
    from solver.line import parse_line_text
    from solver.solve import lp_options

    game = make_game(("libertalia", "parks", "wurfelwelten"), [(3, 4)])
    line = parse_line_text("turn 1 roll 3 4\n  compensate die1 P\n")
    assert not replay(game, line).legal
    rules_model = RoundModel(game, ModelOptions(tricks=False))
    lp_model = RoundModel(game, lp_options(ModelOptions(tricks=False)))
    for rm, accepts in ((rules_model, False), (lp_model, True)):
        try:
            rm.fix_line(line)
        except ValueError:
            assert not accepts
            continue
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        assert (solver.solve(rm.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)) == accepts
    assert len(lp_model.model.proto.constraints) < len(rules_model.model.proto.constraints)


def test_every_lp_is_asked_of_the_lp_s_model_and_every_line_of_the_rules_model(monkeypatch) -> None:
    """The LP bounds of solve_optimal (both orders), solve_target and the certificate proof are
    asked of models built with `free_compensation`; CP-SAT's lines never are (solve_with_cuts
    asserts it)."""
    import solver.solve as S

    built: dict[int, bool] = {}
    asked: list[bool] = []
    real_build, real_lp, real_rel = S.build, S.lp_bound_of, S.relaxation_of

    def build(game, options=ModelOptions()):
        rm = real_build(game, options)
        built[id(rm.model)] = options.free_compensation
        return rm

    def lp(model, objective, params):
        asked.append(built[id(model)])
        return real_lp(model, objective, params)

    def rel(model, objective, params):
        asked.append(built[id(model)])
        return real_rel(model, objective, params)

    monkeypatch.setattr(S, "build", build)
    monkeypatch.setattr(S, "lp_bound_of", lp)
    monkeypatch.setattr(S, "relaxation_of", rel)
    game = _one_turn_game()
    assert S.solve_optimal(game, 0.0).status == "optimal"  # the LP proves it (above)
    assert S.solve_target(game, 2).status == "unreachable"
    small = make_game(("libertalia", "parks", "wurfelwelten"), [(1, 1), (1, 3), (2, 6)])
    real_params = S.load_params
    monkeypatch.setattr(S, "load_params", lambda q: {**real_params(q), "lp_first_turns": 1})  # LP first
    assert S.solve_optimal(small, 30).status == "optimal"
    assert S.prove_no_more(small, 5, lp_first=True, split_first=True)["status"] == "INFEASIBLE"
    assert len(asked) >= 5 and all(asked), asked


def _leftover_lp_model(keys, rolls):  # type: ignore[no-untyped-def]
    rm = RoundModel(make_game(keys, rolls), lp_options(ModelOptions()))
    rm.model.add(rm.stars >= 1)
    return rm


@settings(max_examples=6, deadline=None)
@given(keys=st.permutations(ALL).map(lambda p: p[:3]),
       rolls=st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6)), min_size=2, max_size=3))
def test_highs_gives_glop_s_bounds_cold_and_warm(keys, rolls) -> None:  # type: ignore[no-untyped-def]
    """The leftover LP in HiGHS (lp_bound.HighsRelaxation) and in GLOP: the same optimum and
    integer bound, also after a row is added and after its sides move (HiGHS re-solves warm;
    without presolve, as round.toml asks)."""
    rm = _leftover_lp_model(keys, rolls)
    glop, highs = LpRelaxation(rm.model, rm.leftover), HighsRelaxation(rm.model, rm.leftover, 100000, presolve=False)
    extras = extras_terms(rm)
    for step in range(3):
        if step == 1:
            rows = (glop.add_row(extras, 1, INF), highs.add_row(extras, 1, INF))
            assert rows[0] == rows[1]
        if step == 2:
            glop.set_bounds(rows[0], 0, 0)
            highs.set_bounds(rows[1], 0, 0)
        g, h = glop.solve(), highs.solve()
        # HiGHS answers wherever GLOP does (GLOP sometimes stops without an optimum on a warm
        # re-solve, e.g. Between Two Cities + Euphoria + Viticulture on (1, 1), (1, 1) with the
        # row added: nothing is claimed then)
        assert h is not None or g is None
        if g is not None and h is not None:
            assert abs(g.lp_value - h.lp_value) < 1e-6
            assert g.integer_bound == h.integer_bound
            assert h.bound >= Fraction(h.lp_value) - Fraction(1, 10**6)


def test_highs_stopped_by_its_iteration_limit_claims_nothing() -> None:
    rm = _leftover_lp_model(("parks", "libertalia", "wurfelwelten"), [(1, 2), (3, 5), (6, 6)])
    assert HighsRelaxation(rm.model, rm.leftover, 1).solve() is None
    first = HighsRelaxation(rm.model, rm.leftover, 100000).solve()
    assert first is not None
    # the limit counts one solve's iterations: a warm re-solve after a solve that used nearly all
    # of them still gets its own (round.toml documents it so)
    rel = HighsRelaxation(rm.model, rm.leftover, first.iterations + 1)
    assert rel.solve() is not None
    rel.add_row(extras_terms(rm), 1, INF)
    again = rel.solve()
    assert again is not None and again.iterations > 1


def test_the_leftover_lp_asks_highs_when_the_parameters_say_so() -> None:
    rm = _leftover_lp_model(("parks", "libertalia", "wurfelwelten"), [(1, 2)])
    params = {"lp_deterministic_time": 8.0, "leftover_lp_deterministic_time": 30.0}
    assert type(relaxation_of(rm.model, rm.leftover, leftover_lp_params(params))) is LpRelaxation
    highs = leftover_lp_params({**params, "leftover_lp_solver": "highs", "leftover_lp_iterations": 7})
    assert highs["lp_deterministic_time"] == 30.0 and highs["lp_iterations"] == 7
    made = relaxation_of(rm.model, rm.leftover, highs)
    assert isinstance(made, HighsRelaxation) and made.highs.getOptionValue("presolve")[1] == "on"
    off = leftover_lp_params({**params, "leftover_lp_solver": "highs", "leftover_lp_iterations": 7,
                              "leftover_lp_presolve": False})
    made = relaxation_of(rm.model, rm.leftover, off)
    assert isinstance(made, HighsRelaxation) and made.highs.getOptionValue("presolve")[1] == "off"
    assert type(relaxation_of(rm.model, rm.stars, params)) is LpRelaxation  # the star LP stays GLOP's
