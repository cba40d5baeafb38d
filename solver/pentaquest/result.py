"""Result records for solve and check."""
from __future__ import annotations

from dataclasses import dataclass, field

from .engine import GameState
from .line import Line


@dataclass(frozen=True)
class SolveResult:
    """status: optimal (win proven best) | unreachable (proven no win; line = longest survival)
    | unknown (time limit: line = best found, bound = proven upper bound on the score)."""

    status: str
    score: int | None
    turns: int
    line: Line
    solve_time: float
    bound: int | None
    won: bool
    final: GameState | None
    nodes: int = 0
    message: str = ""
    deck_size: int = 0
    uses: int | None = None


@dataclass(frozen=True)
class CheckResult:
    """legal: the line obeys the rules; then won/score/turns describe the finished game."""

    legal: bool
    won: bool = False
    score: int = 0
    turns: int = 0
    error_turn: int | None = None
    reason: str = ""
    final: GameState | None = None
    end_reason: str = field(default="")
