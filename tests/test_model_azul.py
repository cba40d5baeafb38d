"""Azul's CP-SAT face: each usage rule refuses in the model what the engine refuses, the
placeability literal agrees with the engine, and the bounds and LP cuts are the card's.

The shared suites (test_realm_properties.py, test_model_bounds.py) check random lines; these
pin the rules that random lines rarely reach (a full wall, a blocked number, 13 activations).
"""
from __future__ import annotations

import pytest
from ortools.sat.python import cp_model

from solver.engine import placements, replay, start, apply_action, end_turn
from solver.line import Activation, Compensation, Line, Source, TurnPlay, make_choice
from solver.model import ModelOptions, RoundModel
from solver.realms import get_realm
from solver.hull import upper_hull
from solver.rules import RuleSet

from conftest import engine_score, make_game, model_score_of_line

AZUL = get_realm("azul")


def die(k: int, **choice) -> Activation:
    return Activation(Source("die", k), "azul", make_choice(**choice))


def line_of(rolls, plays) -> Line:
    """One turn per roll; plays[t] = the actions of turn t."""
    return Line(tuple(TurnPlay(r, tuple(p), ()) for r, p in zip(rolls, plays)))


def model_status(game, line: Line) -> str:
    return model_score_of_line(game, line)[0]


# ---- every usage rule: the engine's refusals are the model's --------------------------------

ILLEGAL = {
    # a line holds one number: line 2 holds a 3, a 5 joins it
    "one number per line": ([(3, 1), (5, 2)], [[die(0, line=2)], [die(0, line=2, cell=1)]], "holds 3s"),
    # ... also when a pair would fill the line at once
    "one number per line, on a pair": ([(3, 1), (5, 5)], [[die(0, line=2)], [die(0, line=2, cell=3)]], "holds 3s"),
    # a pair gives 2 tiles: on a pair a # fills line 2 at once, so it must move its tile
    "a pair fills line 2": ([(2, 2)], [[die(0, line=2)]], "line 2 is full"),
    # a pair's second tile into line 1 is lost, and line 1 still moves its tile at once
    "a pair into line 1": ([(1, 1)], [[die(0, line=1)]], "line 1 is full"),
    # no pair: one tile, line 2 is not full, no tile moves
    "one tile without a pair": ([(3, 1)], [[die(0, line=2, cell=1)]], "not full yet"),
    # no number twice in a wall row
    "row repeat": ([(2, 1), (2, 3)], [[die(0, line=1, cell=1)], [die(0, line=1, cell=2)]], "row 1 already holds a 2"),
    # no number twice in a wall column, placed tiles ...
    "column repeat": ([(1, 3), (1, 1)], [[die(0, line=1, cell=1)], [die(0, line=2, cell=1)]], "column 1 already holds a 1"),
    # ... and printed numbers
    "printed column": ([(4, 1)], [[die(0, line=1, cell=2)]], "column 2 already holds a 4"),
    "printed row": ([(4, 4)], [[die(0, line=2, cell=1)]], "row 2 already holds a 4"),
    # a printed number fills its cell; a cell takes one tile
    "printed cell": ([(3, 3)], [[die(0, line=2, cell=2)]], "taken"),
    "cell taken": ([(1, 2), (3, 2)], [[die(0, line=1, cell=1)], [die(0, line=1, cell=1)]], "taken"),
    # a line whose number no cell can take cannot be filled: 5 is printed in row 3
    "no cell for the number": ([(5, 5), (5, 1)], [[die(0, line=3)], [die(0, line=3, cell=2)]], "row 3 already holds a 5"),
}


@pytest.mark.parametrize("name", sorted(ILLEGAL))
def test_model_refuses_what_the_engine_refuses(name):
    rolls, plays, reason = ILLEGAL[name]
    game = make_game(["azul"], rolls)
    line = line_of(rolls, plays)
    rep = replay(game, line)
    assert not rep.legal and reason in rep.error, rep.error
    assert model_status(game, line) == "INFEASIBLE"


# a full wall in 8 turns: row 1 by three single #s, row 2 by two pairs, row 3 by a pair then a 3
FULL_WALL = (
    [(1, 4), (2, 5), (3, 6), (6, 6), (5, 5), (3, 3), (3, 1), (4, 2)],
    [
        [die(0, line=1, cell=1)],
        [die(0, line=1, cell=2)],
        [die(0, line=1, cell=3)],
        [die(0, line=2, cell=1)],
        [die(0, line=2, cell=3)],
        [die(0, line=3)],
        [die(0, line=3, cell=2)],
        [],
    ],
)


def test_full_wall_scores_six_in_both_judges():
    rolls, plays = FULL_WALL
    game = make_game(["azul"], rolls)
    line = line_of(rolls, plays)
    assert engine_score(game, line) == (6, 6)  # P H C, H P, H
    assert model_score_of_line(game, line) == ("OPTIMAL", 6, 6)
    # one tile short of the wall (row 3 never moves): rows 1 and 2, columns 1 and 3
    short_rolls = rolls[:6] + [(4, 2), (4, 2)]
    short = line_of(short_rolls, plays[:6] + [[], []])
    game = make_game(["azul"], short_rolls)
    assert engine_score(game, short) == (4, 5)
    assert model_score_of_line(game, short) == ("OPTIMAL", 4, 5)


def test_max_events_is_reached_by_a_legal_line():
    """13 activations in 13 turns, no pair: line 1 three times, line 2 twice twice plus one
    tile left, line 3 three times plus two tiles left. The model must have room for all."""
    values_lines = [(1, 1, 1), (2, 1, 2), (3, 1, 3), (6, 2, None), (6, 2, 1), (5, 2, None), (5, 2, 3),
                    (1, 3, None), (1, 3, None), (1, 3, 2), (2, 2, None), (4, 3, None), (4, 3, None)]
    rolls = [(v, 1 if v != 1 else 2) for v, _, _ in values_lines]
    plays = [[die(0, line=ln) if c is None else die(0, line=ln, cell=c)] for _, ln, c in values_lines]
    game = make_game(["azul"], rolls)
    line = line_of(rolls, plays)
    assert sum(len(p) for p in plays) == AZUL.max_events(len(rolls), RuleSet()) == 13
    stars, left = engine_score(game, line)
    assert (stars, left) == (6, 6)
    assert model_score_of_line(game, line) == ("OPTIMAL", stars, left)


# ---- placeability (compensation) -------------------------------------------------------------

def forced_placeable(game, prefix: Line, t: int, v: int) -> bool:
    """Is azul's placeable[t, v] forced true once the line's turns before t are fixed?"""
    rm = RoundModel(game, ModelOptions(tricks=False, extras=1))
    z = rm.encoders[game.index("azul")].placeable(t, v)
    for var, value in rm.line_values(prefix):
        rm.model.add(var == value)
    rm.model.minimize(z)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.solve(rm.model) == cp_model.OPTIMAL
    return solver.value(z) == 1


# turns 1-4 block a 5 everywhere (row 1 holds a 5, line 2 holds a 3, line 3 holds two 1s): every
# placement left fills a line. Turn 5's roll decides the rest (a 6 still fits row 1).
BLOCK_5 = (
    [(5, 1), (3, 1), (1, 2), (1, 2)],
    [[die(0, line=1, cell=2)], [die(0, line=2)], [die(0, line=3)], [die(0, line=3)]],
)
#: placements that leave a line short of full: line 3 empty (a 5 waits there), or line 3 holding
#: one 5 (a second 5 waits; on a pair it fills line 3, and row 3 prints a 5: nowhere to go)
PREFIXES = {
    "blocked": BLOCK_5,
    "line 3 empty": ([(5, 1), (3, 1), (4, 2)], [[die(0, line=1, cell=2)], [die(0, line=2)], []]),
    "line 3 holds a 5": ([(5, 1), (3, 1), (5, 2)], [[die(0, line=1, cell=2)], [die(0, line=2)], [die(0, line=3)]]),
    # row 1 holds 1 2 _, column 3 holds a 3 (row 2), line 2 holds a 6, line 3 a 1: a 3 is kept out
    # of row 1 by taken cells (cells 1, 2) and by its column (cell 3) only
    "taken cells and a column": (
        [(1, 2), (2, 1), (3, 1), (3, 1), (6, 1), (1, 2)],
        [[die(0, line=1, cell=1)], [die(0, line=1, cell=2)], [die(0, line=2)], [die(0, line=2, cell=3)],
         [die(0, line=2)], [die(0, line=3)]],
    ),
}


@pytest.mark.parametrize("prefix", sorted(PREFIXES))
@pytest.mark.parametrize("last_roll", [(5, 6), (5, 5), (1, 1), (3, 4)])
def test_placeable_is_forced_exactly_when_the_engine_has_a_placement(prefix, last_roll):
    rolls, plays = PREFIXES[prefix]
    game = make_game(["azul"], rolls + [last_roll])
    line = line_of(rolls, plays)
    state = start(game)
    for turn in line.turns:
        for a in turn.actions:
            state = apply_action(game, state, a)
        state = end_turn(game, state, {})
    t = len(rolls)
    for v in range(1, 7):
        engine = bool(placements(game, state, v, Source("die", 0), 0))
        assert forced_placeable(game, line, t, v) == engine, f"value {v} after roll {last_roll}"


def test_placeability_cases_are_the_intended_ones():
    """The scenarios above cover: nowhere, a short line from empty, a short line holding v, a
    pair that fills a line whose number is printed in its row (so nowhere), and a number kept out
    of a row only by taken cells and its column."""
    def placeable(prefix, roll, v):
        rolls, plays = PREFIXES[prefix]
        game = make_game(["azul"], rolls + [roll])
        state = start(game)
        for turn in line_of(rolls, plays).turns:
            for a in turn.actions:
                state = apply_action(game, state, a)
            state = end_turn(game, state, {})
        return [c for c, _ in placements(game, state, v, Source("die", 0), 0)]

    assert placeable("blocked", (5, 6), 5) == []
    assert placeable("line 3 empty", (5, 6), 5) == [make_choice(line=3)]
    assert placeable("line 3 holds a 5", (5, 6), 5) == [make_choice(line=3)]
    assert placeable("line 3 holds a 5", (5, 5), 5) == []
    assert placeable("taken cells and a column", (3, 4), 3) == []
    assert placeable("taken cells and a column", (3, 4), 4) == [make_choice(line=1, cell=3)]


def test_compensation_for_a_blocked_number_is_accepted():
    rolls, plays = BLOCK_5
    rolls = rolls + [(5, 6)]
    game = make_game(["azul"], rolls)
    # the 5 fits nowhere: compensate it; the 6 goes to line 1 (row 1, cell 1)
    line = line_of(rolls, plays + [[Compensation(0, "H"), die(1, line=1, cell=1)]])
    assert engine_score(game, line) == (0, 3)
    assert model_score_of_line(game, line) == ("OPTIMAL", 0, 3)
    # the 6 could still go to azul: compensating it is refused by both judges
    bad = line_of(rolls, plays + [[Compensation(1, "H")]])
    assert not replay(game, bad).legal
    assert model_status(game, bad) == "INFEASIBLE"


# ---- bounds and LP cuts ----------------------------------------------------------------------

def test_star_curve_and_its_hull():
    """The most stars F filled cells give (values ignored), and its upper hull stars <= F."""
    assert AZUL.star_curve() == [0, 1, 2, 2, 3, 4, 6]
    assert upper_hull(AZUL.star_curve()) == [(0, 0), (6, 6)]
    assert upper_hull([0, 2, 3, 3]) == [(0, 0), (1, 2), (2, 3), (3, 3)]


def test_tile_values_leave_out_printed_numbers():
    assert AZUL.tile_values(2, 1) == [1, 2, 3]  # row 3 prints 5 and 6, column 2 prints 4
    assert AZUL.tile_values(1, 0) == [1, 2, 3, 6]
    assert AZUL.max_gain_per_activation(RuleSet()) == 1
