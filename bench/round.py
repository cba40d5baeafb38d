"""Benchmark: time to a proven optimum for seeded random rounds of random realm triples.

    python bench/round.py                 # 50 rounds of 9 turns, 10 s limit each, triples of every
                                          # solvable realm (issue 3's benchmark)
    python bench/round.py --realms ark-nova,feast-for-odin,libertalia,parks,wurfelwelten
                                          # the same from the five promo realms (issue 2's)
    python bench/round.py --n 10 --turns 3 --time-limit 30
    python bench/round.py --target 18     # "can these rolls give 18 stars?" instead of the optimum
    python bench/round.py --played 6      # mid-round: the first 6 turns (of the greedy line) played
    python bench/round.py --jobs 2        # two rounds at a time (one per core; wall times share the cores)

Prints one row per round and the median / max time to a proven optimum (with `--target N`: to a
decided answer, reachable or unreachable). A round that hits the
limit counts as unknown (never as solved); its time is reported as '>limit'. Targets and the
measured figures live in docs/performance.md.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from solver.engine import Game  # noqa: E402
from solver.line import Line  # noqa: E402
from solver.model import ModelOptions  # noqa: E402
from solver.playout import greedy_line  # noqa: E402
from solver.realms import get_realm, solvable_keys  # noqa: E402
from solver.rules import RuleSet  # noqa: E402
from solver.parallel import run_all  # noqa: E402
from solver.solve import RoundResult, solve_optimal, solve_target  # noqa: E402


def instances(n: int, turns: int, pool: list[str], seed0: int = 0):
    for seed in range(seed0, seed0 + n):
        rng = random.Random(seed)
        rolls = tuple((rng.randint(1, 6), rng.randint(1, 6)) for _ in range(turns))
        yield seed, sorted(rng.sample(pool, 3)), rolls


def one_round(seed: int, keys: list[str], rolls: tuple, rules: RuleSet, played_turns: int, no_tricks: bool,
              target: int | None, time_limit: float, speculate: bool | None = None) -> tuple[int, list[str], RoundResult, float]:
    """One bench round, timed (module level: `--jobs` runs it in other processes; `speculate`:
    solve_optimal's, None = round.toml's)."""
    game = Game(tuple(get_realm(k) for k in keys), rolls, rules)
    t0 = time.perf_counter()
    played = Line(greedy_line(game).turns[:played_turns]) if played_turns else None
    options = ModelOptions(tricks=not no_tricks, played=played)
    if target is not None:
        res = solve_target(game, target, time_limit=time_limit, options=options)
    else:
        res = solve_optimal(game, time_limit=time_limit, options=options, prove=False, speculate=speculate)
    wall = time.perf_counter() - t0
    print(f"seed {seed} {keys} {res.status} stars={res.stars} bound={res.star_bound} leftover={res.leftover} "
          f"leftover_bound={res.leftover_bound} cuts={res.cuts} {wall:.2f}s det={res.deterministic_time:.2f}", file=sys.stderr, flush=True)
    return seed, keys, res, wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=50)
    ap.add_argument("--turns", type=int, default=9)
    ap.add_argument("--time-limit", type=float, default=10.0, help="deterministic seconds per round")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--compensation", default="choice", choices=["choice", "off"])
    ap.add_argument("--no-tricks", action="store_true", help="measure the model without solver tricks")
    ap.add_argument("--realms", default=",".join(sorted(solvable_keys())), help="pool to draw triples from")
    ap.add_argument("--target", type=int, default=None, help="ask 'are N stars reachable?' instead of the optimum")
    ap.add_argument("--played", type=int, default=0,
                    help="mid-round questions: the first K turns of the greedy line are played (`solve round --played`)")
    ap.add_argument("--no-speculate", action="store_true",
                    help="no solve on a spare core (solver/speculate.py): the sequential path's wall times")
    ap.add_argument("--jobs", type=int, default=1,
                    help="rounds solved at once, one process each (wall times then share the cores; statuses do not change)")
    args = ap.parse_args()
    pool = args.realms.split(",")
    rules = RuleSet(compensation=args.compensation)
    question = f"target {args.target}" if args.target is not None else "optimum"
    if args.played:
        question += f" after {args.played} played turns (greedy line)"
    table = Table(title=f"{args.n} rounds x {args.turns} turns, {question}, limit {args.time_limit:g} det-s, compensation {args.compensation}")
    for col in ("seed", "realms", "status", "stars", "bound", "left", "left bound", "proof", "cuts", "wall s", "det s"):
        table.add_column(col)
    solved: list[float] = []
    statuses: dict[str, int] = {}
    # rounds solved at once already share the cores: no speculative solves then
    speculate = False if args.no_speculate or args.jobs > 1 else None
    calls = [(seed, keys, rolls, rules, args.played, args.no_tricks, args.target, args.time_limit, speculate)
             for seed, keys, rolls in instances(args.n, args.turns, pool, args.seed)]
    for seed, keys, res, wall in run_all(one_round, calls, args.jobs):
        statuses[res.status] = statuses.get(res.status, 0) + 1
        if res.status in ("optimal", "reachable", "unreachable"):
            solved.append(wall)
        method = (res.proof or {}).get("method", "-")
        left_bound = res.leftover_bound if res.stars_proven else None  # a bound among lines with that many stars
        table.add_row(str(seed), ",".join(keys), res.status, str(res.stars), str(res.star_bound), str(res.leftover),
                      "-" if left_bound is None else str(left_bound), method, str(res.cuts), f"{wall:.2f}",
                      f"{res.deterministic_time:.2f}")
    console = Console()
    console.print(table)
    summary = ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items()))
    console.print(f"statuses: {summary}")
    what = "decided answer" if args.target is not None else "proven optimum"
    if len(solved) == args.n:
        console.print(f"time to {what}: median {statistics.median(solved):.2f} s, max {max(solved):.2f} s")
    else:
        times = solved + [float("inf")] * (args.n - len(solved))
        med = statistics.median(times)
        console.print(
            f"time to {what}: median {'>limit' if med == float('inf') else f'{med:.2f} s'}, "
            f"max >limit ({args.n - len(solved)} of {args.n} not proven within the limit)"
        )


if __name__ == "__main__":
    main()
