"""The benchmarks' last lines (the campaign chapters, Pentaquest): the answers counted by status,
and the time to a proven answer over every instance, an unproven one counted as above the limit.

Why one place: a median over the proven instances alone reads like the target's figure while
leaving the UNKNOWN ones out (chapter 2's bench printed "decided: median 8.60 det-s" on a run
with one of its three instances unknown).
The issues' targets are medians over all instances, so that figure comes first here."""
from __future__ import annotations

import statistics
from typing import Mapping, Sequence

UNPROVEN = float("inf")


def _seconds(x: float) -> str:
    return ">limit" if x == UNPROVEN else f"{x:.2f} s"


def summary_lines(counts: Mapping[str, int], walls: Sequence[float], proven_det: Sequence[float] | None) -> list[str]:
    """`walls`: one per instance, its wall seconds when its answer is proven, else `UNPROVEN`;
    `proven_det`: the deterministic seconds of the proven ones (None: a solver without them)."""
    proven = [w for w in walls if w != UNPROVEN]
    lines = [", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "no instances"]
    if walls:
        lines.append(f"wall time to a proven answer over all {len(walls)} instances (unproven count as >limit): "
                     f"median {_seconds(statistics.median(walls))}, max {_seconds(max(walls))}; "
                     f"{len(proven)} of {len(walls)} proven")
    if proven and proven_det is None:
        lines.append(f"the proven ones alone: median {statistics.median(proven):.2f} s, max {max(proven):.2f} s")
    elif proven_det:
        lines.append(f"the proven ones alone: median {statistics.median(proven):.2f} s wall, "
                     f"{statistics.median(proven_det):.2f} det-s; max {max(proven_det):.2f} det-s")
    return lines
