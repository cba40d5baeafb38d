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
    """The earliest win (or none) agrees with the exhaustive search; and (cut soundness, the
    other way) every history cut off while solving has no order of its turns (every
    interleaving, judged by check_chapter3) that goes on or wins."""
    setup = Chapter3(realms, track, target, difficulty, turns=len(rolls))
    game = setup.game(rolls)
    cuts: list = []
    real = cs.order_history

    def spy(g, su, sets, w):
        found = real(g, su, sets, w)
        if isinstance(found, int):
            cuts.append((sets, found, w))
        return found

    monkeypatch.setattr(cs, "order_history", spy)
    res = solve_chapter3(setup, rolls)
    wins = exhaustive_wins(setup, rolls, limit=1)
    assert res.win_turn == earliest(wins)
    assert res.turns == len(rolls) and res.cuts == len(cuts)
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
        assert cuts, "this instance needs cuts (stars rise at steps the model cannot see)"
