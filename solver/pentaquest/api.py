"""Library entry points: `solve` and `check` (the CLI is a thin layer over these)."""
from __future__ import annotations

import time

from .deck import Deck
from .engine import Game, replay
from .errors import IllegalMove
from .line import Line
from .options import Options
from .result import CheckResult, SolveResult
from .search import SearchTimeout, Solver, realize
from .stream import check_stream_length


def check(deck: Deck, stream: tuple[int, ...], line: Line, options: Options | None = None) -> CheckResult:
    """Replay a played game through the rules engine."""
    check_stream_length(stream, len(deck))
    game = Game(deck, tuple(stream), options or Options())
    try:
        rep = replay(game, line)
    except IllegalMove as exc:
        return CheckResult(legal=False, error_turn=exc.turn, reason=exc.reason)
    f = rep.final
    return CheckResult(legal=True, won=f.status == "won", score=f.score, turns=f.turns_survived,
                       final=f, end_reason=f.end_reason)


def solve(deck: Deck, stream: tuple[int, ...], options: Options | None = None,
          time_limit: float = 60.0) -> SolveResult:
    """Best play over the fixed stream: optimal win, proven-unreachable, or unknown at time limit."""
    check_stream_length(stream, len(deck))
    game = Game(deck, tuple(stream), options or Options())
    start = time.monotonic()
    solver = Solver(game, start + time_limit)
    n = len(deck)
    best = None
    root_army = (0, 0, 0, 0, 0)
    proven_fail = -1  # no win with at most this many army uses (proven)
    try:
        # iterative deepening on the number of army uses: the first budget with a win is optimal
        for budget in range(0, n):
            plans = solver.win(0, 0, root_army, budget, True)
            if plans is not None:
                best = plans
                break
            proven_fail = budget
    except SearchTimeout:
        elapsed = time.monotonic() - start
        bound = n - (proven_fail + 1)
        proven = (f"no win with fewer than {proven_fail + 1} army uses" if proven_fail >= 0
                  else f"nothing beyond the trivial bound score <= {n}")
        msg = (f"time limit reached; proven only: {proven}; "
               f"line = longest partial play seen ({len(solver.deepest)} defeats), then a pass")
        line, final = realize(game, solver.deepest, lose_at_end=True)
        _verify(game, line, final.score, False)
        return SolveResult("unknown", final.score, final.turns_survived, line, elapsed, bound, False, final,
                           solver.nodes, msg, n, sum(sum(tp.uses) for tp in solver.deepest))
    if best is not None:
        line, final = realize(game, best, lose_at_end=False)
        _verify(game, line, final.score, True)
        return SolveResult("optimal", final.score, final.turns_survived, line, time.monotonic() - start,
                           final.score, True, final, solver.nodes, "", n, n - final.score)
    # no win exists: find the longest survival (most defeats, then fewest uses)
    try:
        k, u, plans = solver.survive(0, 0, root_army, True, {})
    except SearchTimeout:
        elapsed = time.monotonic() - start
        return SolveResult("unreachable", None, 0, (), elapsed, None, False, None, solver.nodes,
                           "no win exists (proven); time limit reached while searching the longest survival",
                           n, None)
    line, final = realize(game, plans, lose_at_end=True)
    _verify(game, line, final.score, False)
    return SolveResult("unreachable", final.score, final.turns_survived, line, time.monotonic() - start,
                       None, False, final, solver.nodes, "no win exists (exhaustive search)", n, u)


def _verify(game: Game, line: Line, score: int, won: bool) -> None:
    """Every solver line is replayed by the engine; a disagreement is a bug."""
    rep = replay(game, line)
    if (rep.final.status == "won") != won or rep.final.score != score:
        raise AssertionError(f"solver/engine disagreement: engine says {rep.final.status} score {rep.final.score}")
