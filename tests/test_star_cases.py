"""The proof by cases on how stars are shared among the realms (solver/star_cases.py)."""
from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from solver.engine import replay
from solver.model import ModelOptions, RoundModel
from solver.playout import random_line
from solver.solve import RoundResult, _case_solver, load_params, lp_model, relaxation_of, solve_optimal
from solver.star_cases import case_lp_bounds, refute_by_cases, star_cases

from conftest import make_game


@settings(max_examples=200, deadline=None)
@given(caps=st.lists(st.integers(0, 6), min_size=1, max_size=4), data=st.data())
def test_every_star_vector_with_enough_stars_is_in_a_case(caps, data) -> None:
    """Each case sums to the total within the caps, no case twice, and every vector of realm
    stars (within the caps) with at least the total meets some case in every realm."""
    total = data.draw(st.integers(0, sum(caps) + 1))
    cases = star_cases(caps, total)
    assert len(set(cases)) == len(cases)
    assert all(sum(c) == total and all(0 <= x <= cap for x, cap in zip(c, caps)) for c in cases)
    stars = tuple(data.draw(st.integers(0, cap)) for cap in caps)
    covered = any(all(s >= c for s, c in zip(stars, case)) for case in cases)
    assert covered == (sum(stars) >= total)


def test_the_cases_of_one_star_more_than_three_full_realms_are_none() -> None:
    assert star_cases([6, 6, 6], 19) == [] and star_cases([6, 6, 6], 18) == [(6, 6, 6)]
    assert star_cases([6, 6, 6], 17) == [(6, 6, 5), (6, 5, 6), (5, 6, 6)]


ROUNDS = [
    (("libertalia", "parks", "wurfelwelten"), [(1, 1), (1, 3), (2, 6)]),
    (("ark-nova", "parks", "wurfelwelten"), [(3, 4), (6, 6)]),
    (("feast-for-odin", "libertalia", "parks"), [(2, 5), (4, 4)]),
]


def test_the_cases_refute_one_star_more_than_the_optimum_and_not_the_optimum() -> None:
    """On short rounds with a proven optimum S: "S + 1 stars" is INFEASIBLE case by case (each
    case by the LP check or CP-SAT, as solve_optimal asks them), and "S stars" is not (a case
    finds a line the engine scores at S or more). (Feast for Odin's round left out: about 20 s more.)"""
    params = load_params("optimal")
    for keys, rolls in ROUNDS[:2]:
        game = make_game(keys, rolls)
        truth = solve_optimal(game, 30, prove=False)
        assert truth.status == "optimal"
        result, lines = RoundResult("optimal", "unknown", params={}), []
        solve_case = _case_solver(params, 30, None, result, lines)
        check = case_lp_bounds(lp_model(game, ModelOptions()), lambda m, o: relaxation_of(m, o, params))
        proof, found = refute_by_cases(game, lambda: RoundModel(game, ModelOptions()), truth.stars, solve_case, check)
        assert proof["status"] == "INFEASIBLE" and found is None
        assert len(proof["cases"]) == len(star_cases([6] * 3, truth.stars + 1))
        if truth.stars == 0:
            continue
        proof, found = refute_by_cases(game, lambda: RoundModel(game, ModelOptions()), truth.stars - 1, solve_case, check)
        assert proof["status"] == "FEASIBLE" and found is not None
        assert replay(game, found).legal and replay(game, found).stars_total >= truth.stars


def test_a_case_keeps_every_legal_line_that_meets_it() -> None:
    """A random legal line's stars, as a case ("at least that many in every realm"), is never
    INFEASIBLE: the case rows cut off no line that meets them."""
    rng = random.Random(3)
    params = load_params("optimal")
    for keys, rolls in ROUNDS:
        game = make_game(keys, rolls)
        line = random_line(game, rng)
        rep = replay(game, line)
        per_realm = [min(s, game.rules.star_cap) for s in rep.stars]
        rm = RoundModel(game, ModelOptions())
        for r, at_least in enumerate(per_realm):
            rm.model.add(rm.realm_stars[r] >= at_least)
        answer = _case_solver(params, 30, None, RoundResult("optimal", "unknown", params={}), [])(rm)
        assert answer.status == "line" and replay(game, answer.line).stars_total >= rep.stars_total


def test_the_case_lp_keeps_every_legal_line_and_refutes_cases_out_of_reach() -> None:
    """The cases' LP check (`case_lp_bounds`): a random legal line's own stars, as a case, are
    never refuted (its checked bound is at least the case's total); three full realms after two
    turns are (no line makes 18 stars in two turns)."""
    rng = random.Random(5)
    params = load_params("optimal")
    for keys, rolls in ROUNDS:
        game = make_game(keys, rolls)
        check = case_lp_bounds(lp_model(game, ModelOptions()), lambda m, o: relaxation_of(m, o, params))
        for _ in range(3):
            rep = replay(game, random_line(game, rng))
            case = tuple(min(s, game.rules.star_cap) for s in rep.stars)
            bound = check(case)
            assert bound is not None and bound.integer_bound >= sum(case)
        full = check((6, 6, 6))
        assert full is not None and full.integer_bound < 18
