"""Solves on a spare core (solver/speculate.py): the same answers as the sequential path, a task
not asked for is stopped, and stage 3 uses its speculative leftover solve instead of solving again."""
from __future__ import annotations

import os
import random
import sys
import threading
import time
from typing import Any

import pytest
from ortools.sat.python import cp_model

import solver.solve as S
from conftest import make_game
from solver.rules import RuleSet
from solver.speculate import Speculation

#: tests/test_split.py's three-turn round
SMALL = make_game(("libertalia", "parks", "wurfelwelten"), [(1, 1), (1, 3), (2, 6)])


def _long(monkeypatch) -> None:
    """Every round is a long one (`lp_first_turns` = 1), so the speculative paths are taken on
    these short rounds, and a spare core is assumed (CI machines may have one core)."""
    real_params = S.load_params
    monkeypatch.setattr(S, "load_params", lambda q: {**real_params(q), "lp_first_turns": 1, "lp_first_star_search": True})
    monkeypatch.setattr(S, "spare_core", lambda: True)


def _answer(res: S.RoundResult) -> tuple:
    return (res.status, res.stars, res.leftover, res.star_bound, res.leftover_bound, res.line, res.cuts,
            res.stars_proven)


def _leftover_solves(monkeypatch) -> list[tuple[int | None, str, bool]]:
    """Every leftover CP-SAT solve from now on, as (region, thread, the finder's settings?)."""
    real = S._leftover_solve
    calls: list[tuple[int | None, str, bool]] = []

    def spy(game, options, stars, hint, params, *args, **kwargs):
        calls.append((options.max_total_extras, threading.current_thread().name, params.get("cp_model_probing_level") == 0))
        return real(game, options, stars, hint, params, *args, **kwargs)

    monkeypatch.setattr(S, "_leftover_solve", spy)
    return calls


def _same(beside: S.RoundResult, alone: S.RoundResult) -> bool:
    """The same answer; the deterministic time no less beside (the speculative leftover solve runs
    on past the line the sequential one stops at: solver/speculate.py)."""
    return _answer(beside) == _answer(alone) and round(beside.deterministic_time, 6) >= round(alone.deterministic_time, 6)


def test_speculation_gives_the_same_answer_and_stage_3_takes_its_leftover_solve(monkeypatch) -> None:
    """With and without the spare core: the same status, line, bounds and cuts, and no less
    deterministic time beside (the speculative solves ask exactly the questions the sequential
    path asks; `_same`). With it,
    the leftover question of the lines without 3-pumpkin activations is asked once, its line
    finder (`leftover_finder`, no probing) in the spare core's thread, and stage 3 uses it;
    without it, every leftover solve runs in the asking thread."""
    _long(monkeypatch)
    with_finder = S.load_params  # (round.toml has the finder off; here it is on, as it can be)
    monkeypatch.setattr(S, "load_params", lambda q: {**with_finder(q), "leftover_finder_deterministic_time": 6.0})
    assert S.finder_on(S.load_params("optimal"))
    calls = _leftover_solves(monkeypatch)
    alone = S.solve_optimal(SMALL, 30, prove=False, speculate=False)
    assert calls and all(name == threading.current_thread().name for _, name, _ in calls)
    assert (0, threading.current_thread().name, True) in calls
    calls.clear()
    beside = S.solve_optimal(SMALL, 30, prove=False, speculate=True)
    assert calls[0] == (0, "speculative-solve", True)
    assert (0, threading.current_thread().name, True) not in calls  # not asked again
    assert alone.status == "optimal"
    assert _same(beside, alone)


def test_a_speculative_finder_that_misses_is_followed_by_the_question_s_own_solve_on_the_spare_core(monkeypatch) -> None:
    """The line finder finding nothing within its limit (here 0.001 det-s): on the spare core its
    run is followed by the question's own solve (with the late stop, `TrailedRun`), and stage 3
    takes both, asking nothing more in its own thread; the answer is the sequential path's,
    where the same two solves run one after the other in the asking thread."""
    _long(monkeypatch)
    short = S.load_params
    monkeypatch.setattr(S, "load_params", lambda q: {**short(q), "leftover_finder_deterministic_time": 0.001})
    calls = _leftover_solves(monkeypatch)
    main = threading.current_thread().name
    alone = S.solve_optimal(SMALL, 30, prove=False, speculate=False)
    assert calls[:2] == [(0, main, True), (0, main, False)]  # (the finder missed: the own solve follows)
    calls.clear()
    beside = S.solve_optimal(SMALL, 30, prove=False, speculate=True)
    assert calls[:2] == [(0, "speculative-solve", True), (0, "speculative-solve", False)]
    assert all(region != 0 or name != main for region, name, _ in calls)  # not asked again
    assert alone.status == "optimal"
    assert _same(beside, alone)


def test_a_speculative_leftover_question_learns_its_stop_after_its_finder_ended(monkeypatch) -> None:
    """The stop learnt only after the finder's run ended (here waited for): the spare core has
    gone on with the question's own solve. Asked with a stop the finder's line meets, that solve
    is dropped and the finder's line is the answer; with a stop it does not meet, the own
    solve's line at that stop. Either way the line `leftover_solve` gives in the asking thread."""
    from solver.model import ModelOptions

    game = make_game(("libertalia", "parks", "wurfelwelten"), [(2, 5), (1, 3), (1, 4), (4, 4), (6, 4)])
    stars = 8  # (the round's optimum: 8 stars, leftover 2; tests/test_split.py)
    roomy = {**S.load_params("optimal"), "leftover_finder_deterministic_time": 6.0}
    hint = S.leftover_finder(game, ModelOptions(), stars, None, roomy, 30, 1).trail[0][1]  # (leftover 1)
    params = {**roomy, "leftover_finder_deterministic_time": 1.0}
    first = S.leftover_finder(game, ModelOptions(), stars, hint, params, 30, 1)
    assert [value for value, _, _ in first.trail] == [1] and first.answer.status == "unknown"
    real = S._leftover_solve
    whole_started = threading.Event()

    def spy(game, options, stars, hint, params, *args, **kwargs):
        if params.get("cp_model_probing_level") != 0:
            whole_started.set()
        return real(game, options, stars, hint, params, *args, **kwargs)

    monkeypatch.setattr(S, "_leftover_solve", spy)
    for stop in (1, 2):
        whole_started.clear()
        spec = S.LeftoverSpeculation(game, ModelOptions(), stars, hint, params, 30, 1)
        assert whole_started.wait(60)  # (the finder ended with no stop known, and missed none)
        beside = spec.answer(ModelOptions(), stars, hint, stop)
        alone = S.leftover_solve(game, ModelOptions(), stars, hint, params, 30, 1, stop_at=stop)
        assert beside is not None and beside.line is not None and alone.bound is not None and beside.bound is not None
        assert (beside.line, beside.cuts) == (alone.line, alone.cuts) and S._leftover(game, beside.line) == stop
        # (the bound and status are the run's, which may have gone past the stop: with the stop
        # a proven bound, as stage 3's, the round's bound min(stop, bound) is the same)
        assert min(stop, beside.bound) == min(stop, alone.bound)


def test_the_split_s_lps_start_beside_the_quick_line(monkeypatch) -> None:
    """The star LP's task starts the extras split's LPs as soon as it has the star LP, so they
    run beside stage 1's quick line, not after it (docs/performance.md, thirty-sixth session).
    The quick line here waits until they have started: were they started after it, it would
    wait in vain. (That the answer is the sequential path's: the test above.)"""
    _long(monkeypatch)
    started = threading.Event()
    beside: list[bool] = []  # were they started when the quick line began?
    real_split_lps, real_quick = S._split_lps, S._quick_line

    def split_lps(split):
        started.set()
        return real_split_lps(split)

    def quick_line(*args, **kwargs):
        beside.append(started.wait(20))
        return real_quick(*args, **kwargs)

    monkeypatch.setattr(S, "_split_lps", split_lps)
    monkeypatch.setattr(S, "_quick_line", quick_line)
    res = S.solve_optimal(SMALL, 30, prove=False, speculate=True)
    assert beside == [True] and res.status == "optimal"


def test_the_quick_line_without_compensation_is_asked_while_the_star_lp_runs(monkeypatch) -> None:
    """The star LP still running when stage 1 ends and the quick line compensating: 2c's first
    question (the quick line of the round without compensation, improve_both) is asked then,
    before the star LP is taken, and 2c finds it answered; the answer is the sequential one."""
    _long(monkeypatch)
    game = make_game(("libertalia", "parks", "wurfelwelten"), [(6, 3), (6, 6), (5, 4)], RuleSet(compensation="choice"))
    monkeypatch.setattr(Speculation, "done", lambda self: False)  # (the LP of 3 turns is fast)
    real_quick, real_take = S._quick_line, Speculation.take
    asked: list[tuple[str, bool]] = []  # (compensation rule, star LP taken yet)
    taken: list[str] = []

    def quick_line(g, *args, **kwargs):
        asked.append((g.rules.compensation, "star-lp" in taken))
        return real_quick(g, *args, **kwargs)

    def take(self, key):
        taken.append(self.key)
        return real_take(self, key)

    monkeypatch.setattr(S, "_quick_line", quick_line)
    monkeypatch.setattr(Speculation, "take", take)
    beside = S.solve_optimal(game, 30, prove=False, speculate=True)
    assert asked[:2] == [("choice", False), ("off", False)] and asked.count(("off", True)) == 0
    asked.clear()
    taken.clear()
    alone = S.solve_optimal(game, 30, prove=False, speculate=False)
    assert ("off", False) in asked  # (asked by 2c there: a question of the sequential path too)
    assert _same(beside, alone)


def test_stage_3_starts_its_speculative_leftover_solve_before_it_waits_for_the_split_s_lps(monkeypatch) -> None:
    """The stars proven before 2d, stage 3 starts its speculative leftover solve first and
    only then waits for the split's LPs (which may still run on the spare core): here they wait
    until that solve has started, which they would wait for in vain if stage 3 waited first.
    (2c's opening, which waits for them too, is off: the stars are proven by CP-SAT's search.)"""
    _long(monkeypatch)
    long_params = S.load_params
    monkeypatch.setattr(S, "load_params", lambda q: {**long_params(q), "split_after_converged_windows": False})
    started = threading.Event()
    waited: list[bool] = []
    real_split_lps, real_leftover = S._split_lps, S._leftover_solve

    def split_lps(split):
        waited.append(started.wait(20))
        return real_split_lps(split)

    def leftover_solve(game, options, *args, **kwargs):
        if threading.current_thread().name == "speculative-solve":
            started.set()
        return real_leftover(game, options, *args, **kwargs)

    monkeypatch.setattr(S, "_split_lps", split_lps)
    monkeypatch.setattr(S, "_leftover_solve", leftover_solve)
    res = S.solve_optimal(SMALL, 30, prove=False, speculate=True)
    assert waited == [True] and res.status == "optimal"


def _knapsack(seed: int, items: int, rows: int) -> tuple[cp_model.CpModel, Any]:
    """A random 0/1 multi-knapsack (`rows` capacity rows of a third of their weights) and its
    profit, not yet the model's objective."""
    rng = random.Random(seed)
    model = cp_model.CpModel()
    xs = [model.new_bool_var(f"x{i}") for i in range(items)]
    for _ in range(rows):
        weights = [rng.randint(1, 1000) for _ in xs]
        model.add(sum(w * x for w, x in zip(weights, xs)) <= sum(weights) // 3)
    return model, sum(rng.randint(1, 1000) * x for x in xs)


def _slow_model() -> cp_model.CpModel:
    """A model CP-SAT does not prove quickly: a random 0/1 knapsack with 15 rows and 120 items
    (measured: not proven in 10 det-s, 15 s wall)."""
    model, profit = _knapsack(7, 120, 15)
    model.maximize(profit)
    return model


def test_a_task_not_asked_for_is_stopped() -> None:
    """`take` with another key returns None; `cancel` stops the task's running CP-SAT solve (its
    limit is 600 det-s) and waits for the thread."""
    started = threading.Event()

    def task_fn(task: Speculation) -> str:
        solver = task.solver(cp_model.CpSolver())
        solver.parameters.max_deterministic_time = 600
        solver.parameters.num_workers = 1
        started.set()
        return solver.status_name(solver.solve(_slow_model()))

    task = Speculation(("region", 0), task_fn)
    started.wait(10)
    time.sleep(0.2)
    assert task.take(("region", 1)) is None
    t0 = time.perf_counter()
    task.cancel()
    assert not task._thread.is_alive()
    assert time.perf_counter() - t0 < 30  # stopped, not run to its 600 det-s
    assert task._answer in ("UNKNOWN", "FEASIBLE")


def test_take_returns_the_answer_and_reraises_the_task_s_error() -> None:
    assert Speculation("k", lambda task: 41 + 1).take("k") == 42

    def broken(task: Speculation) -> None:
        raise ValueError("in the task")

    with pytest.raises(ValueError, match="in the task"):
        Speculation("k", broken).take("k")


def _thread_priority() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread priorities are Linux's")
def test_a_niced_task_runs_at_a_lower_priority_and_the_caller_keeps_its_own() -> None:
    """`Speculation(..., nice=n)`: the task's thread runs n nice steps below the caller (at most
    19); the caller's thread and a task without `nice` keep the caller's priority."""
    mine = _thread_priority()
    assert Speculation("k", lambda task: _thread_priority(), nice=3).take("k") == min(19, mine + 3)
    assert Speculation("k", lambda task: _thread_priority()).take("k") == mine
    assert _thread_priority() == mine


def test_rounds_solved_at_once_do_not_speculate(monkeypatch) -> None:
    """`solve game --jobs N`: with N > 1 the rounds' processes already share the cores, so each
    round is asked with `speculate=False`; one at a time, round.toml decides (None)."""
    import solver.commands as C

    asked: list[tuple] = []
    monkeypatch.setattr(C, "run_all", lambda fn, calls, jobs, done=None: asked.extend(calls) or [])
    for jobs, expected in ((2, False), (1, None)):
        asked.clear()
        C.solve_game([SMALL, SMALL, SMALL], jobs=jobs)
        assert [call[-1] for call in asked] == [expected] * 3, jobs


def test_a_stop_call_is_made_on_cancel_and_cancel_need_not_wait() -> None:
    """`stoppable` registers another solver's stop call (HiGHS's `cancelSolve`): `cancel` calls
    it; with `wait=False` it returns at once and the thread ends on its own once stopped; a call
    registered after the cancel is made at once."""
    stop = threading.Event()
    later: list[str] = []

    def task_fn(task: Speculation) -> str:
        task.stoppable(stop.set)
        stop.wait(30)
        time.sleep(0.3)  # (a solver that takes a while to notice)
        task.stoppable(lambda: later.append("stopped"))
        return "done"

    task = Speculation("k", task_fn)
    time.sleep(0.1)
    t0 = time.perf_counter()
    task.cancel(wait=False)
    assert time.perf_counter() - t0 < 0.25 and stop.is_set()
    from solver import speculate
    assert task._thread in speculate._left_running  # joined at exit if still running then
    task._thread.join(30)
    assert not task._thread.is_alive() and later == ["stopped"]


def test_highs_stops_when_its_speculative_task_is_cancelled() -> None:
    """`highs_mip(stop_with=task.stoppable)`: a HiGHS search given far more nodes and seconds than
    the test lasts (a random multi-knapsack: measured, not solved in 60 s) ends "Interrupted by
    user" soon after the task is cancelled."""
    from solver.mip_hint import highs_mip

    model, objective = _knapsack(11, 300, 25)
    task = Speculation("k", lambda task: highs_mip(model, objective, 10**9, 600.0, stop_with=task.stoppable))
    time.sleep(2.0)
    t0 = time.perf_counter()
    task.cancel()
    assert time.perf_counter() - t0 < 60
    assert task._answer.status == "Interrupted by user"
