"""Campaign chapter 1 ("The Hole in the Realmiverse", seed 003): one test per rule added on top
of the base engine, so that dropping the rule from solver/campaign/chapter1.py fails a test."""
from __future__ import annotations

from dataclasses import replace

import pytest

from solver.campaign import Chapter1, check_activation, check_chapter1, die_usable, judge_end
from solver.engine import apply_activation, start
from solver.errors import IllegalAction
from solver.line import parse_line_text
from solver.resources import Resources

W, P, L, A = "wurfelwelten", "parks", "libertalia", "ark-nova"

# a 5-turn line that ends with 2 stars in each of parks, libertalia, ark-nova (6 stars, 1P 1H 1C left)
WIN_ROLLS = ((2, 5), (1, 3), (4, 2), (1, 4), (4, 6))
WIN_LINE = """
turn 1 roll 2 5
  die1 -> libertalia benefit=no pirate=1
  die2 -> parks trail=2
  end ark-nova column=2
turn 2 roll 1 3
  die1 -> libertalia benefit=no pirate=3
  die2 -> parks trail=3
  end ark-nova column=1
turn 3 roll 4 2
  die2 -> parks trail=2
  die1 -> libertalia benefit=yes pirate=4
  end ark-nova column=4
turn 4 roll 1 4
  die2 -> parks trail=1
  die1 -> ark-nova column=1
turn 5 roll 4 6
  die2 -> libertalia benefit=yes pirate=5
  die1 -> ark-nova column=4
"""

# turn 3: die2 goes to ark-nova, then die1 (3) fits neither parks nor libertalia, no pumpkins held
LOSS_ROLLS = ((3, 5), (5, 3), (3, 1))
LOSS_LINE = """
turn 1 roll 3 5
  die2 -> libertalia benefit=no pirate=1
  die1 -> parks trail=3
  end ark-nova column=5
turn 2 roll 5 3
  die2 -> parks trail=2
  die1 -> libertalia benefit=no pirate=2
  end ark-nova column=3
turn 3 roll 3 1
  die2 -> ark-nova column=1
"""

ROLLS = ((2, 5), (3, 3), (1, 4))


def setup3(**kw) -> Chapter1:
    kw.setdefault("target", (0, 18))
    return Chapter1(kw.pop("realms", (W, P, L)), turns=3, **kw)


def at(turn: int = 0, **res: int):
    s = setup3()
    g = s.game(ROLLS)
    return s, g, replace(start(g), turn=turn, resources=Resources(**res))


def one(text: str):
    """One activation written in the line format."""
    return parse_line_text("turn 1 roll 1 1\n  " + text).turns[0].actions[0]


def legal(s, g, st, text):
    act = one(text)
    check_activation(g, s, st, act)
    return apply_activation(g, st, act)


def chapter_only(s, g, st, text, match):
    """Legal for the base engine, illegal in chapter 1."""
    act = one(text)
    apply_activation(g, st, act)
    with pytest.raises(IllegalAction, match=match):
        check_activation(g, s, st, act)


# ---- setup ---------------------------------------------------------------------------------
def test_setup_values():
    s = Chapter1((P, L, A), 6)
    assert s.target_range == (6, 6) and s.max_unspent == 4 and s.turns == 9
    assert Chapter1((P, L, A), (5, 7), "easy").max_unspent == 5
    assert Chapter1((P, L, A), (5, 7), "hard").target_range == (5, 7)
    assert Chapter1((P, L, A), 6, "hard").max_unspent == 3
    for bad in (dict(realms=(P, L), target=6), dict(realms=(P, P, L), target=6),
                dict(realms=(P, L, A), target=6, difficulty="nightmare"), dict(realms=(P, L, A), target=(7, 5))):
        with pytest.raises(ValueError):
            Chapter1(**bad)
    with pytest.raises(ValueError):
        s.game(ROLLS)  # 3 rolls for a 9-turn chapter
    assert Chapter1((P, L, A), 6, turns=3).game(ROLLS).rules.compensation == "off"


# ---- pumpkins only on rolled dice and heart copies ------------------------------------------
def test_pumpkins_on_rolled_die_and_heart_copies_are_legal():
    s, g, st = at(0, P=2, H=3)
    legal(s, g, st, "die1 +1 -> wurfelwelten world=1 benefit=P")
    legal(s, g, st, "copy die1 +1 -> wurfelwelten world=1 benefit=P")
    s, g, st = at(1, P=2, H=2)
    legal(s, g, st, "copy-pair die1 -1 -> wurfelwelten world=1 benefit=P")


def test_no_pumpkins_on_created_number():
    s, g, st = at(0, P=2, C=2)
    chapter_only(s, g, st, "create 2 +1 -> wurfelwelten world=1 benefit=P", "rolled dice or heart copies")
    legal(s, g, st, "create 2 -> wurfelwelten world=1 benefit=P")


def test_no_pumpkins_on_coin_copy():
    s, g, st = at(0, P=2, C=2)  # roll 2 5 sums to 7
    chapter_only(s, g, st, "copy-seven die1 +1 -> wurfelwelten world=1 benefit=P", "rolled dice or heart copies")
    legal(s, g, st, "copy-seven die1 -> wurfelwelten world=1 benefit=P")


# ---- at most 3 pumpkins ----------------------------------------------------------------------
def test_at_most_three_pumpkins():
    s, g, st = at(0, P=4)
    chapter_only(s, g, st, "die1 +2 -> wurfelwelten world=1 benefit=P", "at most 3 pumpkins")
    legal(s, g, st, "die1 +1 -> wurfelwelten world=1 benefit=P")


def test_card_cost_counts_only_with_the_option():
    # parks trail 3's last site (1, a star) costs 2 pumpkins; die1 (2) -1 pays 2 more
    s, g, st = at(0, P=4)
    legal(s, g, st, "die1 -1 -> parks trail=3")
    strict = setup3(limit_counts_card_costs=True)
    with pytest.raises(IllegalAction, match="at most 3 pumpkins"):
        check_activation(g, strict, st, one("die1 -1 -> parks trail=3"))


# ---- never 3 where 2 suffice -------------------------------------------------------------------
def test_three_heart_copy_on_a_pair_is_illegal():
    s, g, st = at(1, H=3)  # roll 3 3
    chapter_only(s, g, st, "copy die1 -> wurfelwelten world=1 benefit=P", "2 hearts suffice")
    legal(s, g, st, "copy-pair die1 -> wurfelwelten world=1 benefit=P")
    s, g, st = at(0, H=3)  # roll 2 5: no pair, 3 hearts are needed
    legal(s, g, st, "copy die1 -> wurfelwelten world=1 benefit=P")


def test_three_pumpkin_power_only_into_an_activated_realm():
    s, g, st = at(0, P=3)
    chapter_only(s, g, st, "die1 extra+1 -> wurfelwelten world=1 benefit=P", "2 suffice")
    st = legal(s, g, st, "die2 -> wurfelwelten world=1 benefit=P")
    legal(s, g, st, "die1 extra+1 -> wurfelwelten world=2 benefit=P")


# ---- a # that cannot be used ---------------------------------------------------------------------
def test_die_usable_definition():
    s, g, st = at(0)
    assert die_usable(g, s, st, 0)
    done = replace(st, activated=frozenset({0, 1, 2}))
    assert not die_usable(g, s, done, 0)  # every realm activated, no pumpkins
    assert die_usable(g, s, replace(done, resources=Resources(P=3)), 0)  # the 3-pumpkin power
    assert not die_usable(g, s, replace(done, resources=Resources(P=2)), 0)
    assert not die_usable(g, s, replace(st, die_spent=(True, False)), 0)


def test_die_usable_after_a_two_pumpkin_change():
    # parks/libertalia/ark-nova: after the loss line's first two turns, a 3 fits nowhere but a 2 or 4 may
    s = Chapter1((P, L, A), 6, turns=3)
    g = s.game(LOSS_ROLLS)
    line = parse_line_text(LOSS_LINE)
    st = start(g)
    from solver.engine import end_turn
    for turn in line.turns[:2]:
        for a in turn.actions:
            st = apply_activation(g, st, a)
        st = end_turn(g, st, dict(turn.end))
    st = apply_activation(g, st, line.turns[2].actions[0])
    assert not die_usable(g, s, st, 0)
    assert die_usable(g, s, replace(st, resources=Resources(P=2)), 0)


def test_lost_when_a_die_cannot_be_used():
    s = Chapter1((P, L, A), 6, turns=3)
    v = check_chapter1(s.game(LOSS_ROLLS), s, parse_line_text(LOSS_LINE))
    assert (v.outcome, v.turn) == ("lost", 3)
    assert "die1 (3) cannot be used" in v.reason


def test_unused_die_that_could_be_used_is_illegal():
    s = Chapter1((P, L, A), 6, turns=3)
    text = LOSS_LINE.replace("  die1 -> libertalia benefit=no pirate=2\n", "")
    v = check_chapter1(s.game(LOSS_ROLLS), s, parse_line_text(text))
    assert (v.outcome, v.turn) == ("illegal", 2)
    assert "every rolled # must be used" in v.reason


def test_an_unusable_die_loses_even_beside_an_unused_usable_one(monkeypatch):
    """The loss is at once: die2 unusable loses though die1 was also left unused but usable
    (the order of the checks must not turn that loss into 'illegal'); as in chapters 2-4."""
    import solver.campaign.chapter1 as ch1

    real = ch1.die_placements
    monkeypatch.setattr(ch1, "die_placements", lambda g, s, st, k, **kw: [] if k == 1 else real(g, s, st, k, **kw))
    s = Chapter1((P, L, A), 6, turns=3)
    text = LOSS_LINE.replace("  die2 -> ark-nova column=1\n", "")
    v = check_chapter1(s.game(LOSS_ROLLS), s, parse_line_text(text))
    assert (v.outcome, v.turn) == ("lost", 3)
    assert "die2 (1) cannot be used" in v.reason


def test_no_compensation():
    s = Chapter1((P, L, A), 6, turns=3)
    text = LOSS_LINE + "  compensate die1 P\n"
    v = check_chapter1(s.game(LOSS_ROLLS), s, parse_line_text(text))
    assert (v.outcome, v.turn, v.action) == ("illegal", 3, 2)
    assert "no compensation" in v.reason


def test_chapter_rule_breach_in_a_line_is_illegal():
    s = Chapter1((P, L, A), 6, turns=5)
    text = WIN_LINE.replace("die1 -> libertalia benefit=no pirate=1", "die1 extra+1 -> libertalia benefit=no pirate=1")
    v = check_chapter1(s.game(WIN_ROLLS), s, parse_line_text(text))
    assert (v.outcome, v.turn, v.action) == ("illegal", 1, 1)


def test_base_rule_breach_and_short_line_are_illegal():
    s = Chapter1((P, L, A), 6, turns=5)
    g = s.game(WIN_ROLLS)
    bad = WIN_LINE.replace("die1 -> libertalia benefit=no pirate=3", "die1 -> libertalia benefit=no pirate=1")
    v = check_chapter1(g, s, parse_line_text(bad))
    assert (v.outcome, v.turn, v.action) == ("illegal", 2, 1) and "already complete" in v.reason
    short = WIN_LINE.split("turn 5")[0]
    v = check_chapter1(g, s, parse_line_text(short))
    assert (v.outcome, v.turn) == ("illegal", 5) and "stops after turn 4" in v.reason


# ---- winning and losing at the end ------------------------------------------------------------------
def test_won_at_the_end():
    s = Chapter1((P, L, A), 6, turns=5)
    v = check_chapter1(s.game(WIN_ROLLS), s, parse_line_text(WIN_LINE))
    assert v.outcome == "won" and v.turn == 5 and v.stars == (2, 2, 2) and v.unspent == 3
    rng = Chapter1((P, L, A), (5, 8), "hard", turns=5)
    assert check_chapter1(rng.game(WIN_ROLLS), rng, parse_line_text(WIN_LINE)).won


def test_lost_when_the_star_total_misses_the_target():
    for target in (7, (7, 9), (3, 5)):
        s = Chapter1((P, L, A), target, turns=5)
        v = check_chapter1(s.game(WIN_ROLLS), s, parse_line_text(WIN_LINE))
        assert v.outcome == "lost" and "is not the target" in v.reason


def test_lost_with_too_many_unspent_resources():
    for difficulty, held, outcome in (("hard", 4, "lost"), ("hard", 3, "won"), ("normal", 5, "lost"),
                                      ("normal", 4, "won"), ("easy", 6, "lost"), ("easy", 5, "won")):
        s = Chapter1((P, L, A), 6, difficulty, turns=5)
        g = s.game(WIN_ROLLS)
        line = parse_line_text(WIN_LINE)
        final = _final(g, line)
        v = judge_end(g, s, replace(final, resources=Resources(C=held)))
        assert v.outcome == outcome, (difficulty, held)
        if outcome == "lost":
            assert "unspent resources" in v.reason


def test_lost_with_fewer_than_two_stars_in_a_realm():
    s = Chapter1((P, L, A), (0, 18), turns=5)
    g = s.game(WIN_ROLLS)
    # the win line without its last turn's ark-nova and libertalia stars: replay 4 turns, judge
    final = _final(g, parse_line_text(WIN_LINE), upto=4)
    v = judge_end(g, s, final)
    assert v.outcome == "lost" and "fewer than 2 stars" in v.reason


def _final(g, line, upto=None):
    from solver.engine import end_turn
    st = start(g)
    for turn in line.turns[:upto]:
        for a in turn.actions:
            st = apply_activation(g, st, a)
        st = end_turn(g, st, dict(turn.end))
    return st


def test_cli_check_chapter1_won_lost_and_bad_input():
    from click.testing import CliRunner

    import cli as app

    base = ["check", "chapter1", "--realms", "parks,libertalia,ark-nova",
            "--rolls", "puzzles/examples/campaign/chapter1-rolls.txt",
            "--line", "puzzles/examples/campaign/chapter1-win-line.txt"]
    runner = CliRunner()
    won = runner.invoke(app.cli, base + ["--target", "6"])
    assert won.exit_code == 0 and won.output.startswith("WON at turn 5")
    lost = runner.invoke(app.cli, base + ["--target", "7-9"])
    assert lost.exit_code == 1 and "LOST" in lost.output and "7-9" in lost.output
    bad = runner.invoke(app.cli, base + ["--target", "x"])
    assert bad.exit_code == 2
