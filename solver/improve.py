"""Better lines when the proof does not finish: large-neighbourhood search over windows of turns.

When the star count of a round is not proven within the limit, the user still gets the best
line found (status unknown, with the proven bound). The one-model search often finds poor lines
on 9-turn rounds (docs/performance.md). This improver keeps every turn of the line fixed except
a window of consecutive turns, asks the round model for the best play of that window (stars
first, then leftover) and keeps it when the engine scores it higher; the window slides over the
round. It only ever returns lines the engine replayed, never claims optimality, and changes no
bound. Deterministic: the same line, rolls and budget give the same result (one worker,
deterministic time).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .engine import Game, replay
from .line import Line
from .model import ModelOptions, RoundModel


@dataclass(frozen=True)
class ImproveSettings:
    """Window size, deterministic seconds per window solve and passes over the round
    (solver/params/round.toml, section [improve]; measured in docs/performance.md)."""

    window: int = 4
    per_window: float = 1.5
    passes: int = 2


def line_score(game: Game, line: Line, star_weight: int) -> int:
    """Stars first, then leftover resources: the engine's score of a line."""
    rep = replay(game, line)
    return star_weight * rep.stars_total + rep.final.resources.total()


def improve_line(
    game: Game,
    line: Line,
    budget: float,
    solve_window: Callable[[RoundModel, float], tuple[Line | None, float]],
    star_weight: int,
    settings: ImproveSettings = ImproveSettings(),
    options: ModelOptions = ModelOptions(),
    progress: Callable[[int], None] | None = None,
    stop_at: int | None = None,
) -> tuple[Line, float]:
    """Slide a window of turns over the line; re-solve the window with the rest fixed.

    `solve_window(rm, limit)` solves a model (already maximising, rest fixed, line hinted) within
    `limit` deterministic seconds and returns (a legal line or None, deterministic time used).
    Returns the best line (engine-scored, never worse than `line`) and the time spent; stops as
    soon as the line scores `stop_at` or more (a target question needs no more)."""
    best, best_score = line, line_score(game, line, star_weight)
    spent = 0.0
    turns = game.turns
    first = options.played_turns  # played turns stay as played
    width = min(settings.window, turns - first)
    if width <= 0:
        return best, spent
    for _ in range(settings.passes):
        if stop_at is not None and best_score >= stop_at:
            break
        before = best_score
        for a in range(first, turns - width + 1):
            left = budget - spent
            if left <= 0.05:
                return best, spent
            rm = RoundModel(game, options)
            fix_outside(rm, best, a, a + width)
            rm.hint_line(best)
            rm.model.maximize(star_weight * rm.stars + rm.leftover)
            found, used = solve_window(rm, min(settings.per_window, left))
            spent += used
            if found is not None:
                score = line_score(game, found, star_weight)
                if score > best_score:
                    best, best_score = found, score
                    if progress is not None:
                        progress(best_score // star_weight)
                    if stop_at is not None and best_score >= stop_at:
                        return best, spent
        if best_score == before:
            break  # a whole pass found nothing better: another would repeat the same solves
    return best, spent


def fix_outside(rm: RoundModel, line: Line, a: int, b: int) -> None:
    """Fix every decision of the line's turns outside [a, b) in the model."""
    outside = {t for t in range(len(line.turns)) if not a <= t < b}
    for var, value in rm.line_values(line, outside):
        rm.model.add(var == value)
