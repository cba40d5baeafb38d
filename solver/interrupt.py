"""Ctrl-C stops a command at once.

By default CP-SAT catches Ctrl-C itself and only ends the search it is running, as if its time
limit were reached; the solver then goes on with its next question (measured: `solve game`
kept running after Ctrl-C twice), and the answer would come from searches cut short. So every
CP-SAT solver here is made with `catch_sigint_signal` off (`no_sigint`), and the command line
watches for Ctrl-C on its own thread (`stop_on_ctrl_c`): Python's signal handler writes the
signal to a pipe even while CP-SAT holds the main thread in C++, and the watcher stops the
command there.
"""
from __future__ import annotations

import os
import signal
import threading
from typing import Callable

from ortools.sat.python import cp_model


def no_sigint(solver: cp_model.CpSolver) -> cp_model.CpSolver:
    """`solver` with CP-SAT's own Ctrl-C handling off (it would swallow the signal)."""
    solver.parameters.catch_sigint_signal = False
    return solver


#: the signals that stop a command: Ctrl-C, and SIGTERM (`timeout`, `kill`), which would
#: otherwise end this process and leave the rounds' processes running to the end of their round
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def stop_on_ctrl_c(on_stop: Callable[[int], None]) -> None:
    """From now on, Ctrl-C (SIGINT) or SIGTERM calls `on_stop(signal number)` on a watcher
    thread, whatever the main thread is doing; `on_stop` is expected to end the process. Call
    from the main thread. Elsewhere than on POSIX systems (where the wakeup fd must be a socket)
    nothing is changed: Python's own Ctrl-C handling stays."""
    if os.name != "posix":
        return
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    signal.set_wakeup_fd(write_end)  # the C-level handler writes each signal's number here
    for sig in STOP_SIGNALS:
        signal.signal(sig, lambda _sig, _frame: None)  # no KeyboardInterrupt: the watcher acts

    def watch() -> None:
        while True:
            got = os.read(read_end, 64)
            for sig in STOP_SIGNALS:
                if sig in got:
                    on_stop(sig)
                    return

    threading.Thread(target=watch, name="ctrl-c", daemon=True).start()


def ignore_sigint() -> None:
    """For child processes (solver/parallel.py): Ctrl-C is the parent's to act on (it ends them
    with SIGTERM, which keeps its default action here)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
