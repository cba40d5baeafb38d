"""Bad-input handling: deck, stream, line and option parsing."""
from __future__ import annotations

import pytest

from solver.pentaquest import PentaquestInputError, load_default_deck, parse_deck_text, parse_line_text, parse_stream_text
from solver.pentaquest.options import parse_options
from solver.pentaquest.stream import check_stream_length


def test_default_deck_is_reconstructed_42_cards_all_abilities() -> None:
    deck = load_default_deck()
    assert len(deck) == 42
    assert {c.ability for c in deck.cards} == {"plus", "minus", "plusminus", "reroll", "mirror"}
    from importlib import resources
    text = resources.files("solver.pentaquest").joinpath("data/default_deck.txt").read_text(encoding="utf-8")
    assert "# provenance: reconstructed" in text
    reqs = {str(r) for c in deck.cards for r in c.alternatives}
    for kind in ("2 2", "4 4 5", "S S", "S S S", "S S M M", "S S M M M"):
        assert kind in reqs
    assert any(len(c.alternatives) > 1 for c in deck.cards)


def test_unknown_symbol_names_line() -> None:
    text = "A | + | 2 2\nB | - | S S\nC | mirror | 2 X\n"
    with pytest.raises(PentaquestInputError) as e:
        parse_deck_text(text, "deck.txt")
    assert str(e.value) == "deck.txt line 3: unknown symbol 'X'"


def test_unknown_ability() -> None:
    with pytest.raises(PentaquestInputError, match="unknown ability"):
        parse_deck_text("A | * | 2 2\n", "deck.txt")


@pytest.mark.parametrize("n", [0, 61])
def test_deck_size_out_of_range(n: int) -> None:
    text = "# only comments\n" + "".join(f"C{i} | + | S S\n" for i in range(n))
    with pytest.raises(PentaquestInputError, match=f"deck has {n} cards"):
        parse_deck_text(text, "deck.txt")


def test_deck_sizes_1_and_60_ok() -> None:
    assert len(parse_deck_text("A | + | 1\n")) == 1
    assert len(parse_deck_text("".join(f"C{i} | + | S S\n" for i in range(60)))) == 60


def test_requirement_too_long_and_duplicate_name() -> None:
    with pytest.raises(PentaquestInputError, match="more than 5"):
        parse_deck_text("A | + | 1 1 1 1 1 1\n")
    with pytest.raises(PentaquestInputError, match="duplicate card name"):
        parse_deck_text("A | + | 1\nA | - | 2\n")


@pytest.mark.parametrize("bad,msg", [("1 2 0 4", "die value 0 outside 1-6"), ("1 7", "die value 7 outside 1-6"),
                                     ("1 two 3", "not a die value: 'two'"), ("1 2.5", "not a die value")])
def test_stream_bad_values(bad: str, msg: str) -> None:
    with pytest.raises(PentaquestInputError, match=msg):
        parse_stream_text(bad, "s.txt")


def test_stream_too_short() -> None:
    stream = parse_stream_text("1 2 3 4 5, 6 1 2 3\n# comment\n4")
    assert len(stream) == 10
    check_stream_length(stream, 2)
    with pytest.raises(PentaquestInputError, match="stream too short"):
        check_stream_length(stream, 3, "s.txt")


def test_solve_rejects_short_stream() -> None:
    from solver.pentaquest import solve
    deck = parse_deck_text("A | + | 1\nB | + | 2\n")
    with pytest.raises(PentaquestInputError, match="stream too short"):
        solve(deck, (1, 2, 3, 4, 5, 6), time_limit=5)


def test_line_parse_errors() -> None:
    deck = parse_deck_text("Goblin | + | 1\nBig Orc | +- | 2\n")
    with pytest.raises(PentaquestInputError, match="unknown card 'Troll'"):
        parse_line_text(deck, "defeat Troll\n", "l.txt")
    with pytest.raises(PentaquestInputError, match="cannot read action"):
        parse_line_text(deck, "dance\n", "l.txt")
    line = parse_line_text(deck, "# a comment\nreroll 1,3 ; defeat Goblin\nuse Big Orc 2+ ; defeat #2\n")
    assert len(line) == 2 and len(line[1]) == 2


def test_options_parse() -> None:
    assert parse_options(["sun_moon_may_match=false"]).sun_moon_may_match is False
    with pytest.raises(PentaquestInputError, match="unknown option"):
        parse_options(["colour=blue"])
    with pytest.raises(PentaquestInputError):
        parse_options(["free_rerolls=lots"])
