"""Campaign chapter 2 ("Synchronicity", seed 003): one test per rule added on top of the base engine,
so that dropping the rule from solver/campaign/chapter2.py fails a test."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from solver.campaign.chapter2 import (
    Chapter2,
    Chapter2Line,
    ExcludedRealm,
    apply_chapter2_activation,
    apply_move,
    chapter2_die_placements,
    check_chapter2,
    exclusion_reason,
    judge_step,
    load_chapter2_line,
    parse_chapter2_json,
    parse_chapter2_text,
    start_chapter2,
)
from solver.errors import IllegalAction, InputError
from solver.line import parse_line_text
from solver.realms import MODULES, get_realm
from solver.resources import Resources

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "puzzles" / "examples" / "campaign"
ROLLS_FILE = str(EX / "chapter2-rolls.txt")
WIN_FILE = str(EX / "chapter2-win-line.txt")

E, K, L, W = "euphoria", "parks", "libertalia", "wurfelwelten"
ROW = (E, K, L)

# turn 1: both realms that score move right (row euphoria parks libertalia -> libertalia euphoria parks);
# turn 2 scores in parks again, the rightmost realm, after the free move of libertalia; turn 3 uses
# a second move (easy only) so that euphoria is not the rightmost realm when it scores.
MOVES = """
turn 1 roll 4 4
  die1 -> euphoria area=both
  die2 -> parks trail=1
turn 2 roll 5 1
  move libertalia
  die1 -> parks trail=2
  die2 -> euphoria area=left
turn 3 roll 2 3
  move parks
  die1 -> euphoria area=left
  die2 -> libertalia pirate=3 benefit=no
"""

# euphoria, parks, wurfelwelten: pairs marked in both euphoria areas earn 2 pumpkins a time; turn 4
# spends 2 of them (die2 -1), so 12 pumpkins are earned at turn 5 while only 10 are held
CAP = """
turn 1 roll 6 6
  die1 -> euphoria area=both
  die2 -> parks trail=3
turn 2 roll 5 5
  die1 -> euphoria area=both left=P right=P
  die2 -> wurfelwelten world=1 benefit=P
turn 3 roll 4 4
  die1 -> euphoria area=both left=P right=P
  die2 -> wurfelwelten world=1 benefit=P
turn 4 roll 3 3
  die1 -> euphoria area=both left=P right=P
  die2 -1 -> wurfelwelten world=2 benefit=P
turn 5 roll 2 2
  die1 -> euphoria area=both left=P right=P
  die2 -> parks trail=2
"""

# turn 4: die1 goes to parks; die2 (4) fits libertalia nowhere and would gain a star in euphoria,
# the rightmost realm
DEAD = """
turn 1 roll 3 1
  die2 -> libertalia benefit=no pirate=3
  die1 -> euphoria area=right
turn 2 roll 1 3
  die2 -> libertalia benefit=yes pirate=1
  die1 -> euphoria area=right
turn 3 roll 4 3
  die1 -> libertalia benefit=yes pirate=4
  die2 -> euphoria area=left
turn 4 roll 4 4
  die1 -> parks trail=3
"""


def check(text: str, realms=ROW, difficulty: str = "normal", turns: int | None = None, rolls=None, **kw):
    cl = parse_chapter2_text(text)
    rolls = rolls or tuple(t.roll for t in cl.line.turns)
    s = Chapter2(realms, difficulty, turns, **kw)
    return check_chapter2(s.game(rolls), s, cl)


def win_text() -> str:
    return Path(WIN_FILE).read_text()


def win_rolls() -> tuple[tuple[int, int], ...]:
    from solver.rolls import load_rolls

    return load_rolls(ROLLS_FILE)


def replace_turn(text: str, n: int, roll: tuple[int, int], body: str) -> str:
    """The line with turn n replaced by this roll and body; later turns are dropped."""
    return f"{text.split(f'turn {n} roll')[0]}turn {n} roll {roll[0]} {roll[1]}\n{body}"


# ---- setup -------------------------------------------------------------------------------------
def test_setup_values_per_difficulty():
    s = Chapter2(ROW)
    assert (s.last_turn, s.free_moves) == (14, 1)
    assert (Chapter2(ROW, "easy").last_turn, Chapter2(ROW, "easy").free_moves) == (14, 3)
    assert (Chapter2(ROW, "hard").last_turn, Chapter2(ROW, "hard").free_moves) == (12, 0)
    assert Chapter2(("Euphoria", "Parks", "Libertalia")).realms == ROW
    assert s.game(((1, 2),)).rules.compensation == "off"
    assert s.game(((1, 2),) * 14).turns == 14
    with pytest.raises(ValueError, match="1 to 12 turns"):
        Chapter2(ROW, "hard").game(((1, 2),) * 13)
    with pytest.raises(ValueError, match="at most 12 turns"):
        Chapter2(ROW, "hard", turns=13)
    for bad in (dict(realms=(E, K)), dict(realms=(E, E, K)), dict(realms=ROW, difficulty="nightmare"),
                dict(realms=ROW, turns=15), dict(realms=ROW, turns=0)):
        with pytest.raises(ValueError):
            Chapter2(**bad)


def test_excluded_realms_name_the_realm_and_the_rule():
    for key in ("between-two-cities", "my-little-scythe"):
        with pytest.raises(ExcludedRealm, match=rf"{key} is excluded from chapter 2: .*without activating them"):
            Chapter2((E, K, key))
    # the exclusion comes from the engine's cross-realm hooks: exactly the seed's two examples
    assert [k for k in MODULES if exclusion_reason(get_realm(k))] == ["between-two-cities", "my-little-scythe"]


# ---- winning: at once, stars as they are scored ----------------------------------------------
def test_example_line_wins_at_once():
    v = check(win_text(), rolls=win_rolls())
    assert (v.outcome, v.turn, v.action, v.step) == ("won", 13, 1, "die1 -> libertalia benefit=yes pirate=6")
    assert v.stars == (6, 6, 6) and v.moves_used == 0
    assert v.earned == Resources(4, 3, 3) and v.unspent == Resources()


def test_stars_are_marked_at_the_step_that_scores_them():
    v = check(win_text(), rolls=win_rolls())
    at = {(h.turn, h.action): h for h in v.history}
    assert at[4, 1].stars == (0, 1, 0)  # parks' 4 on trail 1: a star at once
    assert at[4, 2].stars == (0, 1, 1)  # libertalia's pirate 3 paid
    assert at[6, 2].stars == (1, 2, 3)  # pirate 5: two stars in one step
    assert all(a.stars <= b.stars for a, b in zip(v.history, v.history[1:]))  # never unmarked


def test_won_turn_is_not_finished():
    # after the winning step the line goes on with steps that would be illegal: not looked at
    text = win_text() + "  die2 -> libertalia benefit=no pirate=1\nturn 14 roll 3 3\n  die1 -> parks trail=1\n"
    v = check(text, rolls=win_rolls() + ((3, 3),))
    assert (v.outcome, v.turn, v.action) == ("won", 13, 1)
    assert "2 later step(s) of the line are not played" in v.reason


# ---- the rightmost realm ----------------------------------------------------------------------------
def test_no_star_in_the_rightmost_realm():
    # the move line without its move: parks is the rightmost realm after turn 1 and would score
    v = check(MOVES.replace("  move libertalia\n", ""))
    assert (v.outcome, v.turn, v.action) == ("illegal", 2, 1)
    assert "rightmost realm may not gain a star" in v.reason and "parks would go from 1 to 2" in v.reason


def test_rightmost_realm_takes_a_number_that_scores_nothing():
    v = check(win_text(), rolls=win_rolls())
    step = next(h for h in v.history if (h.turn, h.action) == (10, 2))
    assert step.text == "die2 -> euphoria area=left left=P"
    before = next(h for h in v.history if (h.turn, h.action) == (10, 1))
    assert before.row[-1] == E and step.row == before.row  # used in the rightmost realm, legal


def test_rightmost_rule_checked_at_the_activation():
    s = Chapter2(ROW)
    g = s.game(((4, 5),))
    cs = start_chapter2(g)  # libertalia is the rightmost realm
    cs = replace(cs, round=replace(cs.round, resources=Resources(P=2)))
    one = lambda text: parse_line_text("turn 1 roll 4 5\n  " + text).turns[0].actions[0]
    with pytest.raises(IllegalAction, match=r"rightmost realm may not gain a star there \(libertalia would go from 0 to 2"):
        apply_chapter2_activation(g, cs, one("die1 -> libertalia pirate=5 benefit=yes"))
    after = apply_chapter2_activation(g, cs, one("die1 -> libertalia pirate=5 benefit=no"))
    assert after.stars == (0, 0, 0) and after.row == ROW
    after = apply_chapter2_activation(g, cs, one("die1 -> parks trail=1"))
    assert after.stars == (0, 1, 0) and after.row == (E, L, K)


# ---- scoring moves a realm to the far right -------------------------------------------------------
def test_scoring_moves_the_realm_to_the_far_right():
    v = check(MOVES, difficulty="easy")
    at = {(h.turn, h.action): h for h in v.history}
    assert at[1, 1].row == (K, L, E)  # euphoria scored two stars
    assert at[1, 2].row == (L, E, K)  # then parks
    # the example line relies on it: libertalia scores at turn 4 right after parks did
    assert check(win_text(), rolls=win_rolls()).won


def test_a_realm_with_six_stars_does_not_move():
    # turn 13 rolled 2 5: euphoria (6 stars, rightmost) takes a 2 that meets its star condition
    # (right area sum 8): allowed, it gains nothing and stays; then libertalia wins
    rolls = win_rolls()[:12] + ((2, 5),)
    text = replace_turn(win_text(), 13, (2, 5), "  die1 -> euphoria area=right\n  die2 -> libertalia benefit=yes pirate=6\n")
    v = check(text, rolls=rolls)
    assert (v.outcome, v.turn, v.action) == ("won", 13, 2)
    at = {(h.turn, h.action): h for h in v.history}
    assert at[13, 1].row == (L, K, E) and at[13, 1].stars == (6, 6, 3)


# ---- the free move ------------------------------------------------------------------------------------
def test_free_move_normal_once():
    v = check(MOVES)
    assert (v.outcome, v.turn, v.action) == ("illegal", 3, 1)
    assert "move parks" in v.reason and "once, all used" in v.reason
    assert v.moves_used == 1 and v.stars == (3, 2, 0)  # turn 2's stars both scored after the move


def test_free_move_easy_three_times():
    v = check(MOVES, difficulty="easy", turns=3)  # both moves legal; lost after the (shortened) last turn
    assert (v.outcome, v.turn, v.moves_used) == ("lost", 3, 2) and "fewer than 6 stars" in v.reason
    four = MOVES + "  move libertalia\n  move euphoria\n"
    v = check(four, difficulty="easy", turns=3)
    assert (v.outcome, v.turn, v.action, v.moves_used) == ("illegal", 3, 5, 3) and "3 times, all used" in v.reason


def test_free_move_hard_never():
    v = check(MOVES, difficulty="hard")
    assert (v.outcome, v.turn, v.action) == ("illegal", 2, 1) and "no free move" in v.reason


def test_free_move_must_move_something():
    s = Chapter2(ROW, "easy")
    cs = start_chapter2(s.game(((1, 2),)))
    with pytest.raises(IllegalAction, match="already the rightmost"):
        apply_move(s, cs, L)
    with pytest.raises(IllegalAction, match="not in this round"):
        apply_move(s, cs, W)
    assert apply_move(s, cs, E).row == (K, L, E)


# ---- the 12th resource of a kind ------------------------------------------------------------------------
def test_earning_the_twelfth_resource_loses_at_once():
    v = check(CAP, realms=(E, K, W))
    assert (v.outcome, v.turn, v.action) == ("lost", 5, 1)
    assert "earns the 12th pumpkin" in v.reason
    assert v.earned.P == 12 and v.unspent.P == 10  # earned counts, spent or not


def test_eleven_of_a_kind_is_fine():
    text = CAP.replace("turn 5 roll 2 2\n  die1 -> euphoria area=both left=P right=P", "turn 5 roll 2 2\n  die1 -> euphoria area=left left=P")
    v = check(text, realms=(E, K, W))
    assert (v.outcome, v.turn, v.action) == ("lost", 5, 2)  # 11 after step 1; parks' P is the 12th
    assert "die2 -> parks trail=2 earns the 12th pumpkin" in v.reason


def test_cap_and_win_in_one_step_option():
    s = Chapter2(ROW)
    g = s.game(((1, 2),))
    cs = replace(start_chapter2(g), stars=(6, 6, 6), earned=Resources(P=12))
    assert judge_step(g, s, cs)[0] == "lost"
    assert judge_step(g, replace(s, win_beats_cap=True), cs)[0] == "won"
    assert judge_step(g, s, replace(cs, earned=Resources(P=11, H=11, C=11)))[0] == "won"
    assert judge_step(g, s, replace(cs, stars=(6, 6, 5), earned=Resources(P=11))) is None


# ---- every # used; a # that cannot be used loses ----------------------------------------------------------
def test_die_that_cannot_be_used_loses():
    v = check(DEAD)
    assert (v.outcome, v.turn) == ("lost", 4)
    assert "die2 (4) cannot be used" in v.reason and "rightmost realm euphoria" in v.reason


def test_an_unusable_die_loses_even_when_the_other_die_is_left_unused():
    # turn 6 rolls 6 1: the 1 fits nowhere (the loss is immediate); the 6 could still be used
    text = """
turn 1 roll 6 4
  die1 -> libertalia benefit=yes pirate=4
  die2 -> parks trail=3
turn 2 roll 2 2
  die1 -> libertalia benefit=no pirate=1
  die2 -> parks trail=1
turn 3 roll 6 1
  die2 -> euphoria area=left
  die1 -> libertalia benefit=no pirate=3
turn 4 roll 6 3
  die2 -> euphoria area=right
  die1 -> parks trail=1
turn 5 roll 1 5
  die1 -> euphoria area=right
  die2 -> parks trail=2
turn 6 roll 6 1
"""
    v = check(text)
    assert (v.outcome, v.turn) == ("lost", 6) and "die2 (1) cannot be used (no realm takes it" in v.reason


def test_unused_die_that_could_be_used_is_illegal():
    v = check(MOVES.replace("  die2 -> euphoria area=left\n", ""), difficulty="easy")
    assert (v.outcome, v.turn) == ("illegal", 2) and "every rolled # must be used" in v.reason


def test_a_die_is_usable_with_any_pumpkin_change():
    # chapter 2 has no pumpkin limit: a 6 that fits only as a 4 (-2, 4 pumpkins) must be used
    from solver.engine import realm_stars

    s = Chapter2(ROW)
    g = s.game(((6, 6),))
    full_e = (((1, 2, 3, 4, 5, 6), (1, 2, 3, 4, 5, 6)), 6)
    full_l = ((11, 22, 33, 35, 41, 51), 4)
    parks = ((0, 1, 2, 3, 4), (0, 1, 2, 3), (0, 1, 2, 3, 4))  # left: trail 2's last site (4, a star for 2 H)

    def ways(**held: int) -> list[str]:
        cs = start_chapter2(g)
        st = replace(cs.round, sheets=(full_e, parks, full_l), resources=Resources(**held))
        cs = replace(cs, round=st, stars=realm_stars(g, st))
        return [w.text() for w in chapter2_die_placements(g, cs, 0)]

    assert ways(P=4, H=2) == ["die1 -2 -> parks trail=2"]
    assert ways(P=3, H=2) == [] and ways(P=4) == []


def test_a_die_whose_every_use_earns_the_twelfth_resource_cannot_be_used():
    from solver.campaign.chapter2 import unusable_reason
    from solver.engine import realm_stars

    s = Chapter2(ROW)
    g = s.game(((1, 1),))
    full_e = (((1, 2, 3, 4, 5, 6), (1, 2, 3, 4, 5, 6)), 6)
    full_l = ((11, 22, 33, 35, 41, 51), 4)
    parks = ((), (0, 1, 2, 3, 4), (0, 1, 2, 3, 4))  # a 1 fits only trail 1's first site: a pumpkin
    cs = start_chapter2(g)
    st = replace(cs.round, sheets=(full_e, parks, full_l))
    cs = replace(cs, round=st, stars=realm_stars(g, st), earned=Resources(P=10))
    assert [w.text() for w in chapter2_die_placements(g, cs, 0)] == ["die1 -> parks trail=1"]
    cs = replace(cs, earned=Resources(P=11))
    assert chapter2_die_placements(g, cs, 0) == []
    assert "each use would earn the 12th resource of a kind, e.g. die1 -> parks trail=1" in unusable_reason(g, cs, 0)


def test_no_compensation():
    v = check(DEAD + "  compensate die2 P\n")
    assert (v.outcome, v.turn, v.action) == ("illegal", 4, 2) and "no compensation" in v.reason


# ---- the last turn ---------------------------------------------------------------------------------
def test_lost_after_the_last_turn_without_six_stars_everywhere():
    first12 = win_text().split("turn 13 roll")[0]
    v = check(first12, difficulty="hard", rolls=win_rolls()[:12])
    assert (v.outcome, v.turn) == ("lost", 12) and "fewer than 6 stars in libertalia 3" in v.reason
    # on normal the chapter goes on to turn 14: 12 turns of rolls and line are not a finished chapter
    v = check(first12, rolls=win_rolls()[:12])
    assert (v.outcome, v.turn) == ("illegal", 12) and "goes on to turn 14" in v.reason
    v = check(first12, rolls=win_rolls())
    assert (v.outcome, v.turn) == ("illegal", 13) and "stops after turn 12" in v.reason


# ---- base rules still apply, bad input --------------------------------------------------------------
def test_base_rule_breach_and_wrong_roll_are_illegal():
    v = check(MOVES.replace("die1 -> euphoria area=both", "die1 -> euphoria area=middle"), difficulty="easy")
    assert (v.outcome, v.turn, v.action) == ("illegal", 1, 1) and "euphoria: choose area" in v.reason
    s = Chapter2(ROW, "easy")
    v = check_chapter2(s.game(((4, 4), (5, 2), (2, 3))), s, parse_chapter2_text(MOVES))
    assert (v.outcome, v.turn) == ("illegal", 2) and "the rolls say 5 2" in v.reason
    other = Chapter2((K, E, L))
    assert check_chapter2(s.game(((4, 4),)), other, parse_chapter2_text(MOVES)).outcome == "illegal"


def test_move_lines_text_and_json():
    cl = parse_chapter2_text(MOVES)
    assert [(m.turn, m.after, m.realm) for m in cl.moves] == [(2, 0, L), (3, 0, K)]
    assert [type(x).__name__ for x in cl.steps(1)] == ["Move", "Activation", "Activation"]
    as_json = json.loads(json.dumps({"line": cl.line.to_json()}))
    as_json["line"][1]["actions"].insert(0, {"move": "Libertalia"})
    as_json["line"][2]["actions"].insert(0, {"move": "parks"})
    again = parse_chapter2_json(as_json)
    assert again == cl
    for bad, msg in (("move\n", "line 1: a move before"), ("turn 1 roll 1 2\n  move parks now\n", "line 2: expected 'move REALM'"),
                     ("turn 1 roll 1 2\n  move atlantis\n", "line 2: unknown realm")):
        with pytest.raises(InputError, match=msg):
            parse_chapter2_text(bad, "x.txt")


def test_load_chapter2_line_file(tmp_path):
    assert isinstance(load_chapter2_line(WIN_FILE), Chapter2Line)
    p = tmp_path / "l.json"
    p.write_text("[{")
    with pytest.raises(InputError, match="malformed JSON"):
        load_chapter2_line(str(p))


# ---- the command line ---------------------------------------------------------------------------------
def test_cli_check_chapter2(tmp_path):
    from click.testing import CliRunner

    import cli as app

    base = ["check", "chapter2", "--realms", "euphoria,parks,libertalia", "--rolls", ROLLS_FILE, "--line", WIN_FILE]
    runner = CliRunner()
    won = runner.invoke(app.cli, base)
    assert won.exit_code == 0 and won.output.startswith("WON at turn 13, step 1")
    out = runner.invoke(app.cli, base + ["--json"])
    data = json.loads(out.output)
    assert out.exit_code == 0 and data["status"] == "won" and data["stars"] == {E: 6, K: 6, L: 6}
    assert data["free_moves"] == 1 and data["last_turn"] == 14 and len(data["history"]) > 30
    hard = runner.invoke(app.cli, base + ["--difficulty", "hard"])  # 13 rolls: too many for hard
    assert hard.exit_code == 2 and hard.output.count("\n") == 1 and "12" in hard.output
    rolls = tmp_path / "r.txt"
    rolls.write_text("3 1\n1 3\n4 3\n4 4\n")
    dead = tmp_path / "dead.txt"
    dead.write_text(DEAD)
    lost = runner.invoke(app.cli, ["check", "chapter2", "--realms", "euphoria,parks,libertalia",
                                   "--rolls", str(rolls), "--line", str(dead)])
    assert lost.exit_code == 1 and lost.output.startswith("LOST at turn 4")
    excluded = runner.invoke(app.cli, ["check", "chapter2", "--realms", "euphoria,parks,between two cities",
                                       "--rolls", ROLLS_FILE, "--line", WIN_FILE])
    assert excluded.exit_code == 2 and "between-two-cities is excluded from chapter 2" in excluded.output
    assert excluded.output.count("\n") == 1
    bad = runner.invoke(app.cli, base[:-1] + [str(tmp_path / "missing.txt")])
    assert bad.exit_code == 2 and "cannot read" in bad.output


# ---- the "can be used" search agrees with the checker ------------------------------------------------
@pytest.mark.parametrize("realms", [(E, K, L), (W, "wingspan", "scythe"), ("red-rising", "azul", "pendulum")])
def test_random_lines_built_from_the_usable_search_are_never_illegal(realms):
    """Lines built by placing each die with chapter2_die_placements (random choice) must check as
    won or lost, never illegal; a die with no placement loses at that very turn."""
    import random

    from solver.line import Line, TurnPlay

    rng = random.Random("-".join(realms))
    s = Chapter2(realms, turns=6)
    for _ in range(6):
        rolls = tuple((rng.randint(1, 6), rng.randint(1, 6)) for _ in range(6))
        g = s.game(rolls)
        cs = start_chapter2(g)
        turns, dead = [], None
        for t in range(6):
            acts = []
            for k in rng.sample((0, 1), 2):
                ways = chapter2_die_placements(g, cs, k)
                if not ways:
                    dead = t + 1
                    break
                act = rng.choice(ways)
                cs = apply_chapter2_activation(g, cs, act)
                acts.append(act)
            turns.append(TurnPlay(rolls[t], tuple(acts), ()))
            if dead or cs.won:
                break
            from solver.campaign.chapter2 import end_chapter2_turn
            cs = end_chapter2_turn(g, cs, {})
        v = check_chapter2(g, s, Line(tuple(turns)))
        assert v.outcome in ("won", "lost"), v.reason
        if dead:
            assert (v.outcome, v.turn) == ("lost", dead) and "cannot be used" in v.reason
