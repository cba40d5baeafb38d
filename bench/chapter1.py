"""Benchmark: campaign chapter 1 questions on seeded random 9-turn rolls and random realm triples.

    python bench/chapter1.py                          # 10 instances, 9 turns, 20 det-s limit each
    python bench/chapter1.py --n 5 --turns 5 --time-limit 10

Each instance draws (from its seed) the rolls, 3 different solvable realms and a star target (an
exact count or a range of 3, as on the Chapter card), difficulty normal, and asks
`solve_chapter1`: won (line replayed by check_chapter1) / impossible (INFEASIBLE) / unknown (the
limit). Prints one row per instance and the counts; the measured figures are recorded in
docs/campaign-solving.md.
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

from solver.campaign import Chapter1  # noqa: E402
from solver.campaign.chapter1_solve import solve_chapter1  # noqa: E402
from solver.realms import solvable_keys  # noqa: E402
from summary import UNPROVEN, summary_lines  # noqa: E402  (bench/summary.py)


def instances(n: int, turns: int, pool: list[str], seed0: int = 0):
    """(seed, realms, rolls, target) per instance; the target is 8..14 stars exact or a range of 3."""
    for seed in range(seed0, seed0 + n):
        rng = random.Random(seed)
        rolls = tuple((rng.randint(1, 6), rng.randint(1, 6)) for _ in range(turns))
        realms = tuple(sorted(rng.sample(pool, 3)))
        lo = rng.randint(8, 14)
        target: int | tuple[int, int] = lo if rng.random() < 0.5 else (lo, lo + 2)
        yield seed, realms, rolls, target


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10)
    ap.add_argument("--turns", type=int, default=9)
    ap.add_argument("--time-limit", type=float, default=20.0, help="deterministic seconds per instance")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--difficulty", default="normal", choices=["easy", "normal", "hard"])
    ap.add_argument("--realms", default=",".join(sorted(solvable_keys())), help="pool to draw triples from")
    args = ap.parse_args()
    pool = args.realms.split(",")
    table = Table(title=f"chapter 1: {args.n} instances x {args.turns} turns, limit {args.time_limit:g} det-s, {args.difficulty}")
    for col in ("seed", "realms", "target", "status", "stars", "cuts", "wall s", "det s"):
        table.add_column(col)
    counts: dict[str, int] = {}
    decided: list[float] = []
    walls: list[float] = []
    for seed, realms, rolls, target in instances(args.n, args.turns, pool, args.seed):
        setup = Chapter1(realms, target, args.difficulty, turns=args.turns)
        t0 = time.perf_counter()
        res = solve_chapter1(setup, rolls, time_limit=args.time_limit)
        wall = time.perf_counter() - t0
        counts[res.status] = counts.get(res.status, 0) + 1
        walls.append(wall if res.status != "unknown" else UNPROVEN)
        if res.status != "unknown":
            decided.append(res.deterministic_time)
        det = f"{res.deterministic_time:.2f}" if res.status != "unknown" else f">{args.time_limit:g}"
        table.add_row(str(seed), ",".join(realms), setup.target_text(), res.status, str(res.stars if res.stars is not None else "-"),
                      str(res.cuts), f"{wall:.1f}", det)
        print(f"seed {seed}: {res.status} ({wall:.1f} s wall, {res.deterministic_time:.2f} det-s)", file=sys.stderr, flush=True)
    console = Console(width=200)
    console.print(table)
    for text in summary_lines(counts, walls, decided):
        console.print(text)


if __name__ == "__main__":
    main()
