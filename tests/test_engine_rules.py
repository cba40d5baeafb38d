"""The engine states the core rules of rolling-realms.md §1 and §6: one small test per rule.

Each test plays the smallest situation where the rule matters, so that dropping the rule from
solver/engine.py makes the test fail. Realms used: Würfelwelten (any # fits, one benefit per
world), Parks (trails of numbered sites), Libertalia and Ark Nova (the seed's worked example).
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from solver.engine import Game, RoundState, apply_action, end_turn, realm_stars, replay, score_tenths, start
from solver.errors import IllegalAction
from solver.line import Activation, Compensation, Source, make_choice, parse_line_text
from solver.realms import get_realm
from solver.resources import Resources
from solver.rules import RuleSet

W, P, L = "wurfelwelten", "parks", "libertalia"


def game(rolls, keys=(W, P, L), rules: RuleSet | None = None) -> Game:
    return Game(tuple(get_realm(k) for k in keys), tuple(rolls), rules or RuleSet())


def holding(g: Game, **res: int) -> RoundState:
    """The start of the round, holding the given resources."""
    return replace(start(g), resources=Resources(**res))


def act(src: str, realm: str, shift: int = 0, extra: bool = False, **choice) -> Activation:
    """`act("die1", W, world=1, benefit="P")`; sources 'die1', 'copy die1', 'create 4', ..."""
    parts = src.split()
    if parts[0] == "create":
        source = Source("create", None, int(parts[1]))
    elif len(parts) == 1:
        source = Source("die", int(parts[0][3]) - 1)
    else:
        source = Source(parts[0], int(parts[1][3]) - 1)
    return Activation(source, realm, make_choice(**choice), shift, extra)


def world_faces(g: Game, s: RoundState, world: int) -> tuple[int, ...]:
    """The numbers written on a Würfelwelten world (its sheet: per world (faces, benefits left))."""
    return tuple(s.sheets[g.index(W)][world - 1][0])


def play(g: Game, s: RoundState, *actions) -> RoundState:
    for a in actions:
        s = apply_action(g, s, a)
    return s


# ---- one # per realm per turn ----------------------------------------------------------------

def test_one_number_per_realm_per_turn() -> None:
    g = game([(3, 5)])
    s = play(g, start(g), act("die1", W, world=1, benefit="P"))
    with pytest.raises(IllegalAction, match="already activated"):
        apply_action(g, s, act("die2", W, world=2, benefit="H"))
    # the same die twice is refused too, and copies / created #s follow the same rule
    with pytest.raises(IllegalAction, match="already used"):
        apply_action(g, s, act("die1", P, trail=2))
    rich = replace(s, resources=Resources(H=3, C=4))
    with pytest.raises(IllegalAction, match="already activated"):
        apply_action(g, rich, act("copy die2", W, world=2, benefit="H"))
    with pytest.raises(IllegalAction, match="already activated"):
        apply_action(g, rich, act("create 4", W, world=2, benefit="H"))
    # another realm is fine
    assert play(g, s, act("die2", P, trail=2)).activated == {0, 1}


# ---- pumpkins ----------------------------------------------------------------------------------

def test_two_pumpkins_change_a_number_by_one() -> None:
    g = game([(3, 5)])
    s = play(g, holding(g, P=2), act("die1", W, shift=+1, world=2, benefit="H"))
    assert world_faces(g, s, 2) == (4,)
    assert s.resources == Resources(H=1)  # 2 pumpkins paid, the world's heart gained
    with pytest.raises(IllegalAction, match="cannot pay"):
        apply_action(g, holding(g, P=1), act("die1", W, shift=+1, world=2, benefit="H"))


def test_pumpkin_changes_stack_four_for_two() -> None:
    g = game([(3, 5)])
    s = play(g, holding(g, P=4), act("die1", W, shift=-2, world=2, benefit="H"))
    assert world_faces(g, s, 2) == (1,)
    assert s.resources.P == 0
    with pytest.raises(IllegalAction, match="cannot pay"):
        apply_action(g, holding(g, P=3), act("die1", W, shift=-2, world=2, benefit="H"))


def test_pumpkin_changes_stay_within_one_to_six() -> None:
    g = game([(6, 1)])
    with pytest.raises(IllegalAction, match="above 6"):
        apply_action(g, holding(g, P=2), act("die1", W, shift=+1, world=1, benefit="P"))
    with pytest.raises(IllegalAction, match="below 1"):
        apply_action(g, holding(g, P=2), act("die2", W, shift=-1, world=1, benefit="P"))


def test_three_pumpkins_change_by_one_and_enter_an_activated_realm() -> None:
    g = game([(3, 5)])
    s = play(g, holding(g, P=3), act("die1", W, world=1, benefit="P"))
    s = play(g, s, act("die2", W, shift=+1, extra=True, world=2, benefit="H"))
    assert world_faces(g, s, 1) == (3,) and world_faces(g, s, 2) == (6,)
    assert s.resources == Resources(P=1, H=1)  # 3 paid out of 3 + 1 gained; + 1 heart
    two = play(g, holding(g, P=2), act("die1", W, world=1, benefit="C"))
    with pytest.raises(IllegalAction, match="cannot pay"):
        apply_action(g, two, act("die2", W, shift=+1, extra=True, world=2, benefit="H"))


def test_three_plus_two_k_pumpkins_are_not_allowed() -> None:
    g = game([(3, 5)])
    s = play(g, holding(g, P=5), act("die1", W, world=1, benefit="C"))
    with pytest.raises(IllegalAction, match="exactly \\+1 or -1"):
        apply_action(g, s, act("die2", W, shift=-2, extra=True, world=2, benefit="H"))
    with pytest.raises(IllegalAction, match="exactly \\+1 or -1"):
        apply_action(g, s, act("die2", W, shift=0, extra=True, world=2, benefit="H"))


# ---- copies and created numbers ----------------------------------------------------------------

def test_two_hearts_copy_only_on_a_pair() -> None:
    with pytest.raises(IllegalAction, match="pair"):
        g = game([(3, 5)])
        apply_action(g, holding(g, H=2), act("copy-pair die1", W, world=1, benefit="P"))
    g = game([(4, 4)])
    s = play(g, holding(g, H=2), act("copy-pair die1", W, world=1, benefit="P"))
    assert world_faces(g, s, 1) == (4,) and s.resources == Resources(P=1)


def test_three_hearts_copy_any_roll() -> None:
    g = game([(3, 5)])
    s = play(g, holding(g, H=3), act("copy die2", W, world=1, benefit="P"))
    assert world_faces(g, s, 1) == (5,) and s.resources == Resources(P=1)
    with pytest.raises(IllegalAction, match="cannot pay"):
        apply_action(g, holding(g, H=2), act("copy die2", W, world=1, benefit="P"))


def test_two_coins_copy_only_on_a_seven() -> None:
    with pytest.raises(IllegalAction, match="sum to 7"):
        g = game([(3, 5)])
        apply_action(g, holding(g, C=2), act("copy-seven die1", W, world=1, benefit="P"))
    g = game([(3, 4)])
    s = play(g, holding(g, C=2), act("copy-seven die2", W, world=1, benefit="P"))
    assert world_faces(g, s, 1) == (4,) and s.resources == Resources(P=1)


def test_x_coins_create_x() -> None:
    g = game([(3, 5)])
    s = play(g, holding(g, C=4), act("create 4", W, world=1, benefit="P"))
    assert world_faces(g, s, 1) == (4,) and s.resources == Resources(P=1)
    with pytest.raises(IllegalAction, match="cannot pay"):
        apply_action(g, holding(g, C=3), act("create 4", W, world=1, benefit="P"))


def test_a_copy_takes_the_rolled_value_not_the_changed_one() -> None:
    g = game([(3, 5)])
    s = play(g, holding(g, P=2, H=3), act("die1", P, shift=+1, trail=1))  # the 3 becomes a 4 in Parks
    s = play(g, s, act("copy die1", W, world=1, benefit="P"))
    assert world_faces(g, s, 1) == (3,)


def test_copies_and_created_numbers_may_be_changed_by_pumpkins() -> None:
    g = game([(3, 5)])
    s = play(g, holding(g, P=4, H=3, C=2), act("copy die1", W, shift=+1, world=1, benefit="C"))
    s = play(g, s, act("create 2", L, shift=-1, pirate=1, benefit=False))
    assert world_faces(g, s, 1) == (4,)
    assert s.sheets[g.index(L)][0][0] == 11  # pirate 1 (printed tens 1) completed with a 1
    assert s.resources == Resources(C=1)


# ---- compensation ------------------------------------------------------------------------------

def test_compensation_only_when_the_rolled_value_fits_no_realm_left() -> None:
    g = game([(3, 5)])
    s = holding(g, C=2)
    with pytest.raises(IllegalAction, match="can still be used"):
        apply_action(g, s, Compensation(0, "H"))
    s = play(g, s, act("die2", W, world=1, benefit="P"), act("create 1", P, trail=1), act("create 1", L, pirate=1, benefit=False))
    s = play(g, s, Compensation(0, "H"))  # every realm is activated: the 3 has no place left
    assert s.resources == Resources(P=2, H=1)
    assert s.die_spent == (True, True)


def test_compensation_at_most_once_per_die_and_the_die_is_spent() -> None:
    g = game([(3, 5)])
    s = play(g, holding(g, C=2), act("die2", W, world=1, benefit="P"), act("create 1", P, trail=1),
             act("create 1", L, pirate=1, benefit=False), Compensation(0, "C"))
    with pytest.raises(IllegalAction, match="already used"):
        apply_action(g, s, Compensation(0, "C"))
    with pytest.raises(IllegalAction, match="already used"):
        apply_action(g, s, act("die1", W, shift=0, extra=True, world=2, benefit="H"))


def test_compensation_off_by_rule_option() -> None:
    g = game([(3, 5)], rules=RuleSet().with_options({"compensation": "off"}))
    s = play(g, holding(g, C=2), act("die2", W, world=1, benefit="P"), act("create 1", P, trail=1),
             act("create 1", L, pirate=1, benefit=False))
    with pytest.raises(IllegalAction, match="compensation is off"):
        apply_action(g, s, Compensation(0, "H"))


# ---- scoring -----------------------------------------------------------------------------------

def ark_with_stars(n: int):
    """An Ark Nova sheet that has gained n stars (its state: avail, outlined, stars)."""
    realm = get_realm("ark-nova")
    avail, outlined, _ = realm.initial(RuleSet())
    return (avail, outlined, n)


def test_a_realm_holds_at_most_six_stars() -> None:
    g = game([(3, 5)], keys=("ark-nova", P, W))
    s = replace(start(g), sheets=(ark_with_stars(8),) + start(g).sheets[1:])
    assert realm_stars(g, s) == (6, 0, 0)
    seven = game([(3, 5)], keys=("ark-nova", P, W), rules=RuleSet().with_options({"star_cap": "7"}))
    assert realm_stars(seven, s) == (7, 0, 0)


def test_each_leftover_resource_is_a_tenth_of_a_star() -> None:
    g = game([(3, 5)], keys=("ark-nova", P, W))
    s = replace(start(g), sheets=(ark_with_stars(2),) + start(g).sheets[1:], resources=Resources(P=2, H=1, C=3))
    assert score_tenths(g, s) == 26  # 2 stars + 6 resources = 2.6


def test_replay_scores_the_final_state() -> None:
    g = game([(3, 5)])
    rep = replay(g, parse_line_text("turn 1 roll 3 5\n  die1 -> wurfelwelten world=1 benefit=C\n  die2 -> parks trail=2\n"))
    assert rep.legal and rep.stars_total == 1 and rep.final.resources == Resources(C=1) and rep.score_tenths == 11


# ---- Ark Nova: the worked example of the promo-pack rulebook (seed 000) --------------------------

ARK_EXAMPLE = """\
turn 1 roll 1 5
  die1 -> wurfelwelten world=1 benefit=P
  die2 -> parks trail=2
  end ark-nova column=1
turn 2 roll 1 3
  die1 -> ark-nova column=1
  end ark-nova column=3
turn 3 roll 2 2
"""


def test_ark_nova_worked_example() -> None:
    g = game([(1, 5), (1, 3), (2, 2)], keys=("ark-nova", P, W))
    rep = replay(g, parse_line_text(ARK_EXAMPLE))
    assert rep.legal, rep.error
    ends = {s.turn: s.state for s in rep.steps if s.index == -1}
    avail, outlined, _ = ends[0].sheets[0]
    assert avail[0] == 2 and outlined[0] == 2  # turn 1: 1 and 5 used elsewhere -> outline in column 1
    turn2 = [s.state for s in rep.steps if s.turn == 1 and s.index == 0][0]
    assert turn2.resources.P - ends[0].resources.P == 2  # 2 outlined circles in column 1 -> 2 pumpkins
    avail, outlined, _ = ends[1].sheets[0]
    assert avail[0] == 0 and avail[2] == 2  # crossed off; end of turn 2 outlines column 3


def test_ark_nova_no_outline_under_a_die_placed_there() -> None:
    g = game([(1, 5), (1, 3), (2, 2)], keys=("ark-nova", P, W))
    bad = ARK_EXAMPLE.replace("end ark-nova column=3", "end ark-nova column=1")
    rep = replay(g, parse_line_text(bad))
    assert not rep.legal and rep.error_turn == 1 and "not allowed" in (rep.error or "")


def test_end_turn_moves_to_the_next_turn() -> None:
    g = game([(3, 5), (2, 2)])
    s = end_turn(g, start(g))
    assert s.turn == 1 and s.activated == frozenset() and s.die_spent == (False, False)
