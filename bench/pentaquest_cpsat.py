"""Benchmark: memoised DFS (search.py) vs the CP-SAT layered model (cpsat.py) on the same games.

Run: python bench/pentaquest_cpsat.py [--sizes 3 5 8 12] [--seeds 3] [--time-limit 30] [--bga]
                                      [--per-card 5 --extra 3]
Instance (n, seed): rng = random.Random(seed * 1000 + n); deck = rng.sample of n cards of the
default 42-card deck (in sampled order); stream = per_card * n + extra values rng.randint(1, 6)
(default 5 * n + 3: barely enough values for the game, so rerolls are scarce, army cards matter and
some games are unwinnable; `--per-card 10 --extra 20` gives roomy streams where most games are won
with no army card).
Both methods answer the same question (best score among wins, or proof that none exists);
UNKNOWN (time limit) counts as not solved. Times are wall seconds including model building.
"""
from __future__ import annotations

import argparse
import platform
import random
import time

from rich.console import Console
from rich.table import Table

from solver.pentaquest import BGA, Options, load_default_deck
from solver.pentaquest.cpsat import solve_cpsat
from solver.pentaquest.deck import Deck
from solver.pentaquest.engine import Game, replay
from solver.pentaquest.search import SearchTimeout, Solver, realize


def dfs_answer(game: Game, time_limit: float) -> tuple[str, int | None, float, int]:
    """The DFS on exactly CP-SAT's question: iterative deepening on army uses (as api.solve does),
    without api.solve's extra "longest survival" search after a proof of no win."""
    t0 = time.perf_counter()
    solver = Solver(game, time.monotonic() + time_limit)
    n = len(game.deck)
    try:
        for budget in range(n):
            plans = solver.win(0, 0, (0, 0, 0, 0, 0), budget, True)
            if plans is not None:
                line, final = realize(game, plans, lose_at_end=False)
                rep = replay(game, line)
                assert rep.final.status == "won" and rep.final.score == n - budget, "DFS/engine disagreement"
                return "optimal", n - budget, time.perf_counter() - t0, solver.nodes
    except SearchTimeout:
        return "unknown", None, time.perf_counter() - t0, solver.nodes
    return "unreachable", None, time.perf_counter() - t0, solver.nodes


def instance(n: int, seed: int, per_card: int = 5, extra: int = 3) -> tuple[Deck, tuple[int, ...]]:
    rng = random.Random(seed * 1000 + n)
    full = load_default_deck()
    cards = tuple(rng.sample(full.cards, n))
    ln = per_card * n + extra
    stream = tuple(rng.randint(1, 6) for _ in range(ln))
    return Deck(cards, f"default[{n}] seed {seed}"), stream


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", type=int, nargs="+", default=[3, 5, 8, 12])
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--time-limit", type=float, default=30.0)
    ap.add_argument("--per-card", type=int, default=5, help="stream values per card")
    ap.add_argument("--extra", type=int, default=3, help="extra stream values")
    ap.add_argument("--workers", type=int, default=2, help="CP-SAT workers")
    ap.add_argument("--bga", action="store_true")
    args = ap.parse_args()
    opts = BGA if args.bga else Options()
    table = Table(title="Pentaquest: DFS vs CP-SAT" + (" (BGA)" if args.bga else ""))
    for col in ("cards", "seed", "method", "status", "score", "seconds", "detail"):
        table.add_column(col, justify="right")
    solved = {"dfs": 0, "cpsat": 0}
    total = 0
    disagreements = 0
    for n in args.sizes:
        for seed in range(args.seeds):
            deck, stream = instance(n, seed, args.per_card, args.extra)
            total += 1
            status, dfs_score, dt, nodes = dfs_answer(Game(deck, stream, opts), args.time_limit)
            solved["dfs"] += status in ("optimal", "unreachable")
            table.add_row(str(n), str(seed), "dfs", status, str(dfs_score), f"{dt:.2f}", f"{nodes} nodes")
            c = solve_cpsat(Game(deck, stream, opts), time_limit=args.time_limit, workers=args.workers)
            solved["cpsat"] += c.status in ("optimal", "unreachable")
            table.add_row("", "", "cpsat", c.status, str(c.score), f"{c.seconds:.2f}",
                          f"{c.arcs} arcs, build {c.build_seconds:.2f}s, caps {c.caps_tried}")
            if "unknown" not in (status, c.status) and (status, dfs_score) != (c.status, c.score):
                disagreements += 1
                table.add_row("", "", "MISMATCH", "", "", "", "")
    console = Console(width=160)
    console.print(table)
    console.print(f"solved: dfs {solved['dfs']}/{total}, cpsat {solved['cpsat']}/{total}; "
                  f"disagreements {disagreements}; time limit {args.time_limit:g} s per solve; "
                  f"Python {platform.python_version()}, CP-SAT workers {args.workers}")


if __name__ == "__main__":
    main()
