"""HiGHS (`highspy`), the MIP and LP solver beside OR-Tools: a quiet instance and a model built
from the rows of solver/lp_bound.py. Used by the LP bounds (`lp_bound.HighsRelaxation`) and the
chapters' MIP hints (`mip_hint`)."""
from __future__ import annotations

import ctypes
import os
import sys
from typing import Any, Mapping, Sequence

import highspy
import numpy as np

INF = float("inf")


def quiet_highs() -> highspy.Highs:
    """A HiGHS instance with output off. Its constructor prints a banner on the process's
    standard output (file descriptor 1, once per process), which would break `--json`: fd 1
    points at /dev/null while it runs."""
    sys.stdout.flush()
    saved, devnull = os.dup(1), os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        h = highspy.Highs()
        h.setOptionValue("output_flag", False)
        libc_flush()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)
    return h


def libc_flush() -> None:
    """Flush C's stdio buffers (the banner may sit there until the redirection ends)."""
    try:
        ctypes.CDLL(None).fflush(None)
    except (OSError, AttributeError):
        pass


def side(x: float) -> float:
    """A row or column side for HiGHS (its own infinity)."""
    if x == INF:
        return highspy.kHighsInf
    if x == -INF:
        return -highspy.kHighsInf
    return float(x)


def highs_lp(lo: Sequence[int], hi: Sequence[int], rows: Sequence[Any], cost: Mapping[int, Any]) -> highspy.HighsLp:
    """max cost.x over lo <= x <= hi and the rows (`lp_bound.Row`: coeffs, lo, hi), row-wise as
    the rows are built."""
    n = len(lo)
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = n, len(rows)
    lp.col_cost_ = np.array([float(cost.get(i, 0)) for i in range(n)])
    lp.col_lower_ = np.array(lo, dtype=float)
    lp.col_upper_ = np.array(hi, dtype=float)
    lp.row_lower_ = np.array([side(r.lo) for r in rows], dtype=float)
    lp.row_upper_ = np.array([side(r.hi) for r in rows], dtype=float)
    starts, index, value = [0], [], []
    for r in rows:
        index.extend(r.coeffs.keys())
        value.extend(float(a) for a in r.coeffs.values())
        starts.append(len(index))
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = n, len(rows)
    lp.a_matrix_.start_ = np.array(starts, dtype=np.int32)
    lp.a_matrix_.index_ = np.array(index, dtype=np.int32)
    lp.a_matrix_.value_ = np.array(value, dtype=float)
    lp.sense_ = highspy.ObjSense.kMaximize
    return lp
