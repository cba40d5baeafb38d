"""A stand-in for the CP-SAT answers in product-layer tests: exact, from the engine alone.

The product layer (CLI, rendering, certificates) is tested against these so that its tests are
fast and do not depend on the model's speed. The answers are still right: on one-turn rounds
exhaustive search over the engine gives the true optimum. `mode` forces a time-limit answer.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from solver.engine import Game, replay
from solver.line import Line
from solver.playout import exhaustive_best
from solver.solve import ORTOOLS_VERSION, RoundResult

PARAMS = {"num_workers": 1, "max_deterministic_time": 60.0, "ortools": ORTOOLS_VERSION, "fake": True}


@lru_cache(maxsize=None)
def _best(game: Game) -> tuple[int, Line]:
    return exhaustive_best(game)


def best_line(game: Game) -> Line:
    return _best(game)[1]


def best_stars(game: Game) -> int:
    return replay(game, best_line(game)).stars_total


class FakeSolver:
    """solve_optimal / solve_target / prove_no_more with the same signatures; records its calls."""

    def __init__(self, mode: str = "answer") -> None:
        self.mode = mode  # "answer" or "unknown"
        self.calls: list[dict[str, Any]] = []

    def _result(self, question: str, status: str, game: Game, target: int | None = None) -> RoundResult:
        line = best_line(game)
        rep = replay(game, line)
        return RoundResult(question, status, target=target, stars=rep.stars_total, leftover=rep.final.resources.total(),
                           star_bound=rep.stars_total, line=line, replay=rep, solve_time=0.01, params=dict(PARAMS))

    def solve_optimal(self, game: Game, time_limit=None, workers=None, options=None, progress=None, prove=True,
                      speculate=None) -> RoundResult:
        self.calls.append({"fn": "optimal", "game": game, "time_limit": time_limit, "workers": workers, "progress": progress,
                           "speculate": speculate})
        if self.mode == "unknown":
            res = self._result("optimal", "unknown", game)
            res.star_bound = res.stars + 2
            res.proof = {"question": f"stars >= {res.stars + 1}", "status": "UNKNOWN", "params": dict(PARAMS)}
            return res
        res = self._result("optimal", "optimal", game)
        res.stars_proven, res.leftover_bound = True, res.leftover  # as solve_optimal's optimum
        res.proof = {"question": f"stars >= {res.stars + 1}", "status": "INFEASIBLE", "params": dict(PARAMS)}
        return res

    def solve_target(self, game: Game, target: int, time_limit=None, workers=None, options=None, progress=None) -> RoundResult:
        self.calls.append({"fn": "target", "game": game, "target": target, "time_limit": time_limit, "workers": workers})
        if self.mode == "unknown":
            return RoundResult("target", "unknown", target=target, params=dict(PARAMS))
        if target <= best_stars(game):
            return self._result("target", "reachable", game, target)
        return RoundResult("target", "unreachable", target=target, star_bound=target - 1, params=dict(PARAMS),
                           proof={"question": f"stars >= {target}", "status": "INFEASIBLE", "params": dict(PARAMS)})

    def prove_no_more(self, game: Game, stars: int, time_limit=None, workers=None, options=None, lp_first=False, split_first=False) -> dict[str, Any]:
        self.calls.append({"fn": "prove", "game": game, "stars": stars})
        status = "UNKNOWN" if self.mode == "unknown" else ("INFEASIBLE" if stars + 1 > best_stars(game) else "FEASIBLE")
        return {"question": f"stars >= {stars + 1}", "status": status, "deterministic_time": 0.0, "wall_time": 0.0,
                "params": dict(PARAMS)}

    def install(self, monkeypatch) -> "FakeSolver":  # type: ignore[no-untyped-def]
        """Replace the solver where the product layer looks it up."""
        monkeypatch.setattr("solver.commands.solve_optimal", self.solve_optimal)
        monkeypatch.setattr("solver.commands.solve_target", self.solve_target)
        monkeypatch.setattr("solver.certificate.prove_no_more", self.prove_no_more)
        monkeypatch.setattr("solver.certificate.solve_target", self.solve_target)
        return self
