"""Benchmark: the fewest-turn win of campaign chapter 2 on seeded random rolls and random rows.

    python bench/chapter2.py                                  # 4 instances, 14 turns, 10 det-s per W, 60 in all
    python bench/chapter2.py --n 2 --turns 8 --time-limit 5 --budget 30

Each instance draws (from its seed) the rolls and a row of 3 different solvable, non-excluded
realms (in a random order: the order matters in chapter 2), difficulty normal, and asks
`solve_chapter2`: won (fewest, proven: every smaller W INFEASIBLE; line replayed by
check_chapter2) / impossible (every W proven) / unknown (a limit). Prints one row per instance
(status, turn of the win, the W proven impossible, cuts, deterministic and wall seconds) and the
counts; the measured figures are recorded in docs/campaign-chapter2.md ("Solving").
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from solver.campaign.chapter2 import Chapter2, exclusion_reason  # noqa: E402
from solver.campaign.chapter2_solve import _ranges, solve_chapter2  # noqa: E402
from solver.realms import get_realm, solvable_keys  # noqa: E402
from summary import UNPROVEN, summary_lines  # noqa: E402  (bench/summary.py)


def pool() -> list[str]:
    """Solvable realms chapter 2 allows (Between Two Cities and My Little Scythe are excluded)."""
    return sorted(k for k in solvable_keys() if exclusion_reason(get_realm(k)) is None)


def instances(n: int, turns: int, keys: list[str], seed0: int = 0):
    """(seed, row, rolls) per instance."""
    for seed in range(seed0, seed0 + n):
        rng = random.Random(seed)
        rolls = tuple((rng.randint(1, 6), rng.randint(1, 6)) for _ in range(turns))
        yield seed, tuple(rng.sample(keys, 3)), rolls


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=4)
    ap.add_argument("--turns", type=int, default=14)
    ap.add_argument("--time-limit", type=float, default=10.0, help="deterministic seconds per turn count W")
    ap.add_argument("--budget", type=float, default=60.0, help="deterministic seconds per instance in all")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--difficulty", default="normal", choices=["easy", "normal", "hard"])
    ap.add_argument("--realms", default=",".join(pool()), help="pool to draw rows from")
    args = ap.parse_args()
    keys = args.realms.split(",")
    table = Table(title=f"chapter 2: {args.n} instances x {args.turns} turns, {args.time_limit:g} det-s per W, "
                        f"{args.budget:g} per instance, {args.difficulty}")
    for col in ("seed", "row", "status", "won at", "W proven impossible", "W unknown", "cuts", "det s", "wall s"):
        table.add_column(col)
    counts: dict[str, int] = {}
    decided: list[float] = []
    walls: list[float] = []
    for seed, row, rolls in instances(args.n, args.turns, keys, args.seed):
        setup = Chapter2(row, args.difficulty)
        t0 = time.perf_counter()
        res = solve_chapter2(setup, rolls, time_limit=args.time_limit, total_limit=args.budget)
        wall = time.perf_counter() - t0
        counts[res.status] = counts.get(res.status, 0) + 1
        walls.append(wall if res.status != "unknown" else UNPROVEN)
        if res.status != "unknown":
            decided.append(res.deterministic_time)
        unknown = [q.turn for q in res.questions if q.status == "unknown"]
        table.add_row(str(seed), ",".join(row), res.status, str(res.turn or "-"), _ranges(res.proven_impossible) or "-",
                      _ranges(unknown) or "-", str(res.cuts), f"{res.deterministic_time:.1f}", f"{wall:.1f}")
        print(f"seed {seed}: {res.status} ({wall:.1f} s wall, {res.deterministic_time:.2f} det-s)", file=sys.stderr, flush=True)
    console = Console(width=200)
    console.print(table)
    for text in summary_lines(counts, walls, decided):
        console.print(text)


if __name__ == "__main__":
    main()
