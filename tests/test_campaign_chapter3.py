"""Campaign chapter 3 ("The Boss Monster", seed 003): one test per rule added on top of the base
engine, so that dropping the rule from solver/campaign/chapter3.py fails a test."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest

from solver.campaign.chapter3 import (
    DEFAULT_BOSS_PATH,
    Chapter3,
    check_chapter3,
    damage_hit,
    die_usable,
    load_boss_path,
    load_track,
    parse_boss_path,
    parse_tracks,
    parse_turn_target,
    setup_from_inputs,
)
from solver.engine import apply_activation, end_turn, start
from solver.errors import InputError
from solver.line import parse_line_text
from solver.resources import Resources
from solver.rolls import load_rolls

EX = "puzzles/examples/campaign/"
P, W, L, A = "parks", "wurfelwelten", "libertalia", "ark-nova"
ROW = (P, W, L)  # the Boss starts above wurfelwelten

# won in turn 5 with track H P S C (the example files): marks H (t1 wurfelwelten), P (t3
# libertalia), S (t4 libertalia), C (t5 wurfelwelten, the last action)
WIN_ROLLS = ((2, 5), (1, 3), (4, 2), (6, 4), (3, 5))
WIN_TRACK = ("H", "P", "S", "C")
WIN_LINE = """
turn 1 roll 2 5
  die2 -> wurfelwelten benefit=H world=3
  die1 -> libertalia benefit=no pirate=4
turn 2 roll 1 3
  die1 -> libertalia benefit=no pirate=5
  die2 -> wurfelwelten benefit=P world=1
turn 3 roll 4 2
  die1 -> parks trail=1
  die2 -> libertalia benefit=yes pirate=1
turn 4 roll 6 4
  die2 -> wurfelwelten benefit=C world=3
  die1 -> libertalia benefit=yes pirate=6
turn 5 roll 3 5
  die1 -> parks trail=2
  die2 -> wurfelwelten benefit=C world=1
"""

# euphoria, wurfelwelten, ark-nova: 12 pumpkins earned at turn 8, action 1 (in euphoria, next to the
# Boss above-left) while 4 of them were spent at turn 7 (die1 +2); turn 7's euphoria "both" gains 2 P
EARN_ROW = ("euphoria", W, A)
EARN_ROLLS = ((5, 2), (4, 5), (6, 4), (6, 5), (3, 6), (4, 6), (1, 1), (2, 3))
EARN_LINE = """
turn 1 roll 5 2
  die1 -> wurfelwelten benefit=P world=1
  die2 -> euphoria area=right
  end ark-nova column=2
turn 2 roll 4 5
  die1 -> wurfelwelten benefit=P world=2
  die2 -> euphoria area=left
  end ark-nova column=4
turn 3 roll 6 4
  die2 -> wurfelwelten benefit=P world=1
  die1 -> euphoria area=left left=P
  end ark-nova column=1
turn 4 roll 6 5
  die2 -> euphoria area=right
  die1 -> ark-nova column=1
turn 5 roll 3 6
  die2 -> euphoria area=right right=P
  die1 -> wurfelwelten benefit=C world=3
  end ark-nova column=1
turn 6 roll 4 6
  die1 -> euphoria area=right right=P
  die2 -> ark-nova column=1
turn 7 roll 1 1
  die2 -> euphoria area=both left=P right=P
  die1 +2 -> wurfelwelten benefit=H world=3
turn 8 roll 2 3
  die2 -> euphoria area=left left=P
  die1 -> ark-nova column=2
"""

# euphoria, libertalia, feast-for-odin: at turn 8 die1 (1) fits nowhere, not even with +-1 or the
# 3-pumpkin power; with 4 pumpkins (+2, legal in chapter 3) it would fit libertalia
STUCK_ROW = ("euphoria", L, "feast-for-odin")
STUCK_ROLLS = ((1, 2), (2, 3), (6, 2), (4, 1), (6, 1), (1, 3), (5, 3), (1, 5))
STUCK_LINE = """
turn 1 roll 1 2
  die2 -> feast-for-odin cells=33+34 island=B shape=2
  die1 -> libertalia benefit=no pirate=1
turn 2 roll 2 3
  die2 -> feast-for-odin cells=21+22+31 island=B shape=3
  die1 -> euphoria area=right
turn 3 roll 6 2
  die2 -> euphoria area=left
  die1 -> feast-for-odin cells=13 island=B shape=1
turn 4 roll 4 1
  die2 -> feast-for-odin cells=22 island=A shape=1
  die1 -> euphoria area=left
turn 5 roll 6 1
  die2 -> euphoria area=left
  die1 -> feast-for-odin cells=11+12 island=B shape=2
turn 6 roll 1 3
  die2 -> libertalia benefit=yes pirate=2
  die1 -> euphoria area=right
turn 7 roll 5 3
  die1 -> euphoria area=right
  die2 -> libertalia benefit=no pirate=5
turn 8 roll 1 5
  die2 -> euphoria area=left left=P
"""


def ch3(track=WIN_TRACK, target=(5, 6), difficulty="normal", realms=ROW, **kw) -> Chapter3:
    return Chapter3(realms, track, target, difficulty, **kw)


def check(setup: Chapter3, rolls=WIN_ROLLS, text: str = WIN_LINE):
    return check_chapter3(setup.game(rolls), setup, parse_line_text(text))


def marks(v) -> list[tuple[int, int, str, str]]:
    return [(m.turn, m.action, m.realm, m.symbol) for m in v.marks]


def replayed(setup: Chapter3, rolls, text: str, turns: int, actions: int = 0):
    """The engine state after `turns` whole turns and `actions` steps of the next one."""
    g = setup.game(rolls)
    line = parse_line_text(text)
    st = start(g)
    for turn in line.turns[:turns]:
        for a in turn.actions:
            st = apply_activation(g, st, a)
        st = end_turn(g, st, dict(turn.end))
    for a in line.turns[turns].actions[:actions]:
        st = apply_activation(g, st, a)
    return g, st


# ---- setup ---------------------------------------------------------------------------------
def test_setup_values_per_difficulty():
    s = ch3()
    assert s.turns == 15 and s.boss_path == DEFAULT_BOSS_PATH and s.target_turns == (5, 6)
    assert s.unwinnable == "lost" and s.same_step == "lost"
    assert ch3(target=(9, 8)).turn_target == (8, 9)
    assert ch3(target=(9,), difficulty="hard").target_turns == (9,)
    easy = ch3(target=(), difficulty="easy")
    assert easy.target_turns == tuple(range(1, 16)) and easy.target_text() == "any turn"
    assert ch3().game(WIN_ROLLS).rules.compensation == "off"


@pytest.mark.parametrize("kw, match", [
    (dict(target=(5, 7)), "2 consecutive turns"),
    (dict(target=(5,)), "2 consecutive turns, got 5"),
    (dict(target=()), "got none"),
    (dict(target=(5, 6), difficulty="hard"), "1 turn"),
    (dict(target=(5,), difficulty="easy"), "easy skips the turn target"),
    (dict(target=(15, 16)), "outside the chapter's turns"),
    (dict(difficulty="nightmare"), "difficulty"),
    (dict(track=()), "at least one space"),
    (dict(track=("P", "X")), "P, H, C or S"),
    (dict(realms=(P, W)), "3 different realms"),
    (dict(realms=(P, W, P)), "3 different realms"),
    (dict(realms=(P, W, "monopoly")), "monopoly"),
    (dict(boss_path=("above-left", "above-middle")), "starts above-middle"),
    (dict(boss_path=("above-middle", "on-top")), "unknown Boss place 'on-top'"),
    (dict(boss_path=("above-middle", "below-middle", "below-middle")), "moves one step every turn"),
    (dict(unwinnable="maybe"), "unwinnable"),
    (dict(same_step="draw"), "same_step"),
    (dict(turns=16), "at most 15 turns"),
])
def test_setup_bad_values(kw, match):
    with pytest.raises(ValueError, match=match):
        ch3(**kw)


def test_rolls_limited_to_the_chapter_turns():
    with pytest.raises(ValueError, match="1-3 rolls"):
        ch3(target=(2, 3), turns=3).game(WIN_ROLLS)


def test_no_realm_is_excluded_in_chapter_3():
    # chapter 2 excludes realms that score without activation, chapter 4 realms that refer to 3
    # realms; chapter 3's setup has no exclusion step, so these are accepted
    for realm in ("between-two-cities", "my-little-scythe"):
        assert realm in ch3(realms=(P, realm, L)).realms


# ---- the Boss card moves one step clockwise at the end of every turn --------------------------
def test_default_boss_path_and_neighbours():
    s = ch3()
    seen = [(s.boss_at(t), s.neighbours(t)) for t in range(10)]
    assert seen == [("above-middle", (1,)), ("above-right", (2,)), ("right-end", (2,)), ("below-right", (2,)),
                    ("below-middle", (1,)), ("below-left", (0,)), ("left-end", (0,)), ("above-left", (0,)),
                    ("above-middle", (1,)), ("above-right", (2,))]


def test_the_win_line_marks_each_space_where_the_boss_is():
    v = check(ch3())
    assert (v.outcome, v.turn, v.action) == ("won", 5, 2)
    assert marks(v) == [(1, 1, W, "H"), (3, 2, L, "P"), (4, 2, L, "S"), (5, 2, W, "C")]
    assert v.damage == 4 and v.boss == "below-middle" and v.stars == (1, 0, 1)
    assert v.earned == Resources(P=2, H=1, C=3) and v.unspent == 5
    assert v.star_log == ((3, 1, (1, 0, 0)), (4, 2, (1, 0, 1)))  # each star at the step that scored it


def test_the_boss_path_decides_the_neighbour():
    # a Boss that only alternates above/below the middle: wurfelwelten is always the neighbour, so
    # turn 2's pumpkin there marks P and libertalia's pumpkin and star never count
    v = check(ch3(boss_path=("above-middle", "below-middle")))
    assert marks(v)[:2] == [(1, 1, W, "H"), (2, 2, W, "P")] and v.damage == 2
    assert v.outcome == "illegal" and "stops after turn 5" in v.reason


# ---- damage: the leftmost unmarked space, in a realm next to the Boss, 1 per activation -------
def test_only_the_leftmost_space_counts():
    # turn 1's heart does not match the leftmost space (P); libertalia's pumpkin (turn 3) does
    v = check(ch3(track=("P", "H", "C", "C", "C")))
    assert marks(v) == [(3, 2, L, "P")]


def test_a_resource_or_star_away_from_the_boss_does_not_count():
    # turn 2: the pumpkin in wurfelwelten (the Boss is at libertalia) is not marked
    # (turn 4's coin in wurfelwelten neither: the Boss is below libertalia)
    v = check(ch3(track=("H", "P", "C", "C", "C", "C")))
    assert marks(v) == [(1, 1, W, "H"), (3, 2, L, "P"), (5, 2, W, "C")]
    # turn 3: parks scores a star (the Boss is at libertalia's end), only turn 4's libertalia star counts
    v = check(ch3(track=("S", "C", "C"), unwinnable="play-on"))
    assert marks(v)[0] == (4, 2, L, "S")


def test_stars_are_scored_at_the_step():
    v = check(ch3(track=("H", "S", "C", "C", "C")))
    assert marks(v)[:2] == [(1, 1, W, "H"), (4, 2, L, "S")]


def test_star_scored_in_a_neighbour_by_another_realm_counts():
    # a realm that scores from the others (Between Two Cities) gains a star while another realm is
    # activated: the star is in the neighbouring realm, so it marks
    assert damage_hit("S", (1,), 0, Resources(), (0, 0, 0), (1, 1, 0)) == 1
    assert damage_hit("S", (2,), 0, Resources(), (0, 0, 0), (1, 1, 0)) is None
    assert damage_hit("P", (1,), 0, Resources(P=1), (0, 0, 0), (0, 0, 0)) is None  # gained away from the Boss
    assert damage_hit("P", (0,), 0, Resources(P=1), (0, 0, 0), (0, 0, 0)) == 0


# parks, between-two-cities, wurfelwelten: turn 9 (the Boss above the middle again) action 2
# completes a wurfelwelten world (a star there, away from the Boss) and so Between Two Cities,
# next to the Boss, scores its first star ("score stars as you score stars in other realms")
CITIES_ROW = (P, "between-two-cities", W)
CITIES_ROLLS = ((5, 3), (6, 3), (6, 6), (6, 5), (1, 4), (2, 6), (1, 2), (1, 3), (4, 2))
CITIES_LINE = """
turn 1 roll 5 3
  die1 -> between-two-cities col=2 row=1
  die2 -> wurfelwelten benefit=P world=1
turn 2 roll 6 3
  die2 -> wurfelwelten benefit=P world=2
  die1 -> between-two-cities col=2 row=2
turn 3 roll 6 6
  die1 -> between-two-cities col=3 row=1
  die2 -> parks trail=3
turn 4 roll 6 5
  die1 -> between-two-cities col=3 row=3
  die2 -> parks trail=2
turn 5 roll 1 4
  die2 -> between-two-cities col=1 row=2
  die1 -> wurfelwelten benefit=H world=3
turn 6 roll 2 6
  die2 -> wurfelwelten benefit=H world=3
  die1 -> parks trail=2
turn 7 roll 1 2
  die1 -> between-two-cities col=3 row=2
  die2 -> wurfelwelten benefit=H world=2
turn 8 roll 1 3
  die2 -> between-two-cities col=2 row=3
  die1 -> wurfelwelten benefit=P world=1
turn 9 roll 4 2
  die2 -> between-two-cities col=1 row=1
  die1 -> wurfelwelten benefit=C world=1
"""


def test_a_star_scored_next_to_the_boss_through_another_realm_wins():
    v = check(ch3(track=("S",), target=(9,), difficulty="hard", realms=CITIES_ROW), CITIES_ROLLS, CITIES_LINE)
    assert (v.outcome, v.turn, v.action) == ("won", 9, 2)
    assert marks(v) == [(9, 2, "between-two-cities", "S")] and v.star_log[-1] == (9, 2, (1, 1, 1))


def test_at_most_one_mark_per_activation():
    # turn 7: euphoria (next to the Boss at the left end) gains 2 pumpkins at once: one mark
    v = check(ch3(track=("P",) * 9, target=(), difficulty="easy", realms=EARN_ROW), EARN_ROLLS, EARN_LINE)
    assert [m[:2] for m in marks(v)] == [(1, 1), (4, 2), (6, 1), (7, 1), (8, 1)]


# ---- losing ---------------------------------------------------------------------------------------
def test_twelfth_resource_of_a_kind_loses_at_once_spent_or_not():
    v = check(ch3(track=("S",) * 9, target=(), difficulty="easy", realms=EARN_ROW), EARN_ROLLS, EARN_LINE)
    assert (v.outcome, v.turn, v.action) == ("lost", 8, 1)
    assert "earned 12 pumpkins" in v.reason and v.earned.P == 12
    g, st = replayed(ch3(realms=EARN_ROW), EARN_ROLLS, EARN_LINE, 7, 1)
    assert st.resources.P == 8  # 4 of the 12 were spent (turn 7: die1 +2): earned counts, not held
    short = EARN_LINE.split("turn 8")[0]
    v = check(ch3(track=("S",) * 9, target=(), difficulty="easy", realms=EARN_ROW), EARN_ROLLS[:7], short)
    assert v.outcome == "illegal" and "stops after turn 7" in v.reason  # 11 pumpkins: not lost


@pytest.mark.parametrize("same_step, outcome", [("lost", "lost"), ("won", "won")])
def test_a_step_that_wins_and_earns_the_twelfth(same_step, outcome):
    # the 5th pumpkin mark is the step of the 12th pumpkin (turn 8, action 1), inside target 8-9
    v = check(ch3(track=("P",) * 5, target=(8, 9), realms=EARN_ROW, same_step=same_step), EARN_ROLLS, EARN_LINE)
    assert (v.outcome, v.turn, v.action) == (outcome, 8, 1)
    assert "same_step" in v.reason


def test_an_unusable_die_loses_at_once():
    s = ch3(track=("S",) * 9, realms=STUCK_ROW, target=(9, 10))
    v = check(s, STUCK_ROLLS, STUCK_LINE)
    assert (v.outcome, v.turn, v.action) == ("lost", 8, None)
    assert "die1 (1) cannot be used" in v.reason


def test_an_unusable_die_loses_even_beside_an_unused_usable_one():
    # turn 8 rolled the other way round and nothing played: die1 (5) could go to euphoria, but
    # die2 (1) cannot be used at all, so the chapter is lost (not an illegal line)
    s = ch3(track=("S",) * 9, realms=STUCK_ROW, target=(9, 10))
    text = STUCK_LINE.replace("turn 8 roll 1 5\n  die2 -> euphoria area=left left=P\n", "turn 8 roll 5 1\n")
    v = check(s, STUCK_ROLLS[:7] + ((5, 1),), text)
    assert (v.outcome, v.turn, v.action) == ("lost", 8, None) and "die2 (1) cannot be used" in v.reason


def test_a_die_is_usable_with_any_pumpkin_change():
    # chapter 3 keeps the base pumpkin rules: 4 pumpkins for +2 make the 1 usable (chapter 1's
    # die_placements, which tries only +-1 under chapter 1's 3-pumpkin limit, would say no)
    from solver.campaign.chapter1 import Chapter1, die_placements as ch1_placements

    g, st = replayed(ch3(realms=STUCK_ROW), STUCK_ROLLS, STUCK_LINE, 7, 1)
    assert not die_usable(g, st, 0)
    assert not die_usable(g, replace(st, resources=Resources(P=3)), 0)
    assert die_usable(g, replace(st, resources=Resources(P=4)), 0)
    ch1 = Chapter1(STUCK_ROW, 6, turns=8)
    assert not ch1_placements(g, ch1, replace(st, resources=Resources(P=4)), 0)


def test_an_unused_usable_die_is_illegal():
    text = WIN_LINE.replace("  die2 -> wurfelwelten benefit=P world=1\n", "")
    v = check(ch3(), text=text)
    assert (v.outcome, v.turn, v.action) == ("illegal", 2, None)
    assert "every rolled # must be used" in v.reason


def test_no_compensation():
    text = WIN_LINE.replace("  die2 -> wurfelwelten benefit=P world=1\n", "  compensate die2 P\n")
    v = check(ch3(), text=text)
    assert (v.outcome, v.turn, v.action) == ("illegal", 2, 2) and "no compensation" in v.reason


# ---- winning: at once, in the turn target ----------------------------------------------------------
@pytest.mark.parametrize("difficulty, target, outcome", [
    ("normal", (5, 6), "won"), ("normal", (4, 5), "won"), ("hard", (5,), "won"), ("easy", (), "won"),
    ("normal", (6, 7), "lost"), ("hard", (6,), "lost"), ("hard", (4,), "lost"),
])
def test_the_last_space_wins_only_in_the_turn_target(difficulty, target, outcome):
    v = check(ch3(target=target, difficulty=difficulty))
    assert v.outcome == outcome
    if outcome == "lost":
        assert v.turn in (4, 5)
        assert "turn target" in v.reason and "can no longer be won" in v.reason


def test_last_space_outside_the_target_loses_at_once_or_plays_on():
    v = check(ch3(target=(6, 7)))
    assert (v.outcome, v.turn, v.action) == ("lost", 5, 2) and "outside the turn target 6-7" in v.reason
    v = check(ch3(target=(6, 7), unwinnable="play-on"))
    assert v.outcome == "illegal" and "stops after turn 5" in v.reason and v.damage == 4


def test_the_turn_target_passed_without_the_win():
    v = check(ch3(target=(3, 4)))
    assert (v.outcome, v.turn, v.action) == ("lost", 4, None) and "the last of the turn target 3-4" in v.reason
    v = check(ch3(target=(3, 4), unwinnable="play-on"))
    assert v.outcome == "illegal" and v.turn == 5


def test_lost_when_the_last_turn_ends_without_the_win():
    for option in ("lost", "play-on"):
        v = check(ch3(track=WIN_TRACK + ("S",), target=(), difficulty="easy", turns=5, unwinnable=option))
        assert (v.outcome, v.turn, v.action) == ("lost", 5, None) and "the chapter's last" in v.reason


def test_the_win_ends_the_chapter_at_once():
    # the winning coin first in turn 5; the line may stop there (parks' die stays unused) ...
    first = WIN_LINE.replace("  die1 -> parks trail=2\n", "")
    v = check(ch3(), text=first)
    assert (v.outcome, v.turn, v.action) == ("won", 5, 1)
    # ... and steps written after the winning one are not looked at
    v = check(ch3(), text=first + "  die1 -> parks trail=9\n")
    assert (v.outcome, v.turn, v.action) == ("won", 5, 1)


# ---- illegal lines -----------------------------------------------------------------------------------
def test_base_rule_breaches_and_mismatches_are_illegal():
    s = ch3()
    bad = WIN_LINE.replace("die1 -> libertalia benefit=no pirate=5", "die1 -> libertalia benefit=no pirate=4")
    v = check(s, text=bad)
    assert (v.outcome, v.turn, v.action) == ("illegal", 2, 1)
    v = check(s, text=WIN_LINE.replace("turn 3 roll 4 2", "turn 3 roll 4 3"))
    assert (v.outcome, v.turn) == ("illegal", 3) and "the rolls say 4 2" in v.reason
    v = check(s, WIN_ROLLS[:4], WIN_LINE)
    assert v.outcome == "illegal" and "the line has 5 turns, the rolls give 4" in v.reason
    v = check(s, text=WIN_LINE.split("turn 4")[0])
    assert (v.outcome, v.turn) == ("illegal", 3) and "stops after turn 3 without a win or a loss" in v.reason
    other = check_chapter3(ch3(realms=(W, P, L)).game(WIN_ROLLS), s, parse_line_text(WIN_LINE))
    assert other.outcome == "illegal" and other.turn is None


# ---- inputs the seed does not print: tracks, Boss path, turn target ----------------------------------
def test_example_files_win():
    track = load_track(EX + "chapter3-tracks.txt", 3)
    assert track == WIN_TRACK
    s = Chapter3(ROW, track, (5, 6), boss_path=load_boss_path(EX + "chapter3-boss-path.txt"))
    assert s.boss_path == DEFAULT_BOSS_PATH
    with open(EX + "chapter3-win-line.txt", encoding="utf-8") as fh:
        v = check_chapter3(s.game(load_rolls(EX + "chapter3-rolls.txt")), s, parse_line_text(fh.read()))
    assert (v.outcome, v.turn, v.action) == ("won", 5, 2)


@pytest.mark.parametrize("text, match", [
    ("1: P H\n", "missing 2, 3, 4, 5, 6"),
    ("1: P\n2: P\n3: P\n4: P\n5: P\n6: P\n7: P\n", "not a die face"),
    ("1: P\n1: H\n", "given twice"),
    ("1: P Q\n", "unknown damage space 'Q'"),
    ("one: P\n", "expected 'N: spaces'"),
    ("1:\n", "the damage track is empty"),
])
def test_bad_tracks_file(text, match):
    with pytest.raises(InputError, match=match):
        parse_tracks(text, "t.txt")


def test_tracks_words_and_boss_path_file():
    tracks = parse_tracks("".join(f"{n}: pumpkin, heart star *\n" for n in range(1, 7)))
    assert tracks[4] == ("P", "H", "S", "S")
    assert parse_boss_path("above-middle below-middle # two places\n") == ("above-middle", "below-middle")
    with pytest.raises(InputError, match="p.txt: the Boss path starts above-middle"):
        parse_boss_path("below-middle above-middle", "p.txt")
    assert parse_turn_target("8-9") == (8, 9) and parse_turn_target("9") == (9,)
    for bad in ("x", "1-2-3", ""):
        with pytest.raises(InputError, match="--turn-target"):
            parse_turn_target(bad)


def test_setup_from_inputs_errors():
    with pytest.raises(InputError, match="either as --track"):
        setup_from_inputs(ROW, track="P", tracks_path=EX + "chapter3-tracks.txt", damage_roll=1, turn_target="5-6")
    with pytest.raises(InputError, match="needs --damage-roll"):
        setup_from_inputs(ROW, tracks_path=EX + "chapter3-tracks.txt", turn_target="5-6")
    with pytest.raises(InputError, match="a die face 1-6"):
        setup_from_inputs(ROW, tracks_path=EX + "chapter3-tracks.txt", damage_roll=7, turn_target="5-6")
    with pytest.raises(InputError, match="chapter 3: normal"):
        setup_from_inputs(ROW, track="P")
    assert setup_from_inputs(ROW, "hard", track="P,S", turn_target="9").turn_target == (9,)


# ---- command line ------------------------------------------------------------------------------------
def test_cli_check_chapter3_won_lost_and_bad_input():
    from click.testing import CliRunner

    import cli as app

    base = ["check", "chapter3", "--realms", "parks,wurfelwelten,libertalia", "--rolls", EX + "chapter3-rolls.txt",
            "--line", EX + "chapter3-win-line.txt"]
    tracks = ["--tracks", EX + "chapter3-tracks.txt", "--damage-roll", "3"]
    runner = CliRunner()
    won = runner.invoke(app.cli, base + tracks + ["--turn-target", "5-6"])
    assert won.exit_code == 0 and won.output.startswith("WON at turn 5, action 2")
    lost = runner.invoke(app.cli, base + ["--track", "H,P,S,C", "--turn-target", "6-7", "--json"])
    assert lost.exit_code == 1
    data = json.loads(lost.output)
    assert data["status"] == "lost" and data["turn"] == 5 and data["damage"] == 4
    assert data["marks"][0] == {"turn": 1, "action": 1, "realm": "wurfelwelten", "space": "H"}
    assert data["star_log"][0] == {"turn": 3, "action": 1, "stars": [1, 0, 0]}
    # the checker takes the solver's name of the option and its long words too (one option, two names)
    same = runner.invoke(app.cli, base + ["--damage-track", "heart,pumpkin,star,coin", "--turn-target", "6-7", "--json"])
    assert same.exit_code == 1 and json.loads(same.output) == data
    easy = runner.invoke(app.cli, base + tracks + ["--difficulty", "easy"])
    assert easy.exit_code == 0
    for bad in (["--track", "H,P,X"], tracks, tracks + ["--turn-target", "5-7"], tracks + ["--turn-target", "5-6", "--boss-path", "nope.txt"]):
        res = runner.invoke(app.cli, base + bad)
        assert res.exit_code == 2, bad
        assert res.output.startswith("error: ") and res.output.count("\n") == 1, res.output
