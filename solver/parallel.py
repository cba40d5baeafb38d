"""Independent questions answered at once, one process each (a game's rounds, a fleet's setups).

Each call runs exactly as it would alone (deterministic limits, one CP-SAT worker by default), so
the answers are the same with any number of processes; only the wall time changes.
"""
from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, Callable, Sequence

from .errors import InputError
from .interrupt import ignore_sigint


def usable_cores() -> int:
    """The cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def default_jobs(calls: int, workers: int | None = None) -> int:
    """Processes by default: one per core this process may use (each call's CP-SAT uses
    `workers` threads), at most the number of calls."""
    return max(1, min(calls, usable_cores() // max(1, workers or 1)))


def check_jobs(jobs: int | None) -> None:
    """`--jobs` must be a positive count (None: the default)."""
    if jobs is not None and jobs < 1:
        raise InputError(f"--jobs: must be at least 1, got {jobs}")


def run_all(fn: Callable[..., Any], calls: Sequence[tuple], jobs: int = 1,
            done: Callable[[int, int], None] | None = None) -> list[Any]:
    """[fn(*args) for args in calls], in that order; with jobs > 1 in that many processes.
    `done(k, n)` after each finished call. `fn` must be a module-level function (it is pickled)."""
    check_jobs(jobs)
    if jobs == 1 or len(calls) <= 1:
        out = []
        for args in calls:
            out.append(fn(*args))
            if done:
                done(len(out), len(calls))
        return out
    # spawn, not fork: the parent may run a progress thread (rich), and a fresh interpreter per
    # process behaves the same on every platform
    context = multiprocessing.get_context("spawn")
    results: dict[int, Any] = {}
    # (Ctrl-C is the parent's to act on: solver/interrupt.py ends the children)
    with ProcessPoolExecutor(max_workers=min(jobs, len(calls)), mp_context=context, initializer=ignore_sigint) as pool:
        futures = {pool.submit(fn, *args): i for i, args in enumerate(calls)}
        for future in as_completed(futures):
            results[futures[future]] = future.result()
            if done:
                done(len(results), len(calls))
    return [results[i] for i in range(len(calls))]
