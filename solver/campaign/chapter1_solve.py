"""Solving campaign chapter 1 with the CP-SAT round model (docs/campaign-solving.md).

The round model (solver/model.py) is a relaxation of the base rules; this module adds chapter 1's
rules (seed 003; solver/campaign/chapter1.py is the judge) as constraints, each a *sound
relaxation* of the checker's rule, so every winning line is still a solution of the model:

- every rolled die is used exactly once each turn (a # that cannot be used loses, and one that
  could be used but is not is illegal, so a winning line uses both dice of every turn);
- pumpkins change only # from the sources `die`, `copy-pair`, `copy`;
- at most 3 pumpkins per activation (no ±2 change; option: card costs in pumpkins count too);
- no 3-pumpkin ±1 into a realm's first activation of the turn (2 pumpkins suffice there);
- no 3-heart `copy` on a pair (the 2-heart `copy-pair` suffices);
- at the last turn of the rolls: ≥ 2 stars in every realm, star total in the target, unspent
  resources ≤ the difficulty's limit.

A solution is ordered by the engine (solve.decode_line; a turn with no legal order is cut off as
in solve.solve_with_cuts) and the line is then replayed by `check_chapter1`: it is returned only
when the checker says won. A line the checker does not call won is a disagreement between the
model and the checker (ModelDisagreement), never an answer. INFEASIBLE (cuts included) proves
that no line wins.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ortools.sat.python import cp_model

from ..engine import Game, Replay, replay
from ..errors import InputError
from ..line import Line, Source
from ..mip_hint import hint_from_highs
from ..model import ModelOptions, RoundModel
from ..parallel import check_jobs, default_jobs, run_all
from ..realms import get_realm, is_solvable
from ..solve import MAX_CUTS, ModelDisagreement, decode_line, effective_params, load_params, make_solver
from . import answers
from .answers import Progress, SetupChoice, check_solver_inputs, combined_status, exit_code_of
from .chapter1 import MAX_PUMPKINS, PUMPKIN_SOURCES, Chapter1, Chapter1Verdict, check_chapter1

#: a realm holds at least this many stars in a winning line
MIN_STARS_PER_REALM = 2
#: realms in the fleet (seed 003, campaign setup) and realms drawn from it in chapter 1
FLEET_SIZE = 5
DRAWN = 2



# ---- the model ---------------------------------------------------------------------------------

def all_dice_used(rm: RoundModel, setup: Chapter1) -> None:
    """Every rolled die is used exactly once each turn: a # that cannot be used loses, one that
    could be used but is not makes the line illegal (compensation is off in the chapter's game)."""
    for t in range(rm.game.turns):
        for k in (0, 1):
            rm.model.add(sum(e.use[Source("die", k)] for evs in rm.events for e in evs if e.t == t) == 1)


def pumpkins_on_dice_and_heart_copies(rm: RoundModel, setup: Chapter1) -> None:
    """Pumpkins change only a rolled die or a heart copy (sources die, copy-pair, copy); a
    created # or a coin copy is never changed."""
    rm.require_change_literals()
    for e in _events(rm):
        changed = [x for (b, v, extra), x in e.num.items() if extra or v != b]
        for src, lit in e.use.items():
            if src.kind not in PUMPKIN_SOURCES:
                rm.model.add(sum(changed) + lit <= 1)


def at_most_three_pumpkins(rm: RoundModel, setup: Chapter1) -> None:
    """At most 3 pumpkins per activation: no ±2 (4 pumpkins) or more. With the reading option
    `limit_counts_card_costs`, pumpkins the realm card asks for count too."""
    rm.require_change_literals()
    for enc in rm.encoders:
        for e in enc.events:
            for (b, v, extra), x in e.num.items():
                if not extra and 2 * abs(v - b) > MAX_PUMPKINS:
                    rm.model.add(x == 0)
            if setup.limit_counts_card_costs:
                rm.model.add(e.pumpkins + enc.cost.get(e.index, {}).get("P", 0) <= MAX_PUMPKINS)


def no_extra_into_first_activation(rm: RoundModel, setup: Chapter1) -> None:
    """No 3-pumpkin ±1 into a realm not yet activated this turn (2 pumpkins suffice there): a
    realm's first event of a turn never uses the 3-pumpkin power (its later events must)."""
    for enc in rm.encoders:
        for t in range(rm.game.turns):
            evs = enc.turn_events(t)
            if evs:
                rm.model.add(evs[0].extra == 0)


def no_three_hearts_on_pair(rm: RoundModel, setup: Chapter1) -> None:
    """No 3-heart copy on a pair, where the 2-heart pair copy suffices."""
    for e in _events(rm):
        roll = rm.game.rolls[e.t]
        if roll[0] == roll[1]:
            for src, lit in e.use.items():
                if src.kind == "copy":
                    rm.model.add(lit == 0)


def two_stars_per_realm(rm: RoundModel, setup: Chapter1) -> None:
    """Win: at least 2 stars in every realm after the last turn."""
    for s in rm.realm_stars:
        rm.model.add(s >= MIN_STARS_PER_REALM)


def star_total_in_target(rm: RoundModel, setup: Chapter1) -> None:
    """Win: the star total (resources excluded) is the outlined circle (a number or a range)."""
    lo, hi = setup.target_range
    rm.model.add(rm.stars >= lo)
    rm.model.add(rm.stars <= hi)


def unspent_within_limit(rm: RoundModel, setup: Chapter1) -> None:
    """Win: at most 4 (easy 5, hard 3) unspent resources after the last turn."""
    rm.model.add(rm.leftover <= setup.max_unspent)


#: chapter 1's rules as constraints, each a sound relaxation of the checker's rule (tests drop
#: them one by one: each has an instance whose only 'win' breaks it)
CHAPTER1_RULES: tuple[Callable[[RoundModel, Chapter1], None], ...] = (
    all_dice_used,
    pumpkins_on_dice_and_heart_copies,
    at_most_three_pumpkins,
    no_extra_into_first_activation,
    no_three_hearts_on_pair,
    two_stars_per_realm,
    star_total_in_target,
    unspent_within_limit,
)


def _events(rm: RoundModel) -> list[Any]:
    return [e for evs in rm.events for e in evs]


def add_chapter1_rules(rm: RoundModel, setup: Chapter1, rules: Sequence[Callable[[RoundModel, Chapter1], None]] = CHAPTER1_RULES) -> None:
    """Chapter 1's rules as constraints on the round model (docs/campaign-solving.md has the
    table rule | constraint). `rules` is for tests that drop one."""
    for rule in rules:
        rule(rm, setup)


def build_chapter1(setup: Chapter1, rolls: Sequence[tuple[int, int]], options: ModelOptions = ModelOptions(),
                   rules: Sequence[Callable[[RoundModel, Chapter1], None]] = CHAPTER1_RULES) -> RoundModel:
    """The round model of the chapter's game (compensation off) with the chapter's rules added."""
    rm = RoundModel(setup.game(tuple(rolls)), options)
    add_chapter1_rules(rm, setup, rules)
    return rm


# ---- answers -----------------------------------------------------------------------------------

@dataclass
class Chapter1Result:
    """The answer to "can these rolls win chapter 1 with this setup?", with what is needed to trust it.

    status: "won" (line found, replayed by check_chapter1: won), "impossible" (proven: the model
    with the chapter's rules, cuts included, is INFEASIBLE), "unknown" (the time limit hit)."""

    setup: Chapter1
    rolls: tuple[tuple[int, int], ...]
    status: str
    line: Line | None = None
    verdict: Chapter1Verdict | None = None
    replay: Replay | None = None
    solve_time: float = 0.0
    deterministic_time: float = 0.0
    #: plays cut off because the engine found no legal order for them
    cuts: int = 0
    #: 3-pumpkin activations per realm and turn the model allows (its proven bound)
    extras: list[int] = field(default_factory=list)
    params: dict[str, Any] = field(default_factory=dict)
    proof: dict[str, Any] | None = None
    #: HiGHS's status when its MIP solution was asked as CP-SAT's start (solver/mip_hint.py)
    mip_hint: str | None = None

    @property
    def turns(self) -> int:
        return len(self.rolls)

    @property
    def stars(self) -> int | None:
        return sum(self.verdict.stars) if self.verdict is not None else None

    @property
    def exit_code(self) -> int:
        return exit_code_of(self.status)

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "status": self.status,
            "realms": list(self.setup.realms),
            "target": self.setup.target_text(),
            "difficulty": self.setup.difficulty,
            "limit_counts_card_costs": self.setup.limit_counts_card_costs,
            "turns": self.turns,
            "solve_time": round(self.solve_time, 3),
            "deterministic_time": round(self.deterministic_time, 3),
            "cuts": self.cuts,
            "extras": self.extras,
            "params": self.params,
            "proof": self.proof,
            "mip_hint": self.mip_hint,
            "line": None,
        }
        if self.line is not None and self.verdict is not None:
            out["line"] = self.line.to_json()
            out["line_text"] = self.line.to_text()
            out["verdict"] = {"outcome": self.verdict.outcome, "turn": self.verdict.turn, "reason": self.verdict.reason}
            out["stars"] = list(self.verdict.stars)
            out["unspent"] = self.verdict.unspent
        return out


def _checked(game: Game, setup: Chapter1, line: Line) -> Chapter1Verdict:
    """The checker's verdict on a model line; anything but won is a disagreement (a bug)."""
    verdict = check_chapter1(game, setup, line)
    if not verdict.won:
        raise ModelDisagreement(
            f"chapter 1 checker says {verdict.outcome} at turn {verdict.turn} ({verdict.reason}) "
            f"for a line the model calls a win:\n{line.to_text()}"
        )
    return verdict


def _run(rm: RoundModel, setup: Chapter1, solver: cp_model.CpSolver) -> tuple[str, Line | None, int | None, int, float]:
    """Solve with cuts until a won line, a proof, or the limit.

    Returns (status, line, objective bound, cuts, deterministic time): status 'won' (with the
    objective proven when the model has one and `solver` said OPTIMAL: the bound is then the
    line's value), 'won-unproven' (a won line, objective not proven), 'impossible', 'unknown'.
    A solution the engine cannot order has that exact play cut off (solve.py's rule)."""
    game = rm.game
    budget = solver.parameters.max_deterministic_time
    spent = 0.0
    cuts = 0
    bound: int | None = None
    has_objective = rm.model.has_objective()
    while True:
        status = solver.solve(rm.model)
        spent += solver.deterministic_time
        if status == cp_model.INFEASIBLE:
            return "impossible", None, bound, cuts, spent
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return "unknown", None, bound, cuts, spent
        if has_objective:
            b = int(round(solver.best_objective_bound))
            bound = b if bound is None else min(bound, b)
        found = decode_line(rm, solver)
        if isinstance(found, Line):
            _checked(game, setup, found)
            proven = not has_objective or status == cp_model.OPTIMAL
            return ("won" if proven else "won-unproven"), found, bound, cuts, spent
        cuts += 1
        if cuts > MAX_CUTS or (budget and spent >= budget):
            return "unknown", None, bound, cuts, spent
        rm.forbid_history(solver, found)
        if budget:
            solver.parameters.max_deterministic_time = max(0.1, budget - spent)


def solve_chapter1(
    setup: Chapter1,
    rolls: Sequence[tuple[int, int]],
    time_limit: float | None = None,
    workers: int | None = None,
    options: ModelOptions = ModelOptions(),
) -> Chapter1Result:
    """Can these rolls win chapter 1 with this setup (its target)? won / impossible / unknown."""
    rolls = tuple(tuple(r) for r in rolls)  # type: ignore[misc]
    params = load_params("target")
    t0 = time.perf_counter()
    rm = build_chapter1(setup, rolls, options)
    solver = make_solver(params, time_limit, workers)
    # HiGHS's first solution as CP-SAT's start (a line finder: it proves nothing)
    hint = hint_from_highs(rm.model, rm.stars, params, solver.parameters.max_deterministic_time, first_solution=True)
    status, line, _, cuts, det = _run(rm, setup, solver)
    result = Chapter1Result(setup, rolls, status if status != "won-unproven" else "won", cuts=cuts,
                            extras=list(rm.extras), params=effective_params(solver), deterministic_time=det,
                            mip_hint=hint)
    if line is not None:
        result.line = line
        result.verdict = check_chapter1(rm.game, setup, line)
        result.replay = replay(rm.game, line)
    elif status == "impossible":
        lo, hi = setup.target_range
        result.proof = {"question": f"chapter 1 win with {lo}..{hi} stars", "status": "INFEASIBLE", "cuts": cuts,
                        "deterministic_time": det}
    result.solve_time = time.perf_counter() - t0
    return result


# ---- without a target: every star total that can win -----------------------------------------

@dataclass
class TotalRow:
    """One star total: won (line), impossible (how proven) or unknown."""

    total: int
    status: str
    how: str
    result: Chapter1Result | None = None


@dataclass
class WinTable:
    """Every star total 0..18 and whether it can win with these rolls (each total a question)."""

    realms: tuple[str, str, str]
    difficulty: str
    rolls: tuple[tuple[int, int], ...]
    rows: list[TotalRow]
    solve_time: float = 0.0

    @property
    def turns(self) -> int:
        return len(self.rolls)

    @property
    def winning(self) -> list[int]:
        return [r.total for r in self.rows if r.status == "won"]

    @property
    def status(self) -> str:
        return combined_status([r.status for r in self.rows])

    @property
    def exit_code(self) -> int:
        return exit_code_of(self.status)

    def as_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "realms": list(self.realms),
            "difficulty": self.difficulty,
            "turns": self.turns,
            "winning_totals": self.winning,
            "totals": [{"total": r.total, "status": r.status, "how": r.how,
                        "line": r.result.line.to_json() if r.result and r.result.line else None} for r in self.rows],
            "solve_time": round(self.solve_time, 3),
        }


def win_table(
    realms: Sequence[str],
    rolls: Sequence[tuple[int, int]],
    difficulty: str = "normal",
    time_limit: float | None = None,
    workers: int | None = None,
    options: ModelOptions = ModelOptions(),
    progress: Progress | None = None,
    limit_counts_card_costs: bool = False,
) -> WinTable:
    """Every star total that can win: first the most stars of any win (a maximisation whose
    proven bound rules out every higher total at once), then each lower total as its own
    feasibility question. Totals below 3 × 2 and above 3 × the star cap are impossible by the
    rules (every realm ≥ 2 stars, at most the cap); they are listed as such."""
    rolls = tuple(tuple(r) for r in rolls)  # type: ignore[misc]
    t0 = time.perf_counter()
    say = progress or (lambda _msg: None)
    base = Chapter1(tuple(realms), (0, 0), difficulty, turns=len(rolls),  # type: ignore[arg-type]
                    limit_counts_card_costs=limit_counts_card_costs)
    cap = base.game(rolls).rules.star_cap
    lo_all, hi_all = MIN_STARS_PER_REALM * 3, cap * 3
    rows: dict[int, TotalRow] = {}
    for s in range(0, lo_all):
        rows[s] = TotalRow(s, "impossible", f"by the rules: every realm needs ≥ {MIN_STARS_PER_REALM} stars")
    # 1. the most stars of any winning line
    setup = _with_target(base, (lo_all, hi_all))
    rm = build_chapter1(setup, rolls, options)
    rm.model.maximize(rm.stars)
    params = load_params("target")
    solver = make_solver(params, time_limit, workers)
    say(f"chapter 1: most stars of any win ({lo_all}..{hi_all}) …")
    status, line, bound, cuts, det = _run(rm, setup, solver)
    top = hi_all
    if status == "impossible":
        for s in range(lo_all, hi_all + 1):
            rows[s] = TotalRow(s, "impossible", "no total wins: the model with the win rules is INFEASIBLE")
        top = lo_all - 1
    elif line is not None:
        best = sum(check_chapter1(rm.game, setup, line).stars)
        exact = _with_target(base, best)
        verdict = _checked(rm.game, exact, line)
        res = Chapter1Result(exact, rolls, "won", line, verdict, replay(rm.game, line),
                             cuts=cuts, extras=list(rm.extras), params=effective_params(solver), deterministic_time=det)
        rows[best] = TotalRow(best, "won", "line found (most stars of any win)", res)
        if status == "won" and bound is not None:
            top = bound
            for s in range(bound + 1, hi_all + 1):
                rows[s] = TotalRow(s, "impossible", f"the most stars of any win is {bound} (proven: maximisation optimal)")
        elif bound is not None:
            top = bound
            for s in range(bound + 1, hi_all + 1):
                rows[s] = TotalRow(s, "impossible", f"above the proven bound {bound} on the stars of any win")
    elif bound is not None:
        top = min(top, bound)
        for s in range(bound + 1, hi_all + 1):
            rows[s] = TotalRow(s, "impossible", f"above the proven bound {bound} on the stars of any win")
    say(f"chapter 1: most stars of any win: {status} ({time.perf_counter() - t0:.1f} s)")
    # 2. each remaining total, its own question
    for s in range(lo_all, hi_all + 1):
        if s in rows:
            continue
        if s > top:
            continue
        res = solve_chapter1(_with_target(base, s), rolls, time_limit, workers, options)
        how = {"won": "line found", "impossible": "proven: INFEASIBLE", "unknown": "time limit: not decided"}[res.status]
        rows[s] = TotalRow(s, res.status, how, res)
        say(f"chapter 1: total {s}: {res.status} ({res.solve_time:.1f} s)")
    for s in range(lo_all, hi_all + 1):
        rows.setdefault(s, TotalRow(s, "unknown", "time limit: not decided"))
    return WinTable(base.realms, difficulty, rolls, [rows[s] for s in sorted(rows)], time.perf_counter() - t0)


def _with_target(setup: Chapter1, target: int | tuple[int, int]) -> Chapter1:
    return Chapter1(setup.realms, target, setup.difficulty, setup.turns, setup.limit_counts_card_costs)


# ---- setup choice: the third realm from the fleet --------------------------------------------

@dataclass
class Candidate:
    realms: tuple[str, str, str]
    status: str  # won | impossible | unknown | unsolvable
    answer: Chapter1Result | WinTable | None = None
    note: str = ""

    @property
    def third(self) -> str:
        return self.realms[2]


@dataclass
class FleetResult(SetupChoice):
    """Each choice of the third realm, its status, and the best setup (a winning one if any)."""

    fleet: tuple[str, ...]
    drawn: tuple[str, str]
    candidates: list[Candidate]
    target: str | None
    difficulty: str
    turns: int
    solve_time: float = 0.0

    @property
    def best(self) -> Candidate | None:
        """A winning candidate (the one with the most winning totals without a target, the most
        stars with one; ties: fleet order); None when none wins."""
        won = [c for c in self.candidates if c.status == "won"]
        if not won:
            return None

        def key(c: Candidate) -> tuple[int, int]:
            a = c.answer
            if isinstance(a, WinTable):
                return (len(a.winning), max(a.winning))
            assert isinstance(a, Chapter1Result)
            return (1, a.stars or 0)

        return max(won, key=key)

    def as_json(self) -> dict[str, Any]:
        best = self.best
        return {
            "status": self.status,
            "fleet": list(self.fleet),
            "drawn": list(self.drawn),
            "target": self.target,
            "difficulty": self.difficulty,
            "turns": self.turns,
            "order_note": ORDER_NOTE,
            "candidates": [{"third": c.third, "realms": list(c.realms), "status": c.status, "note": c.note,
                            "answer": c.answer.as_json() if c.answer is not None else None} for c in self.candidates],
            "best": list(best.realms) if best else None,
            "solve_time": round(self.solve_time, 3),
        }


ORDER_NOTE = ("realm order has no rule effect in chapter 1 (no chapter rule looks at positions), "
              "so each choice of the third realm is solved once, in the order drawn, drawn, chosen")


def parse_fleet(fleet: str | Sequence[str], drawn: str | Sequence[str]) -> tuple[tuple[str, ...], tuple[str, str]]:
    """The fleet (5 different realms) and the 2 drawn from it; InputError naming the option."""
    f, d = answers.parse_fleet(fleet, drawn, chapter=1, size=FLEET_SIZE, draws=DRAWN)
    return f, (d[0], d[1])


def third_realm_answer(realms: tuple[str, str, str], rolls: tuple[tuple[int, int], ...],
                       target: int | tuple[int, int] | None, difficulty: str, time_limit: float | None,
                       workers: int | None, options: ModelOptions, progress: Progress | None,
                       limit_counts_card_costs: bool) -> "Chapter1Result | WinTable":
    """One fleet candidate's answer: with a target, can it win; without, which totals can win."""
    if target is None:
        return win_table(realms, rolls, difficulty, time_limit, workers, options, progress, limit_counts_card_costs)
    return solve_chapter1(Chapter1(realms, target, difficulty, len(rolls), limit_counts_card_costs),
                          rolls, time_limit, workers, options)


def choose_setup(
    fleet: Sequence[str],
    drawn: Sequence[str],
    rolls: Sequence[tuple[int, int]],
    target: int | tuple[int, int] | None = None,
    difficulty: str = "normal",
    time_limit: float | None = None,
    workers: int | None = None,
    options: ModelOptions = ModelOptions(),
    progress: Progress | None = None,
    limit_counts_card_costs: bool = False,
    jobs: int = 1,
) -> FleetResult:
    """Try each fleet realm not drawn as the third realm: with a target, can it win; without,
    which totals can win. A realm with no CP-SAT model is shown as unsolvable (not proven).
    With `jobs` > 1 the candidates are asked at once, one process each (solver/parallel.py: the
    same answers; the progress lines then say only when a candidate is done)."""
    fleet_keys, drawn_keys = parse_fleet(fleet, drawn)
    say = progress or (lambda _msg: None)
    t0 = time.perf_counter()
    rolls = tuple(tuple(r) for r in rolls)  # type: ignore[misc]
    cands: list[Candidate | None] = []
    asked: list[tuple[str, str, str]] = []
    for third in (k for k in fleet_keys if k not in drawn_keys):
        realms = (drawn_keys[0], drawn_keys[1], third)
        if not is_solvable(get_realm(third)):
            cands.append(Candidate(realms, "unsolvable", None, f"{third} has no CP-SAT model: not decided"))
            say(f"chapter 1: third realm {third}: no CP-SAT model, skipped")
            continue
        cands.append(None)
        asked.append(realms)
    shown = progress if jobs == 1 or len(asked) <= 1 else None
    calls = [(realms, rolls, target, difficulty, time_limit, workers, options, shown, limit_counts_card_costs) for realms in asked]
    if asked:
        say(f"chapter 1: asking {len(asked)} third realm(s): {', '.join(r[2] for r in asked)}")

    def done(k: int, n: int) -> None:
        say(f"chapter 1: third realm {asked[k - 1][2]} done ({k} of {n})" if jobs == 1 else f"chapter 1: {k} of {n} third realms done")

    answers = iter(zip(asked, run_all(third_realm_answer, calls, jobs, done)))
    final: list[Candidate] = []
    for c in cands:
        if c is None:
            realms, answer = next(answers)
            c = Candidate(realms, answer.status, answer)
        final.append(c)
    tgt = None
    if target is not None:
        tgt = str(target) if isinstance(target, int) else f"{target[0]}-{target[1]}"
    return FleetResult(fleet_keys, drawn_keys, final, tgt, difficulty, len(rolls), time.perf_counter() - t0)


# ---- command line helpers (cli.py wires these) ----------------------------------------------

def parse_target(text: str | None) -> int | tuple[int, int] | None:
    """'17' or '16-18' (the outlined Chapter-card circle); None: no target."""
    if text is None:
        return None
    try:
        if "-" in text.strip()[1:]:
            lo, hi = text.split("-", 1)
            value: int | tuple[int, int] = (int(lo), int(hi))
            if not 0 <= value[0] <= value[1]:
                raise ValueError
            return value
        value = int(text)
        if value < 0:
            raise ValueError
        return value
    except ValueError:
        raise InputError(f"--target: expected a star count like 17 or a range like 16-18, got {text!r}") from None


def run_command(
    rolls_path: str,
    realms: str | None,
    target_text: str | None,
    difficulty: str,
    fleet: str | None,
    drawn: str | None,
    time_limit: float | None,
    workers: int | None,
    progress: Progress | None = None,
    limit_counts_card_costs: bool = False,
    jobs: int | None = None,
) -> Chapter1Result | WinTable | FleetResult:
    """`solve chapter1`: validate the inputs (InputError: one line, exit 2) and ask the question.
    `jobs`: fleet candidates asked at once (None: one per core, `parallel.default_jobs`)."""
    from ..commands import parse_realm_list, require_solver_model
    from ..rolls import load_rolls

    check_solver_inputs(time_limit, workers, realms, fleet, drawn, fixed_option="--realms", fixed_text="the 3 realms",
                        fleet_text="the fleet of 5 and the 2 realms drawn from it", chosen_text="the third")
    check_jobs(jobs)
    target = parse_target(target_text)
    rolls = load_rolls(rolls_path, max_turns=9)
    if fleet is not None:
        assert drawn is not None
        return choose_setup(fleet, drawn, rolls, target, difficulty, time_limit, workers, progress=progress,
                            limit_counts_card_costs=limit_counts_card_costs,
                            jobs=jobs if jobs is not None else default_jobs(FLEET_SIZE - DRAWN, workers))
    assert realms is not None
    keys = parse_realm_list(realms)
    try:
        setup = Chapter1(keys, target if target is not None else (0, 0), difficulty, turns=len(rolls),  # type: ignore[arg-type]
                         limit_counts_card_costs=limit_counts_card_costs)
    except ValueError as exc:
        raise InputError(f"chapter 1: {exc}") from None
    require_solver_model(setup.game(rolls))
    if target is None:
        return win_table(keys, rolls, difficulty, time_limit, workers, progress=progress,
                         limit_counts_card_costs=limit_counts_card_costs)
    if progress:
        progress(f"chapter 1: {','.join(keys)}, target {setup.target_text()}, {len(rolls)} turns …")
    return solve_chapter1(setup, rolls, time_limit, workers)


# ---- drawing ------------------------------------------------------------------------------------

def _turns_words(n: int) -> str:
    """'9 turns' or '3 turns (the chapter has 9; ...)': every answer says how many turns it used."""
    words = f"{n} turn{'s' if n != 1 else ''}"
    return words if n == 9 else words + " (the chapter has 9; the win is judged after the last turn of the rolls)"


def print_answer(console: Any, answer: Chapter1Result | WinTable | FleetResult) -> None:
    """The answer for people: the winning line turn by turn (solver/render.py), the table."""
    from rich.table import Table
    from rich.text import Text

    from ..render import line_table, sheets_table

    def result(res: Chapter1Result, head: str = "") -> None:
        game = res.setup.game(res.rolls)
        turns = _turns_words(res.turns)
        where = f"{head}{', '.join(res.setup.realms)}; target {res.setup.target_text()}, {res.setup.difficulty}; {turns}"
        if res.status == "won" and res.line is not None and res.replay is not None and res.verdict is not None:
            console.print(line_table(game, res.line, res.replay.steps, "Winning line, turn by turn"))
            console.print(sheets_table(game, res.replay.final, "Final sheets"))
            console.print(Text("line (text format):\n" + res.line.to_text().rstrip()))
            console.print(Text(f"WON: {res.verdict.reason} (checked by check_chapter1) — {where}", style="bold green"))
        elif res.status == "impossible":
            console.print(Text(f"IMPOSSIBLE: no line wins, proven (the model with the chapter rules is INFEASIBLE, "
                               f"{res.cuts} cut(s)) — {where}", style="bold yellow"))
        else:
            console.print(Text(f"UNKNOWN: the time limit stopped the solver before deciding; this is NOT an answer — {where}",
                               style="bold red"))
        console.print(Text(f"  solve time {res.solve_time:.2f} s (deterministic {res.deterministic_time:.2f}), cuts {res.cuts}"))

    def table(wt: WinTable) -> None:
        tab = Table(title=f"Chapter 1 star totals that can win: {', '.join(wt.realms)} ({wt.difficulty}, {_turns_words(wt.turns)})")
        for col in ("total", "status", "how"):
            tab.add_column(col)
        for row in wt.rows:
            tab.add_row(str(row.total), row.status.upper(), row.how)
        console.print(tab)
        wins = wt.winning
        console.print(Text(f"winning totals: {', '.join(map(str, wins)) if wins else 'none'}; status {wt.status.upper()} "
                           f"({wt.solve_time:.1f} s)"))

    if isinstance(answer, Chapter1Result):
        result(answer)
    elif isinstance(answer, WinTable):
        table(answer)
        wins = [r for r in answer.rows if r.status == "won" and r.result is not None]
        if wins:
            best = max(wins, key=lambda r: r.total)
            assert best.result is not None
            result(best.result, "line for the highest winning total: ")
    else:
        tab = Table(title=f"Chapter 1 setup: drawn {', '.join(answer.drawn)}; the third realm from the fleet")
        for col in ("third realm", "status", "detail"):
            tab.add_column(col)
        for c in answer.candidates:
            a = c.answer
            if isinstance(a, WinTable):
                detail = f"winning totals: {', '.join(map(str, a.winning)) or 'none'}"
            elif isinstance(a, Chapter1Result):
                detail = f"{a.stars} stars" if a.status == "won" else ("proven: INFEASIBLE" if a.status == "impossible" else "time limit")
            else:
                detail = c.note
            tab.add_row(c.third, c.status.upper(), detail)
        console.print(tab)
        console.print(Text(f"note: {ORDER_NOTE}"))
        best = answer.best
        if best is None:
            word = "IMPOSSIBLE: no choice of the third realm wins (each proven)" if answer.status == "impossible" else \
                "UNKNOWN: no winning setup found, and not every choice is proven impossible"
            console.print(Text(word, style="bold yellow" if answer.status == "impossible" else "bold red"))
        else:
            console.print(Text(f"BEST SETUP: {', '.join(best.realms)}", style="bold green"))
            assert best.answer is not None
            print_answer(console, best.answer)
