"""Benchmark: default 42-card deck, N seeded random 400-value streams, time to a proven answer.

Run: python bench/pentaquest.py [--n 10] [--first-seed 0] [--time-limit 60]
Stream k is random.Random(k) drawing 400 values with randint(1, 6).
"""
from __future__ import annotations

import argparse
import platform
import random
import time

from rich.console import Console
from rich.table import Table

from solver.pentaquest import BGA, Options, load_default_deck, solve
from summary import UNPROVEN, summary_lines  # bench/summary.py


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=10)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--length", type=int, default=400)
    ap.add_argument("--bga", action="store_true", help="BGA reading (sun differs from moon)")
    args = ap.parse_args()
    deck = load_default_deck()
    table = Table(title=f"Pentaquest: {len(deck)}-card default deck, {args.length}-value streams"
                  + (" (BGA reading)" if args.bga else ""))
    for col in ("seed", "status", "score", "turns", "seconds", "nodes"):
        table.add_column(col, justify="right")
    times: list[float] = []
    counts: dict[str, int] = {}
    for seed in range(args.first_seed, args.first_seed + args.n):
        rng = random.Random(seed)
        stream = tuple(rng.randint(1, 6) for _ in range(args.length))
        t0 = time.perf_counter()
        res = solve(deck, stream, BGA if args.bga else Options(), time_limit=args.time_limit)
        dt = time.perf_counter() - t0
        proven_now = res.status in ("optimal", "unreachable")
        times.append(dt if proven_now else UNPROVEN)
        counts[res.status] = counts.get(res.status, 0) + 1
        table.add_row(str(seed), res.status, str(res.score), str(res.turns), f"{dt:.2f}", str(res.nodes))
    console = Console()
    console.print(table)
    for text in summary_lines(counts, times, None):
        console.print(text)
    console.print(f"time limit {args.time_limit:g} s; Python {platform.python_version()}")


if __name__ == "__main__":
    main()
