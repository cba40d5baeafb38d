"""CP-SAT layered model (solver/pentaquest/cpsat.py) vs the memoised DFS: same status and score."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from ortools.sat.python import cp_model

from solver.pentaquest import check, load_deck, load_default_deck, solve
from solver.pentaquest.cpsat import build_model, solve_cpsat
from solver.pentaquest.deck import Deck
from solver.pentaquest.engine import Game
from solver.pentaquest.stream import load_stream

EX = Path(__file__).resolve().parents[2] / "puzzles" / "examples" / "pentaquest"


def instance(n: int, seed: int) -> tuple[Deck, tuple[int, ...]]:
    """Same generator as bench/pentaquest_cpsat.py (defaults): n sampled cards, 5n+3 values."""
    rng = random.Random(seed * 1000 + n)
    cards = tuple(rng.sample(load_default_deck().cards, n))
    return Deck(cards, f"default[{n}] seed {seed}"), tuple(rng.randint(1, 6) for _ in range(5 * n + 3))


# (cards, seed) -> DFS answer at the time of writing, to show the mix the test covers:
# wins needing 1-3 army cards and proven-unwinnable games.
CASES = [(3, 0), (3, 1), (4, 2), (4, 4), (4, 7), (5, 4), (5, 7)]


def _dfs(deck: Deck, stream: tuple[int, ...]) -> tuple[str, int | None]:
    r = solve(deck, stream, time_limit=60)
    assert r.status in ("optimal", "unreachable")
    return r.status, (r.score if r.status == "optimal" else None)


def _cpsat(deck: Deck, stream: tuple[int, ...]):  # type: ignore[no-untyped-def]
    c = solve_cpsat(Game(deck, stream), time_limit=60)
    assert c.status in ("optimal", "unreachable")
    return c


def test_small_example_same_optimum() -> None:
    deck = load_deck(EX / "small_deck.txt")
    stream = load_stream(EX / "small_stream.txt")
    c = _cpsat(deck, stream)
    assert (c.status, c.score) == _dfs(deck, stream) == ("optimal", 5)


@pytest.mark.parametrize("n,seed", CASES)
def test_cpsat_equals_dfs(n: int, seed: int) -> None:
    deck, stream = instance(n, seed)
    c = _cpsat(deck, stream)
    assert (c.status, c.score) == _dfs(deck, stream)
    if c.status == "optimal":
        # the decoded line is legal for the checker and scores what CP-SAT claims
        res = check(deck, stream, c.line)
        assert res.legal and res.won and res.score == c.score


def test_cases_cover_army_use_and_unwinnable() -> None:
    """The comparison is not vacuous: some optima need army cards, some games cannot be won."""
    answers = [_dfs(*instance(n, s)) for n, s in CASES]
    assert any(st == "unreachable" for st, _ in answers)
    assert any(st == "optimal" and sc is not None and sc < n for (st, sc), (n, _) in zip(answers, CASES))


def test_army_cap_zero_model_is_infeasible_when_army_needed() -> None:
    """Sensitivity: forbidding army uses makes a game that needs them infeasible in the model."""
    deck, stream = instance(4, 7)  # optimum 1: three army uses needed
    model, _ = build_model(Game(deck, stream), cap=0)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = 30
    assert solver.solve(model) == cp_model.INFEASIBLE
    model, _ = build_model(Game(deck, stream), cap=3)
    assert solver.solve(model) == cp_model.OPTIMAL
