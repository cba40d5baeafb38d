"""The window improver (solver/improve.py): better lines when a proof does not finish."""
from __future__ import annotations

import dataclasses
import random
from functools import lru_cache

from solver.engine import Game, replay
from solver.improve import (ImproveSettings, WindowModel, consecutive_windows, fix_all_but, improve_line, line_score,
                            pair_windows)
from solver.model import ModelOptions, RoundModel
from solver.playout import greedy_line, random_line
from solver.realms import get_realm
from solver.solve import STAR_WEIGHT, _window_solver, load_params, solve_optimal, witness_search

REALMS = ("libertalia", "parks", "wurfelwelten")
ROLLS = ((2, 5), (1, 3), (1, 4))


def _game(rolls=ROLLS) -> Game:
    return Game(tuple(get_realm(k) for k in REALMS), rolls)


@lru_cache(maxsize=None)
def _truth():
    """The proven optimum of `_game()` (several tests compare with it; solved once, before any
    test patches the solver)."""
    return solve_optimal(_game(), time_limit=30, prove=False)


def _improve(game: Game, settings: ImproveSettings, budget: float = 20.0):
    params = load_params("optimal")
    return improve_line(game, greedy_line(game), budget, _window_solver(params, 1), STAR_WEIGHT, settings)


def test_a_window_over_the_whole_round_reaches_the_proven_optimum():
    game = _game()
    greedy = line_score(game, greedy_line(game), STAR_WEIGHT)
    best = _truth()
    assert best.status == "optimal"
    optimum = STAR_WEIGHT * best.stars + best.leftover
    assert greedy < optimum  # the instance needs improving, or the test proves nothing
    line, spent = _improve(game, ImproveSettings(window=3, per_window=10.0, passes=1))
    assert line_score(game, line, STAR_WEIGHT) == optimum
    assert 0 < spent <= 20.0


def test_the_windows_improve_a_greedy_line_and_keep_it_legal():
    game = _game(((2, 5), (1, 3), (1, 4), (4, 4)))
    start = greedy_line(game)
    line, _ = _improve(game, ImproveSettings(window=2, per_window=5.0, passes=1))
    rep = replay(game, line)  # raises if the engine finds an illegal step
    assert rep.stars_total >= replay(game, start).stars_total
    assert line_score(game, line, STAR_WEIGHT) >= line_score(game, start, STAR_WEIGHT)
    assert line_score(game, line, STAR_WEIGHT) > line_score(game, start, STAR_WEIGHT)


def test_one_window_changes_only_its_own_turns():
    game = _game(((2, 5), (1, 3), (1, 4), (4, 4)))
    start = greedy_line(game)
    rm = RoundModel(game)
    fix_all_but(rm, start, {0, 1})
    rm.model.maximize(STAR_WEIGHT * rm.stars + rm.leftover)
    found, _ = _window_solver(load_params("optimal"), 1)(rm, 10.0)
    assert found is not None
    # turns 3 and 4 play the same actions (the engine may order a turn's set differently)
    for t in (2, 3):
        assert sorted(map(repr, found.turns[t].actions)) == sorted(map(repr, start.turns[t].actions))
    assert line_score(game, found, STAR_WEIGHT) >= line_score(game, start, STAR_WEIGHT)


def _window_optimum(rm: RoundModel):
    from solver.solve import make_solver, solve_with_cuts

    solver = make_solver(load_params("optimal"), 30.0, 1)
    res = solve_with_cuts(rm, solver)
    assert res.status == "optimal"
    return line_score(rm.game, res.line, STAR_WEIGHT), res.line


def test_the_shared_window_model_answers_as_a_fresh_one():
    """`WindowModel` builds the round model once and fixes a window's other turns by domains:
    window after window (the line changing between them, cuts and Parks' lazily created literals
    staying in the model) its proven optimum equals a freshly built model's, and the domains are
    put back after each window."""
    from solver.improve import WindowModel
    from solver.realms import get_realm

    game = Game(tuple(get_realm(k) for k in ("libertalia", "parks", "wurfelwelten")), ((2, 5), (1, 3), (6, 6)))
    wm = WindowModel(game, ModelOptions(), STAR_WEIGHT)
    line = greedy_line(game)
    base = None
    for free in [(0, 1), (0, 2), (1, 2), (0, 1)]:
        fresh = RoundModel(game)
        fix_all_but(fresh, line, set(free))
        fresh.model.maximize(STAR_WEIGHT * fresh.stars + fresh.leftover)
        expected_score, _ = _window_optimum(fresh)
        with wm.window(line, set(free)) as rm:
            fixed = [i for i, v in enumerate(rm.model.proto.variables) if list(v.domain)[:1] * 2 == list(v.domain)]
            score, found = _window_optimum(rm)
        assert score == expected_score
        domains = [list(v.domain) for v in rm.model.proto.variables]
        if base is None:
            base = domains
            assert any(base[i][0] != base[i][1] for i in fixed)  # the window did fix variables
        assert domains[:len(base)] == base
        line = found  # the next window starts from the best line, as in the improver
    assert wm.shared_windows == 4 and wm.fresh_windows == 0


def test_the_shared_window_model_restores_domains_when_the_solve_fails():
    """The domains come back even when the block ends in an exception."""
    from solver.improve import WindowModel

    game = _game()
    wm = WindowModel(game, ModelOptions(), STAR_WEIGHT)
    line = greedy_line(game)
    with wm.window(line, {0}) as rm:
        pass
    before = [list(v.domain) for v in rm.model.proto.variables]
    try:
        with wm.window(line, {1}):
            raise RuntimeError("solve failed")
    except RuntimeError:
        pass
    assert [list(v.domain) for v in rm.model.proto.variables][:len(before)] == before


def test_values_the_domains_cannot_state_get_a_fresh_model():
    """Two values for one variable, a value outside its domain, or an expression: `_domain_pins`
    declines (the window then gets a fresh model: next test)."""
    from ortools.sat.python import cp_model

    from solver.improve import _domain_pins

    m = cp_model.CpModel()
    x = m.new_int_var(0, 4, "x")
    b = m.new_bool_var("b")
    assert _domain_pins(m, [(x, 3), (~b, 1)]) == {x.index: 3, b.index: 0}
    assert _domain_pins(m, [(x, 3), (x, 2)]) is None
    assert _domain_pins(m, [(x, 5)]) is None
    assert _domain_pins(m, [(x + b, 1)]) is None


def test_a_window_the_domains_cannot_fix_is_solved_on_a_fresh_model(monkeypatch):
    """When `_domain_pins` declines, the window gets a freshly built model with the other turns
    fixed by equalities, and its optimum is the shared model's."""
    import solver.improve as I

    game = _game(((2, 5), (1, 3), (1, 4), (4, 4)))
    line = greedy_line(game)
    wm = I.WindowModel(game, ModelOptions(), STAR_WEIGHT)
    with wm.window(line, {0, 2}) as rm:
        shared_score, _ = _window_optimum(rm)
    monkeypatch.setattr(I, "_domain_pins", lambda model, values: None)
    with wm.window(line, {0, 2}) as rm:
        assert rm is not wm._rm
        fresh_score, found = _window_optimum(rm)
    assert fresh_score == shared_score and wm.fresh_windows == 1 and wm.shared_windows == 1
    for t in (1, 3):
        assert sorted(map(repr, found.turns[t].actions)) == sorted(map(repr, line.turns[t].actions))


def test_the_windows_consecutive_and_in_pairs():
    assert consecutive_windows(0, 4, 2) == [(0, 1), (1, 2), (2, 3)]
    assert consecutive_windows(3, 4, 2) == [(3,)]  # narrower near the end of a played round
    assert pair_windows(0, 4) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert pair_windows(2, 4) == [(2, 3)]


def test_a_pair_of_distant_turns_is_re_solved_and_the_rest_kept():
    """Turns 1 and 3 re-solved together (not adjacent): turns 2 and 4 play as before, and the
    line improves on the greedy one."""
    game = _game(((2, 5), (1, 3), (1, 4), (4, 4)))
    start = greedy_line(game)
    line, spent = improve_line(game, start, 10.0, _window_solver(load_params("optimal"), 1), STAR_WEIGHT,
                               ImproveSettings(passes=1), windows=[(0, 2)], per_window=5.0)
    for t in (1, 3):
        assert sorted(map(repr, line.turns[t].actions)) == sorted(map(repr, start.turns[t].actions))
    assert line_score(game, line, STAR_WEIGHT) > line_score(game, start, STAR_WEIGHT)
    assert replay(game, line).legal and 0 < spent <= 10.0


def test_same_input_same_line():
    game = _game()
    settings = ImproveSettings(window=2, per_window=0.5, passes=1)
    first, _ = _improve(game, settings)
    second, _ = _improve(game, settings)
    assert first == second


def test_witness_search_finds_a_reachable_target_and_never_claims_an_unreachable_one():
    game = _game()
    params = load_params("target")
    best = _truth()
    assert best.status == "optimal"
    assert replay(game, greedy_line(game)).stars_total < best.stars  # the greedy start is not enough
    witness, spent = witness_search(game, best.stars, params, 20.0, 1)
    assert witness is not None and replay(game, witness).stars_total >= best.stars
    assert spent > 0
    none, _ = witness_search(game, best.stars + 1, params, 5.0, 1)
    assert none is None


def test_improve_both_searches_without_compensation_first_then_the_round(monkeypatch):
    """The first pass runs on the round under compensation=off (its lines are legal in the round),
    the second on the round itself with what is left."""
    import solver.solve as S
    from solver.line import Compensation
    from solver.model import ModelOptions

    calls = []
    real = S.improve_line

    def spy(game, line, budget, *args, **kwargs):
        calls.append((game.rules.compensation, any(isinstance(a, Compensation) for t in line.turns for a in t.actions)))
        return real(game, line, budget, *args, **kwargs)

    monkeypatch.setattr(S, "improve_line", spy)
    game = _game(((2, 5), (1, 3), (1, 4), (4, 4)))
    start = greedy_line(game)
    line, spent = S.improve_both(game, start, 3.0, load_params("optimal"), 1, ModelOptions())
    assert [c[0] for c in calls] == ["off", "choice"]
    assert replay(game, line).legal and line_score(game, line, STAR_WEIGHT) >= line_score(game, start, STAR_WEIGHT)
    assert 0 < spent <= 3.0 + 0.05  # (CP-SAT checks its deterministic limit now and then: a hair over)


def test_improve_both_s_passes_run_on_the_region_of_the_line_s_3_pumpkin_activations(monkeypatch):
    """With `improve_region_windows` both passes (without compensation, then the round) solve
    wider windows on the region of the lines with at most `improve_region_extra_room` more
    3-pumpkin activations than their start line (a smaller model); without it, on the whole round
    in 4-turn windows. The line stays legal in the round."""
    import solver.solve as S
    from solver.split import line_extras

    calls = []
    real = S.improve_line

    def spy(game, line, budget, solve_window, weight, settings, options, *args, **kwargs):
        calls.append((game.rules.compensation, options.max_total_extras, settings.window, settings.per_window, line))
        return real(game, line, budget, solve_window, weight, settings, options, *args, **kwargs)

    monkeypatch.setattr(S, "improve_line", spy)
    game = _game(((2, 5), (1, 3), (1, 4), (4, 4)))
    start = greedy_line(game)
    params = {**load_params("optimal"), "improve_region_window": 3, "improve_region_window_deterministic_time": 0.7}
    assert params["improve_region_windows"] is True  # (round.toml's default)
    room = params.get("improve_region_extra_room", 0)
    line, _ = S.improve_both(game, start, 3.0, params, 1, ModelOptions())
    assert [c[0] for c in calls] == ["off", "choice"]
    for _, extras, window, per_window, from_line in calls:
        assert extras == line_extras(from_line) + room and (window, per_window) == (3, 0.7)
    assert replay(game, line).legal
    calls.clear()
    S.improve_both(game, start, 3.0, {**params, "improve_region_windows": False}, 1, ModelOptions())
    for call in calls:
        assert call[1:4] == (None, params["improve_window"], params["improve_window_deterministic_time"])
    # a line with two 3-pumpkin activations: the region of at most two, unless the caller's own
    # bound (a region of the split) is the lower
    monkeypatch.setattr(S, "line_extras", lambda line: 2)
    assert S._region_pass(ModelOptions(), start, S.improve_settings(params), params)[0].max_total_extras == 2 + room
    assert S._region_pass(ModelOptions(max_total_extras=1), start, S.improve_settings(params), params)[0].max_total_extras == 1


def test_a_line_meeting_cp_sat_s_own_bound_has_its_stars_proven(monkeypatch):
    """Stage 2 stopped with no line but a proven bound (here: the true optimum, as at the 18-star
    cap) and no LP bound: the improver's line that meets it is proven, without the LP."""
    import solver.solve as S

    game = _game()
    truth = _truth()
    assert truth.status == "optimal"
    real = S.solve_with_cuts
    calls = []

    def first_unknown(rm, solver, *args, **kwargs):
        if kwargs.get("scale") == 1:  # the stage-2 solve (stars only): no line, CP-SAT's bound only
            calls.append(1)
            solver.parameters.max_deterministic_time = 0.0001
            solver.solve(rm.model)  # (so the solver has a response to read times from)
            return S.CutSolve("unknown", None, truth.stars, 0, solver.deterministic_time)
        return real(rm, solver, *args, **kwargs)

    monkeypatch.setattr(S, "solve_with_cuts", first_unknown)
    monkeypatch.setattr(S, "star_lp", lambda *a, **k: (None, None))
    res = S.solve_optimal(game, time_limit=30, prove=False)
    assert calls == [1]
    assert res.stars_proven and res.stars == truth.stars and res.star_bound == truth.stars
    calls.clear()
    bound_above = truth.stars + 1

    def first_unknown_above(rm, solver, *args, **kwargs):
        if kwargs.get("scale") == 1:
            calls.append(1)
            solver.parameters.max_deterministic_time = 0.0001
            solver.solve(rm.model)
            return S.CutSolve("unknown", None, bound_above, 0, solver.deterministic_time)
        return real(rm, solver, *args, **kwargs)

    monkeypatch.setattr(S, "solve_with_cuts", first_unknown_above)
    res = S.solve_optimal(game, time_limit=30, prove=False)
    assert calls == [1]
    assert not res.stars_proven and res.status == "unknown"  # a bound above the line proves nothing


def _star_searches(monkeypatch, S):
    """Record CP-SAT's star searches (stage 2: `solve_with_cuts` with scale 1)."""
    real = S.solve_with_cuts
    calls: list[int] = []

    def spy(rm, solver, *args, **kwargs):
        if kwargs.get("scale") == 1 and rm.options.max_total_extras is None:
            calls.append(1)
        return real(rm, solver, *args, **kwargs)

    monkeypatch.setattr(S, "solve_with_cuts", spy)
    return calls


def _fake_lp(stars: int):
    from fractions import Fraction

    from solver.lp_bound import LpBound

    return LpBound(float(stars), Fraction(stars), 0, 0, 0, 0.0)


def test_a_long_round_asks_the_lp_and_the_improver_before_cp_sat_s_star_search(monkeypatch):
    """`lp_first_turns`: when the quick or improved line meets the LP bound (here faked at the
    true optimum), CP-SAT's star search is never asked; a short round asks it first as before."""
    import solver.solve as S

    game = _game()
    truth = _truth()
    assert truth.status == "optimal"
    real_params = S.load_params

    def params_with(first_turns: int):
        return lambda q: {**real_params(q), "lp_first_turns": first_turns}

    monkeypatch.setattr(S, "star_lp", lambda lp_rm, params: (_fake_lp(truth.stars), None))
    calls = _star_searches(monkeypatch, S)
    monkeypatch.setattr(S, "load_params", params_with(len(game.rolls)))
    res = S.solve_optimal(game, time_limit=30, prove=False)
    assert calls == [] and res.stars_proven and res.stars == truth.stars
    monkeypatch.setattr(S, "load_params", params_with(len(game.rolls) + 1))  # a short round
    res = S.solve_optimal(game, time_limit=30, prove=False)
    assert calls == [1] and res.stars_proven and res.stars == truth.stars


def test_a_long_round_below_the_lp_bound_still_asks_cp_sat(monkeypatch):
    """The LP bound (faked one above the optimum) is not met: with `lp_first_star_search` on,
    CP-SAT's search runs after the improver, and its proven optimum is the answer (off, the
    default, the split comes next: tests/test_split.py)."""
    import solver.solve as S

    game = _game()
    truth = _truth()
    real_params = S.load_params
    monkeypatch.setattr(S, "star_lp", lambda lp_rm, params: (_fake_lp(truth.stars + 1), None))
    calls = _star_searches(monkeypatch, S)
    # (without 2d's opening after converged windows, which would prove the stars first)
    monkeypatch.setattr(S, "load_params", lambda q: {**real_params(q), "lp_first_turns": 1, "lp_first_star_search": True,
                                                    "split_after_converged_windows": False})
    res = S.solve_optimal(game, time_limit=30, prove=False)
    assert calls == [1] and res.status == "optimal" and res.stars == truth.stars


def test_2c_re_solves_two_turns_at_a_time_when_the_windows_stop_below_the_bound(monkeypatch):
    """2c: the consecutive windows (made to do nothing here) leave the line below the proven
    bound, so every two turns are re-solved (`pair_windows`) up to it; with the pairs off too the
    line stays below and the stars unproven. Measured: bench seeds 12 and 42 17 -> 18 stars."""
    import solver.solve as S

    game = _game()
    truth = _truth()
    assert truth.status == "optimal"
    assert replay(game, greedy_line(game)).stars_total < truth.stars  # the start needs improving
    real_solve, real_line = S.solve_with_cuts, S.improve_line

    def stage2_bound_only(rm, solver, *args, **kwargs):
        if kwargs.get("scale") == 1:  # the stage-2 solve (stars only): no line, CP-SAT's bound only
            solver.parameters.max_deterministic_time = 0.0001
            solver.solve(rm.model)
            return S.CutSolve("unknown", None, truth.stars, 0, solver.deterministic_time)
        return real_solve(rm, solver, *args, **kwargs)

    windows_asked: list = []

    def pairs_spy(game_, line, *args, **kwargs):
        windows_asked.append(kwargs.get("windows"))
        return real_line(game_, line, *args, **kwargs)

    monkeypatch.setattr(S, "solve_with_cuts", stage2_bound_only)
    monkeypatch.setattr(S, "star_lp", lambda *a, **k: (None, None))
    monkeypatch.setattr(S, "_quick_line", lambda *a, **k: None)
    monkeypatch.setattr(S, "improve_both", lambda game_, line, *a, **k: (line, 0.0))
    monkeypatch.setattr(S, "improve_line", lambda game_, line, *a, **k: (line, 0.0))
    without = S.solve_optimal(game, time_limit=30, prove=False)
    assert not without.stars_proven and without.stars < truth.stars
    monkeypatch.setattr(S, "improve_line", pairs_spy)
    res = S.solve_optimal(game, time_limit=30, prove=False)
    params = load_params("optimal")
    size = params.get("improve_region_pair_turns", 2) if params.get("improve_region_pairs") else 2
    assert windows_asked and windows_asked[0] == pair_windows(0, game.turns, size)
    assert res.stars_proven and res.stars == truth.stars
    assert replay(game, res.line).stars_total == truth.stars


def test_improve_both_builds_each_window_model_once_for_all_its_runs(monkeypatch):
    """`solve_optimal` runs the improver in 2c and again in 3c: with the same `shared` dict the
    round model (and the one without compensation) is built once, not once per run."""
    import solver.improve as I
    import solver.solve as S

    builds: list[str] = []
    real = I.WindowModel._fresh

    def spy(self):
        builds.append(self.game.rules.compensation)
        return real(self)

    monkeypatch.setattr(I.WindowModel, "_fresh", spy)
    game = _game(((2, 5), (1, 3), (1, 4), (4, 4)))
    start = greedy_line(game)
    # one window per pass, one pass, 0.5 det-s: each run leaves time for both variants' windows
    params = {**load_params("optimal"), "improve_passes": 1, "improve_window_deterministic_time": 0.5,
              "improve_region_window_deterministic_time": 0.5}
    shared: dict = {}
    for _ in range(2):
        line, _ = S.improve_both(game, start, 2.0, params, 1, ModelOptions(), shared=shared)
        assert replay(game, line).legal
    # (the passes' regions: improve_region_windows; the greedy line has no 3-pumpkin activation)
    region = f"at most {params.get('improve_region_extra_room', 0)} 3-pumpkin activations"
    assert sorted(builds) == ["choice", "off"]
    assert sorted(shared) == [f"choice, {region}", f"off, {region}"]


def test_window_solves_take_the_improve_solver_settings(monkeypatch):
    """round.toml's `improve_solver_NAME` keys set CP-SAT's NAME for the improver's window solves
    only (the question's own solves keep theirs)."""
    import solver.solve as S

    params = {**load_params("optimal"), "improve_solver_symmetry_level": 0, "improve_solver_max_presolve_iterations": 1}
    seen: list[tuple[int, int]] = []
    real = S.make_solver

    def spy(p, limit, workers):
        solver = real(p, limit, workers)
        seen.append((solver.parameters.symmetry_level, solver.parameters.max_presolve_iterations))
        return solver

    monkeypatch.setattr(S, "make_solver", spy)
    game = _game(((2, 5), (1, 3), (1, 4), (4, 4)))
    rm = RoundModel(game)
    fix_all_but(rm, greedy_line(game), {0, 1})
    rm.model.maximize(STAR_WEIGHT * rm.stars + rm.leftover)
    S._window_solver(params, 1)(rm, 2.0)
    assert seen == [(params["improve_solver_symmetry_level"], params["improve_solver_max_presolve_iterations"])]
    assert real(params, 1.0, 1).parameters.symmetry_level != params["improve_solver_symmetry_level"]


def test_with_no_lp_bound_the_improver_stops_at_the_star_cap(monkeypatch):
    """A long round whose star LP gave no bound (GLOP at its limit): 2c's improver is asked to stop
    at the star cap, not to run its whole budget (measured on bench seed 41: four windows after
    18 stars, none better)."""
    import solver.solve as S

    game = _game()
    real_both, real_params = S.improve_both, S.load_params
    stops: list[int | None] = []

    def spy(*args, **kwargs):
        stops.append(kwargs.get("stop_at"))
        return real_both(*args, **kwargs)

    monkeypatch.setattr(S, "improve_both", spy)
    monkeypatch.setattr(S, "star_lp", lambda lp_rm, params: (None, None))
    monkeypatch.setattr(S, "load_params", lambda q: {**real_params(q), "lp_first_turns": 1})
    S.solve_optimal(game, time_limit=5, prove=False)
    assert stops and stops[0] == STAR_WEIGHT * game.rules.star_cap * len(game.realms)


def test_a_window_asked_again_on_the_unchanged_model_is_not_solved_again():
    """`WindowModel.solved`: the same window, line, limit and solver on the unchanged model give
    the earlier answer (CP-SAT would repeat it); once the model has grown (a cut), it is solved."""
    game = _game()
    line = greedy_line(game)
    shared = WindowModel(game, ModelOptions(), STAR_WEIGHT)
    real = _window_solver(load_params("optimal"), 1)
    solves: list[float] = []

    def solve_window(rm, limit):
        solves.append(limit)
        return real(rm, limit)

    solve_window.question = real.question  # (one worker: the same question gets the same answer)
    answers = []
    for _ in range(2):
        with shared.window(line, {0, 1}) as rm:
            answers.append(shared.solved(rm, line, (0, 1), 1.0, solve_window))
    assert len(solves) == 1 and answers[0] == answers[1] and shared.repeated_windows == 1
    with shared.window(line, {0, 1}) as rm:
        shared.solved(rm, line, (0, 1), 0.5, solve_window)  # another limit: another question
        rm.model.add(rm.stars >= 0)  # the model grows (as a cut makes it)
    with shared.window(line, {0, 1}) as rm:
        shared.solved(rm, line, (0, 1), 1.0, solve_window)
    assert solves == [1.0, 0.5, 1.0]
    assert not hasattr(_window_solver(load_params("optimal"), 2), "question")  # two workers: solved each time


def test_the_improver_gives_the_same_line_and_time_with_windows_answered_again(monkeypatch):
    """Two passes over a round whose second pass repeats windows of the first: the same line and
    deterministic time as when every window is solved, with fewer solves."""
    game = _game(((4, 5), (3, 3), (2, 2), (6, 1), (3, 5)))  # (found by trying rolls: 3 of 8 windows repeat)
    real = _window_solver(load_params("optimal"), 1)
    settings = ImproveSettings(window=2, per_window=0.5, passes=2)
    solves: list[int] = []

    def solve_window(rm, limit):
        solves.append(1)
        return real(rm, limit)

    solve_window.question = real.question
    start = greedy_line(game)
    with_answers = improve_line(game, start, 20.0, solve_window, STAR_WEIGHT, settings)
    repeated = len(solves)
    solves.clear()
    monkeypatch.setattr(WindowModel, "solved", lambda self, rm, line, free, limit, solve: solve(rm, limit))
    every = improve_line(game, start, 20.0, solve_window, STAR_WEIGHT, settings)
    assert with_answers == every
    assert repeated < len(solves)


def test_the_quick_line_without_compensation_is_asked_once_for_both_improver_runs(monkeypatch):
    """A start line that compensates is no line of the round without compensation, so the
    improver starts there from that round's quick line: 2c and 3c ask the same quick line, and
    with the same `shared` models it is solved once and the second run is the first's again."""
    import solver.solve as S

    game = _game(((5, 3), (6, 3), (6, 6), (6, 5)))  # (found by trying rolls: its greedy line compensates)
    start = greedy_line(game)
    off = Game(game.realms, game.rolls, dataclasses.replace(game.rules, compensation="off"))
    assert not replay(off, start).legal
    quick: list[float] = []
    real = S._quick_line

    def spy(game_, params, limit, options):
        quick.append(limit)
        return real(game_, params, limit, options)

    monkeypatch.setattr(S, "_quick_line", spy)
    params = {**load_params("optimal"), "improve_passes": 1, "improve_window_deterministic_time": 0.5}
    shared: dict = {}
    runs = [S.improve_both(game, start, 4.0, params, 1, ModelOptions(), shared=shared) for _ in range(2)]
    assert quick == [2.0] and runs[0] == runs[1]


def test_2e_asks_highs_for_one_star_more_only_when_the_stars_stay_open(monkeypatch):
    """2e (solve.mip_line): on a long round whose stars nothing else proves (the LP faked one
    above the optimum, the split off), HiGHS is asked for one star more than the best line, and
    finding none leaves the answer unknown; with the LP at the optimum the stars are proven
    first and 2e is never asked."""
    import solver.solve as S

    game = _game()
    truth = _truth()
    real_params, real_mip = S.load_params, S.mip_line
    asked: list[int] = []

    def spy(game_, options, stars, *args, **kwargs):
        asked.append(stars)
        return real_mip(game_, options, stars, *args, **kwargs)

    monkeypatch.setattr(S, "mip_line", spy)
    monkeypatch.setattr(S, "load_params", lambda q: {**real_params(q), "lp_first_turns": 1, "split_max_extras": 0})
    monkeypatch.setattr(S, "star_lp", lambda lp_rm, params: (_fake_lp(truth.stars + 1), None))
    res = S.solve_optimal(game, time_limit=5, prove=False, speculate=False)
    assert asked == [truth.stars + 1] and res.status == "unknown" and res.stars == truth.stars
    asked.clear()
    monkeypatch.setattr(S, "star_lp", lambda lp_rm, params: (_fake_lp(truth.stars), None))
    res = S.solve_optimal(game, time_limit=5, prove=False, speculate=False)
    assert asked == [] and res.stars_proven and res.stars == truth.stars


def test_improve_both_says_when_its_windows_without_compensation_converge():
    """`off_converged` (2c's trigger for 2d's opening) is called when the first pass's windows
    ended within their budget, never when the budget ran out."""
    import solver.solve as S

    game = _game(((2, 5), (1, 3), (1, 4), (4, 4)))
    start, params = greedy_line(game), load_params("optimal")
    calls: list[int] = []
    S.improve_both(game, start, 0.5, params, 1, ModelOptions(), off_converged=lambda: calls.append(1))
    assert calls == []  # the budget ran out: the windows did not converge
    line, _ = S.improve_both(game, start, 100.0, params, 1, ModelOptions(), off_converged=lambda: calls.append(1))
    assert calls == [1] and replay(game, line).legal


def test_2c_asks_2d_s_opening_after_converged_windows_and_ends_at_its_proof(monkeypatch):
    """Long rounds (here every round: `lp_first_turns` 1) whose windows without compensation
    converge, the windows leaving the line below the LP bound (faked at the true optimum), ask
    2d's opening (the region without 3-pumpkin activations) before the pairs; its line meets the
    bound, so the pairs are not asked. With `split_after_converged_windows` off they are."""
    import solver.solve as S

    game = _game()
    truth = _truth()
    assert truth.status == "optimal"
    first = greedy_line(game)
    assert replay(game, first).stars_total < truth.stars
    real_params = S.load_params
    passes: list = []

    def stalled_windows(game_, line, *args, **kwargs):
        """The windows and pairs find nothing and use none of their budget (they converge)."""
        passes.append((game_.rules.compensation, kwargs.get("windows") is not None))
        return line, 0.0

    def params_with(opening: bool):
        return lambda q: {**real_params(q), "lp_first_turns": 1, "split_after_converged_windows": opening}

    monkeypatch.setattr(S, "star_lp", lambda lp_rm, params: (_fake_lp(truth.stars), None))
    monkeypatch.setattr(S, "_quick_line", lambda *a, **k: None)
    monkeypatch.setattr(S, "greedy_line", lambda game_, played=None: first)
    monkeypatch.setattr(S, "improve_line", stalled_windows)
    monkeypatch.setattr(S, "load_params", params_with(True))
    res = S.solve_optimal(game, time_limit=30, prove=False)
    assert passes == [("off", False), ("choice", False)]  # the region's line met the bound: no pairs
    assert res.stars_proven and res.stars == truth.stars

    passes.clear()
    monkeypatch.setattr(S, "load_params", params_with(False))
    res = S.solve_optimal(game, time_limit=30, prove=False)
    assert passes == [("off", False), ("choice", False), ("choice", True)]  # windows, then pairs
    assert res.stars_proven and res.stars == truth.stars  # (2d's region proves them)

    # the LP one star above the optimum: the region's proven maximum proves the stars by the split
    passes.clear()
    monkeypatch.setattr(S, "star_lp", lambda lp_rm, params: (_fake_lp(truth.stars + 1), None))
    monkeypatch.setattr(S, "load_params", params_with(True))
    solves: list = []
    real_solve_into = S._solve_into

    def solve_into_spy(rm, *args, **kwargs):
        solves.append(rm.options.max_total_extras)
        return real_solve_into(rm, *args, **kwargs)

    monkeypatch.setattr(S, "_solve_into", solve_into_spy)
    res = S.solve_optimal(game, time_limit=30, prove=True)
    assert passes == [("off", False), ("choice", False)]
    assert res.status == "optimal" and res.stars == truth.stars and res.proof["method"] == "extras-split"
    assert solves.count(0) == 1  # the region's solve, asked once (2d does not ask it again)


def test_2d_does_not_ask_the_opening_s_region_solve_again_with_the_same_hint(monkeypatch):
    """The opening's hinted region solve did not prove (faked: every region solve unknown) and the
    pairs found nothing better: 2d's hinted solve would be the same question (one worker, the
    same hint and limit: the same answer), so it is not asked again."""
    import solver.solve as S

    game = _game()
    truth = _truth()
    first = greedy_line(game)
    real_params, real_solve_into = S.load_params, S._solve_into
    region_solves: list[bool] = []

    def solve_into_spy(rm, *args, **kwargs):
        if rm.options.max_total_extras == 0:
            region_solves.append(len(rm.model.proto.solution_hint.vars) > 0)
            return "unknown", None
        return real_solve_into(rm, *args, **kwargs)

    def params_with(opening: bool):
        return lambda q: {**real_params(q), "lp_first_turns": 1, "split_after_converged_windows": opening,
                          "star_cases_deterministic_time": 0, "region_portfolio_workers": 0, "line_mip_asks": 0}

    monkeypatch.setattr(S, "star_lp", lambda lp_rm, params: (_fake_lp(truth.stars + 1), None))
    monkeypatch.setattr(S, "_quick_line", lambda *a, **k: None)
    monkeypatch.setattr(S, "greedy_line", lambda game_, played=None: first)
    monkeypatch.setattr(S, "improve_line", lambda game_, line, *a, **k: (line, 0.0))
    monkeypatch.setattr(S, "_solve_into", solve_into_spy)
    monkeypatch.setattr(S, "load_params", params_with(False))
    S.solve_optimal(game, time_limit=30, prove=False)
    without = list(region_solves)
    region_solves.clear()
    monkeypatch.setattr(S, "load_params", params_with(True))
    S.solve_optimal(game, time_limit=30, prove=False)
    assert region_solves == without  # the same solves: the opening's one, then only 2d's others
    assert region_solves.count(True) == 1


def test_the_pairs_run_on_the_region_of_the_line_s_3_pumpkin_activations_in_sets_of_turns(monkeypatch):
    """With `improve_region_pairs` 2c's and 3c's pairs re-solve every `improve_region_pair_turns`
    turns (any, adjacent or not) on the region of the lines with at most
    `improve_region_extra_room` more 3-pumpkin activations than the best line (a smaller model);
    without it, every two turns on the whole round."""
    import solver.solve as S
    from solver.split import line_extras

    game = _game()
    truth = _truth()
    first = greedy_line(game)
    assert replay(game, first).stars_total < truth.stars
    real_params, real_line = S.load_params, S.improve_line
    asked: list = []

    def spy(game_, line, budget, solve_window, weight, settings, options, *args, **kwargs):
        if kwargs.get("windows") is not None:  # the pairs (the windows pass none)
            asked.append((options.max_total_extras, kwargs["windows"], line_extras(line)))
            return real_line(game_, line, budget, solve_window, weight, settings, options, *args, **kwargs)
        return line, 0.0  # the windows find nothing

    monkeypatch.setattr(S, "star_lp", lambda lp_rm, params: (_fake_lp(truth.stars), None))
    monkeypatch.setattr(S, "_quick_line", lambda *a, **k: None)
    monkeypatch.setattr(S, "greedy_line", lambda game_, played=None: first)
    monkeypatch.setattr(S, "improve_line", spy)
    base = {"lp_first_turns": 1, "split_after_converged_windows": False}
    monkeypatch.setattr(S, "load_params", lambda q: {**real_params(q), **base, "improve_region_pairs": True,
                                                    "improve_region_pair_turns": 3, "improve_region_extra_room": 1})
    res = S.solve_optimal(game, time_limit=30, prove=False)
    extras, windows, from_extras = asked[0]
    assert extras == from_extras + 1 and windows == pair_windows(0, game.turns, 3)
    assert all(len(w) == 3 for w in windows) and len(windows) == 1  # (3 turns: one set of three)
    assert res.stars_proven and res.stars == truth.stars and replay(game, res.line).legal
    asked.clear()
    monkeypatch.setattr(S, "load_params", lambda q: {**real_params(q), **base, "improve_region_pairs": False})
    S.solve_optimal(game, time_limit=30, prove=False)
    assert asked[0][:2] == (None, pair_windows(0, game.turns))


def test_improve_both_without_off_restart_improves_a_compensating_line_on_the_round_only(monkeypatch):
    """3c (`improve_leftover_off_restart` false): a line that compensates is no line of the round
    without compensation; improve_both then spends its whole budget on the round's own windows from
    that line, instead of restarting the first pass from that round's quick line (which starts
    below the line's stars). A line that does not compensate still gets both passes."""
    import solver.solve as S

    game = _game(((2, 5), (1, 3), (1, 4), (4, 4)))
    params = load_params("optimal")
    calls: list = []
    real = S.improve_line

    def spy(game_, line, budget, *args, **kwargs):
        calls.append((game_.rules.compensation, line, budget))
        return real(game_, line, budget, *args, **kwargs)

    monkeypatch.setattr(S, "improve_line", spy)
    start = greedy_line(game)
    off = S._without_compensation(game)
    # a random legal line that trades a die for a resource (found among the first seeds)
    compensating = next(ln for ln in (random_line(game, random.Random(seed)) for seed in range(500))
                        if replay(game, ln).legal and not replay(off, ln).legal)
    S.improve_both(game, compensating, 3.0, params, 1, ModelOptions(), off_restart=False)
    assert [(c[0], c[1], c[2]) for c in calls] == [("choice", compensating, 3.0)]
    calls.clear()
    S.improve_both(game, compensating, 3.0, params, 1, ModelOptions())
    assert [c[0] for c in calls] == ["off", "choice"] and calls[0][1] != compensating
    calls.clear()
    assert replay(off, start).legal  # (the greedy line does not compensate here)
    S.improve_both(game, start, 3.0, params, 1, ModelOptions(), off_restart=False)
    assert [c[0] for c in calls] == ["off", "choice"] and calls[0][1] == start


# bench/round.py's seeds 48 and 13 (9 turns; both small models have more than 5 000 variables)
SEED_48 = (("feast-for-odin", "parks", "wurfelwelten"),
           ((5, 3), (2, 5), (6, 5), (3, 5), (2, 6), (4, 2), (2, 6), (1, 4), (6, 2)))
SEED_13 = (("ark-nova", "feast-for-odin", "libertalia"),
           ((3, 3), (6, 6), (2, 6), (2, 6), (2, 2), (6, 6), (2, 2), (1, 5), (2, 6)))


def test_stage_1_asks_no_quick_line_of_a_large_model_whose_greedy_line_compensates():
    """`quick_max_variables` (round.toml): a small model above it is not solved when the greedy
    line compensates (2c restarts from the quick line of the round without compensation then);
    where the greedy line does not compensate, or the rule is off, there is no limit."""
    import solver.solve as S

    params = load_params("optimal")
    limit = params["quick_max_variables"]
    large = Game(tuple(get_realm(k) for k in SEED_48[0]), SEED_48[1])
    off = Game(large.realms, large.rolls, dataclasses.replace(large.rules, compensation="off"))
    assert not replay(off, greedy_line(large)).legal  # (its greedy line compensates)
    assert S._quick_max_variables(large, params, ModelOptions(), greedy_line(large)) == limit
    assert S._quick_line(large, params, None, ModelOptions(), max_variables=limit) is None
    assert S._quick_max_variables(off, params, ModelOptions(), greedy_line(off)) is None
    assert S._quick_max_variables(large, {k: v for k, v in params.items() if k != "quick_max_variables"},
                                  ModelOptions(), greedy_line(large)) is None
    plain = Game(tuple(get_realm(k) for k in SEED_13[0]), SEED_13[1])
    assert replay(dataclasses.replace(plain, rules=off.rules), greedy_line(plain)).legal
    assert S._quick_max_variables(plain, params, ModelOptions(), greedy_line(plain)) is None


def test_a_small_model_under_the_limit_is_still_solved():
    """The limit counts the small model's variables: a 3-turn round's model is far below it, and
    its quick line is asked (a legal line: `_quick_line` replays it)."""
    import solver.solve as S

    game = _game()
    params = load_params("optimal")
    assert S._quick_line(game, params, None, ModelOptions(), max_variables=params["quick_max_variables"]) is not None
