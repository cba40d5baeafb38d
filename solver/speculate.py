"""A question asked on a spare core before the answer knows it needs it (a speculative solve).

Why: `solve.solve_optimal` asked one thing at a time on a two-core machine, e.g. stage 3's
leftover LP (GLOP, 8-16 s wall on bench rounds at the 18-star cap) and only then CP-SAT's leftover
solve of the lines without 3-pumpkin activations (7-16 s), although that question is known as soon
as the stars are proven (docs/performance.md, twenty-fourth session). GLOP, HiGHS and CP-SAT
release Python's GIL, so a thread runs such a question beside the main path (solve_optimal uses three:
the star LP, the split's LPs, stage 3's leftover solve).

Same input, same answer: the task's inputs are fixed when it starts, and its answer is used only
when the answer's own path asks exactly that question (`take` with an equal key); otherwise it is
stopped and dropped. One CP-SAT worker under a deterministic limit gives the same result in a
thread as in the main one, so the answer is the same. One difference in what is reported: asked
in the answer's own thread, a leftover solve stops at the first line meeting the leftover LP's
bound (`solve.leftover_solve`'s `stop_at`), and the speculative one, started before that bound
is known, runs on to prove it; the line, status, bounds and cuts are the same, and the
deterministic time reported with a spare core can be the larger (fiftieth session). Since the
fifty-first session, with the leftover line finder on (round.toml: off), that speculative
question is the finder's run
(`solve.leftover_finder`), which learns its stop when the asking thread knows it
(`solve.LateStop`) and keeps every improving line, so the asking thread takes the line a
finder stopping there from the start would have found (`solve.TrailedRun.stopped_at`); when it
does not meet the stop, the question's own solve follows it in the same thread, as a trailed run
too (fifty-second session).
"""
from __future__ import annotations

import atexit
import os
import sys
import threading
from typing import Any, Callable, Hashable

from ortools.sat.python import cp_model

from .parallel import usable_cores


#: tasks cancelled without waiting whose thread may still run: joined at exit, so that no
#: solver is left inside native code while the interpreter shuts down
_left_running: list[threading.Thread] = []


@atexit.register
def _join_left_running() -> None:
    for thread in _left_running:
        thread.join(timeout=300)


def spare_core() -> bool:
    """Does this process have a second core for a speculative solve?"""
    return usable_cores() >= 2


def lower_priority(steps: int) -> None:
    """Lower the calling thread's scheduling priority by `steps` nice steps (Linux schedules each
    thread on its own; elsewhere, or when refused, nothing changes). A time choice only: every
    limit of the solvers is a work limit, so a thread's answer does not depend on its share of
    the cores."""
    if steps <= 0 or not sys.platform.startswith("linux") or not hasattr(os, "setpriority"):
        return
    try:
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + steps))
    except OSError:
        pass


class Speculation:
    """`fn(task)` run in a thread; `fn` makes its CP-SAT solvers with `task.solver(...)` so that
    `cancel` can stop them, and checks `task.cancelled` between solves. `nice`: the thread's
    priority lowered by that many steps (`lower_priority`), so that the answer's own path gets
    the cores first."""

    def __init__(self, key: Hashable, fn: Callable[["Speculation"], Any], nice: int = 0) -> None:
        self.key = key
        self.nice = nice
        self.cancelled = threading.Event()
        self._solvers: list[cp_model.CpSolver] = []
        self._stops: list[Callable[[], None]] = []  # other solvers' stop calls (HiGHS's cancelSolve)
        self._lock = threading.Lock()
        self._answer: Any = None
        self._error: BaseException | None = None
        self.taken = False
        self._thread = threading.Thread(target=self._run, args=(fn,), name="speculative-solve", daemon=True)
        self._thread.start()

    def _run(self, fn: Callable[["Speculation"], Any]) -> None:
        lower_priority(self.nice)
        try:
            self._answer = fn(self)
        except BaseException as error:  # re-raised by `take` in the asking thread
            self._error = error

    def solver(self, solver: cp_model.CpSolver) -> cp_model.CpSolver:
        """Register a solver the task is about to use (so `cancel` can stop it)."""
        with self._lock:
            self._solvers.append(solver)
            if self.cancelled.is_set():
                solver.stop_search()
        return solver

    def stoppable(self, stop: Callable[[], None]) -> None:
        """Register another solver's stop call (e.g. HiGHS's `cancelSolve`), called by `cancel`."""
        with self._lock:
            self._stops.append(stop)
            if self.cancelled.is_set():
                stop()

    def done(self) -> bool:
        """Has the task ended (its answer ready)? For wall-time choices only: the answer path
        must not depend on it."""
        return not self._thread.is_alive()

    def take(self, key: Hashable) -> Any | None:
        """The task's answer when `key` is the question it was started with (waits for it);
        otherwise None, and the caller asks its own question (the task runs on: a later question
        may be its one; `cancel` stops it)."""
        if self.taken or key != self.key:
            return None
        self._thread.join()
        if self._error is not None:
            raise self._error
        self.taken = True
        return self._answer

    def cancel(self, wait: bool = True) -> None:
        """Stop the task (if still running) and, with `wait`, wait for its thread; its answer is
        dropped. Without `wait` the thread ends on its own once its solver notices the stop (HiGHS
        checks it only between phases: seconds), so the task must not share a solver or model
        with the caller; such a thread is joined when the process exits (`_join_left_running`)."""
        if self.taken:
            return
        self.cancelled.set()
        while True:  # a solve may start between a stop and the task's check
            with self._lock:
                for solver in self._solvers:
                    solver.stop_search()
                for stop in self._stops:
                    stop()
            if not self._thread.is_alive():
                return
            if not wait:
                _left_running[:] = [t for t in _left_running if t.is_alive()] + [self._thread]
                return
            self._thread.join(timeout=0.05)
