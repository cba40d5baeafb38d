"""Ctrl-C stops a command at once (solver/interrupt.py): before, CP-SAT caught the signal, ended
only the search it was running, and the solver went on with its next question."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from ortools.sat.python import cp_model

from solver.interrupt import no_sigint
from solver.solve import load_params, make_solver

ROOT = Path(__file__).resolve().parent.parent
GAME = "parks,ark-nova,libertalia,wurfelwelten,parks,ark-nova,libertalia,feast-for-odin,parks"


def test_cp_sat_solvers_leave_ctrl_c_alone() -> None:
    assert cp_model.CpSolver().parameters.catch_sigint_signal  # CP-SAT's default: it swallows Ctrl-C
    assert not make_solver(load_params("optimal"), 1.0, None).parameters.catch_sigint_signal
    assert not no_sigint(cp_model.CpSolver()).parameters.catch_sigint_signal


def _group_gone(pgid: int, wait: float) -> bool:
    end = time.monotonic() + wait
    while time.monotonic() < end:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


def test_ctrl_c_stops_a_game_and_its_round_processes_with_exit_130() -> None:
    # the bundled game takes about a minute, its rounds in two processes; Ctrl-C after 6 s
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "game", "--realms", GAME, "--rolls",
                             str(ROOT / "puzzles" / "examples" / "game1.txt"), "--jobs", "2"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        time.sleep(6)
        assert proc.poll() is None, proc.communicate()
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal sends it: to the whole process group
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err.decode()
    assert err.decode().strip().splitlines()[-1] == "interrupted (Ctrl-C): stopped before an answer"
    assert "Traceback" not in err.decode() and "Warning" not in err.decode() and out == b""
    assert _group_gone(proc.pid, 10.0), "a round's process outlived the command"


def test_sigterm_stops_a_game_solved_round_by_round_with_exit_143() -> None:
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "game", "--realms", GAME, "--rolls",
                             str(ROOT / "puzzles" / "examples" / "game1.txt"), "--jobs", "1"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        time.sleep(5)  # the game takes minutes one round at a time
        assert proc.poll() is None, proc.communicate()
        proc.terminate()
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 143, err.decode()
    assert err.decode().strip().splitlines()[-1] == "stopped (SIGTERM): stopped before an answer"
    assert out == b""
