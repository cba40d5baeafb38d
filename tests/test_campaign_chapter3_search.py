"""The quick line of chapter 3 (solver/campaign/chapter3_search.py): an engine beam search over
the rolled dice. It proves nothing, so what matters is that every line it returns is a win by
check_chapter3, that it never wins outside the turn target, and how solve_chapter3 uses it
(CP-SAT asks only the target turns before the quick line's)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from solver.campaign.chapter3 import Chapter3, check_chapter3, load_track
from solver.campaign.chapter3_search import beam_line, quick_line
from solver.campaign.chapter3_solve import solve_chapter3
from solver.realms import solvable_keys
from solver.rolls import parse_rolls

ROOT = Path(__file__).resolve().parents[1]
ROLLS = parse_rolls((ROOT / "puzzles" / "examples" / "campaign" / "chapter3-solve-rolls.txt").read_text())
ROW = ("parks", "wurfelwelten", "libertalia")
TRACKS = str(ROOT / "puzzles" / "examples" / "campaign" / "chapter3-tracks.txt")


def bench_instance(seed: int) -> tuple[tuple[tuple[int, int], ...], Chapter3]:
    """The instance bench/chapter3.py draws for this seed (15 turns)."""
    rng = random.Random(seed)
    rolls = tuple((rng.randint(1, 6), rng.randint(1, 6)) for _ in range(15))
    row = tuple(rng.sample(sorted(solvable_keys()), 3))
    track = load_track(TRACKS, rng.randint(1, 6))
    lo = rng.randint(4, 14)
    return rolls, Chapter3(row, track, (lo, lo + 1))


@pytest.mark.parametrize("order", ["marks", "room"])
def test_each_beam_order_finds_a_checked_win(order: str) -> None:
    """bench/chapter3.py seed 3 (a win in the first target turn exists): both orders find one,
    and the checker agrees it wins there."""
    rolls, setup = bench_instance(3)
    assert setup.realms == ("ark-nova", "between-two-castles", "wingspan") and setup.turn_target == (4, 5)
    line = beam_line(setup, rolls, 40, order)
    assert line is not None
    verdict = check_chapter3(setup.game(rolls), setup, line)
    assert verdict.won and verdict.turn == 4


@pytest.mark.parametrize("target", [(3, 4), (5, 6), (8, 9), (11, 12)])
def test_quick_lines_win_inside_the_target_only(target: tuple[int, int]) -> None:
    """Whatever the target, a line returned wins by the checker in one of its turns (marking the
    last space earlier loses, so the beam must hold the last mark back)."""
    setup = Chapter3(ROW, ("H", "P", "S", "C"), target)
    line = quick_line(setup, ROLLS)
    if line is not None:
        verdict = check_chapter3(setup.game(ROLLS), setup, line)
        assert verdict.won, verdict.reason
        assert verdict.turn in target


def test_the_quick_line_can_be_the_answer_and_cp_sat_asks_only_earlier_turns() -> None:
    """The documented example (turn 2 impossible, won in turn 3): the engine finds the turn-3
    win, so CP-SAT is asked about turn 2 only, and proves it impossible: proven earliest."""
    setup = Chapter3(ROW, ("H", "P", "S", "C"), (2, 3))
    res = solve_chapter3(setup, ROLLS, time_limit=30)
    assert [(q.turn, q.status) for q in res.questions] == [(2, "impossible"), (3, "won")]
    assert res.questions[1].note.startswith("quick line")
    assert res.status == "won" and res.win_turn == 3 and res.proven_earliest
    off = solve_chapter3(setup, ROLLS, time_limit=30, beam=False)
    assert [(q.turn, q.status) for q in off.questions] == [(2, "impossible"), (3, "won")]
    assert not off.questions[1].note and off.win_turn == 3


def test_a_quick_win_in_the_first_target_turn_needs_no_cp_sat() -> None:
    rolls, setup = bench_instance(3)
    assert setup.realms == ("ark-nova", "between-two-castles", "wingspan") and setup.turn_target == (4, 5)
    res = solve_chapter3(setup, rolls, time_limit=0.001)
    assert res.status == "won" and res.win_turn == 4 and res.proven_earliest
    assert [(q.turn, q.status, q.deterministic_time) for q in res.questions] == [(4, "won", 0.0)]


def test_a_bought_number_after_the_dice_can_be_what_wins() -> None:
    """bench/chapter3.py seed 21 (azul, pendulum, my-little-scythe; track C H S P; target 5-6):
    with one bought # (a copy or a created #) allowed after the dice of each turn the beam wins
    in turn 5, and the checker agrees; the line does buy a #."""
    rolls, setup = bench_instance(21)
    assert setup.realms == ("azul", "pendulum", "my-little-scythe") and setup.turn_target == (5, 6)
    line = beam_line(setup, rolls, 40, "marks", buys=1)
    assert line is not None
    verdict = check_chapter3(setup.game(rolls), setup, line)
    assert verdict.won and verdict.turn == 5
    assert any(a.source.kind != "die" for turn in line.turns for a in turn.actions)


def test_the_finish_order_keeps_the_last_symbol_reachable() -> None:
    """bench/chapter3.py seed 10 (late target 14-15, last space C): the "finish" order, which
    keeps sheets where the realm next to the Boss in a target turn can still gain a coin, wins
    in turn 14; the checker agrees."""
    rolls, setup = bench_instance(10)
    assert setup.turn_target == (14, 15) and setup.track[-1] == "C"
    line = beam_line(setup, rolls, 40, "finish")
    assert line is not None
    verdict = check_chapter3(setup.game(rolls), setup, line)
    assert verdict.won and verdict.turn == 14


def test_a_pass_only_looks_for_earlier_wins_than_the_best_so_far() -> None:
    """`last_turn` bounds the search: the documented example wins in turn 3, not by turn 2."""
    setup = Chapter3(ROW, ("H", "P", "S", "C"), (2, 3))
    line = beam_line(setup, ROLLS, 40, "room")
    assert line is not None and len(line.turns) == 3
    assert beam_line(setup, ROLLS, 40, "room", last_turn=3) is not None
    assert beam_line(setup, ROLLS, 40, "room", last_turn=2) is None
    assert beam_line(setup, ROLLS, 40, "room", last_turn=1) is None
