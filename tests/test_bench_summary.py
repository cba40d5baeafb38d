"""bench/summary.py: the campaign benchmarks' median counts every instance, an unproven one as
above the limit, so UNKNOWN answers can never make the figure look better."""
from __future__ import annotations

import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location("bench_summary", Path(__file__).resolve().parents[1] / "bench" / "summary.py")
assert _spec is not None and _spec.loader is not None
summary = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(summary)


def test_unproven_instances_count_above_the_limit():
    walls = [1.0, 2.0, summary.UNPROVEN, summary.UNPROVEN, summary.UNPROVEN]
    lines = summary.summary_lines({"won": 2, "unknown": 3}, walls, [0.5, 0.7])
    assert lines[0] == "unknown 3, won 2"
    assert "over all 5 instances" in lines[1]
    assert "median >limit" in lines[1] and "2 of 5 proven" in lines[1]
    assert lines[2].startswith("the proven ones alone: median 1.50 s wall, 0.60 det-s")


def test_all_proven():
    lines = summary.summary_lines({"impossible": 3}, [3.0, 1.0, 2.0], [0.3, 0.1, 0.2])
    assert "median 2.00 s, max 3.00 s; 3 of 3 proven" in lines[1]
    assert len(lines) == 3


def test_nothing_proven_has_no_proven_line():
    lines = summary.summary_lines({"unknown": 1}, [summary.UNPROVEN], [])
    assert lines == ["unknown 1",
                     "wall time to a proven answer over all 1 instances (unproven count as >limit): "
                     "median >limit, max >limit; 0 of 1 proven"]


def test_without_deterministic_time():
    lines = summary.summary_lines({"optimal": 2}, [0.5, 1.5], None)
    assert lines[2] == "the proven ones alone: median 1.00 s, max 1.50 s"
