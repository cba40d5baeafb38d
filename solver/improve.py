"""Better lines when the proof does not finish: large-neighbourhood search over windows of turns.

When the star count of a round is not proven within the limit, the user still gets the best
line found (status unknown, with the proven bound). The one-model search often finds poor lines
on 9-turn rounds (docs/performance.md). This improver keeps every turn of the line fixed except
a window of consecutive turns (or any set of turns: `pair_windows`, every two), asks the round
model for the best play of that window (stars first, then leftover) and keeps it when the engine
scores it higher; the window slides over the round. It only ever returns lines the engine
replayed, never claims optimality, and changes no bound. Deterministic: the same line, rolls and budget give the same result (one worker,
deterministic time).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Callable, Sequence

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
    #: deterministic seconds per solve of a pair of turns (`pair_windows`)
    per_pair: float = 1.0


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
    windows: Sequence[tuple[int, ...]] | None = None,
    per_window: float | None = None,
) -> tuple[Line, float]:
    """Slide a window of turns over the line; re-solve the window with the rest fixed.

    `solve_window(rm, limit)` solves a model (already maximising, rest fixed, line hinted) within
    `limit` deterministic seconds and returns (a legal line or None, deterministic time used).
    Returns the best line (engine-scored, never worse than `line`) and the time spent; stops as
    soon as the line scores `stop_at` or more (a target question needs no more).

    `windows`: the turn sets to re-solve, in order (default: every `settings.window` consecutive
    turns; `pair_windows` for every two turns), each solved within `per_window` (default
    `settings.per_window`) deterministic seconds."""
    best, best_score = line, line_score(game, line, star_weight)
    spent = 0.0
    first = options.played_turns  # played turns stay as played
    if windows is None:
        windows = consecutive_windows(first, game.turns, settings.window)
    windows = [w for w in windows if min(w) >= first]
    if not windows:
        return best, spent
    limit = settings.per_window if per_window is None else per_window
    for _ in range(settings.passes):
        if stop_at is not None and best_score >= stop_at:
            break
        before = best_score
        for free in windows:
            left = budget - spent
            if left <= 0.05:
                return best, spent
            rm = RoundModel(game, options)
            fix_all_but(rm, best, set(free))
            rm.hint_line(best)
            rm.model.maximize(star_weight * rm.stars + rm.leftover)
            found, used = solve_window(rm, min(limit, left))
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


def consecutive_windows(first: int, turns: int, width: int) -> list[tuple[int, ...]]:
    """Every `width` consecutive turns from turn `first` (0-based) on: the improver's windows."""
    width = min(width, turns - first)
    if width <= 0:
        return []
    return [tuple(range(a, a + width)) for a in range(first, turns - width + 1)]


def pair_windows(first: int, turns: int) -> list[tuple[int, ...]]:
    """Every two turns from turn `first` on, adjacent or not. Why: a better leftover can need two
    distant turns changed together (spend less early, gain more late), which a window of
    consecutive turns holds only when it is wide, and a wide window's model is too large to solve
    well in its limit. Measured on bench seed 33 at 18 stars: leftover 10 -> 11 -> 12 (= its LP
    bound, so proven) by turns (1, 3), then (3, 6), where 3c's 4-turn windows stayed at 10
    (docs/performance.md, nineteenth session)."""
    return list(itertools.combinations(range(first, turns), 2))


def fix_all_but(rm: RoundModel, line: Line, free: set[int]) -> None:
    """Fix every decision of the line's turns not in `free` (0-based) in the model."""
    fixed = {t for t in range(len(line.turns)) if t not in free}
    rm.fix_values(rm.line_values(line, fixed))
