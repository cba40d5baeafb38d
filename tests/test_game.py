"""`solve game`: a full base game is three independent rounds (resources reset between rounds)."""
from __future__ import annotations

from click.testing import CliRunner

import cli as app
from solver import commands
from solver.engine import Game
from solver.realms import get_realm
from solver.solve import RoundResult

GAME = "puzzles/examples/game1.txt"
NINE = "parks,ark-nova,libertalia,wurfelwelten,parks,ark-nova,libertalia,feast-for-odin,parks"


def test_game_splits_realms_and_rolls_by_round():
    games = commands.build_full_game(NINE, GAME)
    assert [tuple(r.key for r in g.realms) for g in games] == [
        ("parks", "ark-nova", "libertalia"),
        ("wurfelwelten", "parks", "ark-nova"),
        ("libertalia", "feast-for-odin", "parks"),
    ]
    rolls = commands.load_rolls(GAME)
    assert [g.rolls for g in games] == [rolls[0:9], rolls[9:18], rolls[18:27]]


def test_game_total_is_the_sum_and_unknown_if_any_round_is(monkeypatch):
    answers = iter([("optimal", 5, 2), ("unknown", 7, 1), ("optimal", 4, 0)])

    def fake(game, target, time_limit, workers, progress=None, played=None, speculate=None):
        status, stars, left = next(answers)
        return RoundResult("optimal", status, stars=stars, leftover=left, star_bound=stars + (status != "optimal"))

    monkeypatch.setattr(commands, "solve_round", fake)
    result = commands.solve_game(commands.build_full_game(NINE, GAME))
    assert (result.stars, result.leftover, result.star_bound) == (16, 3, 17)
    assert result.status == "unknown" and result.exit_code == 3


def test_game_bad_input_is_one_line_exit_2(tmp_path):
    runner = CliRunner()
    res = runner.invoke(app.cli, ["game", "--realms", "parks,ark-nova,libertalia", "--rolls", GAME])
    assert res.exit_code == 2 and "9" in res.output
    short = tmp_path / "short.txt"
    short.write_text("1 2\n" * 10)
    res = runner.invoke(app.cli, ["game", "--realms", NINE, "--rolls", str(short)])
    assert res.exit_code == 2 and "27 turns" in res.output
    res = runner.invoke(app.cli, ["game", "--realms", NINE.replace("feast-for-odin", "parks"), "--rolls", GAME])
    assert res.exit_code == 2 and "twice" in res.output


def test_rounds_solved_at_once_give_the_same_answers():
    """--jobs: each round in its own process, exactly as alone; answers kept in round order."""
    # the first round (2 turns) takes longest, so rounds 2 and 3 finish before it
    triples = [("wurfelwelten", "parks", "libertalia"), ("wurfelwelten", "parks", "ark-nova"), ("libertalia", "feast-for-odin", "parks")]
    rolls = [((3, 5), (1, 1)), ((4, 6),), ((1, 5),)]
    games = [Game(tuple(get_realm(k) for k in keys), r) for keys, r in zip(triples, rolls)]
    alone = commands.solve_game(games, jobs=1)
    done: list[tuple[int, int]] = []
    together = commands.solve_game(games, jobs=2, rounds_done=lambda k, n: done.append((k, n)))
    assert done == [(1, 3), (2, 3), (3, 3)]
    assert [g for g, _ in together.rounds] == games
    for (_, a), (_, b) in zip(alone.rounds, together.rounds):
        assert (a.status, a.stars, a.leftover, a.line.to_text()) == (b.status, b.stars, b.leftover, b.line.to_text())
    assert together.status == "optimal" and together.stars == alone.stars


def test_jobs_must_be_positive():
    runner = CliRunner()
    res = runner.invoke(app.cli, ["game", "--realms", NINE, "--rolls", GAME, "--jobs", "0"])
    assert res.exit_code == 2 and "--jobs" in res.output and "Traceback" not in res.output
