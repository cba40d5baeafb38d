"""Turns already played (`solve round --played`, `ModelOptions.played`): every model fixes them,
so the answer ("the most stars", "N stars?") is about the rest of the round — "can I still make
18 stars with these rolls?". Checked against exhaustive search from where the played turns end.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, strategies as st

import cli as cli_module
from solver.certificate import load_certificate, make_certificate, verify_certificate, write_certificate
from solver.commands import build_game, load_played
from solver.errors import InputError
from solver.line import Line, parse_line_text
from solver.model import ModelOptions
from solver.playout import exhaustive_best, random_line
from solver.solve import solve_optimal, solve_target

from conftest import examples, make_game

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "puzzles" / "examples"
REALMS = "wurfelwelten,parks,libertalia"


@pytest.mark.parametrize("key", ["parks", "ark-nova", "wurfelwelten", "libertalia"])
@examples(3)
@given(rolls=st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6)), min_size=2, max_size=3), seed=st.integers(0, 10**6))
def test_the_optimum_after_played_turns_is_exhaustive_search_from_them(key, rolls, seed):
    game = make_game([key], rolls)
    played = Line(random_line(game, random.Random(seed), max_actions=3, stop=0.3).turns[:1])
    best, _ = exhaustive_best(game, played=played)
    res = solve_optimal(game, time_limit=30, options=ModelOptions(played=played), prove=False)
    assert res.status == "optimal"
    assert res.line is not None and res.replay is not None
    assert res.line.turns[:1] == played.turns  # shown exactly as played
    assert res.replay.score_tenths == best
    assert res.played_turns == 1


def test_tricks_leave_played_turns_alone():
    """On a pair the solver's trick plays die 1 before die 2; a played turn that used die 2 alone
    is still a legal start (the trick renames dice only in the turns still to play)."""
    game = make_game(["parks", "wurfelwelten", "libertalia"], [(2, 2), (3, 4)])
    played = parse_line_text("turn 1 roll 2 2\n  die2 -> parks trail=1\n", "<played>")
    res = solve_optimal(game, time_limit=30, options=ModelOptions(played=played), prove=False)
    assert res.status == "optimal"
    assert res.line is not None and res.line.turns[0] == played.turns[0]
    assert res.replay is not None and res.replay.score_tenths == exhaustive_best(game, played=played)[0]


def test_a_target_reachable_from_the_start_can_be_proven_out_of_reach_after_the_played_turns():
    game = make_game(["wurfelwelten", "parks", "libertalia"], [(3, 5), (1, 1)])
    free = solve_optimal(game, time_limit=30, prove=False)
    assert free.status == "optimal" and free.stars is not None
    idle = parse_line_text("turn 1 roll 3 5\n", "<played>")  # both dice left unused (legal)
    best_after, _ = exhaustive_best(game, played=idle)
    assert best_after // 10 < free.stars  # the precondition that makes this test meaningful
    res = solve_target(game, free.stars, time_limit=30, options=ModelOptions(played=idle))
    assert res.status == "unreachable" and res.exit_code == 1
    assert res.proof is not None and res.proof["status"] == "INFEASIBLE"
    reach = solve_target(game, best_after // 10, time_limit=30, options=ModelOptions(played=idle))
    assert reach.status == "reachable"
    assert reach.line is not None and reach.line.turns[0] == idle.turns[0]


def test_certificates_keep_the_played_turns_and_verify_them(tmp_path):
    game = build_game(REALMS, str(EX / "round1.txt"))
    played = load_played(game, str(EX / "played-round1.txt"))
    for target, status in ((14, "unreachable"), (13, "reachable")):
        res = solve_target(game, target, time_limit=30, options=ModelOptions(played=played))
        assert res.status == status
        path = tmp_path / f"cert{target}.json"
        write_certificate(str(path), make_certificate(game, res))
        cert = load_certificate(str(path))
        assert cert.played is not None and cert.played.turns == played.turns
        # 14 is reachable from the start of the round: verify must re-prove it with the played turns
        assert verify_certificate(cert, time_limit=30).status == "verified"
    # a witness that does not begin with the turns said to be played is refused
    data = json.loads(path.read_text())
    data["played"] = json.loads(json.dumps(parse_line_text("turn 1 roll 3 5\n", "<played>").to_json()))
    path.write_text(json.dumps(data))
    ver = verify_certificate(load_certificate(str(path)), time_limit=30)
    assert ver.status == "not-verified"
    assert any(c.name == "played turns" and c.ok is False for c in ver.checks)


def test_played_turns_that_break_a_rule_are_bad_input(tmp_path):
    game = build_game(REALMS, str(EX / "round1.txt"))
    bad = tmp_path / "bad.txt"
    bad.write_text("turn 1 roll 3 5\n  die1 -> parks trail=1\n")
    with pytest.raises(InputError, match=r"bad.txt: the played turns are not legal: turn 1, action 1 .*trail 1 has no site 3"):
        load_played(game, str(bad))
    other = tmp_path / "other.txt"
    other.write_text("turn 1 roll 4 4\n")
    with pytest.raises(InputError, match="the line says roll 4 4, the rolls file says 3 5"):
        load_played(game, str(other))
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing played yet\n")
    with pytest.raises(InputError, match="the played line has no turns|no turns"):
        load_played(game, str(empty))


def test_cli_played_answers_about_the_rest_and_says_so():
    r = CliRunner().invoke(cli_module.cli, ["round", "--realms", REALMS, "--rolls", str(EX / "round1.txt"),
                                            "--played", str(EX / "played-round1.txt"), "--target", "14", "--json"],
                           env={"COLUMNS": "220"})
    assert r.exit_code == 1, r.output
    out = json.loads(r.stdout)
    assert out["status"] == "unreachable" and out["played_turns"] == 6
    r = CliRunner().invoke(cli_module.cli, ["round", "--realms", REALMS, "--rolls", str(EX / "round1.txt"),
                                            "--played", str(EX / "played-round1.txt"), "--target", "13"],
                           env={"COLUMNS": "220"})
    assert r.exit_code == 0, r.output
    assert "REACHABLE" in r.stdout and "turns 1-6 as played (--played)" in r.stdout


def test_the_window_improver_and_the_long_round_order_count_only_the_turns_left(monkeypatch):
    """With 6 of 9 turns played the round is a 3-turn question: CP-SAT's star search comes before
    the LP (the order of short rounds, `lp_first_turns`), and the improver's windows never start
    inside the played turns (all fixed there: a solve for nothing). Measured on the bench's 50
    rounds with 6 turns played: median 20.4 -> 7.1 s (docs/performance.md)."""
    import solver.improve as I
    import solver.solve as S

    game = build_game(REALMS, str(EX / "round1.txt"))
    played = load_played(game, str(EX / "played-round1.txt"))
    order: list[str] = []
    real_lp, real_solve, real_window = S.star_lp, S.solve_with_cuts, I.WindowModel.window
    windows: list[int] = []

    def lp_spy(lp_rm, params):
        order.append("lp")
        return real_lp(lp_rm, params)

    def solve_spy(rm, solver, *args, **kwargs):
        if rm.options.max_total_extras is None and set(rm.model.proto.objective.vars) == {v.index for v in rm.realm_stars}:
            order.append("star search")
        return real_solve(rm, solver, *args, **kwargs)

    def window_spy(self, line, free):
        windows.append(min(free))
        return real_window(self, line, free)

    monkeypatch.setattr(S, "star_lp", lp_spy)
    monkeypatch.setattr(S, "solve_with_cuts", solve_spy)
    monkeypatch.setattr(I.WindowModel, "window", window_spy)
    res = S.solve_optimal(game, 30, options=ModelOptions(played=played), prove=False)
    assert res.status == "optimal" and res.line is not None and res.line.turns[:6] == played.turns
    assert order and order[0] == "star search"
    assert all(a >= 6 for a in windows)
    windows.clear()
    I.improve_line(game, res.line, 5.0, S._window_solver(S.load_params("optimal"), 1), S.STAR_WEIGHT,
                   S.improve_settings(S.load_params("optimal")), ModelOptions(played=played))
    assert windows and all(a >= 6 for a in windows)
