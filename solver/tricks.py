"""Solver-side tricks: symmetry breaking and dominance rules for the round model.

Each one keeps at least one optimal line of every instance (the argument is in its docstring
and in docs/model.md), so the optimum is unchanged; none of them is in the engine. They are
switched together by ModelOptions.tricks and measured one by one in bench/.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .line import Source
from .resources import KINDS

if TYPE_CHECKING:
    from .model import RoundModel


def empty_slots_last(rm: "RoundModel") -> None:
    """Empty slots come after used ones: any line fits the slots from the front."""
    for turn in rm.turn_slots:
        for a, b in zip(turn, turn[1:]):
            rm.model.add_implication(b.used, a.used)


def pair_dice_alike(rm: "RoundModel") -> None:
    """On a pair the two dice are interchangeable: die2 is spent only if die1 is, and only die1
    is copied. Renaming the dice maps any line onto one of this form with the same outcome."""
    m = rm.model
    for t, roll in enumerate(rm.game.rolls):
        if roll[0] != roll[1]:
            continue
        turn = rm.turn_slots[t]
        spent = {k: [sl.pick[Source("die", k)] for sl in turn] + [x for sl in turn for (kk, _), x in sl.comp.items() if kk == k] for k in (0, 1)}
        m.add(sum(spent[1]) <= sum(spent[0]))
        for sl in turn:
            for src, lit in sl.pick.items():
                if src.kind != "die" and src.die == 1:
                    m.add(lit == 0)


def cheapest_copy_on_pair(rm: "RoundModel") -> None:
    """On a pair, copying for 3 hearts is dominated by the 2-heart pair copy (same #, fewer
    hearts; in the base game more resources never hurt: each is worth 0.1 star and every
    condition on resources is a lower bound)."""
    for t, roll in enumerate(rm.game.rolls):
        if roll[0] != roll[1]:
            continue
        for sl in rm.turn_slots[t]:
            for src, lit in sl.pick.items():
                if src.kind == "copy":
                    rm.model.add(lit == 0)


def canonical_order(rm: "RoundModel") -> None:
    """Two neighbouring activations in different realms are in realm order unless swapping
    them would break the resource flow. Swapping such a pair changes no sheet, the set of
    activated realms after both, the dice spent, or the resources after both; so bubble-sorting
    a line by swaps that keep both steps payable gives a line of this form with the same outcome.
    """
    m = rm.model
    for turn in rm.turn_slots:
        for a, b in zip(turn, turn[1:]):
            ra = sum(r * x for r, x in a.act.items())
            rb = sum(r * x for r, x in b.act.items())
            both = [m.new_bool_var(f"both_activate[t{a.t + 1},s{a.s + 1}]")]
            m.add(sum(a.act.values()) + sum(b.act.values()) == 2).only_enforce_if(both[0])
            m.add(sum(a.act.values()) + sum(b.act.values()) <= 1).only_enforce_if(~both[0])
            swappable = []
            for K in KINDS:
                # b first: payable from what a started with; then a payable after b
                ok1 = m.new_bool_var(f"b_first_payable[t{a.t + 1},s{a.s + 1},{K}]")
                m.add(a.res_before[K] >= b.cost[K]).only_enforce_if(ok1)
                m.add(a.res_before[K] < b.cost[K]).only_enforce_if(~ok1)
                ok2 = m.new_bool_var(f"a_second_payable[t{a.t + 1},s{a.s + 1},{K}]")
                m.add(a.res_before[K] - b.cost[K] + b.gain[K] >= a.cost[K]).only_enforce_if(ok2)
                m.add(a.res_before[K] - b.cost[K] + b.gain[K] < a.cost[K]).only_enforce_if(~ok2)
                swappable += [ok1, ok2]
            m.add(ra <= rb).only_enforce_if(both + swappable)


ALL_TRICKS = (empty_slots_last, pair_dice_alike, cheapest_copy_on_pair, canonical_order)
