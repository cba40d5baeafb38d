"""Better lines when the proof does not finish: large-neighbourhood search over windows of turns.

When the star count of a round is not proven within the limit, the user still gets the best
line found (status unknown, with the proven bound). The one-model search often finds poor lines
on 9-turn rounds (docs/performance.md). This improver keeps every turn of the line fixed except
a window of consecutive turns (or any set of turns: `pair_windows`, every two), asks the round
model for the best play of that window (stars first, then leftover) and keeps it when the engine
scores it higher; the window slides over the round. All windows are solved on one round model
(`WindowModel`: the other turns fixed by domains, put back after each solve). It only ever
returns lines the engine replayed, never claims optimality, and changes no bound.
Deterministic: the same line, rolls and budget give the same result (one worker, deterministic
time).
"""
from __future__ import annotations

import itertools
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

from ortools.sat.python import cp_model, cp_model_helper

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
    shared: "WindowModel | None" = None,
) -> tuple[Line, float]:
    """Slide a window of turns over the line; re-solve the window with the rest fixed.

    `solve_window(rm, limit)` solves a model (already maximising, rest fixed, line hinted) within
    `limit` deterministic seconds and returns (a legal line or None, deterministic time used).
    Returns the best line (engine-scored, never worse than `line`) and the time spent; stops as
    soon as the line scores `stop_at` or more (a target question needs no more).

    `windows`: the turn sets to re-solve, in order (default: every `settings.window` consecutive
    turns; `pair_windows` for every two turns), each solved within `per_window` (default
    `settings.per_window`) deterministic seconds. `shared`: the round model to solve the windows
    on (a `WindowModel` of this game and options, kept by the caller for its next improver run);
    default: one built for this run."""
    best, best_score = line, line_score(game, line, star_weight)
    spent = 0.0
    first = options.played_turns  # played turns stay as played
    if windows is None:
        windows = consecutive_windows(first, game.turns, settings.window)
    windows = [w for w in windows if min(w) >= first]
    if not windows:
        return best, spent
    limit = settings.per_window if per_window is None else per_window
    if shared is None:
        shared = WindowModel(game, options, star_weight)
    assert shared.game == game and shared.options == options and shared.star_weight == star_weight
    for _ in range(settings.passes):
        if stop_at is not None and best_score >= stop_at:
            break
        before = best_score
        for free in windows:
            left = budget - spent
            if left <= 0.05:
                return best, spent
            with shared.window(best, set(free)) as rm:
                found, used = shared.solved(rm, best, free, min(limit, left), solve_window)
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


def pair_windows(first: int, turns: int, size: int = 2) -> list[tuple[int, ...]]:
    """Every two turns from turn `first` on, adjacent or not. Why: a better leftover can need two
    distant turns changed together (spend less early, gain more late), which a window of
    consecutive turns holds only when it is wide, and a wide window's model is too large to solve
    well in its limit. Measured on bench seed 33 at 18 stars: leftover 10 -> 11 -> 12 (= its LP
    bound, so proven) by turns (1, 3), then (3, 6), where 3c's 4-turn windows stayed at 10
    (docs/performance.md, nineteenth session). `size`: every `size` turns instead (the region's
    sets of three, solve.improve_by_pairs)."""
    return list(itertools.combinations(range(first, turns), size))


def fix_all_but(rm: RoundModel, line: Line, free: set[int]) -> None:
    """Fix every decision of the line's turns not in `free` (0-based) in the model."""
    rm.fix_values(rm.line_values(line, _fixed_turns(line, free)))


def _fixed_turns(line: Line, free: set[int]) -> set[int]:
    """The line's turns (0-based) a window keeps as played: all but `free`."""
    return {t for t in range(len(line.turns)) if t not in free}


class WindowModel:
    """The round model built once for all of an improver's windows: a window fixes the other
    turns by narrowing their variables' domains to the line's values, and the domains are put
    back after the solve. Why: building the model takes about 0.8 s wall on a 9-turn promo round
    (seed 33 of the bench) and a pass of the 36 pairs of turns built it 36 times, where each
    solve is limited to 1 deterministic second (docs/performance.md, twentieth session).

    What the model keeps between windows is sound for every window: literals a realm creates
    lazily when a line is put into the model (Parks' `on_trail`) are definitions, and the cuts
    `solve_with_cuts` adds pin the whole history up to the illegal turn (valid for every line).
    A line value the in-place fixing cannot state (not a variable of the model, outside its
    domain, or two values for one variable) gets a freshly built model with equality
    constraints, as before."""

    def __init__(self, game: Game, options: ModelOptions, star_weight: int) -> None:
        self.game, self.options, self.star_weight = game, options, star_weight
        self._rm: RoundModel | None = None
        #: windows solved on the shared model and on a fresh one (tests read them)
        self.shared_windows = 0
        self.fresh_windows = 0
        #: the answers of windows solved on the shared model, by the exact question (`solved`)
        self._answers: dict[tuple[Any, ...], tuple[Line | None, float]] = {}
        #: windows answered from `_answers` without solving again (tests read it)
        self.repeated_windows = 0
        #: the quick line of this model's game by deterministic limit (solve.improve_both's start
        #: on the round without compensation, kept for its next improver run)
        self.quick_lines: dict[float, Line | None] = {}

    def solved(self, rm: RoundModel, line: Line, free: Sequence[int], limit: float,
               solve_window: Callable[[RoundModel, float], tuple[Line | None, float]]) -> tuple[Line | None, float]:
        """`solve_window(rm, limit)` for the window `free` of `line`, or its earlier answer when
        exactly this question was solved before on the shared model: the same window, line (the
        pins and the hint), limit and solver, and the model unchanged since (its variables and
        constraints only ever grow: cuts, Parks' lazily made literals), so CP-SAT (one worker,
        a deterministic limit) would repeat its answer and its deterministic time; only solvers
        that say so (a `question` attribute: their settings) are answered again. Why: a second
        pass repeats the windows after the first pass's last better line, and stage 3c repeats
        2c's last windows from the same line (each a whole presolve of the round, 1-3 s wall)."""
        # (solve._window_solver's settings; none: a solve that may answer otherwise next time)
        question = getattr(solve_window, "question", None)
        if rm is not self._rm or question is None:
            return solve_window(rm, limit)  # a fresh model is never asked again
        proto = rm.model.proto
        key = (frozenset(free), line, limit, question, len(proto.variables), len(proto.constraints))
        answer = self._answers.get(key)
        if answer is not None:
            self.repeated_windows += 1
            return answer
        answer = solve_window(rm, limit)
        self._answers[key] = answer
        return answer

    def _fresh(self) -> RoundModel:
        rm = RoundModel(self.game, self.options)
        rm.model.maximize(self.star_weight * rm.stars + rm.leftover)
        return rm

    @contextmanager
    def window(self, line: Line, free: set[int]) -> Iterator[RoundModel]:
        """The model with every turn of `line` not in `free` (0-based) fixed and the line hinted;
        the fixing is undone when the block ends."""
        if self._rm is None:
            self._rm = self._fresh()
        rm = self._rm
        pins = _domain_pins(rm.model, rm.line_values(line, _fixed_turns(line, free)))
        if pins is None:
            self.fresh_windows += 1
            fresh = self._fresh()
            fix_all_but(fresh, line, free)
            fresh.hint_line(line)
            yield fresh
            return
        self.shared_windows += 1
        variables = rm.model.proto.variables
        saved = {i: list(variables[i].domain) for i in pins}
        try:
            for i, v in pins.items():
                variables[i].domain.clear()
                variables[i].domain.extend([v, v])
            rm.model.clear_hints()
            rm.hint_line(line)
            yield rm
        finally:
            for i, dom in saved.items():
                variables[i].domain.clear()
                variables[i].domain.extend(dom)


def _domain_pins(model: cp_model.CpModel, values: list[tuple[Any, int]]) -> dict[int, int] | None:
    """{variable index: value} that fixes these (variable or negated literal, value) pairs by
    domains, or None when one cannot be fixed that way (then a fresh model states it)."""
    pins: dict[int, int] = {}
    variables = model.proto.variables
    for var, value in values:
        if isinstance(var, cp_model.IntVar):
            i, v = var.index, value
        elif isinstance(var, cp_model_helper.NotBooleanVariable):
            i, v = var.negated().index, 1 - value
        else:
            return None
        if pins.get(i, v) != v or not _in_domain(list(variables[i].domain), v):
            return None
        pins[i] = v
    return pins


def _in_domain(domain: list[int], v: int) -> bool:
    """Is v in a CP-SAT domain (flat list of closed intervals)?"""
    return any(lo <= v <= hi for lo, hi in zip(domain[::2], domain[1::2]))
