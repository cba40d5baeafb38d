"""What a running round solve shows: the best line so far, a proven bound, and the stage.

The solver's stages find lines in restricted models (a window of turns, a region of the split)
whose own bounds say nothing about the round, and their searches restart from hints below the
best line already found. So the figures shown are kept here, not taken from one search: the
best line never goes down, the bound is only ever a proven bound on the round's stars and never
goes up, and each stage says what the solver is doing (measured on the bundled game's round 2,
which showed "best 15, bound 17", then "best 6, bound 18" from a region's search).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

#: what the caller is told: (best line's stars or None before the first line, proven bound, stage)
ProgressCallback = Callable[[int | None, int, str], None]

#: the stages of solve_optimal, as shown
STAGE_FIRST_LINE = "first line"
STAGE_LP = "LP bound"
STAGE_WINDOWS = "better lines (turn windows)"
STAGE_STAR_SEARCH = "most stars (CP-SAT)"
STAGE_SPLIT = "cases on 3-pumpkin activations"
STAGE_MIP_LINES = "lines from HiGHS"
STAGE_LEFTOVER = "stars proven; most leftover"


@dataclass
class RoundProgress:
    """The figures a round solve shows while it runs, each reported to `callback` (None: nothing
    is shown). `cap`: the bound before anything is proven (6 stars a realm)."""

    callback: ProgressCallback | None
    cap: int
    best: int | None = None
    bound: int | None = None
    stage: str = STAGE_FIRST_LINE

    def line(self, stars: int) -> None:
        """A legal line with `stars` stars was found (shown only if better than the best)."""
        if self.best is None or stars > self.best:
            self.best = stars
            self._show()

    def proven_bound(self, bound: int | None) -> None:
        """`bound` is proven: no line of the round has more stars (shown only if lower)."""
        if bound is not None and (self.bound is None or bound < self.bound):
            self.bound = bound
            self._show()

    def enter(self, stage: str) -> None:
        """The solver starts `stage`."""
        if stage != self.stage:
            self.stage = stage
            self._show()

    def _show(self) -> None:
        if self.callback is None:
            return
        self.callback(self.best, min(self.cap, self.bound) if self.bound is not None else self.cap, self.stage)
