"""Proof by cases on the round's 3-pumpkin activations (docs/model.md, "The extras split").

Every line has some number e of 3-pumpkin activations (`RoundModel.total_extras`; each costs 3
pumpkins, rolling-realms.md 6.1). The lines split in two regions:

* e >= k: bounded by the LP relaxation of the round model with the row `total_extras >= k`
  (solver/lp_bound.py, a checked bound). Measured on 9-turn Libertalia + Parks + Würfelwelten
  rounds, each activation the LP must pay 3 pumpkins for costs it 1-2.5 stars: 17.33 with no row,
  16.33 for e >= 1, 15.0 for e >= 2, 12.43 for e >= 3 (docs/performance.md).
* e <= k - 1: CP-SAT on the round model with at most k - 1 of them (`ModelOptions.max_total_extras`),
  a far smaller model than the full one, whose 3-pumpkin bound grows to 6 per turn.

So with k the smallest count whose LP bound is at most S, "no line has S + 1 stars" needs only
the small model's INFEASIBLE. Every legal line is in one of them: the region e <= k - 1 is the
round model with one more row, and the LP's model (`lp_model_options`: the round model, or one
with compensation's condition dropped) admits every line the round model does, with the same e. A solver trick, never a rule: the engine knows nothing of it.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from .engine import Game
from .line import Activation, Line
from .lp_bound import INF, LpBound, LpRelaxation
from .model import ModelOptions, RoundModel


def line_extras(line: Line) -> int:
    """The 3-pumpkin activations of a line."""
    return sum(1 for turn in line.turns for a in turn.actions if isinstance(a, Activation) and a.extra)


def extras_terms(rm: RoundModel) -> dict[int, int]:
    """`RoundModel.total_extras()` as {variable index: 1}, for a row of an LP relaxation."""
    return {e.extra.index: 1 for evs in rm.events for e in evs}


@dataclass
class ExtrasSplit:
    """The LP bounds of "stars with at least k 3-pumpkin activations", asked lazily and kept.

    `lp_bound_of(model, objective)` is the question's LP (solve.lp_bound_of with its limit).
    With `relaxation_of(model, objective)` (an `LpRelaxation` or None), one relaxation is kept
    and its row "at least k" tightened k by k, so GLOP re-solves warm (same bounds, faster)."""

    game: Game
    options: ModelOptions
    lp_bound_of: Any
    max_k: int = 3
    lps: dict[int, LpBound | None] = field(default_factory=dict)
    relaxation_of: Any = None
    #: the options of the model the LPs are asked of (None: `options`); solve.lp_options drops
    #: compensation's condition there (a relaxation: same bounds, smaller LPs). The regions'
    #: models keep `options`: every legal line lies in the LP's model and in one region.
    lp_model_options: ModelOptions | None = None
    #: the round model already built with the LP's options (read only: its relaxation is copied)
    base: RoundModel | None = None
    #: `base`'s relaxation already built and solved (the round's star LP, `solve.star_lp`): the
    #: row "at least k" is added to it, so GLOP starts from the star LP's basis instead of
    #: building and solving the same LP again. Measured on bench seeds 13, 24, 14: k = 1 in
    #: 1.3 / 1.2 / 2.7 s, where a second relaxation took 1.1 + 2.7 / 1.1 + 2.5 / 1.8 + 7.2 s
    #: (seed 14's cold LP stopped at GLOP's limit without an optimum; docs/performance.md)
    relaxation: LpRelaxation | None = None
    #: a speculative stage's cancel (solver/speculate.py): checked before each LP, and a GLOP
    #: solve running when it is cancelled is interrupted (its answer is dropped then)
    task: Any = None
    _relaxation: LpRelaxation | None = None
    _row: int | None = None

    def lp(self, k: int) -> LpBound | None:
        """The checked LP bound on stars over lines with >= k 3-pumpkin activations (None: none
        within the limit, or the LP has no optimum; nothing is claimed then)."""
        if k in self.lps:
            return self.lps[k]
        lp_options = self.lp_model_options if self.lp_model_options is not None else self.options
        if self.relaxation_of is None and self.relaxation is None:
            rm = RoundModel(self.game, lp_options)
            rm.model.add(rm.total_extras() >= k)
            self.lps[k] = self.lp_bound_of(rm.model, rm.stars)
            return self.lps[k]
        if self._row is None:
            rm = self.base if self.base is not None else RoundModel(self.game, lp_options)
            assert rm.options == lp_options, "the base model must be built with the LP's options"
            if self.relaxation is not None:
                assert self.base is not None, "a relaxation given must be the base model's"
                self._relaxation = self.relaxation
            else:
                self._relaxation = self.relaxation_of(rm.model, rm.stars)
            if self._relaxation is not None:
                if self.task is not None:
                    self.task.stoppable(self._relaxation.interrupt)
                self._row = self._relaxation.add_row(extras_terms(rm), k, INF)
        elif self._relaxation is not None:
            self._relaxation.set_bounds(self._row, k, INF)
        if self.task is not None and self.task.cancelled.is_set():
            return None  # (cancelled: not kept, and the stage's answer is dropped)
        self.lps[k] = self._relaxation.solve() if self._relaxation is not None else None
        return self.lps[k]

    def smallest_k(self, stars: int, strict: bool = False) -> tuple[int, LpBound] | None:
        """The smallest k <= max_k whose LP bound is at most `stars` (below it with `strict`),
        or None. Every k is asked even when k = 1 does not lower the whole model's LP: measured on
        bench seed 24 (Ark Nova + Parks + Würfelwelten), 18.0 for k = 1 and 17.92 for k = 2, which
        proves the round's leftover in the region of at most one (an early stop there, dropped
        after this measurement, hung on the last digits of two exact bounds of 18)."""
        for k in range(1, self.max_k + 1):
            if self.task is not None and self.task.cancelled.is_set():
                return None  # (a cancelled stage's answer is never taken)
            lp = self.lp(k)
            if lp is None:
                return None
            if lp.integer_bound < stars or (not strict and lp.integer_bound == stars):
                return k, lp
        return None

    def region(self, k: int, **changes: Any) -> RoundModel:
        """The round model of the lines with at most k - 1 3-pumpkin activations (`changes`:
        other ModelOptions of that model, e.g. the leftover stage's)."""
        return RoundModel(self.game, replace(self.options, max_total_extras=k - 1, **changes))


def split_proof(question: str, k: int, lp: LpBound, region: dict[str, Any]) -> dict[str, Any]:
    """The proof of a certificate by the extras split: both regions, each with how it was decided."""
    return {
        "question": question,
        "status": "INFEASIBLE" if region.get("status") == "INFEASIBLE" else region.get("status", "UNKNOWN"),
        "method": "extras-split",
        "extras_at_least": k,
        "lp": {"question": f"{question} with at least {k} 3-pumpkin activations", "status": "INFEASIBLE", **lp.as_json()},
        "region": {"question": f"{question} with at most {k - 1} 3-pumpkin activations", **region},
    }
