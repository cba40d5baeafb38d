"""Benchmark: campaign chapter 3 (earliest Boss defeat) on seeded random 15-turn rolls and setups.

    python bench/chapter3.py                          # 6 instances, 15 turns, 20 det-s per turn asked
    python bench/chapter3.py --n 4 --time-limit 10 --seed 10

Each instance draws (from its seed) the rolls, a row of 3 different solvable realms, the damage
track (a random face of the example tracks file, puzzles/examples/campaign/chapter3-tracks.txt)
and a normal turn target (2 consecutive turns in 4..14), and asks `solve_chapter3`: won (line
replayed by check_chapter3; "proven" when every earlier target turn was proven impossible) /
impossible (every target turn INFEASIBLE) / unknown (a limit). Prints one row per instance and
the counts; the measured figures are recorded in docs/campaign-chapter3.md ("Solving").
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from solver.campaign.chapter3 import Chapter3, load_track  # noqa: E402
from solver.campaign.chapter3_solve import solve_chapter3  # noqa: E402
from solver.realms import solvable_keys  # noqa: E402
from summary import UNPROVEN, summary_lines  # noqa: E402  (bench/summary.py)

TRACKS = str(ROOT / "puzzles" / "examples" / "campaign" / "chapter3-tracks.txt")


def instances(n: int, turns: int, pool: list[str], seed0: int = 0):
    """(seed, row, rolls, track, target) per instance."""
    for seed in range(seed0, seed0 + n):
        rng = random.Random(seed)
        rolls = tuple((rng.randint(1, 6), rng.randint(1, 6)) for _ in range(turns))
        row = tuple(rng.sample(pool, 3))
        track = load_track(TRACKS, rng.randint(1, 6))
        lo = rng.randint(4, min(14, turns - 1))
        yield seed, row, rolls, track, (lo, lo + 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=6)
    ap.add_argument("--turns", type=int, default=15)
    ap.add_argument("--time-limit", type=float, default=20.0, help="deterministic seconds per turn asked")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--realms", default=",".join(sorted(solvable_keys())), help="pool to draw rows from")
    ap.add_argument("--no-quick-line", action="store_true", help="CP-SAT only (no engine beam search first)")
    args = ap.parse_args()
    pool = args.realms.split(",")
    table = Table(title=f"chapter 3: {args.n} instances x {args.turns} turns, limit {args.time_limit:g} det-s per turn asked")
    for col in ("seed", "row", "track", "target", "status", "win turn", "proven", "turns asked", "cuts", "wall s", "det s"):
        table.add_column(col)
    counts: dict[str, int] = {}
    decided: list[float] = []
    walls: list[float] = []
    for seed, row, rolls, track, target in instances(args.n, args.turns, pool, args.seed):
        setup = Chapter3(row, track, target, "normal", turns=args.turns)
        t0 = time.perf_counter()
        res = solve_chapter3(setup, rolls, time_limit=args.time_limit, beam=not args.no_quick_line)
        wall = time.perf_counter() - t0
        proven = res.status == "impossible" or res.proven_earliest
        key = res.status + ("" if proven or res.status != "won" else " (not proven earliest)")
        counts[key] = counts.get(key, 0) + 1
        walls.append(wall if proven else UNPROVEN)
        if proven:
            decided.append(res.deterministic_time)
        asked = " ".join(f"{q.turn}:{q.status[0]}" for q in res.questions)
        table.add_row(str(seed), ",".join(row), " ".join(track), setup.target_text(), res.status,
                      str(res.win_turn or "-"), "yes" if proven else "no", asked, str(res.cuts), f"{wall:.1f}",
                      f"{res.deterministic_time:.2f}")
        print(f"seed {seed}: {res.status} {asked} ({wall:.1f} s wall, {res.deterministic_time:.2f} det-s)",
              file=sys.stderr, flush=True)
    console = Console(width=220)
    console.print(table)
    for text in summary_lines(counts, walls, decided):
        console.print(text)


if __name__ == "__main__":
    main()
