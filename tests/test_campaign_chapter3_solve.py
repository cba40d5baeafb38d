"""Solving campaign chapter 3 (solver/campaign/chapter3_solve.py): won lines pass the checker,
answers agree with an exhaustive search over the engine judged by check_chapter3 on tiny
instances, the order search never cuts a history a winning line has, and each chapter rule of
the model has a test that fails when the rule is dropped from CHAPTER3_RULES.

Rule tests fix one line in the model (`RoundModel.fix_line`; the damage marks stay free): with
the rules the model rejects it (INFEASIBLE), without the rule under test it accepts it, and the
checker does not call the line won, for that rule's reason."""
from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from ortools.sat.python import cp_model

import cli as cli_module
from solver.campaign import chapter3_solve as cs
from solver.campaign.chapter3 import Chapter3, check_chapter3
from solver.campaign.chapter3_solve import (
    CHAPTER3_REDUNDANT,
    CHAPTER3_RULES,
    build_chapter3,
    choose_setup,
    order_history,
    solve_chapter3,
)
from solver.campaign.chapter3 import activation_effect
from solver.engine import apply_activation, end_choice_sets, end_turn, legal_actions, realm_stars, start
from solver.line import Activation, Line, TurnPlay, parse_line_text
from solver.resources import Resources

ROOT = Path(__file__).resolve().parents[1]
CAMPAIGN = ROOT / "puzzles" / "examples" / "campaign"
R = ("parks", "wurfelwelten", "libertalia")


def hard(realms, track, turn, rolls, **kw) -> Chapter3:
    return Chapter3(realms, tuple(track), (turn,), "hard", turns=len(rolls), **kw)


# ---- exhaustive search over the engine, judged by the checker (tiny instances only) -----------

def exhaustive_wins(setup: Chapter3, rolls, limit: int = 100) -> list[Line]:
    """Winning lines (up to `limit`; each confirmed by check_chapter3), found by trying every
    legal activation (the engine's legal_actions: every source, pumpkin change and choice) in
    every order, with the chapter's rules written out here step by step from
    docs/campaign-chapter3.md: the leftmost space marked by a matching gain of the activated
    realm next to the Boss or a star risen there; the 12th resource loses; the last space wins
    in a target turn and loses outside it; a turn ends only with both dice used and loses when
    it ends the target. Independent of the CP-SAT model and of order_history."""
    game = setup.game(tuple(rolls))
    track, target = setup.track, set(setup.target_turns)
    wins: list[Line] = []
    seen: set = set()

    def go(state, marks: int, earned: Resources, done: tuple[TurnPlay, ...], acts: tuple) -> None:
        if len(wins) >= limit:
            return
        t = state.turn
        nb = setup.neighbours(t)
        for act in legal_actions(game, state):
            if not isinstance(act, Activation):
                continue
            gain = activation_effect(game, state, act).gain
            after = apply_activation(game, state, act)
            before, now = realm_stars(game, state), realm_stars(game, after)
            r = game.index(act.realm)
            sym = track[marks]
            hit = (any(now[x] > before[x] for x in nb) if sym == "S" else r in nb and gain.get(sym) > 0)
            marks2, earned2 = marks + hit, earned + gain
            over = any(earned2.get(k) >= 12 for k in "PHC")
            if marks2 == len(track):
                if t + 1 in target and (not over or setup.same_step == "won"):
                    line = Line(done + (TurnPlay(game.rolls[t], acts + (act,), ()),))
                    assert check_chapter3(game, setup, line).won, line.to_text()
                    wins.append(line)
                continue
            if over:
                continue
            key = (after, marks2, earned2)
            if key not in seen:
                seen.add(key)
                go(after, marks2, earned2, done, acts + (act,))
        if all(state.die_spent) and t + 1 < game.turns and t + 1 < setup.target_turns[-1]:
            for end in end_choice_sets(game, state):
                go(end_turn(game, state, end), marks, earned, done + (TurnPlay(game.rolls[t], acts, tuple(end.items())),), ())

    go(start(game), 0, Resources(), (), ())
    return wins


def earliest(wins: list[Line]) -> int | None:
    return min((len(w.turns) for w in wins), default=None)


S = ("scythe", "wingspan", "azul")
TINY = [
    # realms (row), rolls, track, difficulty, target: wins (some need cuts) and 1-turn proofs
    (R, ((2, 5), (1, 3)), ("C", "H"), "easy", ()),
    (R, ((3, 3), (6, 1)), ("C", "S"), "easy", ()),
    (S, ((4, 4), (6, 3)), ("S", "H"), "easy", ()),
    (("azul", "scythe", "wingspan"), ((2, 5), (1, 3)), ("P", "C"), "easy", ()),
    (("euphoria", "between-two-castles", "libertalia"), ((4, 4),), ("S", "C"), "easy", ()),
    (("parks", "euphoria", "libertalia"), ((1, 1),), ("C", "C"), "easy", ()),
    (("wurfelwelten", "my-little-scythe", "azul"), ((2, 5),), ("S",), "easy", ()),
    (("wingspan", "between-two-cities", "azul"), ((2, 5),), ("S",), "easy", ()),
    (R, ((2, 5), (1, 3)), ("H", "P"), "hard", (1,)),
]
WON = TINY[:4]


def turn_sets_of(line: Line, realms) -> list:
    """A line's turns as the model's action sets: each realm's activations in their order."""
    return [([[a for a in tp.actions if a.realm == k] for k in realms], [], list(tp.end)) for tp in line.turns]


@pytest.mark.parametrize("realms,rolls,track,difficulty,target", WON[:2])
def test_order_search_never_cuts_a_winning_history(realms, rolls, track, difficulty, target) -> None:
    """Cut soundness, one way: every winning line of the exhaustive search, given to
    order_history as action sets (realms listed in another order), is found winning again."""
    setup = Chapter3(realms, track, target, difficulty, turns=len(rolls))
    game = setup.game(rolls)
    wins = exhaustive_wins(setup, rolls, limit=12)
    assert wins
    for line in wins:
        found = order_history(game, setup, turn_sets_of(line, tuple(reversed(realms))), len(line.turns))
        assert isinstance(found, Line), line.to_text()
        assert check_chapter3(game, setup, found).won


def interleavings(queues: list[list]) -> list[tuple]:
    """Every order of a turn's activations that keeps each realm's own order."""
    queues = [q for q in queues if q]
    if not queues:
        return [()]
    out = []
    for i, q in enumerate(queues):
        rest = queues[:i] + [q[1:]] + queues[i + 1:]
        out.extend((q[0],) + tail for tail in interleavings(rest))
    return out


def alive_by_checker(game, setup: Chapter3, sets, t: int, win_turn: int) -> bool:
    """Does some order of turns 0..t let the chapter go on (or win), by check_chapter3?"""
    per_turn = [interleavings(sets[u][0]) for u in range(t + 1)]
    for orders in itertools.product(*per_turn):
        turns = tuple(TurnPlay(game.rolls[u], orders[u], tuple(sets[u][2]) if u < t or t < win_turn - 1 else ())
                      for u in range(t + 1))
        v = check_chapter3(game, setup, Line(turns))
        if v.won or (t < win_turn - 1 and v.outcome == "illegal" and "stops after turn" in v.reason):
            return True
    return False


@pytest.mark.parametrize("realms,rolls,track,difficulty,target", TINY)
def test_answers_agree_with_exhaustive_search_and_every_cut_is_confirmed(realms, rolls, track, difficulty, target,
                                                                       monkeypatch) -> None:
    """The earliest win (or none) agrees with the exhaustive search, with CP-SAT alone and with
    the engine's quick line first; and (cut soundness, the other way) every history cut off while
    solving has no order of its turns (every interleaving, judged by check_chapter3) that goes on
    or wins. Star cuts rest on
    realm_star_rises (tested against the engine below)."""
    setup = Chapter3(realms, track, target, difficulty, turns=len(rolls))
    game = setup.game(rolls)
    cuts: list = []
    real = cs.order_history

    def spy(g, su, sets, w):
        found = real(g, su, sets, w)
        if isinstance(found, int):
            cuts.append((sets, found, w))
        return found

    star_rounds: list = []
    real_star = cs.star_cuts

    def star_spy(*args):
        found = real_star(*args)
        star_rounds.extend([found] if found else [])
        return found

    monkeypatch.setattr(cs, "order_history", spy)
    monkeypatch.setattr(cs, "star_cuts", star_spy)
    res = solve_chapter3(setup, rolls, beam=False)  # CP-SAT alone: its cuts are what is tested
    wins = exhaustive_wins(setup, rolls, limit=1)
    assert res.win_turn == earliest(wins)
    assert res.turns == len(rolls) and res.cuts == len(cuts) + len(star_rounds)
    with_quick = solve_chapter3(setup, rolls)  # the default: the engine's quick line first
    assert with_quick.win_turn == earliest(wins) and with_quick.status == res.status
    assert with_quick.proven_earliest == res.proven_earliest
    if wins:
        assert res.status == "won" and res.proven_earliest and res.exit_code == 0
        verdict = check_chapter3(game, setup, res.line)
        assert verdict.won and verdict.damage == len(track)
    else:
        assert res.status == "impossible" and res.exit_code == 1
        assert [q.turn for q in res.questions] == list(setup.target_turns)
        assert all(q.status == "impossible" for q in res.questions)
    for sets, t, w in cuts:
        assert not alive_by_checker(game, setup, sets, t, w)
    if realms == S:
        assert res.cuts, "this instance needs cuts (stars rise at steps the model cannot see)"


# ---- each rule of CHAPTER3_RULES: a line only that rule rejects ----------------------------------

def model_accepts(setup: Chapter3, rolls, line: Line, rules) -> bool:
    """Fix the line's decisions in the model of 'won in turn W = the line's last turn' (marks
    free) and ask whether it is a solution."""
    cm = build_chapter3(setup, rolls, len(line.turns), rules=tuple(rules) + CHAPTER3_REDUNDANT)
    cm.rm.fix_line(line)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    status = solver.solve(cm.rm.model)
    assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE)
    return status != cp_model.INFEASIBLE


T1 = "turn 1 roll 2 5\n"
T2 = "turn 2 roll 1 3\n"
# (rule, realms, rolls, track, target turn, line, what the checker says)
RULE_CASES = [
    (cs.all_dice_used_before_win, R, ((2, 5), (1, 3)), "H", 2,
     T1 + "  die1 -> parks trail=1\n" + T2 + "  die1 -> libertalia benefit=yes pirate=4\n",
     "every rolled # must be used"),
    # wurfelwelten gains the pumpkin, but the Boss is above parks (the middle realm) in turn 1
    (cs.marks_next_to_boss, ("wurfelwelten", "parks", "libertalia"), ((2, 5),), "P", 1,
     T1 + "  die2 -> wurfelwelten benefit=P world=1\n  die1 -> libertalia benefit=no pirate=4\n", "0 of 1"),
    (cs.resource_marks_gain_it, R, ((2, 5),), "C", 1,
     T1 + "  die2 -> wurfelwelten benefit=H world=3\n  die1 -> libertalia benefit=no pirate=4\n", "0 of 1"),
    (cs.star_marks_within_stars, R, ((2, 5),), "S", 1,
     T1 + "  die2 -> wurfelwelten benefit=H world=3\n  die1 -> libertalia benefit=no pirate=4\n", "0 of 1"),
    # euphoria 'both' on a pair gains 2 coins in one activation: one mark only
    (cs.one_mark_per_activation, ("parks", "euphoria", "libertalia"), ((1, 1),), "C C", 1,
     "turn 1 roll 1 1\n  die1 -> euphoria area=both\n  die2 -> libertalia benefit=no pirate=1\n", "1 of 2"),
    # the pumpkin comes in turn 1, before the heart it must follow (turn 2), then the coin (turn 3)
    (cs.marks_in_track_order, R, ((2, 5), (1, 3), (4, 1)), "H P C", 3,
     T1 + "  die2 -> wurfelwelten benefit=P world=1\n  die1 -> parks trail=1\n"
     + T2 + "  die1 -> libertalia benefit=yes pirate=4\n  die2 -> wurfelwelten benefit=C world=1\n"
     "turn 3 roll 4 1\n  die2 -> libertalia benefit=yes pirate=2\n  die1 -> wurfelwelten benefit=H world=2\n",
     "1 of 3"),
    # a heart next to the Boss in turn 1 marks the space at once; the model may not keep it for
    # libertalia's heart in turn 2
    (cs.resource_marks_automatic, R, ((2, 5), (1, 3)), "H", 2,
     T1 + "  die2 -> wurfelwelten benefit=H world=3\n  die1 -> parks trail=1\n"
     + T2 + "  die1 -> libertalia benefit=yes pirate=4\n  die2 -> wurfelwelten benefit=C world=1\n",
     "outside the turn target"),
    # the only heart next to the Boss comes in turn 1: the last space is marked outside the target
    (cs.last_space_in_turn_w, R, ((2, 5), (1, 3)), "H", 2,
     T1 + "  die2 -> wurfelwelten benefit=H world=3\n  die1 -> parks trail=1\n"
     + T2 + "  die1 -> libertalia benefit=no pirate=4\n  die2 -> wurfelwelten benefit=C world=1\n",
     "outside the turn target"),
    (cs.earn_limit, ("euphoria", "pendulum", "wurfelwelten"), ((6, 6), (5, 5), (4, 4), (3, 3), (2, 2), (1, 1)), "H", 6,
     "turn 1 roll 6 6\n  die1 -> euphoria area=both\n  die2 -> wurfelwelten benefit=P world=1\n"
     "turn 2 roll 5 5\n  die1 -> euphoria area=both left=P right=P\n  die2 -> wurfelwelten benefit=P world=1\n"
     "turn 3 roll 4 4\n  die1 -> euphoria area=both left=P right=P\n  die2 -> wurfelwelten benefit=P world=2\n"
     "turn 4 roll 3 3\n  die1 -> euphoria area=both left=P right=P\n  die2 -> wurfelwelten benefit=C world=1\n"
     "turn 5 roll 2 2\n  die1 -> euphoria area=both left=P right=P\n  die2 -> wurfelwelten benefit=H world=2\n"
     "turn 6 roll 1 1\n  die1 -> euphoria area=both left=P right=H\n",
     "earned 12 pumpkins"),
]


def test_every_rule_has_a_case() -> None:
    assert {c[0] for c in RULE_CASES} == set(CHAPTER3_RULES) | set(cs.CHAPTER3_TRIED)


@pytest.mark.parametrize("rule,realms,rolls,track,turn,text,reason", RULE_CASES, ids=[c[0].__name__ for c in RULE_CASES])
def test_each_rule_rejects_a_line_the_checker_rejects(rule, realms, rolls, track, turn, text, reason) -> None:
    setup = hard(realms, track.split(), turn, rolls)
    line = parse_line_text(text)
    verdict = check_chapter3(setup.game(rolls), setup, line)
    assert not verdict.won and reason in verdict.reason
    rules = CHAPTER3_RULES + ((rule,) if rule in cs.CHAPTER3_TRIED else ())
    assert not model_accepts(setup, rolls, line, rules)
    assert model_accepts(setup, rolls, line, [r for r in rules if r is not rule])


def test_same_step_won_reading_relaxes_the_earn_limit() -> None:
    """Reading option same_step=won: the step that earns the 12th pumpkin and marks the last
    space wins; the model then bounds only the turns before W (and accepts the line)."""
    rule, realms, rolls, track, turn, text, _ = RULE_CASES[-1]
    setup = hard(realms, track.split(), turn, rolls, same_step="won")
    line = parse_line_text(text)
    assert check_chapter3(setup.game(rolls), setup, line).won
    assert model_accepts(setup, rolls, line, CHAPTER3_RULES)


def test_redundant_pumpkin_bound_is_the_earn_limits() -> None:
    """extras_within_pumpkins: at most 3 three-pumpkin activations in the chapter (each pays 3
    of at most 11 pumpkins earned before it). The round model's own per-turn bounds allow more
    over these 4 turns; with the row, 4 is ruled out at once (it is redundant: the rule tests
    and the exhaustive-search agreement run with it on)."""
    assert cs.MAX_EXTRAS == 3
    rolls = ((6, 6), (5, 5), (4, 4), (3, 3))
    setup = hard(("euphoria", "pendulum", "wurfelwelten"), ("H",), 4, rolls)
    cm = build_chapter3(setup, rolls, 4, rules=CHAPTER3_REDUNDANT)
    assert sum(cm.rm.extras) > cs.MAX_EXTRAS
    cm.rm.model.add(sum(e.extra for evs in cm.rm.events for e in evs) >= cs.MAX_EXTRAS + 1)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_deterministic_time = 1
    assert solver.solve(cm.rm.model) == cp_model.INFEASIBLE


@pytest.mark.parametrize("realms,rolls,track,difficulty,target", WON[:3])
def test_realm_star_rises_agree_with_the_engine(realms, rolls, track, difficulty, target) -> None:
    """The star cuts' premise: a realm that does not score from the others gains a star at an
    activation exactly when the engine's replay of the whole line says so (winning lines of
    the exhaustive search, every realm)."""
    setup = Chapter3(realms, track, target, difficulty, turns=len(rolls))
    game = setup.game(rolls)
    for line in exhaustive_wins(setup, rolls, limit=4):
        sets = turn_sets_of(line, realms)
        state = start(game)
        seen = {r: [[] for _ in line.turns] for r in range(3)}
        for t, tp in enumerate(line.turns):
            for act in tp.actions:
                after = apply_activation(game, state, act)
                r = game.index(act.realm)
                seen[r][t].append(realm_stars(game, after)[r] > realm_stars(game, state)[r])
                state = after
            if t + 1 < len(line.turns):
                state = end_turn(game, state, dict(tp.end))
        for r in range(3):
            assert cs.realm_star_rises(game, r, sets, len(line.turns)) == seen[r]


# ---- setup choice ---------------------------------------------------------------------------------

def test_fleet_tries_every_third_realm_in_every_row_order() -> None:
    """One turn, track P: the Boss is above the middle realm in turn 1, so a row wins exactly
    when its middle realm can gain a pumpkin from this roll (scythe cannot): the order matters.
    Each row's answer agrees with the exhaustive search."""
    rolls = ((2, 5),)
    fleet = ("parks", "wurfelwelten", "libertalia", "scythe", "azul")
    res = choose_setup(fleet, ("libertalia", "wurfelwelten"), Chapter3(R, ("P",), (), "easy", turns=1), rolls,
                       every_row=True)
    assert len(res.candidates) == 3 * 6
    assert {c.third for c in res.candidates} == {"parks", "scythe", "azul"}
    for c in res.candidates:
        setup = Chapter3(c.realms, ("P",), (), "easy", turns=1)
        assert c.status == ("won" if exhaustive_wins(setup, rolls, limit=1) else "impossible")
        assert (c.status == "impossible") == (c.realms[1] == "scythe")
    assert res.best is not None and res.status == "won" and res.exit_code == 0
    best = Chapter3(res.best.realms, ("P",), (), "easy", turns=1)
    assert check_chapter3(best.game(rolls), best, res.best.answer.line).won
    assert json.loads(json.dumps(res.as_json()))["best"] == list(res.best.realms)
    # by default the rows after the first one that wins in the first target turn are not asked;
    # the best row is the same (ties go to the earlier row)
    quick = choose_setup(fleet, ("libertalia", "wurfelwelten"), Chapter3(R, ("P",), (), "easy", turns=1), rolls)
    assert [c.realms for c in quick.candidates] == [c.realms for c in res.candidates]
    asked = [c for c in quick.candidates if c.status != "skipped"]
    assert len(asked) < len(quick.candidates)
    assert asked[-1].status == "won" and asked[-1].realms == res.best.realms
    assert all(c.status == "skipped" and c.answer is None for c in quick.candidates[len(asked):])
    assert quick.best is not None and quick.best.realms == res.best.realms and quick.status == "won"


# ---- command line ---------------------------------------------------------------------------------

def run_cli(*args: str):
    return CliRunner().invoke(cli_module.cli, ["chapter3", *args])


EXAMPLE = ["--rolls", str(CAMPAIGN / "chapter3-solve-rolls.txt"), "--realms", "parks,wurfelwelten,libertalia",
           "--tracks", str(CAMPAIGN / "chapter3-tracks.txt"), "--damage-roll", "3", "--turn-target", "2-3"]


def test_cli_example_wins_and_the_line_checks() -> None:
    """The documented example: turn 2 proven impossible, won in turn 3 (proven earliest); the
    printed line is accepted by `solve check chapter3` (the stored example line too)."""
    res = run_cli(*EXAMPLE, "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["status"] == "won" and out["win_turn"] == 3 and out["proven_earliest"]
    assert [q["status"] for q in out["questions"]] == ["impossible", "won"]
    assert out["turns"] == 15 and out["verdict"]["outcome"] == "won"
    rolls = [r for r in (CAMPAIGN / "chapter3-solve-rolls.txt").read_text().splitlines() if r and not r.startswith("#")]
    from solver.rolls import parse_rolls

    setup = Chapter3(R, ("H", "P", "S", "C"), (2, 3))
    game = setup.game(parse_rolls("\n".join(rolls)))
    assert check_chapter3(game, setup, parse_line_text(out["line_text"])).won
    stored = parse_line_text((CAMPAIGN / "chapter3-solve-win-line.txt").read_text())
    assert check_chapter3(game, setup, stored).won


def test_cli_text_answer(tmp_path) -> None:
    rolls = tmp_path / "r.txt"
    rolls.write_text("2 5\n1 3\n")
    res = run_cli("--rolls", str(rolls), "--realms", "parks,wurfelwelten,libertalia", "--track", "coin,heart",
                  "--difficulty", "easy")
    assert res.exit_code == 0, res.output
    assert "WON in turn 2" in res.output and "proven earliest" in res.output and "used 2 of the 2" in res.output
    assert "line (text format):" in res.output


def test_cli_impossible_and_unknown(tmp_path) -> None:
    rolls = tmp_path / "r.txt"
    rolls.write_text("2 5\n1 3\n")
    res = run_cli("--rolls", str(rolls), "--realms", "parks,wurfelwelten,libertalia", "--damage-track", "H,P",
                  "--turn-target", "1", "--difficulty", "hard", "--json")
    assert res.exit_code == 1, res.output
    assert json.loads(res.output)["status"] == "impossible"
    res = run_cli(*EXAMPLE[:-2], "--turn-target", "7-8", "--time-limit", "0.001", "--no-quick-line")
    assert res.exit_code == 3, res.output
    assert "UNKNOWN" in res.output


@pytest.mark.parametrize("args,needle", [
    (["--realms", "parks,wurfelwelten"], "--realms"),
    (["--realms", "parks,wurfelwelten,nowhere"], "nowhere"),
    (["--realms", "parks,wurfelwelten,libertalia", "--damage-track", "H,X"], "unknown damage space"),
    (["--realms", "parks,wurfelwelten,libertalia"], "damage track"),
    (["--realms", "parks,wurfelwelten,libertalia", "--damage-track", "H", "--turn-target", "3-5"], "consecutive"),
    (["--realms", "parks,wurfelwelten,libertalia", "--damage-track", "H", "--turn-target", "4-5"], "only 2 turn"),
    (["--realms", "parks,wurfelwelten,libertalia", "--damage-track", "H", "--turn-target", "1-2", "--time-limit", "0"], "--time-limit"),
    (["--fleet", "parks,wurfelwelten,libertalia,scythe,azul", "--damage-track", "H", "--turn-target", "1-2"], "--drawn"),
    (["--fleet", "parks,wurfelwelten,libertalia,scythe", "--drawn", "parks,azul", "--damage-track", "H", "--turn-target", "1-2"], "--fleet"),
    (["--fleet", "parks,wurfelwelten,libertalia,scythe,azul", "--drawn", "parks,wingspan", "--damage-track", "H",
      "--turn-target", "1-2"], "not in the fleet"),
])
def test_cli_bad_input_is_one_line_exit_2(tmp_path, args, needle) -> None:
    rolls = tmp_path / "r.txt"
    rolls.write_text("2 5\n1 3\n")
    res = run_cli("--rolls", str(rolls), *args)
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and needle in lines[0]


def test_cli_bad_rolls_file_names_file_and_line(tmp_path) -> None:
    rolls = tmp_path / "r.txt"
    rolls.write_text("2 5\n1 9\n")
    res = run_cli("--rolls", str(rolls), "--realms", "parks,wurfelwelten,libertalia", "--damage-track", "H",
                  "--difficulty", "easy")
    assert res.exit_code == 2
    assert "r.txt" in res.output and "line 2" in res.output and len(res.output.strip().splitlines()) == 1
