"""Tapestry's CP-SAT face, rule by rule: each test breaks when the constraint it names is dropped.

The shared suites (test_realm_properties, test_model_bounds) check random lines and optima; these
pin the rules a random line rarely reaches: a completed band, the gain going to the completing
#, compensation when no shape fits, and the coarse cut signature.
"""
from __future__ import annotations

import copy

from solver.engine import Game
from solver.line import parse_line_text
from solver.playout import exhaustive_best
from solver.realms.tapestry import Tapestry
from solver.rules import RuleSet
from solver.solve import solve_optimal

from conftest import engine_score, make_game, model_score_of_line

# the top big row (squares P, H, C) filled by four #s, one per turn
BAND = """
turn 1 roll 3 1
  die1 -> tapestry cells=11+12+21
turn 2 roll 2 1
  die1 -> tapestry cells=13+14
turn 3 roll 2 1
  die1 -> tapestry cells=23+24
turn 4 roll 3 1
  die1 -> tapestry cells=15+25+26
"""


def test_a_completed_big_row_scores_and_each_big_square_gains_its_resource():
    game = make_game(["tapestry"], [(3, 1), (2, 1), (2, 1), (3, 1)])
    line = parse_line_text(BAND)
    assert engine_score(game, line) == (1, 3)  # one band; P, H and C from its three squares
    assert model_score_of_line(game, line)[1:] == (1, 3)


def test_the_gain_goes_to_the_number_that_completes_the_square():
    # turn 2: the first # completes the P square of the middle; its pumpkin, with the 2 held,
    # pays the second #'s 3-pumpkin power. Legal only if the gain is booked on the first #.
    text = """
    turn 1 roll 3 1
      die1 -> tapestry cells=11+12+21
      compensate die2 P
    turn 2 roll 3 2
      die1 -> tapestry cells=34+43+44
      die2 extra-1 -> tapestry cells=31
    """
    game = make_game(["tapestry"], [(3, 1), (3, 2)])
    line = parse_line_text(text)
    assert engine_score(game, line) == (0, 0)
    assert model_score_of_line(game, line) == ("OPTIMAL", 0, 0)
    # the same two #s in the other order: the power is paid before the square gives its pumpkin
    swapped = parse_line_text(text.replace(
        "die1 -> tapestry cells=34+43+44\n      die2 extra-1 -> tapestry cells=31",
        "die2 extra-1 -> tapestry cells=31\n      die1 -> tapestry cells=34+43+44",
    ))
    assert swapped != line
    assert model_score_of_line(game, swapped)[0] == "INFEASIBLE"


def _blocked_card() -> Tapestry:
    """The PNP card with three more pre-filled cells: no shape 6 fits anywhere."""
    card = copy.deepcopy(Tapestry().card)
    card["prefilled"] = card["prefilled"] + [[3, 3], [1, 3], [3, 1]]
    return Tapestry(card)


def test_compensation_only_when_the_shape_fits_nowhere():
    realm = _blocked_card()
    assert realm.free_placements[6] == []  # the premise of this test
    game = Game((realm,), ((6, 2),), RuleSet())
    # a 6 fits nowhere: compensating it without activating the realm is legal, in both judges
    ok = parse_line_text("turn 1 roll 6 2\n  compensate die1 C")
    assert engine_score(game, ok) == (0, 1)
    assert model_score_of_line(game, ok)[1:] == (0, 1)
    # a 2 fits: compensating it while the realm is not activated is refused by the model
    bad = parse_line_text("turn 1 roll 6 2\n  compensate die2 C")
    assert model_score_of_line(game, bad)[0] == "INFEASIBLE"


def test_overlapping_shapes_are_refused_by_the_model():
    text = """
    turn 1 roll 2 5
      die1 -> tapestry cells=11+12
    turn 2 roll 1 5
      die1 -> tapestry cells=12
    """
    game = make_game(["tapestry"], [(2, 5), (1, 5)])
    assert model_score_of_line(game, parse_line_text(text))[0] == "INFEASIBLE"


def test_a_number_takes_only_its_own_shape():
    text = "turn 1 roll 3 5\n  die1 -> tapestry cells=11+12"
    game = make_game(["tapestry"], [(3, 5)])
    assert model_score_of_line(game, parse_line_text(text))[0] == "INFEASIBLE"


def test_cuts_on_the_gain_signature_keep_the_optimum():
    """A round whose model optima need no-good cuts (a compensation paying a pumpkin change
    that must come before it): cutting on the realm's gains and the grid's placeability, not on
    the cells, still reaches exhaustive search's optimum."""
    game = make_game(["tapestry"], [(6, 1), (1, 5)])
    best, _ = exhaustive_best(game)
    result = solve_optimal(game, time_limit=30, prove=False)
    assert result.status == "optimal"
    # this round needed cuts until the model let only a compensation the realm could not take pay
    # for its first # (model.py, compensate_before); the cut loop itself is tested in
    # tests/test_model_bounds.py on rounds that still need it
    assert 10 * result.stars + result.leftover == best
