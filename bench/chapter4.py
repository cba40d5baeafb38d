"""Benchmark: campaign chapter 4 (`solve_chapter4`) on seeded random rolls and random grids.

    python bench/chapter4.py                                   # 4 instances, 12 turns, 2 det-s per turn count
    python bench/chapter4.py --n 3 --turns 6 --time-limit 1 --difficulty easy

Each instance draws (from its seed) the rolls, 4 different solvable realms not excluded from the
chapter (in a random layout) and a resource target (easy: a range of 3), and asks for the
earliest win: the engine's quick line (beam search), then CP-SAT "a win by turn W?" for each W
below it. Prints one row per instance: status, the turn of the win, the turn counts proven
impossible, deterministic seconds (CP-SAT) and wall seconds (CP-SAT + beam search + ordering).
The measured figures are recorded in docs/campaign-chapter4.md ("Solving").
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

from solver.campaign.chapter4 import EXCLUDED, Chapter4  # noqa: E402
from solver.campaign.chapter4_solve import solve_chapter4  # noqa: E402
from solver.realms import solvable_keys  # noqa: E402
from summary import UNPROVEN, summary_lines  # noqa: E402  (bench/summary.py)


def instances(n: int, turns: int, pool: list[str], difficulty: str, seed0: int = 0):
    """(seed, grid, rolls, target) per instance; the target is 4..12 resources (easy: lo..lo+2)."""
    for seed in range(seed0, seed0 + n):
        rng = random.Random(seed)
        rolls = tuple((rng.randint(1, 6), rng.randint(1, 6)) for _ in range(turns))
        grid = tuple(rng.sample(pool, 4))
        lo = rng.randint(4, 12)
        target: int | tuple[int, int] = (lo, lo + 2) if difficulty == "easy" else lo
        yield seed, grid, rolls, target


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=4)
    ap.add_argument("--turns", type=int, default=12)
    ap.add_argument("--time-limit", type=float, default=2.0, help="deterministic seconds per turn count asked")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--difficulty", default="normal", choices=["easy", "normal", "hard"])
    ap.add_argument("--realms", default=",".join(k for k in sorted(solvable_keys()) if k not in EXCLUDED),
                    help="pool to draw grids from")
    args = ap.parse_args()
    pool = args.realms.split(",")
    table = Table(title=f"chapter 4: {args.n} instances x {args.turns} turns, {args.time_limit:g} det-s per turn count, {args.difficulty}")
    for col in ("seed", "grid", "target", "status", "turns", "proven impossible", "det s", "wall s"):
        table.add_column(col)
    counts: dict[str, int] = {}
    decided: list[float] = []
    walls: list[float] = []
    for seed, grid, rolls, target in instances(args.n, args.turns, pool, args.difficulty, args.seed):
        setup = Chapter4(grid, target, args.difficulty)
        t0 = time.perf_counter()
        res = solve_chapter4(setup, rolls, time_limit=args.time_limit)
        wall = time.perf_counter() - t0
        counts[res.status] = counts.get(res.status, 0) + 1
        decided_now = res.status != "unknown"  # won: the earliest, proven; impossible: proven
        walls.append(wall if decided_now else UNPROVEN)
        if decided_now:
            decided.append(res.deterministic_time)
        proven = res.proven_impossible_turns
        status = res.status + (" (win found)" if res.status == "unknown" and res.line is not None else "")
        table.add_row(str(seed), f"{grid[0]} | {grid[1]} / {grid[2]} | {grid[3]}", setup.target_text(), status,
                      str(res.turns_used or "-") + (" (earliest)" if res.earliest_proven else ""),
                      ",".join(map(str, proven)) or "-", f"{res.deterministic_time:.2f}", f"{wall:.1f}")
        print(f"seed {seed}: {res.status} ({wall:.1f} s wall, {res.deterministic_time:.2f} det-s)", file=sys.stderr, flush=True)
    console = Console(width=200)
    console.print(table)
    for text in summary_lines(counts, walls, decided):
        console.print(text)


if __name__ == "__main__":
    main()
