"""Rules-engine tests: each checks one rule of the seed (and can fail if the rule is broken)."""
from __future__ import annotations

import pytest

from solver.pentaquest import (Defeat, Game, IllegalMove, Pass, Reroll, Use, apply, initial_state,
                               parse_deck_text, parse_line_text, replay)
from solver.pentaquest.options import Options

DECK = parse_deck_text(
    "Goblin | + | 1 1\n"
    "Orc | - | 6 6\n"
    "Troll | +- | S S S\n"
    "Imp | reroll | 2\n"
    "Wisp | mirror | 5 5\n"
    "Bat | + | 3\n"
)


def game(stream: list[int], opts: Options = Options()) -> Game:
    return Game(DECK, tuple(stream), opts)


def test_initial_fill_and_roll() -> None:
    g = game([1, 1, 2, 3, 4] + [6] * 40)
    s = initial_state(g)
    assert s.quest == (0, 1, 2, 3, 4)
    assert s.dice == (1, 1, 2, 3, 4) and s.pos == 5 and s.free_left == 2


def test_reroll_takes_next_values_in_die_order() -> None:
    g = game([1, 1, 2, 3, 4, 5, 6] + [6] * 40)
    s = apply(g, initial_state(g), Reroll((3, 1)))
    assert s.dice == (5, 1, 6, 3, 4) and s.pos == 7


def test_first_turn_two_free_rerolls_later_one() -> None:
    g = game([1, 1, 2, 3, 4] + [2] * 60)
    s = initial_state(g)
    s = apply(g, s, Reroll((5,)))
    s = apply(g, s, Reroll((4,)))
    with pytest.raises(IllegalMove, match="no free reroll left"):
        apply(g, s, Reroll((3,)))
    s = apply(g, initial_state(g), Defeat(0))  # Goblin with 1 1
    assert s.turn == 2 and s.free_left == 1
    s = apply(g, s, Reroll((1,)))
    with pytest.raises(IllegalMove, match="no free reroll left"):
        apply(g, s, Reroll((2,)))


def test_one_monster_per_turn() -> None:
    g = game([1, 1, 2, 3, 6] + [6] * 40)
    # dice 1 1 2 3 6 meet Goblin (1 1) and Imp (2): only one may be defeated this turn
    with pytest.raises(IllegalMove, match="one monster per turn"):
        replay(g, ((Defeat(0), Defeat(3)),))
    s = apply(g, initial_state(g), Defeat(0))
    assert s.turn == 2 and s.dice == (6, 6, 6, 6, 6)  # defeat ended turn 1


def test_defeat_requires_met_requirement_and_quest_area() -> None:
    g = game([1, 2, 3, 4, 5] + [6] * 40)
    with pytest.raises(IllegalMove, match="do not meet 'Goblin'"):
        apply(g, initial_state(g), Defeat(0))
    with pytest.raises(IllegalMove, match="not in the quest area"):
        apply(g, initial_state(g), Defeat(5))  # Bat is the 6th card, still in the deck


def test_army_card_discarded_after_use() -> None:
    g = game([1, 1, 5, 5, 4] + [1, 2, 6, 6, 3] + [4] * 40)
    s = apply(g, initial_state(g), Defeat(0))  # Goblin (+1) joins the army
    assert s.army == (0,)
    s = apply(g, s, Use(0, (1,)))  # 1 -> 2
    assert s.dice[0] == 2 and s.army == () and s.used == (0,) and s.score == 0
    with pytest.raises(IllegalMove, match="already used"):
        apply(g, s, Use(0, (2,)))


def test_army_then_free_reroll_is_illegal() -> None:
    g = game([1, 1, 5, 5, 4] + [1, 2, 6, 6, 3] + [4] * 40)
    s = apply(g, apply(g, initial_state(g), Defeat(0)), Use(0, (1,)))
    with pytest.raises(IllegalMove, match="phase 3 comes before phase 4"):
        apply(g, s, Reroll((1,)))


def test_ability_effects_and_limits() -> None:
    g = game([6, 6, 5, 5, 1] + [1, 6, 3, 2, 4] + [4] * 60)
    s = apply(g, initial_state(g), Defeat(1))  # Orc (-1) with 6 6
    assert s.dice == (1, 6, 3, 2, 4)
    with pytest.raises(IllegalMove, match="cannot go -1"):
        apply(g, s, Use(1, (1,)))
    s2 = apply(g, s, Use(1, (2,)))
    assert s2.dice[1] == 5
    # mirror, ±1 and reroll cards
    g2 = game([2, 2, 2, 5, 5] + [5, 5, 1, 2, 3] + [3, 3, 3, 1, 2] + [6, 6] + [4] * 60)
    s = apply(g2, initial_state(g2), Defeat(2))  # Troll (±1) with 2 2 2
    s = apply(g2, s, Defeat(4))                  # Wisp (mirror) with 5 5; Troll now needs 3 of a kind
    assert s.dice == (3, 3, 3, 1, 2)
    s = apply(g2, s, Use(4, (4,)))               # mirror 1 -> 6
    assert s.dice == (3, 3, 3, 6, 2)
    with pytest.raises(IllegalMove, match="choose \\+ or -"):
        apply(g2, s, Use(2, (1,)))
    s = apply(g2, s, Use(2, (5,), -1))           # 2 -> 1
    assert s.dice == (3, 3, 3, 6, 1)


def test_reroll_card_consumes_stream() -> None:
    g = game([2, 1, 3, 4, 6] + [4, 4, 1, 5, 6] + [1, 1] + [5] * 40)
    s = apply(g, initial_state(g), Defeat(3))  # Imp (reroll) with a 2
    assert s.dice == (4, 4, 1, 5, 6) and s.pos == 10
    s = apply(g, s, Use(3, (4, 5)))
    assert s.dice == (4, 4, 1, 1, 1) and s.pos == 12 and s.used == (3,)


def test_loss_when_no_monster_defeated() -> None:
    g = game([1, 2, 3, 4, 5] + [6] * 40)
    s = apply(g, initial_state(g), Pass())
    assert s.status == "lost" and "no monster defeated in turn 1" in s.end_reason
    rep = replay(g, ((Reroll((1,)),),))  # a turn line without a defeat is a pass
    assert rep.final.status == "lost" and rep.final.turns_survived == 0


def test_win_and_score() -> None:
    deck = parse_deck_text("A | + | 1\nB | - | 2\n")
    g = Game(deck, (1, 2, 3, 4, 5, 2, 2, 2, 2, 2))
    rep = replay(g, parse_line_text(deck, "defeat A\ndefeat B\n"))
    assert rep.final.status == "won" and rep.final.score == 2 and rep.final.turns_survived == 2
    with pytest.raises(IllegalMove, match="already over"):
        replay(g, parse_line_text(deck, "defeat A\ndefeat B\npass\n"))
    with pytest.raises(IllegalMove, match="stops before the game ends"):
        replay(g, parse_line_text(deck, "defeat A\nreroll 1 ; defeat B\n"[:9]))


def test_stream_exhausted() -> None:
    deck = parse_deck_text("A | + | 1\nB | - | 2\n")
    g = Game(deck, (1, 2, 3, 4, 5, 1, 1, 1, 1, 1, 2))
    s = apply(g, initial_state(g), Reroll((1, 2, 3, 4, 5)))
    assert s.pos == 10
    with pytest.raises(IllegalMove, match="stream exhausted"):
        apply(g, s, Reroll((1, 2)))
    s = apply(g, s, Defeat(0))
    assert s.status == "lost" and "stream exhausted" in s.end_reason
