"""The CP-SAT faces of the cross-realm realms agree with the engine on hand-made lines.

- Between Two Cities scores min(lowest of the other realms' stars, squares filled): a city with
  more squares than the other realms' stars is held down by them (the model's cross-realm hook);
- My Little Scythe scores the 6th P/H/C earned anywhere: a pumpkin earned in Parks, or by
  compensation, makes the 6th (rule option my_little_scythe_counting, default "anywhere");
- a solved round with Between Two Cities is replayed by the engine with the model's stars.
Each line is checked engine vs model: same stars (per realm) and leftover.
"""
from __future__ import annotations

import random

from ortools.sat.python import cp_model

from solver.engine import replay
from solver.line import parse_line_text
from solver.model import ModelOptions, RoundModel
from solver.playout import exhaustive_best
from solver.rules import RuleSet
from solver.solve import STAR_WEIGHT, solve_optimal

from conftest import make_game


def model_stars_of_line(game, line) -> tuple[tuple[int, ...], int]:
    """Fix the line in the model (no tricks) and read back each realm's stars and the leftover."""
    most = max([len(t.actions) for t in line.turns] + [1])
    rm = RoundModel(game, ModelOptions(tricks=False, extras=most))
    rm.fix_line(line)
    rm.model.maximize(STAR_WEIGHT * rm.stars + rm.leftover)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    status = solver.solve(rm.model)
    assert status == cp_model.OPTIMAL, f"model rejects a legal line ({solver.status_name(status)}):\n{line.to_text()}"
    return tuple(solver.value(s) for s in rm.realm_stars), int(solver.value(rm.leftover))


def engine_stars_of_line(game, line) -> tuple[tuple[int, ...], int]:
    rep = replay(game, line)
    assert rep.legal, rep.error
    return rep.stars, rep.final.resources.total()


CITY_LINE = """
turn 1 roll 1 4
  die1 -> scythe mark=top
  die2 -> parks trail=1
turn 2 roll 2 5
  die1 -> scythe mark=bottom
  die2 -> between-two-cities row=1 col=1
turn 3 roll 2 3
  die1 -> parks trail=3
  die2 -> between-two-cities row=1 col=2
turn 4 roll 5 6
  die1 -> between-two-cities row=3 col=3
"""


def test_city_is_held_down_by_the_lowest_other_realm():
    game = make_game(["between-two-cities", "parks", "scythe"], [(1, 4), (2, 5), (2, 3), (5, 6)])
    line = parse_line_text(CITY_LINE)
    engine = engine_stars_of_line(game, line)
    # the line is meant to test the min: 3 squares, Parks 2 stars, Scythe 1 star -> the city 1
    assert engine[0] == (1, 2, 1)
    assert model_stars_of_line(game, line) == engine


def test_city_without_stars_elsewhere_scores_nothing():
    """Same line, Würfelwelten instead of Scythe (never activated, 0 stars): the city scores 0."""
    game = make_game(["between-two-cities", "parks", "wurfelwelten"], [(1, 4), (2, 5), (2, 3), (5, 6)])
    text = CITY_LINE.replace("  die1 -> scythe mark=top\n", "").replace("  die1 -> scythe mark=bottom\n", "")
    line = parse_line_text(text)
    engine = engine_stars_of_line(game, line)
    assert engine[0] == (0, 2, 0)
    assert model_stars_of_line(game, line) == engine


def test_city_is_held_down_by_its_squares():
    """Two realms: Parks scores 2, the city has 1 square -> 1 star."""
    game = make_game(["parks", "between-two-cities"], [(4, 5), (2, 3)])
    line = parse_line_text("turn 1 roll 4 5\n die1 -> parks trail=1\n die2 -> between-two-cities row=2 col=2\nturn 2 roll 2 3\n die1 -> parks trail=3\n")
    engine = engine_stars_of_line(game, line)
    assert engine[0] == (2, 1)
    assert model_stars_of_line(game, line) == engine


SCYTHE_PARKS_LINE = """
turn 1 roll 1 3
  die2 -> my-little-scythe flower=left
  die1 -> parks trail=1
turn 2 roll 6 2
  die2 -> my-little-scythe flower=left
  die1 -> parks trail=3
turn 3 roll 2 5
  die2 -> my-little-scythe flower=left
  die1 -> parks trail=2
"""


def test_sixth_pumpkin_earned_in_another_realm():
    """3 P from the left flower, 3 from Parks (the last one is the 6th): 2 stars."""
    game = make_game(["my-little-scythe", "parks"], [(1, 3), (6, 2), (2, 5)])
    line = parse_line_text(SCYTHE_PARKS_LINE)
    engine = engine_stars_of_line(game, line)
    assert engine[0][0] == 2
    assert model_stars_of_line(game, line) == engine


def test_only_own_gains_count_with_option_here():
    game = make_game(["my-little-scythe", "parks"], [(1, 3), (6, 2), (2, 5)], RuleSet(my_little_scythe_counting="here"))
    line = parse_line_text(SCYTHE_PARKS_LINE)
    engine = engine_stars_of_line(game, line)
    assert engine[0][0] == 0
    assert model_stars_of_line(game, line) == engine


def test_sixth_pumpkin_earned_by_compensation():
    """Alone in the round, the realm is activated every turn, so the other die may be
    compensated: 3 P from the left flower + 3 compensated P (the 6th last): 2 stars."""
    rolls = [(1, 2), (3, 4), (5, 6)]
    game = make_game(["my-little-scythe"], rolls)
    text = "".join(f"turn {t + 1} roll {a} {b}\n  die1 -> my-little-scythe flower=left\n  compensate die2 P\n" for t, (a, b) in enumerate(rolls))
    line = parse_line_text(text)
    engine = engine_stars_of_line(game, line)
    assert engine == ((2,), 6)
    assert model_stars_of_line(game, line) == engine
    # one compensation fewer (a heart instead): 5 P earned, no star, in both judges
    fewer = parse_line_text(text[: text.rindex("P")] + "H\n")
    engine = engine_stars_of_line(game, fewer)
    assert engine == ((0,), 6)
    assert model_stars_of_line(game, fewer) == engine


def test_pair_bonus_coin_counts_towards_the_sixth_coin():
    """Two matching pairs give 2 C, 4 compensated C make the rest (the 2nd pair's C last)."""
    rolls = [(1, 1), (1, 2), (2, 3), (4, 2)]
    game = make_game(["my-little-scythe"], rolls)
    text = (
        "turn 1 roll 1 1\n die1 -> my-little-scythe flower=left\n compensate die2 C\n"
        "turn 2 roll 1 2\n die1 -> my-little-scythe flower=right\n compensate die2 C\n"
        "turn 3 roll 2 3\n die1 -> my-little-scythe flower=left\n compensate die2 C\n"
        "turn 4 roll 4 2\n die2 -> my-little-scythe flower=right\n compensate die1 C\n"
    )
    line = parse_line_text(text)
    engine = engine_stars_of_line(game, line)
    assert engine == ((2,), 10)  # 2 P, 2 H, 6 C
    assert model_stars_of_line(game, line) == engine


BONUS_LINE = """
turn 1 roll 1 2
  die1 -> between-two-cities row=1 col=1
  die2 -> parks trail=1
turn 2 roll 2 6
  die1 -> between-two-cities row=1 col=2
turn 3 roll 3 4
  die1 -> between-two-cities row=1 col=3
  create 1 -> parks trail=2
turn 4 roll 2 5
  die1 -> between-two-cities row=2 col=1
  die2 -> parks trail=2
turn 5 roll 1 3
  die2 -> between-two-cities row=3 col=1
  die1 -> my-little-scythe flower=left
"""
BONUS_ROLLS = [(1, 2), (2, 6), (3, 4), (2, 5), (1, 3)]


def test_row_and_column_bonuses_pay_in_the_same_turn():
    """Row 1 (P+C) completes in turn 3 and its coin pays for a created 1 the same turn (only
    if the bonus goes to that turn); column 1 (P+P) completes in turn 5."""
    game = make_game(["between-two-cities", "parks", "my-little-scythe"], BONUS_ROLLS)
    line = parse_line_text(BONUS_LINE)
    engine = engine_stars_of_line(game, line)
    assert engine[1] == 6  # H (Parks) + P (row) + H (Parks) + P P (column) + P (flower)
    assert model_stars_of_line(game, line) == engine


ILLEGAL = [
    # equal #s orthogonally adjacent
    ("turn 1 roll 3 5\n die1 -> between-two-cities row=1 col=1\nturn 2 roll 3 5\n die1 -> between-two-cities row=1 col=2\n"),
    # the same square twice
    ("turn 1 roll 3 5\n die1 -> between-two-cities row=2 col=2\nturn 2 roll 3 5\n die2 -> between-two-cities row=2 col=2\n"),
    # compensation while the (un-activated) city could take the die
    ("turn 1 roll 3 5\n die1 -> my-little-scythe flower=left\n compensate die2 P\nturn 2 roll 3 5\n"),
    # the same number twice in one flower
    ("turn 1 roll 3 5\n die1 -> my-little-scythe flower=left\nturn 2 roll 3 5\n die1 -> my-little-scythe flower=left\n"),
    # compensation while the (un-activated) flowers could take the die
    ("turn 1 roll 3 5\n die1 -> between-two-cities row=1 col=1\n compensate die2 C\nturn 2 roll 3 5\n"),
]


def test_model_refuses_what_the_engine_refuses():
    game = make_game(["between-two-cities", "my-little-scythe"], [(3, 5), (3, 5)])
    for text in ILLEGAL:
        line = parse_line_text(text)
        assert not replay(game, line).legal, text
        rm = RoundModel(game, ModelOptions(tricks=False, extras=1))
        rm.fix_line(line)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        assert solver.solve(rm.model) == cp_model.INFEASIBLE, text


def test_optimum_with_the_city_equals_exhaustive_search():
    """Short rounds of the city with Parks: the solver's proven optimum is the engine's best."""
    rng = random.Random(7)
    for n in (1, 1, 2):
        rolls = [(rng.randint(1, 6), rng.randint(1, 6)) for _ in range(n)]
        game = make_game(["between-two-cities", "parks"], rolls)
        best, _ = exhaustive_best(game)
        result = solve_optimal(game, time_limit=30, prove=False)
        assert result.status == "optimal"
        assert 10 * result.stars + result.leftover == best
