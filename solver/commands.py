"""The library behind the `solve` command line: parse the inputs, ask the question, give exit codes.

cli.py only wires click options to these functions; tests call them directly. Every bad input
becomes an InputError with one line naming the file, line and problem (exit code 2).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from .engine import Game, Replay, replay
from .errors import InputError
from .line import Line, load_line
from .model import ModelOptions
from .parallel import run_all
from .progress import ProgressCallback
from .realms import MODULES, get_realm, is_solvable, resolve_realm_name
from .rolls import load_rolls
from .rules import DEFAULT_RULES, RuleSet
from .solve import RoundResult, solve_optimal, solve_target

#: exit codes of every command that answers a question (README, docs/cli.md)
EXIT_OK = 0  # optimal / reachable / legal / verified
EXIT_NO = 1  # proven unreachable / illegal / not verified
EXIT_INPUT = 2  # bad input
EXIT_UNKNOWN = 3  # a time limit stopped the solver: no answer, never a success

#: realms in one round of the base game
REALMS_PER_ROUND = 3
#: turns in one round of the base game
TURNS_PER_ROUND = 9
#: rounds in a base game
ROUNDS = 3


def realm_keys(text: str | Sequence[str], option: str = "--realms", twice: str = "") -> list[str]:
    """Canonical keys of distinct realms from 'wurfelwelten,parks,libertalia'; an InputError
    names the option (an unknown realm lists the known ones; `twice` explains a repeat)."""
    names = [n.strip() for n in (text.split(",") if isinstance(text, str) else text) if n.strip()]
    keys: list[str] = []
    for name in names:
        try:
            key = resolve_realm_name(name)
        except KeyError as exc:
            raise InputError(f"{option}: {exc.args[0]}") from None
        if key in keys:
            raise InputError(f"{option}: realm {key!r} is named twice{twice}")
        keys.append(key)
    return keys


def parse_realm_list(text: str | Sequence[str]) -> tuple[str, ...]:
    """Canonical keys of exactly three distinct realms, from 'wurfelwelten,parks,libertalia'."""
    keys = realm_keys(text, "--realms", f" (a round has {REALMS_PER_ROUND} different realms)")
    if len(keys) != REALMS_PER_ROUND:
        raise InputError(
            f"--realms: a round has exactly {REALMS_PER_ROUND} realms, got {len(keys)}"
            f" (known: {', '.join(MODULES)})"
        )
    return tuple(keys)


def parse_rule_options(pairs: Sequence[str], base: RuleSet = DEFAULT_RULES) -> RuleSet:
    """A RuleSet from repeated '--option name=value' texts."""
    values: dict[str, str] = {}
    for pair in pairs:
        if "=" not in pair:
            raise InputError(f"--option {pair!r}: expected name=value (see docs/rules-options.md)")
        name, value = pair.split("=", 1)
        values[name.strip()] = value.strip()
    try:
        return base.with_options(values)
    except ValueError as exc:
        raise InputError(f"--option: {exc}") from None


def build_game(realms: str | Sequence[str], rolls_path: str, options: Sequence[str] = ()) -> Game:
    """The round to solve or check: three realms, the rolls file (at most 9 turns), rule options."""
    keys = parse_realm_list(realms)
    rules = parse_rule_options(options)
    rolls = load_rolls(rolls_path, max_turns=TURNS_PER_ROUND)
    return Game(tuple(get_realm(k) for k in keys), rolls, rules)


def require_solver_model(game: Game) -> None:
    """Refuse (as bad input) a round with a realm that has only the engine face, no CP-SAT model."""
    missing = [r.key for r in game.realms if not is_solvable(r)]
    if missing:
        raise InputError(f"--realms: {', '.join(missing)} cannot be solved yet (no CP-SAT model); "
                         "`solve check` checks lines with it")


def load_played(game: Game, path: str) -> Line:
    """The turns already played (`--played`): a line file of the first turns, legal for these
    rolls and realms, shorter than the round or as long; anything else is bad input (exit 2)."""
    line = load_line(path)
    if not line.turns:
        raise InputError(f"{path}: the played line has no turns")
    rep = replay(game, line, partial=True)
    if not rep.legal:
        raise InputError(f"{path}: the played turns are not legal: {rep.error}")
    return line


def solve_round(
    game: Game,
    target: int | None = None,
    time_limit: float | None = None,
    workers: int | None = None,
    progress: ProgressCallback | None = None,
    played: Line | None = None,
    speculate: bool | None = None,
) -> RoundResult:
    """Best line (proven) or, with a target, reachable / unreachable; 'unknown' when a limit hits.
    `played` (from `load_played`): the first turns as played; the answer is about the rest.
    `speculate`: solve_optimal's (False when other rounds are solved at once)."""
    if time_limit is not None and time_limit <= 0:
        raise InputError(f"--time-limit: must be positive, got {time_limit}")
    if workers is not None and workers < 1:
        raise InputError(f"--workers: must be at least 1, got {workers}")
    require_solver_model(game)
    if target is not None:
        if target < 0:
            raise InputError(f"--target: must be 0 or more stars, got {target}")
        return solve_target(game, target, time_limit, workers, options=ModelOptions(played=played), progress=progress)
    return solve_optimal(game, time_limit, workers, options=ModelOptions(played=played), progress=progress,
                         speculate=speculate)


@dataclass(frozen=True)
class CheckResult:
    """A played line replayed by the engine."""

    game: Game
    line: Line
    replay: Replay

    @property
    def status(self) -> str:
        return "legal" if self.replay.legal else "illegal"

    @property
    def exit_code(self) -> int:
        return EXIT_OK if self.replay.legal else EXIT_NO


def check_line(game: Game, line_path: str) -> CheckResult:
    """Replay a line file (text or JSON) against the game; the first illegal step is reported."""
    line = load_line(line_path)  # a missing or binary file is an InputError (solver/textfile.py)
    return CheckResult(game, line, replay(game, line))


@dataclass(frozen=True)
class GameResult:
    """A full game: three independent rounds (resources reset between rounds)."""

    rounds: tuple[tuple[Game, RoundResult], ...]

    @property
    def status(self) -> str:
        statuses = {r.status for _, r in self.rounds}
        return "optimal" if statuses == {"optimal"} else "unknown"

    @property
    def exit_code(self) -> int:
        return EXIT_OK if self.status == "optimal" else 3

    @property
    def stars(self) -> int | None:
        vals = [r.stars for _, r in self.rounds]
        return None if any(v is None for v in vals) else sum(vals)  # type: ignore[arg-type]

    @property
    def leftover(self) -> int | None:
        vals = [r.leftover for _, r in self.rounds]
        return None if any(v is None for v in vals) else sum(vals)  # type: ignore[arg-type]

    @property
    def star_bound(self) -> int | None:
        vals = [r.star_bound for _, r in self.rounds]
        return None if any(v is None for v in vals) else sum(vals)  # type: ignore[arg-type]


def build_full_game(realms: str | Sequence[str], rolls_path: str, options: Sequence[str] = ()) -> list[Game]:
    """A base game: 9 realms (3 per round, in round order) and 27 turns of rolls (9 per round)."""
    names = [n.strip() for n in (realms.split(",") if isinstance(realms, str) else realms) if n.strip()]
    if len(names) != ROUNDS * REALMS_PER_ROUND:
        raise InputError(f"--realms: a game has {ROUNDS} rounds of {REALMS_PER_ROUND} realms: name {ROUNDS * REALMS_PER_ROUND}, got {len(names)}")
    rules = parse_rule_options(options)
    rolls = load_rolls(rolls_path, max_turns=ROUNDS * TURNS_PER_ROUND)
    if len(rolls) != ROUNDS * TURNS_PER_ROUND:
        raise InputError(f"{rolls_path}: a game has {ROUNDS * TURNS_PER_ROUND} turns ({ROUNDS} rounds of {TURNS_PER_ROUND}), the file has {len(rolls)}")
    games = []
    for i in range(ROUNDS):
        keys = parse_realm_list(names[i * REALMS_PER_ROUND:(i + 1) * REALMS_PER_ROUND])
        part = rolls[i * TURNS_PER_ROUND:(i + 1) * TURNS_PER_ROUND]
        games.append(Game(tuple(get_realm(k) for k in keys), part, rules))
    return games


def _round_progress(progress: ProgressCallback | None, i: int, n: int) -> ProgressCallback | None:
    """Round i's progress in a game solved one round at a time: its stage names the round."""
    if progress is None or n <= 1:
        return progress
    return lambda best, bound, stage: progress(best, bound, f"round {i + 1}/{n} · {stage}")


def solve_game(games: Sequence[Game], time_limit: float | None = None, workers: int | None = None,
               progress: ProgressCallback | None = None, jobs: int = 1,
               rounds_done: Callable[[int, int], None] | None = None) -> GameResult:
    """Each round's best line; rounds share nothing (resources reset), so the game's optimum is
    the sum of the rounds' optima. With `jobs` > 1 that many rounds are solved at once, each in
    its own process exactly as alone (solver/parallel.py: the same answers; only the wall time
    changes): `progress` (one round's best, bound and stage, the stage naming the round) is then
    not called; `rounds_done(k, n)` is."""
    for game in games:
        require_solver_model(game)
    one_at_a_time = jobs == 1 or len(games) <= 1
    # rounds solved at once already share the cores: no speculative solves then (solver/speculate.py)
    speculate = None if one_at_a_time else False
    results = run_all(solve_round, [(game, None, time_limit, workers,
                                     _round_progress(progress, i, len(games)) if one_at_a_time else None, None, speculate)
                                    for i, game in enumerate(games)], jobs, rounds_done)
    return GameResult(tuple(zip(games, results)))
