"""The model's proven bounds hold on every legal line, and solver tricks keep the optimum.

A bound that a legal line could exceed would make the model lose lines (and its "proofs"
wrong), so each is checked against random legal lines played in the engine.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import given, strategies as st

from solver.engine import apply_action, end_turn, start
from solver.line import Activation, Compensation
from solver.model import ModelOptions, extras_bound
from solver.ordering import order_turn
from solver.playout import random_line
from solver.realms import solvable_keys
from solver.solve import STAR_WEIGHT, solve_optimal

from conftest import examples, make_game

ALL = sorted(solvable_keys())
rolls_st = st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6)), min_size=1, max_size=6)


def _walk(game, line):
    """Yield (turn, state before, action, state after) for every action of a legal line."""
    state = start(game)
    for t, turn in enumerate(line.turns):
        for action in turn.actions:
            after = apply_action(game, state, action)
            yield t, state, action, after
            state = after
        state = end_turn(game, state, dict(turn.end))


@given(keys=st.permutations(ALL).map(lambda p: p[:3]), rolls=rolls_st, seed=st.integers(0, 10**6))
def test_bounds_hold_on_random_lines(keys, rolls, seed):
    game = make_game(keys, rolls)
    line = random_line(game, random.Random(seed), max_actions=6, stop=0.1)
    per_realm = {k: 0 for k in keys}
    extras = {}
    for t, before, action, after in _walk(game, line):
        if isinstance(action, Compensation):
            continue
        realm = game.realms[game.index(action.realm)]
        per_realm[action.realm] += 1
        # what the realm gave = the change in resources + everything paid for this activation
        paid = action.source.cost().total() + action.pumpkin_cost() + _card_cost(game, before, action)
        gained = (after.resources - before.resources).total() + paid
        assert gained <= realm.max_gain_per_activation(game.rules)
        if action.extra:
            extras[t] = extras.get(t, 0) + 1
    for key, n in per_realm.items():
        assert n <= game.realms[game.index(key)].max_events(game.turns, game.rules)
    for t, n in extras.items():
        assert n <= extras_bound(game, t), f"turn {t + 1}: {n} extras > bound {extras_bound(game, t)}"


def _card_cost(game, state, action: Activation) -> int:
    from solver.realms.base import Use

    r = game.index(action.realm)
    roll = game.rolls[state.turn]
    eff = game.realms[r].apply(state.sheets[r], Use(action.source.base_value(roll) + action.shift, action.source, roll, state.turn), action.choice, game.rules)
    return eff.cost.total()


@pytest.mark.parametrize("key", ALL)
@examples(3)
@given(rolls=st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6)), min_size=1, max_size=2))
def test_tricks_keep_the_optimum(key, rolls):
    game = make_game([key], rolls)
    plain = solve_optimal(game, time_limit=30, options=ModelOptions(tricks=False), prove=False)
    tricked = solve_optimal(game, time_limit=30, options=ModelOptions(tricks=True), prove=False)
    assert plain.status == tricked.status == "optimal"
    assert STAR_WEIGHT * plain.stars + plain.leftover == STAR_WEIGHT * tricked.stars + tricked.leftover


@given(keys=st.permutations(ALL).map(lambda p: p[:3]), rolls=rolls_st, seed=st.integers(0, 10**6))
def test_ordering_finds_an_order_for_every_legal_turn(keys, rolls, seed):
    """Shuffle each legal turn across realms; the engine search must find an order again."""
    game = make_game(keys, rolls)
    line = random_line(game, random.Random(seed), max_actions=5, stop=0.1)
    state = start(game)
    for turn in line.turns:
        per_realm = [[a for a in turn.actions if isinstance(a, Activation) and a.realm == r.key] for r in game.realms]
        comps = [a for a in turn.actions if isinstance(a, Compensation)]
        random.Random(seed).shuffle(per_realm)
        order = order_turn(game, state, per_realm, comps)
        assert order is not None, f"no order found for a legal turn: {[a.text() for a in turn.actions]}"
        for action in turn.actions:
            state = apply_action(game, state, action)
        state = end_turn(game, state, dict(turn.end))


@pytest.mark.parametrize("keys, rolls", [
    (["wingspan", "libertalia"], [(3, 3), (4, 6)]),
    # (wurfelwelten + libertalia over 2 turns also cuts, but its exhaustive search takes ~20 s)
    (["wurfelwelten", "parks"], [(2, 4), (6, 6)]),
])
def test_the_cut_loop_keeps_the_optimum(keys, rolls):
    """Rounds whose order-free optimum has a turn the engine cannot order: the play is cut off
    and the model solved again (solve_with_cuts), and the answer still equals exhaustive search."""
    from solver.playout import exhaustive_best
    from solver.solve import solve_optimal

    game = make_game(keys, rolls)
    best, _ = exhaustive_best(game)
    result = solve_optimal(game, time_limit=30, prove=False)
    assert result.cuts > 0  # the premise: this round exercises the cut loop
    assert result.status == "optimal"
    assert 10 * result.stars + result.leftover == best


def test_a_cut_keeps_the_same_play_with_another_end_choice():
    """A no-good cut pins the end-of-turn choices too: cutting a play must not remove the same
    actions with another Ark Nova outline (that play leads to another sheet)."""
    from ortools.sat.python import cp_model

    from solver.engine import Game, replay
    from solver.line import parse_line_text
    from solver.model import RoundModel
    from solver.realms import get_realm

    game = Game(tuple(get_realm(k) for k in ("ark-nova", "parks", "libertalia")), ((2, 3), (5, 6)))
    body = "turn 1 roll 2 3\n  die1 -> parks trail=3\n  die2 -> libertalia pirate=1 benefit=no\n  end ark-nova column={col}\n"
    body += "turn 2 roll 5 6\n  die1 -> parks trail=2\n  die2 -> ark-nova column=5\n"
    line_a, line_b = (parse_line_text(body.format(col=c)) for c in (2, 3))
    for line in (line_a, line_b):
        replay(game, line)  # both legal
    rm = RoundModel(game)
    play_a = rm.model.new_bool_var("play line a")
    for var, value in rm.line_values(line_a):
        rm.model.add(var == value).only_enforce_if(play_a)
    rm.model.add_assumptions([play_a])
    solver = cp_model.CpSolver()
    assert solver.solve(rm.model) == cp_model.OPTIMAL
    rm.forbid_history(solver, 1)  # as if the engine had found no order for line a's turns
    rm.model.clear_assumptions()
    rm.fix_line(line_b)
    assert cp_model.CpSolver().solve(rm.model) == cp_model.OPTIMAL


def test_a_limit_hit_in_presolve_claims_no_bound():
    """CP-SAT stopped before its search leaves best_objective_bound at 0: never report that as a
    bound (a 9-turn round once said 'bound 0' next to a 15-star line)."""
    from solver.engine import Game
    from solver.model import RoundModel
    from solver.realms import get_realm
    from solver.rolls import load_rolls
    from solver.solve import load_params, make_solver, solve_with_cuts

    game = Game(tuple(get_realm(k) for k in ("wurfelwelten", "parks", "libertalia")), load_rolls("puzzles/examples/round1.txt"))
    rm = RoundModel(game)
    rm.model.maximize(rm.stars)
    solver = make_solver(load_params("optimal"), 0.05, None)
    status, line, bound, _, _ = solver_answer = solve_with_cuts(rm, solver, scale=1)
    assert status == "unknown" and line is None, solver_answer
    assert bound is None


@pytest.mark.parametrize("keys, rolls", [
    (["wurfelwelten", "parks"], [(2, 4), (6, 6)]),
    (["wingspan", "azul"], [(3, 6), (5, 5)]),
])
def test_first_activations_are_paid_together(keys, rolls):
    """The leftover stage's question (most leftover with the optimum's stars): these rounds'
    order-free optima pay two realms' first #s of a turn with a compensation that is legal only
    after both (cut off, solved again); with the realms' first #s paid together
    (ModelOptions.first_activations_paid, RoundModel._first_activations_paid) the model's optimum
    is a legal line at once, and the same optimum as exhaustive search."""
    from solver.model import RoundModel
    from solver.playout import exhaustive_best
    from solver.solve import load_params, make_solver, solve_with_cuts

    game = make_game(keys, rolls)
    best, _ = exhaustive_best(game)
    answers = {}
    for together in (False, True):
        # without compensation's costly rows: with them the first round has no such optimum
        rm = RoundModel(game, ModelOptions(first_activations_paid=together, costly_compensation=False))
        rm.model.add(rm.stars >= best // 10)
        rm.model.maximize(rm.leftover)
        answers[together] = solve_with_cuts(rm, make_solver(load_params("optimal"), 30.0, None), scale=1)
    for done in answers.values():
        assert done.status == "optimal" and done.bound == best % 10
    assert answers[False].cuts > 0 and answers[True].cuts == 0


def test_the_cut_loop_counts_every_solve_and_keeps_the_limit():
    """After a cut the model is solved again within what is left of the limit: the answer counts
    the deterministic time of every solve, and the solver's limit (reported in the answer's
    parameters and certificates) is the one asked, not what was left."""
    from solver.model import RoundModel
    from solver.solve import STAR_WEIGHT, load_params, make_solver, solve_with_cuts

    game = make_game(["wurfelwelten", "parks"], [(2, 4), (6, 6)])
    rm = RoundModel(game, ModelOptions(costly_compensation=False))  # a round with a cut (test_cut_repair)
    rm.model.maximize(STAR_WEIGHT * rm.stars + rm.leftover)
    solver = make_solver(load_params("optimal"), 30.0, None)
    done = solve_with_cuts(rm, solver)
    assert done.cuts > 0 and done.status == "optimal"
    assert done.deterministic_time > solver.deterministic_time  # the last solve's alone is less
    assert solver.parameters.max_deterministic_time == 30.0


def test_only_the_leftover_stage_pays_first_activations_together(monkeypatch):
    """ModelOptions.first_activations_paid is asked where it was measured to help: the models
    of the leftover stage (objective: the resources left), not the star stages."""
    import solver.solve as S
    from solver.resources import KINDS

    seen: list[tuple[bool, bool]] = []
    real = S.solve_with_cuts

    def spy(rm, solver, *args, **kwargs):
        leftover = set(rm.model.proto.objective.vars) == {rm.final_res[K].index for K in KINDS}
        seen.append((leftover, rm.options.first_activations_paid))
        return real(rm, solver, *args, **kwargs)

    monkeypatch.setattr(S, "solve_with_cuts", spy)
    res = S.solve_optimal(make_game(["wurfelwelten", "parks"], [(2, 4), (6, 6)]), time_limit=30, prove=False)
    assert res.status == "optimal"
    assert any(left for left, _ in seen) and any(not left for left, _ in seen)
    assert all(left == together for left, together in seen), seen
