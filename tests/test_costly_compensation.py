"""Compensation's condition counts the card's costly placements (ModelOptions.costly_compensation).

Rulebook (rolling-realms.md §1): a rolled die that cannot be used as rolled in any realm may be
traded for 1 resource. Parks' last site of a trail and Scythe's bottom cells can be used only
when their cost is paid: a die whose value they show may be compensated while they are open only
if the held resources could not pay that cost at that moment.
"""
from __future__ import annotations

import pytest
from ortools.sat.python import cp_model

from solver.engine import replay
from solver.line import parse_line_text
from solver.model import ModelOptions, RoundModel

from conftest import make_game

# Parks, trail 3: 6P 4H 2S 3C 1S; trail 1 ends with a 6 costing 2 coins. Turn 1 puts the 3 on
# trail 3 (a coin; the 6 of trail 3 is crossed off) and compensates the 6: after it, the only
# place for a 6 is trail 1's last site.
PARKS = "turn 1 roll 3 6\n  die1 -> parks trail=3\n  compensate die2 {kind}\nturn 2 roll 6 1\n  compensate die1 C\n"
# Scythe (default scythe_bottom=any): turn 1 marks the top 2; after it, the only cell for a 2 is
# the bottom 2 (column 3), costing a coin
SCYTHE = "turn 1 roll 2 5\n  die1 -> scythe mark=top\n  compensate die2 {kind}\nturn 2 roll 2 4\n  compensate die1 P\n"


def _accepts(keys, rolls, text: str, costly: bool) -> bool:
    game = make_game(keys, rolls)
    line = parse_line_text(text)
    rm = RoundModel(game, ModelOptions(tricks=False, costly_compensation=costly))
    rm.fix_line(line)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    return solver.solve(rm.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)


@pytest.mark.parametrize(
    "keys, rolls, text, payable",
    [
        (["parks"], [(3, 6), (6, 1)], PARKS, "C"),  # 2 coins held: the last site is payable
        (["scythe"], [(2, 5), (2, 4)], SCYTHE, "C"),  # a coin held: the bottom 2 is payable
    ],
)
def test_no_compensation_while_a_costly_placement_is_payable(keys, rolls, text, payable):
    illegal = text.format(kind=payable)
    rep = replay(make_game(keys, rolls), parse_line_text(illegal))
    assert not rep.legal and "can still be used" in rep.error
    assert not _accepts(keys, rolls, illegal, costly=True)
    assert _accepts(keys, rolls, illegal, costly=False)  # the row is what rejects it
    legal = text.format(kind="H")  # a coin short: the cost cannot be paid, compensation is legal
    assert replay(make_game(keys, rolls), parse_line_text(legal)).legal
    assert _accepts(keys, rolls, legal, costly=True)


def test_resources_spent_elsewhere_first_make_the_compensation_legal():
    """The moment's resources: another realm's activation may come first and spend. With 2 coins
    held, a created 2 (2 coins) in Würfelwelten before the compensation leaves none, so the 6 may
    then be compensated although Parks' last site was payable at the turn's start."""
    keys, rolls = ["parks", "wurfelwelten"], [(3, 6), (6, 1)]
    text = (
        "turn 1 roll 3 6\n  die1 -> parks trail=3\n  die2 -> wurfelwelten world=1 benefit=C\n"
        "turn 2 roll 6 1\n  create 2 -> wurfelwelten world=2 benefit=H\n  compensate die1 C\n"
    )
    rep = replay(make_game(keys, rolls), parse_line_text(text))
    assert rep.legal, rep.error
    assert _accepts(keys, rolls, text, costly=True)
