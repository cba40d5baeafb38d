"""Campaign chapter 4 ("The Swarm", seed 003): one test per rule the chapter adds on top of the
base engine, so that dropping the rule from solver/campaign/chapter4.py fails a test."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from solver.campaign.chapter4 import (
    NEIGHBOURS,
    Chapter4,
    SwarmState,
    apply_copy,
    apply_original,
    begin,
    check_chapter4,
    die_usable,
    load_chapter4_line,
    number_uses,
    parse_chapter4_line_json,
    parse_chapter4_line_text,
    parse_grid,
    parse_target,
    run_chapter4,
    swarm_box,
)
from solver.engine import apply_activation, end_turn
from solver.errors import IllegalAction, InputError
from solver.resources import Resources
from solver.rolls import load_rolls

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "puzzles" / "examples" / "campaign"
ROLLS_FILE, WIN_FILE = str(EX / "chapter4-rolls.txt"), str(EX / "chapter4-win-line.txt")
#: the example grid: euphoria | scythe / wingspan | parks
GRID = ("euphoria", "scythe", "wingspan", "parks")
ROLLS = load_rolls(ROLLS_FILE)
WIN_TEXT = Path(WIN_FILE).read_text(encoding="utf-8")

# libertalia | wingspan / red-rising | parks: at turn 5 die2 (3) fits wingspan alone, but neither
# of wingspan's neighbours (libertalia, parks) can take its swarm copy, nor can any other pair
LOSS_ROLLS = ((4, 4), (1, 3), (5, 4), (4, 3), (4, 3))
LOSS_GRID = ("libertalia", "wingspan", "red-rising", "parks")
LOSS_LINE = """
turn 1 roll 4 4
  die2 -> libertalia benefit=no pirate=2
  swarm -> wingspan bird=2
  die1 -> red-rising card=A
  swarm -> libertalia benefit=no pirate=4
turn 2 roll 1 3
  die1 -> parks trail=1
  swarm -> red-rising card=D
  die2 -> libertalia benefit=no pirate=1
  swarm -> red-rising card=C
turn 3 roll 5 4
  die1 -> red-rising card=B
  swarm -> parks trail=2
  die2 -> red-rising card=E
  swarm -> parks trail=3
turn 4 roll 4 3
  die2 -> parks trail=3
  swarm -> red-rising card=I
  die1 -> parks trail=1
  swarm -> wingspan bird=2
turn 5 roll 4 3
  die1 -> wingspan bird=1
  swarm -> parks trail=2
"""

# two turns that earn hearts and coins, then use a heart copy and a created # (each with its swarm copy)
SOURCES_LINE = """
turn 1 roll 2 5
  die1 -> scythe mark=top
  swarm -> euphoria area=left
  die2 -> scythe mark=top
  swarm -> parks trail=1
turn 2 roll 1 3
  die1 -> parks trail=2
  swarm -> scythe mark=top
  copy die2 -> wingspan bird=1
  swarm -> euphoria area=right
  create 3 -> wingspan bird=2
  swarm -> parks trail=2
  die2 -> scythe mark=top
  swarm -> euphoria area=left
"""


def setup(target=9, difficulty="normal", **kw) -> Chapter4:
    return Chapter4(kw.pop("realms", GRID), target, difficulty, **kw)


def check(text: str = WIN_TEXT, s: Chapter4 | None = None, rolls=ROLLS):
    s = s or setup()
    return check_chapter4(s.game(rolls), s, parse_chapter4_line_text(text))


def cut(text: str, remove: str, count: int = 1) -> str:
    assert remove in text
    return text.replace(remove, "", count)


def replay_pairs(g, s, line, turns: int, pairs_in_last: int = 0) -> SwarmState:
    """The chapter state after `turns` whole turns and the first pairs of the next turn."""
    st = begin(g)
    for t, turn in enumerate(line.turns[: turns + (1 if pairs_in_last else 0)]):
        acts = turn.actions
        n = pairs_in_last if t == turns else len(acts) // 2
        for i in range(0, 2 * n, 2):
            st = apply_copy(g, s, apply_original(g, s, st, acts[i]), acts[i], acts[i + 1])
        if t < turns:
            st = replace(st, round=end_turn(g, st.round, dict(turn.end)))
    return st


def one(text: str, roll=(1, 1)):
    return parse_chapter4_line_text(f"turn 1 roll {roll[0]} {roll[1]}\n  " + text).turns[0].actions[0]


# ---- setup ----------------------------------------------------------------------------------------
def test_setup_values_per_difficulty():
    assert setup().boxes_to_win == 6 and setup().target_range == (9, 9) and setup().turns == 12
    assert setup((4, 6), "easy").boxes_to_win == 5 and setup((4, 6), "easy").target_text() == "4-6"
    assert setup(9, "hard").boxes_to_win == 7
    for bad in (dict(target=9, difficulty="easy"), dict(target=(4, 7), difficulty="easy"),
                dict(target=(4, 6), difficulty="normal"), dict(target=(4, 6), difficulty="hard"),
                dict(target=-1), dict(target=9, difficulty="nightmare"), dict(target=9, turns=13),
                dict(target=9, win_box="sometimes"), dict(target=9, swarm_sources="some"),
                dict(target=9, realms=GRID[:3]), dict(target=9, realms=GRID[:3] + ("euphoria",)),
                dict(target=9, realms=GRID[:3] + ("nowhere",))):
        with pytest.raises(ValueError):
            setup(**bad)
    g = setup().game(ROLLS)
    assert g.rules.compensation == "off" and len(g.realms) == 4
    with pytest.raises(ValueError):
        setup().game(ROLLS + ROLLS)  # 24 rolls for a 12-turn chapter


def test_excluded_realm_is_named_with_the_rule():
    with pytest.raises(ValueError, match=r"between-two-cities is excluded from chapter 4: it refers to a total of 3 realms.*seed 003"):
        setup(realms=("euphoria", "scythe", "between-two-cities", "parks"))
    with pytest.raises(InputError, match="between-two-cities is excluded"):
        run_chapter4("euphoria,scythe,cities,parks", ROLLS_FILE, WIN_FILE, "9")


def test_grid_neighbours_are_left_right_above_below():
    assert NEIGHBOURS == {0: (1, 2), 1: (0, 3), 2: (0, 3), 3: (1, 2)}
    # euphoria (top-left) -> parks (bottom-right) is diagonal: not a neighbour
    text = WIN_TEXT.replace("  die2 -> euphoria area=left\n  swarm -> wingspan bird=2\n",
                            "  die2 -> euphoria area=left\n  swarm -> parks trail=2\n", 1)
    v = check(text)
    assert (v.outcome, v.turn, v.action) == ("illegal", 1, 2) and "not a neighbour of euphoria" in v.reason


# ---- the winning line ---------------------------------------------------------------------------------
def test_example_line_wins_at_the_sixth_box():
    v = check_chapter4(setup().game(ROLLS), setup(), load_chapter4_line(WIN_FILE))
    assert (v.outcome, v.turn, v.action) == ("won", 6, 4)
    assert v.boxes == ((1, 4), (2, 4), (3, 2), (4, 4), (5, 2), (6, 4))
    assert v.stars == (6, 4, 2, 3) and v.earned == 9 and v.unspent == 1


def test_a_realm_may_be_activated_several_times_per_turn():
    s = setup()
    g = s.game(ROLLS)
    line = parse_chapter4_line_text(WIN_TEXT)
    st = replay_pairs(g, s, line, 2, 1)  # turn 3: die2 -> wingspan, swarm -> euphoria
    third = line.turns[2].actions[2]
    assert third.text() == "die1 -> euphoria area=right" and g.index("euphoria") in st.round.activated
    with pytest.raises(IllegalAction, match="already activated"):
        apply_activation(g, st.round, third)  # the base rule
    apply_original(g, s, st, third)  # chapter 4 ignores it


# ---- the swarm copy -----------------------------------------------------------------------------------
def test_every_use_needs_its_swarm_copy_next():
    v = check(cut(WIN_TEXT, "  swarm -> wingspan bird=2\n"))
    assert (v.outcome, v.turn, v.action) == ("illegal", 1, 1) and "needs its swarm copy" in v.reason
    v = check(WIN_TEXT.replace("turn 1 roll 2 5\n", "turn 1 roll 2 5\n  swarm -> wingspan bird=2\n"))
    assert (v.outcome, v.turn, v.action) == ("illegal", 1, 1) and "right after the # it copies" in v.reason


def test_a_use_whose_copy_no_neighbour_takes_is_illegal():
    s = setup(20, realms=LOSS_GRID)
    v = check(LOSS_LINE + "  die2 -> wingspan bird=3\n", s, LOSS_ROLLS)
    assert (v.outcome, v.turn, v.action) == ("illegal", 5, 3)
    assert "no neighbouring realm (libertalia or parks) can take the swarm copy" in v.reason


def test_the_copy_is_the_changed_number_and_free():
    s = setup()
    g = s.game(((2, 5),))
    st = replace(begin(g), round=replace(begin(g).round, resources=Resources(P=2)))
    orig = one("die1 +1 -> wingspan bird=1", (2, 5))
    mid = apply_original(g, s, st, orig)
    after = apply_copy(g, s, mid, orig, one("swarm -> euphoria area=left", (2, 5)))
    assert after.round.sheets[g.index("euphoria")][0] == ((3,), ())  # the 3, not the rolled 2
    # pumpkins paid once, by the original; the copy costs nothing and gains its benefit (a coin)
    assert mid.round.resources == Resources(P=1) and after.round.resources == Resources(P=1, C=1)
    assert after.earned == Resources(P=1, C=1)


def test_copies_cannot_be_modified_separately():
    for change in ("+1", "-1", "extra+1"):
        v = check(WIN_TEXT.replace("  swarm -> wingspan bird=2\n", f"  swarm {change} -> wingspan bird=2\n", 1))
        assert (v.outcome, v.turn, v.action) == ("illegal", 1, 2) and "cannot be modified separately" in v.reason


def test_heart_copies_and_created_numbers_need_swarm_copies_too():
    rolls = ((2, 5), (1, 3))
    s = setup(99, turns=2)
    v = check(SOURCES_LINE, s, rolls)
    assert v.outcome == "lost" and "turn 2, the last" in v.reason  # legal to the end
    v = check(cut(SOURCES_LINE, "  swarm -> euphoria area=right\n"), s, rolls)
    assert (v.outcome, v.action) == ("illegal", 3) and v.reason.startswith("copy die2 -> wingspan bird=1: needs its swarm copy")
    v = check(cut(SOURCES_LINE, "  swarm -> parks trail=2\n"), s, rolls)
    assert (v.outcome, v.action) == ("illegal", 5) and v.reason.startswith("create 3 -> wingspan bird=2: needs its swarm copy")


def test_reading_swarm_sources_rolled():
    rolls = ((2, 5), (1, 3))
    s = setup(99, turns=2, swarm_sources="rolled")
    only_dice = cut(cut(SOURCES_LINE, "  swarm -> euphoria area=right\n"), "  swarm -> parks trail=2\n")
    v = check(only_dice, s, rolls)
    assert v.outcome == "lost" and "turn 2, the last" in v.reason
    v = check(SOURCES_LINE, s, rolls)
    assert (v.outcome, v.action) == ("illegal", 4) and "only rolled dice get a swarm copy" in v.reason


def test_charterstone_copy_writes_the_other_rolled_die():
    s = setup(realms=("charterstone", "parks", "wingspan", "euphoria"))
    g = s.game(((2, 5),))
    orig = one("die1 -> parks trail=1", (2, 5))  # parks 2 on trail 1: a heart
    mid = apply_original(g, s, begin(g), orig)
    after = apply_copy(g, s, mid, orig, one("swarm -> charterstone action=bonus", (2, 5)))
    marked, crates, _ = after.round.sheets[0]
    assert marked == (1,) and crates[1] == 5  # bonus 2 marked; its crate gets die2 (5), not the copied 2
    with pytest.raises(IllegalAction, match="the other rolled die, 5"):
        apply_copy(g, s, mid, orig, one("swarm -> charterstone action=bonus crate=2", (2, 5)))


# ---- swarm boxes -------------------------------------------------------------------------------------
def test_swarm_box_needs_exactly_two_stars_in_the_two_realms():
    def box(before, after, r=0, n=1):
        return swarm_box(SwarmState(None, stars=before), SwarmState(None, stars=after), r, n)  # type: ignore[arg-type]

    assert box((0, 0, 0, 0), (1, 1, 0, 0)) and box((0, 0, 0, 0), (2, 0, 0, 0)) and box((3, 1, 0, 0), (3, 3, 0, 0))
    assert not box((0, 0, 0, 0), (1, 0, 0, 0))
    assert not box((0, 0, 0, 0), (2, 1, 0, 0))  # 3 stars: not exactly 2
    assert not box((0, 0, 0, 0), (1, 0, 1, 0))  # a star in a third realm does not count
    # in the line: turn 1's first pair scores 1 star (no box), its second pair 2 (box at action 4)
    v = check(WIN_TEXT, setup(99))
    assert v.boxes[:2] == ((1, 4), (2, 4))


# ---- winning and losing --------------------------------------------------------------------------------
def test_the_win_needs_the_target_when_the_box_is_marked():
    v = check(WIN_TEXT, setup(10))
    assert (v.outcome, v.turn, v.action) == ("lost", 6, 4) and "can no longer be won" in v.reason
    v = check(WIN_TEXT, setup(10, win_box="at-least"))  # the reading that waits for a later box
    assert v.outcome == "illegal" and "stops after turn 6" in v.reason and len(v.boxes) == 6


def test_difficulties_differ_in_boxes_and_target():
    v = check(WIN_TEXT, setup((4, 6), "easy"))  # the 5th box with 5 earned, in the range
    assert (v.outcome, v.turn, v.action) == ("won", 5, 2) and v.earned == 5
    v = check(WIN_TEXT, setup((7, 9), "easy"))
    assert (v.outcome, v.turn, v.action) == ("lost", 5, 2)
    v = check(WIN_TEXT, setup((7, 9), "easy", win_box="at-least"))
    assert (v.outcome, v.turn, v.action) == ("won", 6, 4)
    v = check(WIN_TEXT, setup(9, "hard"))  # hard needs a 7th box
    assert v.outcome == "illegal" and "6 swarm box(es) of 7" in v.reason
    v = check(WIN_TEXT, setup(9, "hard", turns=6), ROLLS[:6])
    assert (v.outcome, v.turn) == ("lost", 6) and "turn 6, the last, ended without the win" in v.reason


def test_exceeding_the_target_loses_at_once_with_the_stars_of_that_step():
    v = check(WIN_TEXT, setup(8))
    assert (v.outcome, v.turn, v.action) == ("lost", 6, 2) and "9 resources earned, more than the target 8" in v.reason
    assert v.stars == (6, 3, 2, 2)  # the stars at that step, not at the end of the turn
    v = check(WIN_TEXT, setup((4, 6), "easy", win_box="at-least"))
    assert v.outcome == "won"
    v = check(cut(WIN_TEXT, "  swarm -> euphoria area=left\n", 1), setup((2, 4), "easy"))
    assert v.outcome == "illegal"  # not lost: earned 1 at turn 1 is inside 2-4's top


def test_stars_are_recorded_after_every_step():
    v = check(WIN_TEXT, setup(9))
    steps = [(t, a) for t, a, _ in v.history]
    assert steps[:5] == [(1, 1), (1, 2), (1, 3), (1, 4), (1, None)] and steps[-1] == (6, 4)
    stars = dict(((t, a), s) for t, a, s in v.history)
    assert stars[1, 1] == (1, 0, 0, 0) and stars[1, 3] == (1, 1, 0, 0) and stars[1, 4] == (1, 1, 0, 1)
    assert v.history[-1][2] == v.stars


def test_earned_resources_count_spent_ones():
    v = check(WIN_TEXT, setup(9))
    assert v.won and v.earned == 9 and v.unspent == 1


def test_lost_when_a_die_cannot_be_used():
    s = setup(20, realms=LOSS_GRID)
    v = check(LOSS_LINE, s, LOSS_ROLLS)
    assert (v.outcome, v.turn, v.action) == ("lost", 5, None)
    assert "die2 (3) cannot be used with its swarm copy" in v.reason
    g = s.game(LOSS_ROLLS)
    st = replay_pairs(g, s, parse_chapter4_line_text(LOSS_LINE), 4, 1)
    assert st.round.resources == Resources(P=3, H=2, C=4)
    assert not die_usable(g, s, st, 1)
    # 4 pumpkins change the 3 by 2: a 1 goes to wingspan with its copy in parks (pumpkins stack)
    assert die_usable(g, s, replace(st, round=replace(st.round, resources=Resources(P=4))), 1)


def test_an_unusable_die_loses_even_when_the_other_could_be_used():
    # turn 4 (roll 2 6): die1 (2) has uses, die2 (6) has none as the state stands -> lost at once
    text = """
turn 1 roll 6 6
  die1 -> scythe mark=top
  swarm -> red-rising card=H
  die2 -> scythe mark=bottom
  swarm -> red-rising card=B
turn 2 roll 6 5
  die2 -> scythe mark=top
  swarm -> red-rising card=F
  die1 -> euphoria area=left
  swarm -> charterstone action=bonus
turn 3 roll 1 4
  die1 -> euphoria area=left
  swarm -> scythe mark=top
  die2 -> scythe mark=bottom
  swarm -> red-rising card=G
turn 4 roll 2 6
"""
    s = setup(99, realms=("scythe", "euphoria", "red-rising", "charterstone"))
    v = check(text, s, ((6, 6), (6, 5), (1, 4), (2, 6)))
    assert (v.outcome, v.turn) == ("lost", 4) and "die2 (6) cannot be used" in v.reason


def test_lost_when_a_die_could_only_be_used_by_exceeding_the_target():
    # after turn 3's first pair 2 resources are earned; every use of die1 (1) earns more
    text = WIN_TEXT.split("turn 3 roll")[0] + "turn 3 roll 1 4\n  die2 -> wingspan bird=2\n  swarm -> euphoria area=right\n"
    v = check(text, setup(2))
    assert (v.outcome, v.turn) == ("lost", 3) and "only be used by earning more than the resource target 2" in v.reason
    v = check(text, setup(3))
    assert v.outcome == "illegal" and "every rolled # must be used" in v.reason


def test_unused_die_that_could_be_used_is_illegal():
    v = check(cut(WIN_TEXT, "  die1 -> scythe mark=bottom\n  swarm -> parks trail=3\n"))
    assert (v.outcome, v.turn, v.action) == ("illegal", 1, None)
    assert "die1 (2) is not used but could be" in v.reason and "every rolled # must be used" in v.reason


def test_no_compensation():
    v = check(WIN_TEXT.replace("turn 2 roll 1 3\n", "turn 2 roll 1 3\n  compensate die1 P\n"))
    assert (v.outcome, v.turn, v.action) == ("illegal", 2, 1) and "no compensation" in v.reason


def test_base_rule_breach_roll_mismatch_and_long_line_are_illegal():
    v = check(WIN_TEXT.replace("die2 -> euphoria area=left", "die2 -> euphoria area=both", 1))
    assert (v.outcome, v.turn, v.action) == ("illegal", 1, 1) and "only on a rolled pair" in v.reason
    v = check(WIN_TEXT.replace("turn 2 roll 1 3", "turn 2 roll 1 4"))
    assert (v.outcome, v.turn) == ("illegal", 2) and "the rolls say 1 3" in v.reason
    v = check(WIN_TEXT, setup(99), ROLLS[:5])
    assert v.outcome == "illegal" and "the line has 6 turns, the rolls give 5" in v.reason


# ---- reading lines and inputs ---------------------------------------------------------------------------
def test_line_text_round_trip_and_json():
    line = parse_chapter4_line_text(WIN_TEXT)
    assert line.turns[0].actions[1].text() == "swarm -> wingspan bird=2"
    assert parse_chapter4_line_text(line.to_text()) == line
    data = json.loads(json.dumps(line.to_json()))
    assert data[0]["actions"][1]["source"] == "swarm"
    assert parse_chapter4_line_json(data) == line
    assert parse_chapter4_line_json({"line": data}) == line


def test_bad_line_and_inputs_are_one_line_errors():
    for text, match in (("turn 1 roll 2 5\n  swarm die1 -> parks trail=1\n", "line 2: expected 'swarm -> realm"),
                        ("turn 1 roll 2 5\n  swarm ->\n", "line 2: expected 'swarm -> realm"),
                        ("turn 1 roll 2 5\n  swarm -> nowhere\n", "unknown realm")):
        with pytest.raises(InputError, match=match):
            parse_chapter4_line_text(text, "x.txt")
    with pytest.raises(InputError, match="--target"):
        parse_target("lots")
    assert parse_target("13-15") == (13, 15) and parse_target("9") == 9
    with pytest.raises(InputError, match="4 realms in a 2x2 grid"):
        parse_grid("euphoria,scythe,parks")
    with pytest.raises(InputError, match="range of 3"):
        run_chapter4(",".join(GRID), ROLLS_FILE, WIN_FILE, "9", "easy")


def test_cli_check_chapter4():
    from click.testing import CliRunner

    import cli as app

    base = ["check", "chapter4", "--realms", ",".join(GRID), "--rolls", ROLLS_FILE, "--line", WIN_FILE]
    runner = CliRunner()
    won = runner.invoke(app.cli, base + ["--target", "9"])
    assert won.exit_code == 0 and won.output.startswith("WON at turn 6, action 4")
    lost = runner.invoke(app.cli, base + ["--target", "10"])
    assert lost.exit_code == 1 and lost.output.startswith("LOST at turn 6, action 4")
    easy = runner.invoke(app.cli, base + ["--target", "4-6", "--difficulty", "easy", "--json"])
    data = json.loads(easy.output)
    assert easy.exit_code == 0 and (data["status"], data["turn"], data["action"], data["earned"]) == ("won", 5, 2, 5)
    assert data["grid"]["bottom-right"] == "parks" and len(data["swarm_boxes"]) == 5
    later = runner.invoke(app.cli, base + ["--target", "7-9", "--difficulty", "easy", "--win-box", "at-least"])
    assert later.exit_code == 0
    for args, msg in ((["--target", "x"], "--target"), (["--target", "9", "--difficulty", "easy"], "range of 3")):
        bad = runner.invoke(app.cli, base + args)
        assert bad.exit_code == 2 and msg in bad.output and "Traceback" not in bad.output
    excl = runner.invoke(app.cli, ["check", "chapter4", "--realms", "euphoria,scythe,between-two-cities,parks",
                                   "--rolls", ROLLS_FILE, "--line", WIN_FILE, "--target", "9"])
    assert excl.exit_code == 2 and "between-two-cities is excluded" in excl.output and len(excl.output.strip().splitlines()) == 1
    missing = runner.invoke(app.cli, base[:-1] + ["no-such-line.txt", "--target", "9"])
    assert missing.exit_code == 2 and "cannot read" in missing.output


@pytest.mark.parametrize("seed", range(4))
def test_random_lines_from_the_enumerator_are_judged_consistently(seed):
    """A line built from `number_uses` (random grid of non-excluded realms, random rolls) is never
    illegal: it plays on, or it is lost exactly where the enumerator finds a die with no use."""
    import random

    from solver.engine import end_choice_sets, realm_stars
    from solver.line import Line, Source, TurnPlay
    from solver.realms import MODULES

    rng = random.Random(seed)
    grid = tuple(rng.sample([k for k in MODULES if k != "between-two-cities"], 4))
    rolls = tuple((rng.randint(1, 6), rng.randint(1, 6)) for _ in range(6))
    s = setup(999, realms=grid, turns=6, win_box="at-least")
    g = s.game(rolls)
    st, turns, stuck = begin(g), [], None
    for t in range(6):
        acts = []
        for k in rng.sample([0, 1], 2):
            uses = list(number_uses(g, s, st, Source("die", k)))
            if not uses:
                stuck = t + 1
                break
            act, copy, st = rng.choice(uses)
            acts += [act, copy]
        end = rng.choice(end_choice_sets(g, st.round)) if stuck is None else {}
        turns.append(TurnPlay(rolls[t], tuple(acts), tuple(sorted(end.items()))))
        if stuck:
            break
        after = end_turn(g, st.round, end)
        st = replace(st, round=after, stars=realm_stars(g, after))
    v = check_chapter4(g, s, Line(tuple(turns)))
    if stuck:
        assert (v.outcome, v.turn) == ("lost", stuck) and "cannot be used" in v.reason, v
    else:
        assert (v.outcome, v.turn) == ("lost", 6) and "the last" in v.reason, v
