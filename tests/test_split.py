"""The proof by cases on 3-pumpkin activations (solver/split.py): every line lies in exactly one
region, each region's bound holds for its lines, and a proof by the split verifies."""
from __future__ import annotations

import copy
import random
import threading
from functools import lru_cache
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st
from ortools.sat.python import cp_model

from solver.engine import replay
from solver.lp_bound import LpBound
from solver.model import ModelOptions, RoundModel
from solver.playout import random_line
from solver.solve import lp_bound_of, prove_no_more
from solver.split import ExtrasSplit, extras_terms, line_extras
from solver.star_cases import star_cases

from conftest import make_game

#: three turns whose optimum (5 stars) CP-SAT proves on the whole model; the split proves it too
SMALL = make_game(("libertalia", "parks", "wurfelwelten"), [(1, 1), (1, 3), (2, 6)])
#: the model without compensation's costly rows (ModelOptions.costly_compensation), for a test
#: that pins the solver's path as it was measured
LOOSE = ModelOptions(costly_compensation=False)


@lru_cache(maxsize=None)
def _small_truth():
    """SMALL's proven optimum (several tests compare with it; solved once, before any patching)."""
    from solver.solve import solve_optimal

    return solve_optimal(SMALL, 30, prove=False)


#: five turns with low rolls: random lines often afford a 3-pumpkin activation (measured: 1 in 3)
ROUND = make_game(("ark-nova", "libertalia", "wurfelwelten"), [(1, 1), (1, 2), (1, 1), (3, 5), (2, 6)])
NO_TRICKS = ModelOptions(tricks=False)  # tricks keep one optimal line, not every line


def _feasible(rm: RoundModel) -> bool:
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    return solver.solve(rm.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)


def _extras_range(line) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """The least and most `total_extras` of the model with the line fixed."""
    out = []
    for sense in (1, -1):
        rm = RoundModel(ROUND, NO_TRICKS)
        rm.fix_line(line)
        rm.model.maximize(sense * rm.total_extras())
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        assert solver.solve(rm.model) == cp_model.OPTIMAL
        out.append(sense * int(solver.objective_value))
    return out[1], out[0]


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_a_line_is_in_exactly_one_region(seed: int) -> None:
    """The model counts a line's 3-pumpkin activations exactly; the region of at most that many
    accepts the line, the region of one fewer rejects it."""
    line = random_line(ROUND, random.Random(seed), max_actions=6, stop=0.05)
    e = line_extras(line)
    assert _extras_range(line) == (e, e)
    inside = RoundModel(ROUND, ModelOptions(tricks=False, max_total_extras=e))
    inside.fix_line(line)
    assert _feasible(inside)
    if e >= 1:
        outside = RoundModel(ROUND, ModelOptions(tricks=False, max_total_extras=e - 1))
        try:
            outside.fix_line(line)
        except ValueError:
            return  # a realm's activations of a turn do not even fit the region's events
        assert not _feasible(outside)


def test_the_region_counts_over_the_whole_round_not_per_turn() -> None:
    """A line with one 3-pumpkin activation in each of two turns: every turn fits a region of
    "at most 1", the round does not."""
    line = random_line(ROUND, random.Random(308), max_actions=6, stop=0.05)  # found by search
    turns = [t for t, turn in enumerate(line.turns) if any(getattr(a, "extra", False) for a in turn.actions)]
    assert line_extras(line) == 2 and len(set(turns)) == 2
    one = RoundModel(ROUND, ModelOptions(tricks=False, max_total_extras=1))
    one.fix_line(line)
    assert not _feasible(one)


def test_random_lines_include_3_pumpkin_activations() -> None:
    """The property above is not vacuous: some of its lines have 1 and 2 of them."""
    counts = {line_extras(random_line(ROUND, random.Random(s), max_actions=6, stop=0.05)) for s in range(160)}
    assert {0, 1, 2} <= counts


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_the_lp_of_lines_with_at_least_k_holds_on_them(seed: int) -> None:
    line = random_line(ROUND, random.Random(seed), max_actions=6, stop=0.05)
    e = line_extras(line)
    stars = replay(ROUND, line).stars_total
    split = ExtrasSplit(ROUND, NO_TRICKS, lambda m, o: lp_bound_of(m, o, {"lp_deterministic_time": 20}))
    for k in range(1, e + 1):
        lp = split.lp(k)
        assert lp is not None and lp.bound >= stars


def test_the_warm_relaxation_gives_the_bounds_of_fresh_lps() -> None:
    """The kept relaxation, its "at least k" row tightened k by k (and loosened again), bounds
    exactly as an LP built from scratch for each k."""
    from solver.solve import extras_split, lp_options

    params = {"lp_deterministic_time": 20, "split_max_extras": 3}
    base = RoundModel(ROUND, lp_options(NO_TRICKS))  # the LP's model the question built: reused, not changed
    rows = len(base.model.proto.constraints)
    warm = extras_split(ROUND, NO_TRICKS, params, base=base)
    cold = ExtrasSplit(ROUND, NO_TRICKS, lambda m, o: lp_bound_of(m, o, params), lp_model_options=lp_options(NO_TRICKS))
    assert warm.relaxation_of is not None and cold.relaxation_of is None
    bounds = []
    for k in (1, 2, 3, 1):
        warm.lps.pop(k, None)  # ask again (k = 1 after 3: the row loosened)
        w, c = warm.lp(k), cold.lp(k)
        assert w is not None and c is not None
        assert abs(w.lp_value - c.lp_value) < 1e-6 and w.integer_bound == c.integer_bound
        bounds.append(w.integer_bound)
    assert bounds[0] > bounds[2]  # the row does bind (otherwise this test proves nothing)
    assert len(base.model.proto.constraints) == rows


def test_the_split_re_solves_the_star_lp_s_own_relaxation() -> None:
    """Given the star LP's relaxation (solve.star_lp), the split adds its row there and builds no
    relaxation of its own, with the bounds of fresh LPs; the star LP itself is the fresh one's."""
    from solver.solve import extras_split, lp_options, star_lp

    params = {"lp_deterministic_time": 20, "split_max_extras": 3}
    base = RoundModel(ROUND, lp_options(NO_TRICKS))
    whole, rel = star_lp(base, params)
    assert whole is not None and rel is not None
    assert whole.integer_bound == lp_bound_of(base.model, base.stars, params).integer_bound  # type: ignore[union-attr]
    warm = extras_split(ROUND, NO_TRICKS, params, base=base, relaxation=rel)
    warm.relaxation_of = None  # the split must not build a relaxation (nor fall back on fresh LPs)
    warm.lp_bound_of = lambda m, o: pytest.fail("a fresh LP was asked")
    cold = ExtrasSplit(ROUND, NO_TRICKS, lambda m, o: lp_bound_of(m, o, params), lp_model_options=lp_options(NO_TRICKS))
    rows = len(rel.rows)
    for k in (1, 2, 3):
        w, c = warm.lp(k), cold.lp(k)
        assert w is not None and c is not None
        assert abs(w.lp_value - c.lp_value) < 1e-6 and w.integer_bound == c.integer_bound
    assert len(rel.rows) == rows + 1  # one row, tightened k by k
    assert warm.lp(3).integer_bound < whole.integer_bound  # type: ignore[union-attr]  # it binds


def _fake(bounds: dict[int, int]) -> ExtrasSplit:
    split = ExtrasSplit(ROUND, NO_TRICKS, lambda m, o: None, max_k=3)
    split.lps = {k: LpBound(float(b), Fraction(b), 0, 0, 0, 0.0) for k, b in bounds.items()}
    return split


def test_the_smallest_k_whose_lp_bound_is_at_most_the_stars() -> None:
    assert _fake({1: 16, 2: 15, 3: 12}).smallest_k(15) == (2, _fake({2: 15}).lps[2])
    assert _fake({1: 16, 2: 15, 3: 12}).smallest_k(15, strict=True)[0] == 3  # type: ignore[index]
    assert _fake({1: 16, 2: 15, 3: 12}).smallest_k(11) is None  # beyond max_k
    # k = 1 no lower than the whole round's LP (18), k = 2 below it: asked all the same (seed 24)
    assert _fake({1: 18, 2: 17, 3: 12}).smallest_k(17, strict=False) == (2, _fake({2: 17}).lps[2])
    split = _fake({1: 17, 2: 12})
    split.lps[1] = LpBound(16.31, Fraction(1631, 100), 0, 0, 0, 0.0)
    assert split.smallest_k(16, strict=True) == (2, split.lps[2])


class _Task:
    """A speculative stage's cancel, as ExtrasSplit reads it (solver/speculate.py's Speculation)."""

    def __init__(self, cancelled: bool = False) -> None:
        self.cancelled = threading.Event()
        if cancelled:
            self.cancelled.set()
        self.stops: list = []

    def stoppable(self, stop) -> None:
        self.stops.append(stop)


def test_a_cancelled_stage_s_split_asks_no_lp() -> None:
    """A split asked by a cancelled speculative stage (e.g. chapter 2's CP-SAT stage once HiGHS's
    lines won) answers None at once: no relaxation built, no LP solved."""
    split = ExtrasSplit(ROUND, NO_TRICKS, lambda m, o: pytest.fail("an LP was asked"), max_k=3,
                        relaxation_of=lambda m, o: pytest.fail("a relaxation was built"), task=_Task(cancelled=True))
    assert split.smallest_k(20) is None
    assert split.lps == {}


def test_a_split_cancelled_while_its_relaxation_is_built_solves_nothing() -> None:
    """Cancelled during the relaxation's build: the relaxation's interrupt is registered with the
    task (a GLOP solve running then is stopped), no LP is solved, and nothing is kept."""
    from solver.solve import lp_options, relaxation_of

    task = _Task()
    built = []

    def build(m, o):
        rel = relaxation_of(m, o, {"lp_deterministic_time": 20})
        rel.solve = lambda: pytest.fail("an LP was solved after the cancel")
        built.append(rel)
        task.cancelled.set()  # (the lines won meanwhile)
        return rel

    split = ExtrasSplit(ROUND, NO_TRICKS, lambda m, o: None, max_k=3, relaxation_of=build,
                        lp_model_options=lp_options(NO_TRICKS), task=task)
    assert split.lp(1) is None and split.lps == {}
    assert len(built) == 1 and task.stops == [built[0].interrupt]


def test_an_optimum_proven_by_the_split_verifies() -> None:
    """3 turns, optimum 5 (CP-SAT proves it on the whole model too), whole-model LP bound 6.73
    (no proof), LP bound 5.38 with >= 1 3-pumpkin activation: the split proves "no 6 stars"
    (LP for >= 1, CP-SAT INFEASIBLE for none) and `solve verify` re-proves it that way."""
    from solver.certificate import make_certificate, parse_certificate, verify_certificate

    game = SMALL
    proof = prove_no_more(game, 5, split_first=True)
    assert proof["status"] == "INFEASIBLE" and proof["method"] == "extras-split"
    assert proof["extras_at_least"] == 1 and proof["lp"]["integer_bound"] <= 5
    assert proof["region"]["status"] == "INFEASIBLE"
    res = copy.copy(_small_truth())
    assert res.status == "optimal" and res.stars == 5
    res.proof = proof
    ver = verify_certificate(parse_certificate(make_certificate(game, res)))
    assert ver.status == "verified", [c.detail for c in ver.checks]
    assert ver.proof is not None and ver.proof["method"] == "extras-split"


def test_a_target_decided_by_the_split_is_unreachable_and_verifies() -> None:
    """The same round: 6 stars is within the whole LP bound (6.73), so the split decides it."""
    from solver.certificate import make_certificate, parse_certificate, verify_certificate
    from solver.solve import solve_target

    game = SMALL
    res = solve_target(game, 6)
    assert res.status == "unreachable" and res.proof is not None
    assert res.proof["method"] == "extras-split" and res.proof["region"]["status"] == "INFEASIBLE"
    ver = verify_certificate(parse_certificate(make_certificate(game, res)))
    assert ver.status == "verified", [c.detail for c in ver.checks]
    reach = solve_target(game, 5)
    assert reach.status == "reachable" and reach.line is not None and replay(game, reach.line).stars_total >= 5


def test_a_split_region_undecided_is_decided_by_star_cases_for_a_target_and_a_certificate(monkeypatch) -> None:
    """When the split's region is not decided by CP-SAT asked whole (made to end with nothing
    here), the target question and the certificate's proof ask it case by case
    (solver/star_cases.py): "6 stars" on SMALL is unreachable, its region part `star-cases` with
    every case INFEASIBLE, and `solve verify` re-proves it the same way; "5 stars" finds a witness
    in a case."""
    import solver.solve as S
    from solver.certificate import make_certificate, parse_certificate, verify_certificate

    real_solve, real_refute = S.solve_with_cuts, S.refute_by_cases
    in_cases = []

    def whole_region_undecided(rm, solver, *args, **kwargs):
        if rm.options.max_total_extras is not None and not in_cases:
            return S.CutSolve("unknown", None, None, 0, 0.0)  # the region asked whole: nothing
        return real_solve(rm, solver, *args, **kwargs)

    def refute(*args, **kwargs):
        in_cases.append(True)
        try:
            return real_refute(*args, **kwargs)
        finally:
            in_cases.pop()

    monkeypatch.setattr(S, "solve_with_cuts", whole_region_undecided)
    monkeypatch.setattr(S, "refute_by_cases", refute)
    monkeypatch.setattr(S, "_no_more", lambda *a, **k: {"status": "UNKNOWN", "method": "cp-sat"})
    res = S.solve_target(SMALL, 6)
    assert res.status == "unreachable" and res.proof["method"] == "extras-split"
    region = res.proof["region"]
    assert region["method"] == "star-cases" and region["status"] == "INFEASIBLE"
    assert len(region["cases"]) == len(star_cases([6, 6, 6], 6))
    assert all(case["status"] == "INFEASIBLE" for case in region["cases"])
    ver = verify_certificate(parse_certificate(make_certificate(SMALL, res)))
    assert ver.status == "verified", [c.detail for c in ver.checks]
    reach = S.solve_target(SMALL, 5)
    assert reach.status == "reachable" and replay(SMALL, reach.line).stars_total >= 5

    proof = S.prove_no_more(SMALL, 5, split_first=True)
    assert proof["status"] == "INFEASIBLE" and proof["region"]["method"] == "star-cases"
    optimum = copy.copy(_small_truth())
    optimum.proof = proof
    ver = verify_certificate(parse_certificate(make_certificate(SMALL, optimum)))
    assert ver.status == "verified", [c.detail for c in ver.checks]
    assert any("INFEASIBLE in each of 28 star cases" in c.detail for c in ver.checks), [c.detail for c in ver.checks]


def _leftover_lp(stars: int, params: dict):  # type: ignore[no-untyped-def]
    """SMALL's stage-3 model with `stars` and its leftover LP kept warm, with the row "at least
    k 3-pumpkin activations" (k = 0 for now): (model, relaxation, row), as stage 3 builds them."""
    import solver.solve as S
    from solver.lp_bound import INF

    rm2 = S.build(SMALL, ModelOptions())
    rm2.model.add(rm2.stars >= stars)
    rel = S.relaxation_of(rm2.model, rm2.leftover, params)
    assert rel is not None
    return rm2, rel, rel.add_row(extras_terms(rm2), 0, INF)


def test_the_leftover_split_proves_the_most_leftover() -> None:
    """3b: with the proven star count fixed, the lines without 3-pumpkin activations are solved
    exactly and the LP with "at least k" bounds the rest: the proven leftover is the true one
    (solve_optimal proves it on the whole model of this 3-turn round), found from a greedy start."""
    import solver.solve as S
    from solver.playout import greedy_line

    game = SMALL
    truth = _small_truth()
    assert truth.status == "optimal" and truth.stars is not None
    params = S.load_params("optimal")
    rm2, rel, row = _leftover_lp(truth.stars, params)
    whole = rel.solve()
    assert whole is not None and whole.integer_bound > truth.leftover  # the plain LP alone proves nothing
    lines = [greedy_line(game)]
    got = S._leftover_split(game, ModelOptions(), S.leftover_cases(game, rm2.options, rel, row, params), truth.stars, lines, params, 30, 1,
                            S.RoundResult("optimal", "unknown"))
    assert got == truth.leftover
    assert S._best_leftover(game, lines, truth.stars) == truth.leftover  # a line shows it


def test_the_leftover_split_stops_when_a_line_meets_the_round_s_bound(monkeypatch) -> None:
    """3b with a proven bound on the round's leftover (the whole leftover LP's): once the region
    without 3-pumpkin activations gives a line meeting it, no LP of "at least k" is asked; the
    same call without the bound asks one (so the test can fail)."""
    import solver.solve as S
    from solver.lp_bound import LpRelaxation
    from solver.playout import greedy_line

    game = SMALL
    truth = _small_truth()
    assert truth.status == "optimal" and truth.stars is not None and truth.leftover is not None
    params = S.load_params("optimal")
    real_solve = LpRelaxation.solve
    for bound, asked in ((truth.leftover, 0), (None, 1)):
        rm2, rel, row = _leftover_lp(truth.stars, params)
        assert rel.solve() is not None
        solves: list[int] = []
        monkeypatch.setattr(LpRelaxation, "solve", lambda self: solves.append(1) or real_solve(self))
        got = S._leftover_split(game, ModelOptions(), S.leftover_cases(game, rm2.options, rel, row, params), truth.stars, [greedy_line(game)], params, 30, 1,
                                S.RoundResult("optimal", "unknown"), bound=bound)
        monkeypatch.setattr(LpRelaxation, "solve", real_solve)
        assert got == truth.leftover
        assert len(solves) == asked, bound


def test_an_unproven_leftover_split_still_lowers_the_round_s_leftover_bound(monkeypatch) -> None:
    """3b's region without 3-pumpkin activations ending at its limit (faked: no line, its bound
    the true optimum) proves nothing, yet its bound and the LP of the lines with at least one
    bound the round: `result.leftover_bound` becomes the larger of the two, below the whole LP's;
    a region with no bound leaves the whole LP's bound as it was."""
    import solver.solve as S
    from solver.lp_bound import INF
    from solver.playout import greedy_line

    game = SMALL
    truth = _small_truth()
    assert truth.status == "optimal" and truth.stars is not None and truth.leftover is not None
    params = S.load_params("optimal")
    for region_bound in (truth.leftover, None):
        rm2, rel, row = _leftover_lp(truth.stars, params)
        whole = rel.solve()
        rel.set_bounds(row, 1, INF)
        at_least_one = rel.solve()
        rel.set_bounds(row, 0, INF)
        assert whole is not None and at_least_one is not None
        expected = whole.integer_bound if region_bound is None else max(region_bound, at_least_one.integer_bound)
        assert region_bound is None or expected < whole.integer_bound  # (so the test can fail)
        monkeypatch.setattr(S, "leftover_solve", lambda *a, b=region_bound, **k: S.CutSolve("unknown", None, b, 0, 0.0))
        result = S.RoundResult("optimal", "unknown")
        result.leftover_bound = whole.integer_bound
        got = S._leftover_split(game, ModelOptions(), S.leftover_cases(game, rm2.options, rel, row, params), truth.stars, [greedy_line(game)], params,
                                30, 1, result, bound=whole.integer_bound)
        assert got is None and result.leftover_bound == expected, region_bound


def test_a_long_round_asks_the_leftover_split_before_the_whole_model(monkeypatch) -> None:
    """Stage 3 of a long round (`lp_first_turns`) whose model is the whole round: the leftover
    split first, and the whole model's leftover solve only if that does not prove it; a short
    round keeps the old order (the whole model first, which proves this 3-turn round itself)."""
    import solver.solve as S
    from solver.resources import KINDS

    game = SMALL
    truth = _small_truth()
    assert truth.status == "optimal"
    real_params, real_solve = S.load_params, S.solve_with_cuts
    whole: list[int] = []

    def spy(rm, solver, *args, **kwargs):
        objective = set(rm.model.proto.objective.vars)
        if rm.options.max_total_extras is None and objective == {rm.final_res[K].index for K in KINDS}:
            whole.append(1)  # most leftover on the whole round's model
        return real_solve(rm, solver, *args, **kwargs)

    monkeypatch.setattr(S, "solve_with_cuts", spy)
    monkeypatch.setattr(ExtrasSplit, "smallest_k", lambda self, *a, **k: None)  # no star-split region
    for first_turns, calls in ((1, []), (len(game.rolls) + 1, [1])):
        whole.clear()
        # (CP-SAT's star search kept on the long round: it proves this 3-turn round's stars,
        # which stage 3 needs; the split is switched off above)
        monkeypatch.setattr(S, "load_params", lambda q, n=first_turns: {**real_params(q), "lp_first_turns": n,
                                                                         "lp_first_star_search": True})
        res = S.solve_optimal(game, 30, prove=False)
        assert res.status == "optimal" and res.leftover == truth.leftover
        assert whole == calls, first_turns


def test_a_long_round_asks_the_leftover_split_before_a_star_split_region_too(monkeypatch) -> None:
    """Stage 3 of a long round whose model is a star-split region (here the lines with at most one
    3-pumpkin activation): the leftover LP and the region without any first, and the stage-3
    region's own leftover solve only if they do not prove it (the order before asked that region
    first; measured on bench seeds 2, 11, 23: the leftover split proves them in 1.3-3.5 det-s,
    the region's solve took 6.6-12.2)."""
    import solver.solve as S
    from solver.resources import KINDS

    game = SMALL
    truth = _small_truth()
    real_params, real_solve, real_k = S.load_params, S.solve_with_cuts, ExtrasSplit.smallest_k
    asked: list[int | None] = []  # max_total_extras of each leftover solve, in order

    def spy(rm, solver, *args, **kwargs):
        if set(rm.model.proto.objective.vars) == {rm.final_res[K].index for K in KINDS}:
            asked.append(rm.options.max_total_extras)
        return real_solve(rm, solver, *args, **kwargs)

    def stage3_region_2(self, stars, strict=False):  # stage 3's model: the lines with at most one
        return (2, real_k(self, stars, strict=False)[1]) if strict else real_k(self, stars, strict)

    monkeypatch.setattr(S, "solve_with_cuts", spy)
    monkeypatch.setattr(ExtrasSplit, "smallest_k", stage3_region_2)
    monkeypatch.setattr(S, "load_params", lambda q: {**real_params(q), "lp_first_turns": 1, "lp_first_star_search": True})
    res = S.solve_optimal(game, 30, prove=False)
    assert res.status == "optimal" and res.leftover == truth.leftover
    assert asked == [0], asked  # the region without 3-pumpkin activations proved it; region 2 never asked


def test_a_long_round_goes_from_the_improver_to_the_split_without_the_star_search(monkeypatch) -> None:
    """A long round whose line stays below the LP bound after the improver: with
    `lp_first_star_search` false (round.toml) CP-SAT's star search of the whole round is not
    asked and the split proves the stars; with it true the search is asked first. Measured on
    bench seeds 1, 18, 22: that search spent 10 det-s (17-19 s wall) and found nothing."""
    import solver.solve as S
    from solver.lp_bound import _objective

    game = SMALL
    truth = _small_truth()
    real_params, real_solve = S.load_params, S.solve_with_cuts
    searches: list[int] = []

    def spy(rm, solver, *args, **kwargs):
        whole = rm.options.max_total_extras is None and not rm.options.free_compensation
        if whole and set(rm.model.proto.objective.vars) == set(_objective(rm.model, rm.stars)[0]):
            searches.append(1)
        return real_solve(rm, solver, *args, **kwargs)

    monkeypatch.setattr(S, "solve_with_cuts", spy)
    # the improver finds nothing: the greedy line (below the LP bound) goes on
    monkeypatch.setattr(S, "improve_both", lambda game, line, *a, **k: (line, 0.0))
    monkeypatch.setattr(S, "improve_line", lambda game, line, *a, **k: (line, 0.0))
    monkeypatch.setattr(S, "_quick_line", lambda *a, **k: None)
    for search, count in ((False, 0), (True, 1)):
        searches.clear()
        monkeypatch.setattr(S, "load_params", lambda q, s=search: {**real_params(q), "lp_first_turns": 1,
                                                                    "lp_first_star_search": s})
        res = S.solve_optimal(game, 30, prove=False)
        assert res.status == "optimal" and res.stars == truth.stars
        assert len(searches) == count, search


def test_the_leftover_lp_gets_its_own_glop_limit(monkeypatch) -> None:
    """Stage 3's leftover LP is asked with `leftover_lp_deterministic_time` (Feast for Odin rounds
    at the 18-star cap need about 16 GLOP units there, the star LPs about 4); every other LP keeps
    `lp_deterministic_time`."""
    import solver.solve as S
    from solver.lp_bound import _objective

    game = SMALL
    truth = _small_truth()
    real_params, real_rel = S.load_params, S.relaxation_of
    limits: dict[str, set[float]] = {"leftover": set(), "stars": set()}

    def rel(model, objective, params):
        names = {model.proto.variables[v].name for v in _objective(model, objective)[0]}
        kind = "leftover" if all("[end of t" in n for n in names) else "stars"
        limits[kind].add(params["lp_deterministic_time"])
        return real_rel(model, objective, params)

    monkeypatch.setattr(S, "relaxation_of", rel)
    monkeypatch.setattr(ExtrasSplit, "smallest_k", lambda self, *a, **k: None)  # stage 3 on the whole round
    monkeypatch.setattr(S, "load_params", lambda q: {**real_params(q), "lp_first_turns": 1, "lp_first_star_search": True,
                                                     "lp_deterministic_time": 5.0, "leftover_lp_deterministic_time": 7.5})
    res = S.solve_optimal(game, 30, prove=False)
    assert res.status == "optimal" and res.leftover == truth.leftover
    assert limits["leftover"] == {7.5}
    assert limits["stars"] <= {5.0}
    assert S.leftover_lp_params({"lp_deterministic_time": 8.0}) == {"lp_deterministic_time": 8.0}


def _only_the_greedy_line_before_the_split(monkeypatch, fail_regions: int = 0,
                                           star_cases: bool = False) -> list[tuple[int, bool, bool]]:
    """Make the quick line, the window improver and CP-SAT's star search on the whole round find
    nothing (only the greedy line reaches stage 2d); returns the list the region solves of 2d
    append (their `max_total_extras`, hinted or not, by the interleaved portfolio or not) to.
    `fail_regions`: that many first region solves end with nothing too. `star_cases`: keep the
    star cases on (their solves are recorded too, each case as one region solve)."""
    import solver.solve as S

    if not star_cases:
        real_params = S.load_params
        monkeypatch.setattr(S, "load_params", lambda q: {**real_params(q), "star_cases_deterministic_time": 0})

    real_solve = S.solve_with_cuts
    regions: list[tuple[int, bool, bool]] = []

    def spy(rm, solver, *args, **kwargs):
        objective = set(rm.model.proto.objective.vars)
        stars_only = objective == {v.index for v in rm.realm_stars}
        if rm.options.max_total_extras is None and stars_only:
            return S.CutSolve("unknown", None, None, 0, 0.0)  # the whole round's star search: nothing
        if stars_only:
            portfolio = solver.parameters.interleave_search and solver.parameters.num_workers > 1
            regions.append((rm.options.max_total_extras, len(rm.model.proto.solution_hint.vars) > 0, portfolio))
            if len(regions) <= fail_regions:
                return S.CutSolve("unknown", None, None, 0, 0.0)
        return real_solve(rm, solver, *args, **kwargs)

    monkeypatch.setattr(S, "solve_with_cuts", spy)
    monkeypatch.setattr(S, "_quick_line", lambda *a, **k: None)
    monkeypatch.setattr(S, "improve_both", lambda game, line, *a, **k: (line, 0.0))
    return regions


def test_the_star_split_asks_the_region_without_3_pumpkin_activations_first(monkeypatch) -> None:
    """2d: when the lines found so far are poor (here only the greedy line), the region of lines
    with no 3-pumpkin activation is solved first; its optimum (5) is a better line that makes
    k = 1 enough (LP 5.38 with at least one), so the round is proven with no other region asked.
    The old order asked the region of the greedy line's k (here k = 2: at most one 3-pumpkin
    activation), a larger model; on bench seed 34 the old order left the round unknown (14 stars,
    bound 16) where this one proves 15."""
    import solver.solve as S

    game = SMALL
    truth = _small_truth()
    assert truth.status == "optimal" and truth.stars == 5
    regions = _only_the_greedy_line_before_the_split(monkeypatch)
    assert replay(game, S.greedy_line(game)).stars_total < 5
    res = S.solve_optimal(game, 30, prove=False)
    assert res.status == "optimal" and res.stars == 5 and res.leftover == truth.leftover
    assert [extras for extras, _, _ in regions] == [0]


def test_an_unproven_region_is_asked_again_without_the_hint(monkeypatch) -> None:
    """2d: when the region without 3-pumpkin activations ends unproven from the best line's hint
    (here: that solve is made to find nothing), it is asked once more with no hint (CP-SAT's path
    differs, measured: bench seeds 22 and 18 are each proven by one of the two), and the round is
    proven with no larger region asked."""
    import solver.solve as S

    truth = _small_truth()
    regions = _only_the_greedy_line_before_the_split(monkeypatch, fail_regions=1)
    res = S.solve_optimal(SMALL, 30, prove=False)
    assert res.status == "optimal" and res.stars == truth.stars == 5
    assert regions == [(0, True, False), (0, False, False)]


def test_the_region_is_hinted_with_the_best_line_that_fits_it(monkeypatch) -> None:
    """2d: the best line so far has a 3-pumpkin activation (so it is no line of the region without
    them); the region is hinted with the best line that is one (here the empty line), not solved
    unhinted twice — the two solves were the same search before (same model, no hint)."""
    import solver.solve as S

    truth = _small_truth()
    rm = S.build(SMALL, ModelOptions(tricks=False))
    rm.model.add(rm.total_extras() >= 1)
    rm.model.add(rm.stars == 3)
    with_extra = S.solve_with_cuts(rm, S.make_solver({"num_workers": 1}, 20, None)).line
    assert with_extra is not None and line_extras(with_extra) == 1 and replay(SMALL, with_extra).stars_total == 3
    empty = random_line(SMALL, random.Random(0), stop=1.0)
    assert line_extras(empty) == 0 and replay(SMALL, empty).stars_total == 0
    regions = _only_the_greedy_line_before_the_split(monkeypatch)
    monkeypatch.setattr(S, "greedy_line", lambda game, played=None: empty)
    monkeypatch.setattr(S, "improve_both", lambda game, line, *a, **k: (with_extra, 0.0))
    res = S.solve_optimal(SMALL, 30, prove=False)
    assert res.status == "optimal" and res.stars == truth.stars
    assert regions[0] == (0, True, False)


def test_a_region_unproven_twice_is_asked_of_the_interleaved_portfolio(monkeypatch) -> None:
    """2d: when neither the hinted nor the unhinted one-worker solve proves the region without
    3-pumpkin activations (here both are made to find nothing), CP-SAT's portfolio is asked once
    more, interleaved (deterministic), hinted with the best line; it proves the round here. Why:
    its large-neighbourhood searches find lines the one-worker search does not (bench seeds 0, 7
    and 31: 14 -> 15, 15, 16 stars; docs/performance.md). Switched off in the parameters, it is not asked."""
    import solver.solve as S

    truth = _small_truth()
    regions = _only_the_greedy_line_before_the_split(monkeypatch, fail_regions=2)
    res = S.solve_optimal(SMALL, 30, prove=False)
    assert res.status == "optimal" and res.stars == truth.stars == 5
    assert regions[:3] == [(0, True, False), (0, False, False), (0, True, True)]
    assert S.region_portfolio_params(S.load_params("optimal"))["num_workers"] > 1

    with_portfolio = S.load_params
    monkeypatch.setattr(S, "load_params", lambda q: {**with_portfolio(q), "region_portfolio_workers": 0})
    regions.clear()
    res = S.solve_optimal(SMALL, 30, prove=False)
    assert all(not portfolio for _, _, portfolio in regions) and regions[:2] == [(0, True, False), (0, False, False)]


def test_a_region_unproven_from_its_hint_is_refuted_by_star_cases(monkeypatch) -> None:
    """2d: when the hinted solve of the region without 3-pumpkin activations ends with nothing
    (made to here), the region the split needs is asked case by case (solver/star_cases.py):
    each way to share one star more than the best line among the realms is INFEASIBLE, so the
    round is proven without the unhinted or the portfolio solve. Measured on bench seed 1: that
    region's maximum unproven in 60 det-s, its three cases refuted in 4.3 in all."""
    import solver.solve as S

    truth = _small_truth()
    asked: list[tuple[int | None, int, str, int, int]] = []
    real_refute = S.refute_by_cases

    def spy_refute(game, make_model, stars, solve_case, case_lp=None):
        proof, found = real_refute(game, make_model, stars, solve_case, case_lp)
        by_cp_sat = sum(1 for case in proof["cases"] if "lp" not in case)
        asked.append((make_model().options.max_total_extras, stars, proof["status"], len(proof["cases"]), by_cp_sat))
        return proof, found

    monkeypatch.setattr(S, "refute_by_cases", spy_refute)
    regions = _only_the_greedy_line_before_the_split(monkeypatch, fail_regions=1, star_cases=True)
    # the path asked here (a 4-star line, so the region's hinted solve first) is the model's
    # without compensation's costly rows; with them an earlier solve finds 5 stars at once and
    # the star cases come first (test_the_needed_region_s_star_cases_come_before_its_own_solve)
    res = S.solve_optimal(SMALL, 30, prove=False, options=LOOSE)
    assert res.status == "optimal" and res.stars == truth.stars == 5
    assert asked[-1][:4] == (0, 5, "INFEASIBLE", len(star_cases([6, 6, 6], 6))) == (0, 5, "INFEASIBLE", 28)
    assert any(n < cases for *_, cases, n in asked)  # some cases refuted by the LP, no CP-SAT
    # the region's hinted solve, then only the cases' CP-SAT solves: no unhinted or portfolio one
    assert regions[0] == (0, True, False) and len(regions) == 1 + sum(n for *_, n in asked)
    assert not any(hinted or portfolio for _, hinted, portfolio in regions[1:])

    asked.clear()
    monkeypatch.setattr(S, "load_params", lambda q, real=S.load_params: {**real(q), "star_cases_deterministic_time": 0})
    res = S.solve_optimal(SMALL, 30, prove=False, options=LOOSE)
    assert res.status == "optimal" and not asked  # switched off in the parameters


def test_the_needed_region_s_star_cases_come_before_its_own_solve(monkeypatch) -> None:
    """2d with `star_cases_first`: the best line (here the optimum, 5 stars) needs the region
    without 3-pumpkin activations (its LP with at least one is 5.38), so its star cases are asked
    first and refute 6 stars: no hinted solve of that region at all. Without it, that solve comes
    first (and proves the round itself)."""
    import solver.solve as S

    truth = _small_truth()
    assert truth.line is not None and truth.stars == 5
    for first in (True, False):
        regions = _only_the_greedy_line_before_the_split(monkeypatch, star_cases=True)
        monkeypatch.setattr(S, "improve_both", lambda game, line, *a, **k: (truth.line, 0.0))
        monkeypatch.setattr(S, "load_params", lambda q, real=S.load_params, f=first: {**real(q), "star_cases_first": f})
        res = S.solve_optimal(SMALL, 30, prove=False)
        monkeypatch.undo()
        assert res.status == "optimal" and res.stars == 5
        hinted = [r for r in regions if r[1]]
        assert (hinted == []) if first else (regions[0] == (0, True, False)), (first, regions)


def test_a_split_proof_falls_back_on_the_region_s_proven_maximum(monkeypatch) -> None:
    """The certificate's proof by the split: when "one star more" is not decided INFEASIBLE on the
    region (here made to end UNKNOWN), the region's proven maximum (at most the stars) decides it
    (method cp-sat-maximum); the whole model is not asked."""
    import solver.solve as S

    real_no_more = S._no_more
    asked: list[int | None] = []

    def no_more(rm, stars, *args, **kwargs):
        asked.append(rm.options.max_total_extras)
        if rm.options.max_total_extras is not None:
            return {"question": f"stars >= {stars + 1}", "status": "UNKNOWN", "method": "cp-sat"}
        return real_no_more(rm, stars, *args, **kwargs)

    monkeypatch.setattr(S, "_no_more", no_more)
    proof = prove_no_more(SMALL, 5, split_first=True)
    assert proof["status"] == "INFEASIBLE" and proof["method"] == "extras-split"
    assert proof["region"]["method"] == "cp-sat-maximum" and proof["region"]["maximum_bound"] <= 5
    assert asked == [0]
    with pytest.raises(S.ModelDisagreement):  # a legal 5-star line exists: 4 was no optimum
        S._most_at_most(S.build(SMALL), 4, S.load_params("proof"), 30, 1)



def _leftover_left_unproven(monkeypatch, S, game) -> None:  # type: ignore[no-untyped-def]
    """No leftover solve finds or proves anything, the star search's line keeps no resource and
    there is no quick line: the leftover is left to stage 3c."""
    from solver.resources import KINDS

    real_solve = S.solve_with_cuts

    def spy(rm, solver, *args, **kwargs):
        objective = set(rm.model.proto.objective.vars)
        if objective == {rm.final_res[K].index for K in KINDS}:
            return S.CutSolve("unknown", None, None, 0, 0.0)
        if objective == {v.index for v in rm.realm_stars}:
            rm.model.add(rm.leftover <= 0)
        return real_solve(rm, solver, *args, **kwargs)

    monkeypatch.setattr(S, "solve_with_cuts", spy)
    monkeypatch.setattr(S, "_quick_line", lambda *a, **k: None)


def test_an_unproven_leftover_is_improved_window_by_window(monkeypatch) -> None:
    """3c: when no leftover solve proves the leftover (here every one ends with nothing), the
    window improver still raises the line's leftover at the proven star count, stopping at the
    leftover bound; without it the answer keeps the star search's line (here one with no
    leftover: that search is made to return such a line). Measured on the issue-2 bench at the
    18-star cap: seed 15 leftover 4 -> 9 (docs/performance.md)."""
    import solver.solve as S

    game = make_game(("ark-nova", "parks", "wurfelwelten"), [(3, 1), (3, 4)])
    truth = S.solve_optimal(game, 30, prove=False)
    assert truth.status == "optimal" and truth.leftover == 2
    real_improve, real_line = S.improve_both, S.improve_line
    stops: list[int | None] = []

    def improve_spy(game_, line, *args, **kwargs):
        stops.append(kwargs.get("stop_at"))
        return real_improve(game_, line, *args, **kwargs)

    _leftover_left_unproven(monkeypatch, S, game)
    monkeypatch.setattr(S, "improve_both", lambda game_, line, *a, **k: (line, 0.0))
    monkeypatch.setattr(S, "improve_line", lambda game_, line, *a, **k: (line, 0.0))  # nor the pairs
    without = S.solve_optimal(game, 30, prove=False)
    assert without.stars == truth.stars and without.stars_proven and without.leftover == 0
    monkeypatch.setattr(S, "improve_both", improve_spy)
    monkeypatch.setattr(S, "improve_line", real_line)
    res = S.solve_optimal(game, 30, prove=False)
    assert res.stars == truth.stars and res.leftover == truth.leftover
    assert res.leftover_bound is not None and stops == [S.STAR_WEIGHT * truth.stars + res.leftover_bound]
    assert replay(game, res.line).final.resources.total() == truth.leftover


def test_a_leftover_the_windows_leave_below_its_bound_is_improved_two_turns_at_a_time(monkeypatch) -> None:
    """3c, then: the consecutive windows left the leftover below its bound (here they are made to
    do nothing), so every two turns (`pair_windows`, adjacent or not) are re-solved with the rest
    fixed, each within `improve_pair_deterministic_time`, stopping at the bound. Measured on the
    issue-2 bench: seed 33's leftover 10 -> 12, its bound (docs/performance.md)."""
    import solver.solve as S
    from solver.improve import pair_windows

    game = make_game(("ark-nova", "parks", "wurfelwelten"), [(3, 1), (3, 4)])
    truth = S.solve_optimal(game, 30, prove=False)
    assert truth.status == "optimal" and truth.leftover == 2
    real_line = S.improve_line
    calls: list[tuple] = []

    def pairs_spy(game_, line, *args, **kwargs):
        calls.append((kwargs.get("windows"), kwargs.get("per_window"), kwargs.get("stop_at")))
        return real_line(game_, line, *args, **kwargs)

    _leftover_left_unproven(monkeypatch, S, game)
    monkeypatch.setattr(S, "improve_both", lambda game_, line, *a, **k: (line, 0.0))
    monkeypatch.setattr(S, "improve_line", pairs_spy)
    real_params = S.load_params
    monkeypatch.setattr(S, "load_params", lambda q: {**real_params(q), "improve_pair_deterministic_time": 2.5})
    res = S.solve_optimal(game, 30, prove=False)
    assert res.stars == truth.stars and res.leftover == truth.leftover
    assert replay(game, res.line).final.resources.total() == truth.leftover
    assert calls == [(pair_windows(0, 2), 2.5, S.STAR_WEIGHT * truth.stars + res.leftover_bound)]



def test_stages_3e_and_3f_are_asked_only_when_the_leftover_stays_unproven(monkeypatch) -> None:
    """solve_optimal asks 3e (solve.leftover_mip_lines), then 3f (solve.leftover_last_question)
    with 3b's cases, with the proven stars when stage 3's solves end unproven (faked: at their
    limit, with no line and no bound), and never when they prove the leftover."""
    import solver.solve as S

    game = SMALL
    truth = _small_truth()
    assert truth.status == "optimal" and truth.stars is not None
    real_3e, real_3f = S.leftover_mip_lines, S.leftover_last_question
    asked: list[tuple[str, int]] = []

    def spy_3e(game_, options, stars, *args, **kwargs):
        asked.append(("3e", stars))
        return real_3e(game_, options, stars, *args, **kwargs)

    def spy_3f(game_, options, stars, lines, params, workers, result, cases, *rest):
        assert isinstance(cases, S.LeftoverCases) and 1 in cases.lps  # 3b asked the LP of at least one
        asked.append(("3f", stars))
        return real_3f(game_, options, stars, lines, params, workers, result, cases, *rest)

    monkeypatch.setattr(S, "leftover_mip_lines", spy_3e)
    monkeypatch.setattr(S, "leftover_last_question", spy_3f)
    res = S.solve_optimal(game, 30, prove=False, speculate=False)
    assert res.status == "optimal" and asked == []
    monkeypatch.setattr(S, "leftover_solve", lambda *a, **k: S.CutSolve("unknown", None, None, 0, 0.0))
    res = S.solve_optimal(game, 30, prove=False, speculate=False)
    assert asked == [("3e", truth.stars), ("3f", truth.stars)] and res.stars == truth.stars


def test_3f_proves_the_leftover_3b_left_open_by_either_question() -> None:
    """3f (solve.leftover_last_question) from SMALL's optimal line with only the whole LP's bound
    (above it): the region its LPs name has that line's leftover as its proven optimum (the
    first question), or is INFEASIBLE with one leftover more (the second, with the floor), so
    the round's bound falls to the line's (proven); with both limits at 0 nothing is asked and
    the bound stays."""
    import solver.solve as S

    truth = _small_truth()
    assert truth.status == "optimal" and truth.stars is not None and truth.line is not None
    params = S.load_params("optimal")
    for limits, proven in (((1.0, 0.0), True), ((0.0, 1.0), True), ((0.0, 0.0), False)):
        asked = {**params, "leftover_proof_deterministic_time": limits[0], "leftover_proof_floor_deterministic_time": limits[1]}
        rm2, rel, row = _leftover_lp(truth.stars, params)
        whole = rel.solve()
        assert whole is not None and whole.integer_bound > truth.leftover  # (so the test can fail)
        result = S.RoundResult("optimal", "unknown")
        result.leftover_bound = whole.integer_bound
        cases = S.leftover_cases(SMALL, rm2.options, rel, row, params)
        assert cases is not None
        lines = [truth.line]
        S.leftover_last_question(SMALL, ModelOptions(first_activations_paid=True), truth.stars, lines, asked, 1, result, cases)
        assert result.leftover_bound == (truth.leftover if proven else whole.integer_bound), limits
        assert S._best_leftover(SMALL, lines, truth.stars) == truth.leftover  # no line has more


def test_3f_s_rest_is_empty_when_the_star_lp_of_those_lines_is_below_the_stars() -> None:
    """`LeftoverCases.rest_bound`: the leftover LP of "at least k 3-pumpkin activations" when it
    has an optimum; without one (faked), -1 exactly when the star LP of those lines is below
    the stars asked, else None (nothing proven)."""
    import solver.solve as S
    from solver.lp_bound import INF

    truth = _small_truth()
    assert truth.stars is not None
    params = S.load_params("optimal")
    rm2, rel, row = _leftover_lp(truth.stars, params)
    cases = S.leftover_cases(SMALL, rm2.options, rel, row, params)
    assert cases is not None
    lp_1 = cases.lp(1)
    assert lp_1 is not None and cases.rest_bound(1, truth.stars, params) == lp_1
    rs = S.lp_model(SMALL, rm2.options)
    star_rel = S.relaxation_of(rs.model, rs.stars, S.leftover_lp_params(params))
    assert star_rel is not None
    star_rel.add_row(extras_terms(rs), 2, INF)
    star_lp = star_rel.solve()
    assert star_lp is not None and star_lp.integer_bound < truth.stars
    cases.lps[2] = None  # the leftover LP of at least 2 reached no optimum
    assert cases.rest_bound(2, star_lp.integer_bound + 1, params) == -1
    assert cases.rest_bound(2, star_lp.integer_bound, params) is None


def test_a_leftover_solve_stops_at_a_proven_bound_with_the_same_line(monkeypatch) -> None:
    """`leftover_solve(stop_at=b)`, b a proven bound on the leftover (stage 3's LP): CP-SAT stops
    at the first line meeting it (the stop is CP-SAT's, spied), which is the line the whole
    solve ends with (it keeps the first line of each better value), in no more deterministic
    time; a stop above the optimum is never met, and the answer is the whole solve's. (Without
    the line finder, which the next test covers.)"""
    import solver.solve as S

    truth = _small_truth()
    assert truth.status == "optimal" and truth.stars is not None and truth.leftover is not None
    params = {**S.load_params("optimal"), "leftover_finder_deterministic_time": 0}
    stops: list[int | None] = []
    real = S.solve_with_cuts

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        stops.append(kwargs.get("stop_at"))
        return real(*args, **kwargs)

    monkeypatch.setattr(S, "solve_with_cuts", spy)
    whole = S.leftover_solve(SMALL, ModelOptions(), truth.stars, None, params, 30, 1)
    assert whole.status == "optimal" and whole.line is not None
    stopped = S.leftover_solve(SMALL, ModelOptions(), truth.stars, None, params, 30, 1, stop_at=truth.leftover)
    assert stopped.line == whole.line and replay(SMALL, stopped.line).final.resources.total() == truth.leftover
    assert stopped.deterministic_time <= whole.deterministic_time
    above = S.leftover_solve(SMALL, ModelOptions(), truth.stars, None, params, 30, 1, stop_at=truth.leftover + 1)
    assert (above.status, above.line, above.bound) == (whole.status, whole.line, whole.bound)
    assert stops == [None, truth.leftover, truth.leftover + 1]


def test_a_leftover_solve_with_a_bound_asks_its_line_finder_first(monkeypatch) -> None:
    """With a proven bound to stop at and the finder on, `leftover_solve` first asks the line finder (round.toml's
    `leftover_finder_*`: no probing, spied on the solver it gets): a line meeting the bound ends
    the question; a bound above the optimum is not met, so the question's own solve follows
    and the answer is the one it gives alone. Without a bound, only the question's own solve."""
    import solver.solve as S

    truth = _small_truth()
    assert truth.status == "optimal" and truth.stars is not None and truth.leftover is not None
    params = {**S.load_params("optimal"), "leftover_finder_deterministic_time": 6.0}  # (round.toml's)
    assert params.get("leftover_finder_solver_cp_model_probing_level") == 0
    own = S.make_solver(params, 1.0, 1).parameters.cp_model_probing_level
    assert own != 0
    seen: list[int] = []
    real = S.make_solver

    def spy(p, limit, workers):  # type: ignore[no-untyped-def]
        solver = real(p, limit, workers)
        seen.append(solver.parameters.cp_model_probing_level)
        return solver

    monkeypatch.setattr(S, "make_solver", spy)
    whole = S.leftover_solve(SMALL, ModelOptions(), truth.stars, None, params, 30, 1)
    assert whole.status == "optimal" and seen == [own]
    seen.clear()
    found = S.leftover_solve(SMALL, ModelOptions(), truth.stars, None, params, 30, 1, stop_at=truth.leftover)
    assert found.line is not None and replay(SMALL, found.line).final.resources.total() == truth.leftover
    assert seen == [0]
    seen.clear()
    above = S.leftover_solve(SMALL, ModelOptions(), truth.stars, None, params, 30, 1, stop_at=truth.leftover + 1)
    assert seen == [0]  # (here the finder proves the optimum itself: nothing more is asked)
    assert above.status == "optimal" and above.line is not None and above.bound == truth.leftover
    assert replay(SMALL, above.line).final.resources.total() == truth.leftover
    seen.clear()
    # a finder that finds nothing within its limit: the question's own solve, as it answers alone
    short = {**params, "leftover_finder_deterministic_time": 0.001}
    after = S.leftover_solve(SMALL, ModelOptions(), truth.stars, None, short, 30, 1, stop_at=truth.leftover + 1)
    assert seen == [0, own]
    assert (after.status, after.line, after.bound) == (whole.status, whole.line, whole.bound)


def test_a_round_s_line_finder_stops_after_its_allowed_misses(monkeypatch) -> None:
    """`FinderGate`: the leftover solves of one round share it; once the finder has missed
    `leftover_finder_misses` times (neither met its bound nor proved), the round's later
    leftover solves ask only their own solve, which answers as it does alone. A finder that
    meets its bound is no miss. Absent the setting, no limit."""
    import solver.solve as S

    truth = _small_truth()
    assert truth.status == "optimal" and truth.stars is not None and truth.leftover is not None
    params = {**S.load_params("optimal"), "leftover_finder_deterministic_time": 0.001, "leftover_finder_misses": 1}
    asked: list[int | None] = []
    real = S.leftover_finder

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        asked.append(kwargs.get("stop_at"))
        return real(*args, **kwargs)

    monkeypatch.setattr(S, "leftover_finder", spy)
    whole = S.leftover_solve(SMALL, ModelOptions(), truth.stars, None, {**params, "leftover_finder_deterministic_time": 0},
                             30, 1, stop_at=truth.leftover + 1)
    assert asked == []
    gate = S.FinderGate.from_params(params)
    assert gate.open
    first = S.leftover_solve(SMALL, ModelOptions(), truth.stars, None, params, 30, 1, stop_at=truth.leftover + 1, gate=gate)
    assert asked == [truth.leftover + 1] and gate.misses == 1 and not gate.open
    second = S.leftover_solve(SMALL, ModelOptions(), truth.stars, None, params, 30, 1, stop_at=truth.leftover + 1, gate=gate)
    assert asked == [truth.leftover + 1]  # (the gate is closed: no finder)
    for answer in (first, second):
        assert (answer.status, answer.line, answer.bound) == (whole.status, whole.line, whole.bound)
    # a finder meeting its bound is no miss; without the setting, no limit
    found_gate = S.FinderGate.from_params({k: v for k, v in params.items() if k != "leftover_finder_misses"})
    assert found_gate.allowed is None
    roomy = {**params, "leftover_finder_deterministic_time": 6.0}
    met = S.leftover_solve(SMALL, ModelOptions(), truth.stars, None, roomy, 30, 1, stop_at=truth.leftover, gate=gate)
    assert len(asked) == 1 and met.line is not None  # (still closed)
    open_gate = S.FinderGate(1)
    met = S.leftover_solve(SMALL, ModelOptions(), truth.stars, None, roomy, 30, 1, stop_at=truth.leftover, gate=open_gate)
    assert len(asked) == 2 and open_gate.misses == 0 and open_gate.open
    assert met.line is not None and replay(SMALL, met.line).final.resources.total() == truth.leftover


def test_the_line_finder_s_answer_does_not_depend_on_when_it_learns_its_stop() -> None:
    """A speculative line finder learns its stop late (`LateStop`) or not at all; its run still
    gives the line a finder stopping there from the start gives (`TrailedRun.stopped_at`: CP-SAT's
    one-worker path does not depend on where it is stopped). Here the finder's run improves
    twice (leftover 1, then 2), so the line at each stop is not simply the run's last."""
    import solver.solve as S

    game = make_game(("libertalia", "parks", "wurfelwelten"), [(2, 5), (1, 3), (1, 4), (4, 4), (6, 4)])
    params = {**S.load_params("optimal"), "leftover_finder_deterministic_time": 6.0}
    stars = 8  # (the round's proven optimum: 8 stars, leftover 2)
    free = S.leftover_finder(game, ModelOptions(), stars, None, params, 30, 1)
    assert [value for value, _, _ in free.trail] == [1, 2]
    stopped = S.leftover_finder(game, ModelOptions(), stars, None, params, 30, 1, stop_at=1)
    late = S.LateStop()
    late.value = 1
    learnt = S.leftover_finder(game, ModelOptions(), stars, None, params, 30, 1, stop_at=late)
    assert [value for value, _, _ in stopped.trail] == [1]
    lines = {run.stopped_at(1).line for run in (free, stopped, learnt)}
    assert lines == {stopped.answer.line} and replay(game, stopped.answer.line).final.resources.total() == 1
    assert stopped.answer.deterministic_time < free.answer.deterministic_time
    assert free.stopped_at(2).line == free.answer.line and free.stopped_at(3) == free.answer
