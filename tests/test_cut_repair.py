"""A cut optimum repaired near the cut play (solver/cut_repair.py) keeps the optimum and the model."""
from __future__ import annotations

import pytest

import solver.solve as S
from solver.cut_repair import CutRepair, solve_pinned
from solver.engine import replay
from solver.model import ModelOptions, RoundModel
from solver.solve import STAR_WEIGHT, load_params, make_solver, solve_with_cuts

from conftest import make_game

#: a round whose order-free optimum is cut twice by the plain cut loop, in the model without
#: compensation's costly rows (`costly_compensation`; with them this round needs no cut)
KEYS, ROLLS = ["wurfelwelten", "parks"], [(2, 4), (6, 6)]
LOOSE = ModelOptions(costly_compensation=False)


def _answer(repair: CutRepair | None, monkeypatch: pytest.MonkeyPatch, steps: list[int]) -> S.CutSolve:
    def counted(*args, **kwargs):
        steps.append(1)
        return solve_pinned(*args, **kwargs)

    monkeypatch.setattr(S, "solve_pinned", counted)
    rm = RoundModel(make_game(KEYS, ROLLS), LOOSE)
    rm.model.maximize(STAR_WEIGHT * rm.stars + rm.leftover)
    return solve_with_cuts(rm, make_solver(load_params("optimal"), 30.0, None), repair=repair)


def test_a_cut_optimum_is_repaired_with_the_first_turns_pinned(monkeypatch):
    """The plain loop cuts this round's optimum twice; with repair, the pinned solve after the
    first cut finds a legal line at the first solve's bound, and the answer is the same optimum."""
    plain_steps: list[int] = []
    plain = _answer(None, monkeypatch, plain_steps)
    assert plain.status == "optimal" and plain.cuts == 2 and not plain_steps
    steps: list[int] = []
    repaired = _answer(CutRepair(after=0.0, budget=2.0, free_turns=(0, 1)), monkeypatch, steps)
    assert repaired.status == "optimal" and repaired.cuts == 1 and steps
    assert repaired.bound == plain.bound
    rep = replay(make_game(KEYS, ROLLS), repaired.line)
    assert STAR_WEIGHT * rep.stars_total + rep.final.resources.total() == repaired.bound


def test_no_repair_after_a_cheaper_solve_than_asked(monkeypatch):
    """`after`: a solve cheaper than that is simply asked again, as without repair."""
    steps: list[int] = []
    answer = _answer(CutRepair(after=1000.0, budget=2.0, free_turns=(0, 1)), monkeypatch, steps)
    assert answer.cuts == 2 and not steps


def test_a_pinned_solve_leaves_the_model_s_hint_and_assumptions_as_they_were():
    rm = RoundModel(make_game(KEYS, ROLLS), LOOSE)
    rm.model.maximize(rm.stars)
    first = rm.model.get_int_var_from_proto_index(0)
    rm.model.add_hint(first, 1)
    before = (list(rm.model.proto.solution_hint.vars), list(rm.model.proto.solution_hint.values))
    values = [0] * len(rm.model.proto.variables)
    solver = make_solver(load_params("optimal"), 1.0, None)
    solve_pinned(rm, solver, values, [first], 1.0, S._LineKeeper(rm, None))
    assert (list(rm.model.proto.solution_hint.vars), list(rm.model.proto.solution_hint.values)) == before
    assert not list(rm.model.proto.assumptions)


def test_the_round_settings_ask_repair_and_a_zero_budget_turns_it_off():
    repair = CutRepair.from_params(load_params("optimal"))
    assert repair is not None and repair.budget > 0 and repair.free_turns
    assert CutRepair.from_params({"cut_repair_deterministic_time": 0}) is None
