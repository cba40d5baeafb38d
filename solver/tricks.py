"""Solver-side tricks: symmetry breaking and dominance rules for the round model.

Each keeps at least one optimal line of every instance (the argument is in its docstring and in
docs/model.md), so the optimum is unchanged; none of them is in the engine. Turns already played
(`ModelOptions.played`) are left as played: a trick renames or replaces choices, which a played
turn no longer has. They are switched
together by ModelOptions.tricks and measured in bench/.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .line import Source

if TYPE_CHECKING:
    from .model import RoundModel


def pair_dice_alike(rm: "RoundModel") -> None:
    """On a pair the two dice are interchangeable: die2 is spent only if die1 is, and only die1
    is copied. Renaming the dice maps any line onto one of this form with the same outcome."""
    m = rm.model
    for t, roll in enumerate(rm.game.rolls):
        if roll[0] != roll[1] or t < rm.played_turns:
            continue
        evs = [e for r in rm.events for e in r if e.t == t]
        spent = {k: [e.use[Source("die", k)] for e in evs] + [x for (tt, kk, _), x in rm.comp.items() if tt == t and kk == k] for k in (0, 1)}
        m.add(sum(spent[1]) <= sum(spent[0]))
        for e in evs:
            for src, lit in e.use.items():
                if src.kind != "die" and src.die == 1:
                    m.add(lit == 0)


def cheapest_copy_on_pair(rm: "RoundModel") -> None:
    """On a pair, copying for 3 hearts is dominated by the 2-heart pair copy (same #, fewer
    hearts; in the base game more resources never hurt: each is worth 0.1 star and every
    condition on resources is a lower bound)."""
    for t, roll in enumerate(rm.game.rolls):
        if roll[0] != roll[1] or t < rm.played_turns:
            continue
        for r in rm.events:
            for e in r:
                if e.t == t:
                    for src, lit in e.use.items():
                        if src.kind == "copy":
                            rm.model.add(lit == 0)


ALL_TRICKS = (pair_dice_alike, cheapest_copy_on_pair)
