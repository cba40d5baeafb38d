"""Timed stars: a realm with `timed_stars` says which activation scores each of its stars
(`RealmEncoder.add_stars`), so the model knows its stars after every turn (`RoundModel.
stars_after`); chapter 2's rightmost-realm rows (`rightmost_realm_scores_not`) read them.

- random engine lines (preferring scoring actions) fixed in the model: the model's stars after
  each turn are the engine's, for every realm that claims timed stars;
- random chapter-2-legal lines (the checker's own steps, free moves anywhere) fixed in the
  chapter's model with the rightmost-realm rows: the model accepts them.
"""
from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, strategies as st
from ortools.sat.python import cp_model

from solver.campaign import chapter2 as ch2
from solver.campaign.chapter2 import Chapter2, apply_chapter2_activation, apply_move, end_chapter2_turn, exclusion_reason, start_chapter2
from solver.campaign.chapter2_solve import (build_chapter2, case_model, dice_used_before_last_turn, earned_within_limit,
                                            pumpkins_spent_within_limit, rightmost_realm_scores_not, turn_rows)
from solver.engine import apply_action, end_choice_sets, end_turn, legal_actions, realm_stars, start, turn_play
from solver.errors import IllegalAction
from solver.line import Activation, Line
from solver.model import ModelOptions, RoundModel
from solver.realms import get_realm, solvable_keys
from solver.solve import lp_options

from conftest import examples, make_game

TIMED = sorted(k for k in solvable_keys() if get_realm(k).timed_stars)
CHAPTER2_ALL = sorted(k for k in solvable_keys() if exclusion_reason(get_realm(k)) is None)
CHAPTER2_TIMED = [k for k in TIMED if k in CHAPTER2_ALL]

rolls_st = st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6)), min_size=2, max_size=5)


def scoring_line(game, rng: random.Random) -> tuple[Line, list[tuple[int, ...]]]:
    """A random legal line preferring actions that score, and the engine's stars after each turn."""
    state = start(game)
    turns, after = [], []
    for t in range(game.turns):
        actions = []
        while len(actions) < 4 and rng.random() > 0.1:
            options = legal_actions(game, state)
            if not options:
                break
            now = sum(realm_stars(game, state))
            scoring = [a for a in options if sum(realm_stars(game, apply_action(game, state, a))) > now]
            action = rng.choice(scoring if scoring and rng.random() < 0.7 else options)
            state = apply_action(game, state, action)
            actions.append(action)
        end = rng.choice(end_choice_sets(game, state))
        turns.append(turn_play(game.rolls[t], actions, end))
        state = end_turn(game, state, end)
        after.append(realm_stars(game, state))
    return Line(tuple(turns)), after


def test_timed_realms_are_claimed() -> None:
    """The realms the rightmost-realm rows need (the bench's and the example's) claim timed stars."""
    assert {"ark-nova", "scythe", "pendulum", "wingspan", "libertalia", "euphoria", "parks"} <= set(TIMED)


@pytest.mark.parametrize("key", TIMED)
@examples(6)
@given(rolls=rolls_st, seed=st.integers(0, 10**6))
def test_stars_after_each_turn_are_the_engines(key, rolls, seed) -> None:
    others = [k for k in ("parks", "ark-nova", "libertalia") if k != key][:2]
    game = make_game([key] + others, rolls)
    line, after = scoring_line(game, random.Random(seed))
    most = max([len(t.actions) for t in line.turns] + [1])
    rm = RoundModel(game, ModelOptions(tricks=False, extras=most, timed_stars=True))
    rm.fix_line(line)
    z = {t: rm.stars_after(0, t) for t in range(-1, game.turns)}
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.solve(rm.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE), line.to_text()
    cap = game.rules.star_cap
    assert solver.value(z[-1]) == min(realm_stars(game, start(game))[0], cap) == 0
    for t in range(game.turns):
        assert solver.value(z[t]) == min(after[t][0], cap), (t, line.to_text())


def chapter2_line(setup: Chapter2, game, rng: random.Random) -> Line:
    """A random line the chapter's own steps accept (free moves at random), stopped at a loss."""
    return chapter2_play(setup, game, rng)[0]


def chapter2_play(setup: Chapter2, game, rng: random.Random, extras: bool = False):
    """`chapter2_line` and whether it ended lost (the 12th earned resource of a kind). With
    `extras`, the line mostly gains pumpkins and takes the 3-pumpkin power when it can (so that
    lines with such activations are common)."""
    cs = start_chapter2(game)
    turns = []
    for t in range(game.turns):
        actions = []
        while not all(cs.round.die_spent) or (actions and rng.random() < (0.6 if extras else 0.3)):
            if cs.moves_used < setup.free_moves and rng.random() < 0.2:
                cs = apply_move(setup, cs, rng.choice(cs.row[:-1]))
            options = [a for a in legal_actions(game, cs.round) if isinstance(a, Activation)]
            rng.shuffle(options)
            scoring = sorted(options, key=lambda a: -sum(realm_stars(game, apply_action(game, cs.round, a))))
            order = scoring if rng.random() < 0.7 else options
            if extras:
                def pumpkins(a: Activation) -> int:
                    return apply_action(game, cs.round, a).resources.P
                order = sorted(options, key=lambda a: (not a.extra, -pumpkins(a))) if rng.random() < 0.8 else order
            for act in order:
                try:
                    cs = apply_chapter2_activation(game, cs, act)
                except IllegalAction:
                    continue
                actions.append(act)
                break
            else:
                break
            if cs.won or ch2.over_limit(cs.earned):
                break
        if cs.won or ch2.over_limit(cs.earned) or not all(cs.round.die_spent):  # the line ends in this turn
            return Line(tuple(turns) + ((turn_play(game.rolls[t], actions, {}),) if actions else ())), \
                ch2.over_limit(cs.earned) is not None
        end = rng.choice(end_choice_sets(game, cs.round))
        turns.append(turn_play(game.rolls[t], actions, end))
        cs = end_chapter2_turn(game, cs, end)
    return Line(tuple(turns)), ch2.over_limit(cs.earned) is not None


@examples(25)
@given(rolls=st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6)), min_size=3, max_size=7),
       seed=st.integers(0, 10**6), difficulty=st.sampled_from(["hard", "normal", "easy"]))
def test_chapter2_legal_lines_keep_the_rightmost_rows(rolls, seed, difficulty) -> None:
    rng = random.Random(seed)
    row = tuple(rng.sample(CHAPTER2_TIMED, 3))
    setup = Chapter2(row, difficulty)
    game = setup.game(tuple(rolls))
    line = chapter2_line(setup, game, rng)
    if not line.turns:
        return
    rm = build_chapter2(setup, tuple(rolls)[:len(line.turns)], ModelOptions(tricks=False), rules=[rightmost_realm_scores_not])
    rm.fix_line(line)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.solve(rm.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE), (row, difficulty, line.to_text())


@examples(25)
@given(rolls=st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6)), min_size=3, max_size=7),
       seed=st.integers(0, 10**6), difficulty=st.sampled_from(["hard", "normal", "easy"]),
       rows=st.booleans())
def test_chapter2_legal_lines_are_in_their_case_of_the_lp_model(rolls, seed, difficulty, rows) -> None:
    """`extras_case_lp_model`: the proof by cases asks each case (the 3-pumpkin activations per
    realm) of the LP bounds' model (`solve.lp_options`), with the cases' rules (every die used
    before the last turn, the caps on earned and spent resources, the rightmost-realm rows or
    not): a random chapter-legal line is a solution of the case of its own counts, so a refuted
    case holds no legal line. (A line that ended lost breaks the caps by definition: only the
    dice rule and the rows are asked of it.)"""
    rng = random.Random(seed)
    row = tuple(rng.sample(CHAPTER2_TIMED if rows else CHAPTER2_ALL, 3))  # (the rows need timed stars)
    setup = Chapter2(row, difficulty)
    game = setup.game(tuple(rolls))
    line, lost = chapter2_play(setup, game, rng, extras=True)
    if not line.turns:
        return
    rules = [dice_used_before_last_turn] + ([] if lost else [earned_within_limit, pumpkins_spent_within_limit]) \
        + ([rightmost_realm_scores_not] if rows else [])
    counts = tuple(sum(a.extra for turn in line.turns for a in turn.actions if a.realm == key) for key in row)
    rm = case_model(setup, tuple(rolls)[:len(line.turns)], lp_options(ModelOptions(tricks=False)), rules, counts)
    rm.fix_line(line)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.solve(rm.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE), (row, difficulty, counts, line.to_text())


def abstract_turns(n_steps: int):
    """Every turn of up to n_steps steps over 3 realms, each step 'score in r', 'quiet # in r' or
    'free move of r', played from every rightmost realm by the chapter's own row logic (a scoring
    # in the rightmost realm is illegal; a realm that scores, or is moved, goes to the far right;
    a move of the rightmost realm is illegal): (before, after, scored, moves, activations)."""
    steps = [(kind, r) for kind in ("score", "quiet", "move") for r in range(3)]
    for first in range(3):
        for n in range(n_steps + 1):
            for seq in itertools.product(steps, repeat=n):
                right, scored, moves, active, ok = first, [0, 0, 0], 0, [0, 0, 0], True
                for kind, r in seq:
                    if kind == "move":
                        if r == right:
                            ok = False
                            break
                        right, moves = r, moves + 1
                        continue
                    active[r] += 1
                    if kind == "score":
                        if r == right:
                            ok = False
                            break
                        right, scored[r] = r, 1
                if ok:
                    yield ([int(r == first) for r in range(3)], [int(r == right) for r in range(3)], scored, moves, active)


def test_turn_rows_hold_for_every_abstract_turn() -> None:
    """Every legal abstract turn (up to 5 steps, any start) satisfies every row of `turn_rows`
    with its true values; and the rows are not empty words: some illegal-looking values break
    them (euphoria-style: the rightmost realm scoring alone)."""
    seen = 0
    for before, after, scored, moves, active in abstract_turns(5):
        for low, high in turn_rows(scored, before, after, moves, active):
            assert low <= high, (before, after, scored, moves, active)
        seen += 1
    assert seen > 1000
    # the rightmost realm (2) scoring alone, no move: broken
    assert any(low > high for low, high in turn_rows([0, 0, 1], [0, 0, 1], [0, 0, 1], 0, [0, 0, 1]))
    # 2 (rightmost) and 0 scored, 0 once: 0 cannot end the turn the rightmost
    assert any(low > high for low, high in turn_rows([1, 0, 1], [0, 0, 1], [1, 0, 0], 0, [1, 0, 1]))
