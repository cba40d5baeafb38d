"""The line format (docs/line-format.md): text and JSON round trips, errors naming file and line,
the documented examples, and the bundled example line (legal, with the score it claims)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from solver.commands import build_game
from solver.engine import replay
from solver.errors import InputError
from solver.line import Activation, Compensation, Line, Source, load_line, parse_line_json, parse_line_text

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "puzzles" / "examples"

EVERYTHING = """\
turn 1 roll 3 5
  die1 +1 -> parks trail=2
  copy-seven die2 -> wurfelwelten world=1 benefit=P
  compensate die2 P
  end ark-nova column=3
turn 2 roll 4 4
  copy-pair die1 -2 -> libertalia pirate=3 benefit=yes
  copy die2 extra-1 -> libertalia pirate=4 benefit=no
  create 6 -> feast-for-odin island=B shape=2 cells=11+12
  end ark-nova column=4
"""


def test_text_parses_every_construct() -> None:
    line = parse_line_text(EVERYTHING)
    t1, t2 = line.turns
    assert t1.roll == (3, 5) and t2.roll == (4, 4)
    a = t1.actions[0]
    assert isinstance(a, Activation) and a.source == Source("die", 0) and a.shift == 1 and not a.extra
    assert a.realm == "parks" and dict(a.choice) == {"trail": 2}
    assert t1.actions[1].source == Source("copy-seven", 1)
    assert t1.actions[2] == Compensation(1, "P")
    assert dict(t1.end) == {"ark-nova": (("column", 3),)}
    b, c, d = t2.actions
    assert b.source == Source("copy-pair", 0) and b.shift == -2 and dict(b.choice) == {"pirate": 3, "benefit": True}
    assert c.source == Source("copy", 1) and c.extra and c.shift == -1 and dict(c.choice)["benefit"] is False
    assert d.source == Source("create", None, 6) and dict(d.choice) == {"island": "B", "shape": 2, "cells": "11+12"}


def test_text_round_trip() -> None:
    line = parse_line_text(EVERYTHING)
    assert parse_line_text(line.to_text()) == line


def test_json_round_trip_and_certificate_form() -> None:
    line = parse_line_text(EVERYTHING)
    data = json.loads(json.dumps(line.to_json()))
    assert parse_line_json(data) == line
    assert parse_line_json({"line": data}) == line  # a certificate or --json report holds it under "line"


def test_comments_and_blank_lines_are_ignored() -> None:
    text = "# a comment\n\nturn 1 roll 3 5   # the roll\n  die1 -> parks trail=2  # a note\n"
    assert parse_line_text(text) == parse_line_text("turn 1 roll 3 5\n die1 -> parks trail=2\n")


def test_realm_names_are_resolved() -> None:
    line = parse_line_text("turn 1 roll 3 5\n  die1 -> Würfelwelten world=1 benefit=P\n  end Ark-Nova column=3\n")
    assert line.turns[0].actions[0].realm == "wurfelwelten" and line.turns[0].end[0][0] == "ark-nova"


@pytest.mark.parametrize(
    "text, problem",
    [
        ("turn 1 roll 3 x\n", "line 1: die 'x' is not a number"),
        ("turn 1 roll 3 9\n", "line 1: die 9 is outside 1-6"),
        ("turn 1 roll 3\n", "line 1: expected 'turn N roll A B'"),
        ("turn 2 roll 3 5\n", "line 1: turn numbers must count up from 1"),
        ("  die1 -> parks trail=2\n", "line 1: an action before the first"),
        ("turn 1 roll 3 5\n  die1 => parks trail=2\n", "line 2: expected '-> realm'"),
        ("turn 1 roll 3 5\n  die1 -> atlantis\n", "line 2: unknown realm 'atlantis'"),
        ("turn 1 roll 3 5\n  die3 -> parks trail=2\n", "line 2: unknown source 'die3'"),
        ("turn 1 roll 3 5\n  create 7 -> parks trail=2\n", "line 2: 'create' takes a value 1-6"),
        ("turn 1 roll 3 5\n  die1 -> parks trail\n", "line 2: expected name=value"),
        ("turn 1 roll 3 5\n  compensate die1 gold\n", "line 2: expected 'compensate die1|die2 P|H|C'"),
        ("# only a comment\n", "no turns in the line file"),
    ],
)
def test_text_errors_name_file_and_line(text: str, problem: str) -> None:
    with pytest.raises(InputError) as err:
        parse_line_text(text, "mine.txt")
    assert str(err.value).startswith("mine.txt")
    assert problem in str(err.value)
    assert "\n" not in str(err.value)


def test_load_line_reads_text_and_json(tmp_path: Path) -> None:
    line = parse_line_text(EVERYTHING)
    (tmp_path / "l.txt").write_text(line.to_text())
    (tmp_path / "l.json").write_text(json.dumps(line.to_json(), indent=1))
    assert load_line(str(tmp_path / "l.txt")) == line == load_line(str(tmp_path / "l.json"))


def test_load_line_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('[{"roll": [3, 5],\n  "actions": [}]')
    with pytest.raises(InputError, match=r"bad.json line 2: malformed JSON"):
        load_line(str(bad))
    with pytest.raises(InputError, match="cannot read"):
        load_line(str(tmp_path / "missing.txt"))
    wrong = tmp_path / "wrong.json"
    wrong.write_text('[{"roll": [3, 8]}]')
    with pytest.raises(InputError, match="wrong.json turn 1: roll must be two dice 1-6"):
        load_line(str(wrong))


def doc_examples() -> list[str]:
    """The ```text blocks of docs/line-format.md that start with 'turn 1'."""
    doc = (ROOT / "docs" / "line-format.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```text\n(.*?)```", doc, re.S)
    return [b for b in blocks if b.lstrip().startswith("turn 1")]


def test_documented_examples_parse_and_round_trip() -> None:
    blocks = doc_examples()
    assert len(blocks) >= 2
    for block in blocks:
        line = parse_line_text(block, "docs/line-format.md")
        assert parse_line_text(line.to_text()) == line


def test_bundled_example_line_is_legal_and_scores_what_it_says() -> None:
    g = build_game("wurfelwelten,parks,libertalia", str(EX / "round1.txt"))
    line = load_line(str(EX / "line-example.txt"))
    rep = replay(g, line)
    assert rep.legal, rep.error
    assert (rep.stars_total, rep.final.resources.total(), rep.score_tenths) == (11, 4, 114)
    assert "11 stars + 4 leftover = 11.4" in (EX / "line-example.txt").read_text()


def test_bundled_illegal_line_is_illegal_where_it_says() -> None:
    g = build_game("wurfelwelten,parks,libertalia", str(EX / "round1.txt"))
    rep = replay(g, load_line(str(EX / "line-illegal.txt")))
    assert not rep.legal and rep.error_turn == 1 and rep.error_step == 1
    assert "already activated" in (rep.error or "")


def test_line_is_a_value() -> None:
    assert Line() == Line(()) and parse_line_text(EVERYTHING) != parse_line_text(EVERYTHING.replace("+1", "-1"))


@pytest.mark.parametrize("key", sorted(__import__("solver.realms", fromlist=["MODULES"]).MODULES))
def test_random_lines_of_every_realm_survive_text_and_json(key: str) -> None:
    """Every realm's choices read back as written (cells=11 stays the text '11', order=10 a number)."""
    import random

    from solver.playout import random_line
    from conftest import make_game

    partners = [k for k in ("parks", "libertalia", "wurfelwelten") if k != key][:2]
    rng = random.Random(7)
    for i in range(12):
        rolls = [(rng.randint(1, 6), rng.randint(1, 6)) for _ in range(4)]
        line = random_line(make_game([key] + partners, rolls), random.Random(i), max_actions=4, stop=0.1)
        assert parse_line_text(line.to_text()) == line, line.to_text()
        assert parse_line_json(json.loads(json.dumps(line.to_json()))) == line
