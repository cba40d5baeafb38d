"""Shared test helpers: build games, accept lines in the model, solve small rounds."""
from __future__ import annotations

import os
from dataclasses import replace

from hypothesis import HealthCheck, settings
from ortools.sat.python import cp_model

from solver.engine import Game, replay
from solver.line import Line
from solver.model import ModelOptions, RoundModel
from solver.realms import get_realm
from solver.rules import RuleSet

settings.register_profile("ci", max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def make_game(keys, rolls, rules: RuleSet | None = None) -> Game:
    return Game(tuple(get_realm(k) for k in keys), tuple(rolls), rules or RuleSet())


def model_score_of_line(game: Game, line: Line, options: ModelOptions | None = None) -> tuple[str, int | None, int | None]:
    """Fix a line's decisions in the model (no tricks) and read back stars and leftover. The
    model has the rows that only help an LP too (`lp_rows`; redundant rows must keep every legal
    line, and a model with more rows accepting it means the one without them does). `options`:
    another model's (its `extras` and `tricks` are set here)."""
    most = max([len(t.actions) for t in line.turns] + [1])
    base = options if options is not None else ModelOptions(lp_rows=True)
    rm = RoundModel(game, replace(base, tricks=False, extras=most))
    rm.fix_line(line)
    rm.model.maximize(1000 * rm.stars + rm.leftover)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = 60
    status = solver.solve(rm.model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return solver.status_name(status), None, None
    return solver.status_name(status), sum(solver.value(s) for s in rm.realm_stars), int(solver.value(rm.leftover))


def engine_score(game: Game, line: Line) -> tuple[int, int]:
    rep = replay(game, line)
    assert rep.legal, rep.error
    return rep.stars_total, rep.final.resources.total()


def examples(n: int):
    """Per-test example count for the CI profile (solver calls are costly); the 'thorough'
    profile keeps its own larger count."""
    if os.environ.get("HYPOTHESIS_PROFILE", "ci") == "ci":
        return settings(max_examples=n, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    return lambda f: f
