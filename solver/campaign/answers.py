"""What the campaign solvers' answers share (chapters 1-4): the status words and exit codes, the
sums over a ladder of "won at turn W?" questions, and the checks of the solver's options."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from ..errors import InputError
from ..realms import get_realm, is_solvable

Progress = Callable[[str], None]


def exit_code_of(status: str) -> int:
    """0 a win found, 1 proven impossible, 3 unknown (the time limit)."""
    return {"won": 0, "impossible": 1}.get(status, 3)


def combined_status(statuses: list[str]) -> str:
    """Several questions together: won if any wins, impossible only if every one is proven so."""
    if "won" in statuses:
        return "won"
    return "impossible" if all(st == "impossible" for st in statuses) else "unknown"


class TurnLadder:
    """An answer made of questions "won at turn W?" (`questions`, each with `turn`, `status`,
    `cuts`, `deterministic_time`) and a `status` of its own."""

    questions: list[Any]
    status: str

    @property
    def proven_impossible(self) -> list[int]:
        """The turn counts proven impossible (INFEASIBLE, cuts included)."""
        return [q.turn for q in self.questions if q.status == "impossible"]

    @property
    def deterministic_time(self) -> float:
        return sum(q.deterministic_time for q in self.questions)

    @property
    def cuts(self) -> int:
        return sum(q.cuts for q in self.questions)

    @property
    def exit_code(self) -> int:
        return exit_code_of(self.status)


class SetupChoice:
    """An answer over several candidate setups (`candidates`, each with a `status`): won if any
    wins, impossible only if every one is proven impossible."""

    candidates: list[Any]

    @property
    def status(self) -> str:
        return combined_status([c.status for c in self.candidates])

    @property
    def exit_code(self) -> int:
        return exit_code_of(self.status)


def check_solver_inputs(time_limit: float | None, workers: int | None, fixed: str | None, fleet: str | None,
                        drawn: str | None, *, fixed_option: str, fixed_text: str, fleet_text: str, chosen_text: str) -> None:
    """The options every chapter solver takes: a positive limit, at least one worker, and either
    the setup (`fixed_option`, e.g. --realms) or --fleet with --drawn. InputError (exit 2) names
    the option."""
    if time_limit is not None and time_limit <= 0:
        raise InputError(f"--time-limit: must be positive, got {time_limit}")
    if workers is not None and workers < 1:
        raise InputError(f"--workers: must be at least 1, got {workers}")
    if (fleet is None) != (drawn is None):
        raise InputError(f"--fleet and --drawn go together ({fleet_text})")
    if fleet is not None and fixed is not None:
        raise InputError(f"give either {fixed_option} ({fixed_text}) or --fleet/--drawn (the solver chooses {chosen_text}), not both")
    if fleet is None and fixed is None:
        raise InputError(f"missing {fixed_option} (or --fleet and --drawn)")


def parse_fleet(fleet: str | Sequence[str], drawn: str | Sequence[str], *, chapter: int, size: int, draws: int,
                excluded: Callable[[str], str | None] = lambda key: None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The fleet (`size` different realms, none `excluded` by the chapter: the function gives the
    reason) and the `draws` realms drawn from it, each with a CP-SAT model; InputError naming the
    option."""
    from ..commands import realm_keys

    f = realm_keys(fleet, "--fleet")
    if len(f) != size:
        raise InputError(f"--fleet: the fleet has {size} realms, got {len(f)}")
    for k in f:
        why = excluded(k)
        if why is not None:
            raise InputError(f"--fleet: {why}")
    d = realm_keys(drawn, "--drawn")
    if len(d) != draws:
        raise InputError(f"--drawn: chapter {chapter} draws {draws} realm{'s' if draws != 1 else ''} from the fleet, got {len(d)}")
    for k in d:
        if k not in f:
            raise InputError(f"--drawn: {k} is not in the fleet ({', '.join(f)})")
        if not is_solvable(get_realm(k)):
            raise InputError(f"--drawn: {k} cannot be solved yet (no CP-SAT model)")
    return tuple(f), tuple(d)
