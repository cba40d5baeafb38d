"""CLI tests: exit codes 0/1/2/3 and the --json shape, through click's CliRunner."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from solver.pentaquest.cli import check_pentaquest_command, pentaquest_command

EX = Path(__file__).resolve().parents[2] / "puzzles" / "examples" / "pentaquest"
DECK, STREAM = str(EX / "small_deck.txt"), str(EX / "small_stream.txt")


def run(cmd, args, tmp_path=None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cmd, args)


def test_solve_win_exit_0_and_json_shape() -> None:
    r = run(pentaquest_command, ["--deck", DECK, "--dice", STREAM, "--json"])
    assert r.exit_code == 0, r.output
    obj = json.loads(r.output)
    assert {"status", "score", "turns", "line", "solve_time", "bound"} <= set(obj)
    assert obj["status"] == "optimal" and obj["score"] == 5 and obj["turns"] == 5 and obj["bound"] == 5
    assert isinstance(obj["line"]["turns"], list) and obj["line"]["turns"][-1][-1]["action"] == "defeat"


def test_solve_rich_output() -> None:
    r = run(pentaquest_command, ["--deck", DECK, "--dice", STREAM])
    assert r.exit_code == 0
    assert "quest area" in r.output and "defeat Wisp" in r.output and "optimal" in r.output


def test_solve_unreachable_exit_1(tmp_path: Path) -> None:
    deck = tmp_path / "d.txt"
    deck.write_text("A | + | 1\nB | - | 6 6 6 6 6\n")
    stream = tmp_path / "s.txt"
    stream.write_text("1 2 3 4 5 " * 3)
    r = run(pentaquest_command, ["--deck", str(deck), "--dice", str(stream), "--json"])
    assert r.exit_code == 1, r.output
    obj = json.loads(r.output)
    assert obj["status"] == "unreachable" and obj["turns"] == 1 and obj["won"] is False


def test_solve_unknown_exit_3() -> None:
    r = run(pentaquest_command, ["--dice", str(EX / "stream_seed5.txt"), "--time-limit", "0", "--json"])
    assert r.exit_code == 3, r.output
    obj = json.loads(r.output)
    assert obj["status"] == "unknown" and obj["bound"] == 42


def test_bad_inputs_exit_2(tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text("A | + | 1\nB | - | 2 Q\n")
    r = run(pentaquest_command, ["--deck", str(deck), "--dice", STREAM])
    assert r.exit_code == 2
    assert r.output.strip() == "error: deck.txt line 2: unknown symbol 'Q'"
    short = tmp_path / "short.txt"
    short.write_text("1 2 3")
    r = run(pentaquest_command, ["--deck", DECK, "--dice", str(short)])
    assert r.exit_code == 2 and "stream too short" in r.output and "Traceback" not in r.output
    seven = tmp_path / "seven.txt"
    seven.write_text("1 2 7")
    r = run(pentaquest_command, ["--deck", DECK, "--dice", str(seven)])
    assert r.exit_code == 2 and "die value 7 outside 1-6" in r.output
    r = run(pentaquest_command, ["--deck", str(tmp_path / "missing.txt"), "--dice", STREAM])
    assert r.exit_code == 2 and r.output.startswith("error: ")
    r = run(pentaquest_command, ["--deck", DECK, "--dice", STREAM, "--option", "nope=1"])
    assert r.exit_code == 2 and "unknown option" in r.output


def test_bga_flag_accepted() -> None:
    r = run(pentaquest_command, ["--deck", DECK, "--dice", STREAM, "--bga", "--json"])
    assert r.exit_code in (0, 1)
    assert json.loads(r.output)["options"]["sun_moon_may_match"] is False


def test_check_legal_text_and_json_lines() -> None:
    for name in ("small_line.txt", "small_line.json"):
        r = run(check_pentaquest_command, ["--deck", DECK, "--dice", STREAM, "--line", str(EX / name)])
        assert r.exit_code == 0, r.output
        assert "legal: won; score 5" in r.output


def test_check_illegal_exit_1() -> None:
    r = run(check_pentaquest_command, ["--deck", DECK, "--dice", STREAM, "--line", str(EX / "small_line_illegal.txt"),
                                       "--json"])
    assert r.exit_code == 1
    obj = json.loads(r.output)
    assert obj["legal"] is False and obj["error_turn"] == 1 and "do not meet 'Orc'" in obj["reason"]


def test_check_bad_line_exit_2(tmp_path: Path) -> None:
    line = tmp_path / "l.txt"
    line.write_text("defeat Nobody\n")
    r = run(check_pentaquest_command, ["--deck", DECK, "--dice", STREAM, "--line", str(line)])
    assert r.exit_code == 2 and r.output.strip() == "error: l.txt line 1: unknown card 'Nobody'"
