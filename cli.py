"""The `solve` command line: a thin click layer over the `solver` library (docs/cli.md).

Exit codes of every command that answers a question: 0 optimal / reachable / legal / verified,
1 proven unreachable / illegal / not verified, 2 bad input, 3 unknown (a time limit hit);
130 stopped by Ctrl-C (143 by SIGTERM), before an answer.
"""
from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sys
from typing import Any, Callable, NoReturn

import click
from rich.console import Console

from solver.certificate import load_certificate, make_certificate, verify_certificate, write_certificate
from solver.commands import EXIT_INPUT, build_full_game, build_game, check_line, load_played, solve_game, solve_round
from solver.errors import InputError
from solver.interrupt import stop_on_ctrl_c
from solver.parallel import default_jobs
from solver.pentaquest.cli import check_pentaquest_command, pentaquest_command
from solver.realms import all_realms, get_realm, resolve_realm_name
from solver.render import Progress, print_check, print_game, print_round, print_verification, realm_card, realms_table
from solver.report import check_report, game_report, realm_report, realms_report, round_report, verify_report


def _stdout() -> Console:
    return Console(file=sys.stdout, highlight=False)


def _fail(exc: Exception) -> NoReturn:
    """Bad input: one line on stderr, exit 2, no traceback."""
    msg = exc.args[0] if exc.args else str(exc)
    click.echo(f"error: {msg}", err=True)
    raise click.exceptions.Exit(EXIT_INPUT)


def _guarded(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except InputError as exc:
        _fail(exc)


def _emit_json(obj: dict[str, Any]) -> None:
    click.echo(json.dumps(obj, ensure_ascii=False, indent=2))


TIME_LIMIT_HELP = ("Solver limit in CP-SAT deterministic time (work units, roughly seconds; reproducible, unlike "
                   "wall time). Default: solver/params/round.toml (60). The proof of an optimum gets the same limit again.")


@click.group()
@click.version_option(package_name="realms-solver")
def cli() -> None:
    """Solve and check dice roll-and-write games (Rolling Realms, Pentaquest)."""


@cli.command("round")
@click.option("--realms", required=True, help="Three realms, comma-separated: wurfelwelten,parks,libertalia.")
@click.option("--rolls", "rolls_path", required=True, help="Roll file: one turn per line, two dice (3 5).")
@click.option("--target", type=int, default=None, help="Ask whether this many stars are reachable.")
@click.option("--time-limit", type=float, default=None, help=TIME_LIMIT_HELP)
@click.option("--workers", type=int, default=None, help="CP-SAT workers (default 1: deterministic).")
@click.option("--option", "opts", multiple=True, help="Rule option name=value (repeatable; docs/rules-options.md).")
@click.option("--played", "played_path", default=None,
              help="Line file of the turns already played (the first turns of the round): they stay as played "
                   "and the answer is about the rest (\"can I still make 18 stars?\").")
@click.option("--certificate", "cert_path", default=None, help="Write a certificate (JSON) to this file.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (docs/json.md).")
def round_command(realms: str, rolls_path: str, target: int | None, time_limit: float | None, workers: int | None,
                  opts: tuple[str, ...], played_path: str | None, cert_path: str | None, as_json: bool) -> None:
    """Best line for a round of Rolling Realms (proven optimal), or whether --target is reachable."""
    game = _guarded(lambda: build_game(realms, rolls_path, opts))
    played = _guarded(lambda: load_played(game, played_path)) if played_path else None
    with Progress() as progress:
        result = _guarded(lambda: solve_round(game, target, time_limit, workers, progress=progress.callback, played=played))
    if cert_path:
        _guarded(lambda: write_certificate(cert_path, make_certificate(game, result)))
    if as_json:
        _emit_json(round_report(game, result))
    else:
        print_round(_stdout(), game, result)
        if cert_path:
            click.echo(f"certificate written to {cert_path}")
    raise click.exceptions.Exit(result.exit_code)


@cli.command("game")
@click.option("--realms", required=True, help="Nine realms, comma-separated: three per round, in round order.")
@click.option("--rolls", "rolls_path", required=True, help="Roll file with 27 turns (9 per round).")
@click.option("--time-limit", type=float, default=None, help=TIME_LIMIT_HELP + " Applies to each round.")
@click.option("--workers", type=int, default=None, help="CP-SAT workers (default 1: deterministic).")
@click.option("--jobs", type=int, default=None,
              help="Rounds solved at once, each in its own process (default: one per core, at most 3). Same answers; less wall time.")
@click.option("--option", "opts", multiple=True, help="Rule option name=value (repeatable; docs/rules-options.md).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (docs/json.md).")
def game_command(realms: str, rolls_path: str, time_limit: float | None, workers: int | None, jobs: int | None,
                 opts: tuple[str, ...], as_json: bool) -> None:
    """A full base game: 3 rounds of 9 turns; each round's best line and the game total."""
    games = _guarded(lambda: build_full_game(realms, rolls_path, opts))
    n_jobs = jobs if jobs is not None else default_jobs(len(games), workers)
    with Progress() as progress:
        result = _guarded(lambda: solve_game(games, time_limit, workers, progress=progress.callback, jobs=n_jobs,
                                             rounds_done=progress.rounds_callback))
    if as_json:
        _emit_json(game_report(result))
    else:
        print_game(_stdout(), result)
    raise click.exceptions.Exit(result.exit_code)


@cli.command("chapter1")
@click.option("--rolls", "rolls_path", required=True, help="Roll file (up to 9 turns; the win is judged after its last turn).")
@click.option("--realms", default=None, help="Three realms: parks,libertalia,ark-nova (order has no rule effect in chapter 1).")
@click.option("--target", "target_text", default=None, help="The outlined Chapter-card circle: 17 or 16-18. Without: every total that can win.")
@click.option("--difficulty", type=click.Choice(["easy", "normal", "hard"]), default="normal", show_default=True)
@click.option("--fleet", default=None, help="The fleet of 5 realms; with --drawn the solver chooses the third realm.")
@click.option("--drawn", default=None, help="The 2 realms drawn from the fleet.")
@click.option("--time-limit", type=float, default=None, help=TIME_LIMIT_HELP + " Applies to each question.")
@click.option("--workers", type=int, default=None, help="CP-SAT workers (default 1: deterministic).")
@click.option("--limit-counts-card-costs", is_flag=True, help="Reading option: pumpkins a realm card asks for count toward the 3-pumpkin limit.")
@click.option("--jobs", type=int, default=None,
              help="With --fleet: third realms asked at once, one process each (default: one per core). Same answers; less wall time.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (docs/campaign-solving.md).")
def chapter1_command(rolls_path: str, realms: str | None, target_text: str | None, difficulty: str, fleet: str | None,
                     drawn: str | None, time_limit: float | None, workers: int | None, limit_counts_card_costs: bool,
                     jobs: int | None, as_json: bool) -> None:
    """Solve campaign chapter 1: a winning line (checked), or a proof that none wins (docs/campaign-solving.md)."""
    from solver.campaign.chapter1_solve import print_answer, run_command

    with Progress() as progress:
        answer = _guarded(lambda: run_command(rolls_path, realms, target_text, difficulty, fleet, drawn, time_limit, workers,
                                              progress.lines_callback, limit_counts_card_costs, jobs))
    if as_json:
        _emit_json(answer.as_json())
    else:
        print_answer(_stdout(), answer)
    raise click.exceptions.Exit(answer.exit_code)


def chapter3_setup_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The Boss card's setup, shared by `solve chapter3` and `solve check chapter3` (one
    wording, one set of names: `--damage-track` or `--track`, each taking coin,star,heart or
    C,S,H)."""
    options = [
        click.option("--damage-track", "--track", "track", default=None,
                     help="The marked damage track, left to right, e.g. coin,star,heart or C,S,H (P pumpkin, H heart, C coin, S star)."),
        click.option("--tracks", "tracks_path", default=None, help="Or: the Boss card's six tracks (file), with --damage-roll."),
        click.option("--damage-roll", type=int, default=None, help="The setup die (1-6): which track of --tracks is marked."),
        click.option("--turn-target", "turn_target", default=None,
                     help="The outlined turns: two consecutive on normal (e.g. 9-10), one on hard (e.g. 9); none on easy (any turn)."),
        click.option("--boss-path", "boss_path", default=None, help="The Boss card's places turn by turn (file; default: the spec's)."),
        click.option("--difficulty", type=click.Choice(["easy", "normal", "hard"]), default="normal", show_default=True),
        click.option("--unwinnable", type=click.Choice(["lost", "play-on"]), default="lost", show_default=True,
                     help="Reading: lost at once when a win is no longer possible, or play on to the last turn."),
        click.option("--same-step", type=click.Choice(["lost", "won"]), default="lost", show_default=True,
                     help="Reading: the verdict when one step wins and earns the 12th resource of a kind."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


@cli.command("chapter3")
@click.option("--rolls", "rolls_path", required=True, help="Roll file (up to 15 turns; the answer says how many it used).")
@click.option("--realms", default=None, help="The row, left to right: parks,wurfelwelten,libertalia (the Boss starts above the middle one).")
@click.option("--fleet", default=None, help="The fleet of 5 realms; with --drawn the solver chooses the third realm and the row order.")
@click.option("--drawn", default=None, help="The 2 realms drawn from the fleet.")
@chapter3_setup_options
@click.option("--time-limit", type=float, default=None, help=TIME_LIMIT_HELP + " Applies to each turn asked.")
@click.option("--workers", type=int, default=None, help="CP-SAT workers (default 1: deterministic).")
@click.option("--quick-line/--no-quick-line", default=True, show_default=True,
              help="First look for a win with the engine (a beam search over the rolled dice); CP-SAT then asks only earlier turns.")
@click.option("--every-row", is_flag=True, help="With --fleet: ask every row, also after a row wins in the first target turn.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (docs/campaign-chapter3.md).")
def chapter3_command(rolls_path: str, realms: str | None, fleet: str | None, drawn: str | None, track: str | None,
                     tracks_path: str | None, damage_roll: int | None, turn_target: str | None, boss_path: str | None,
                     difficulty: str, unwinnable: str, same_step: str, time_limit: float | None, workers: int | None,
                     quick_line: bool, every_row: bool, as_json: bool) -> None:
    """Solve campaign chapter 3: the earliest Boss defeat (checked), or a proof that none wins (docs/campaign-chapter3.md)."""
    from solver.campaign.chapter3_solve import print_answer, run_command

    with Progress() as progress:
        answer = _guarded(lambda: run_command(rolls_path, realms, fleet, drawn, difficulty, track=track, tracks_path=tracks_path,
                                              damage_roll=damage_roll, turn_target=turn_target, boss_path_file=boss_path,
                                              unwinnable=unwinnable, same_step=same_step, time_limit=time_limit,
                                              workers=workers, progress=progress.lines_callback, quick=quick_line,
                                              every_row=every_row))
    if as_json:
        _emit_json(answer.as_json())
    else:
        print_answer(_stdout(), answer)
    raise click.exceptions.Exit(answer.exit_code)


@cli.group("check", invoke_without_command=True)
@click.option("--realms", default=None, help="Three realms, comma-separated.")
@click.option("--rolls", "rolls_path", default=None, help="Roll file.")
@click.option("--line", "line_path", default=None, help="Played line: text format (docs/line-format.md) or JSON.")
@click.option("--option", "opts", multiple=True, help="Rule option name=value (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (docs/json.md).")
@click.pass_context
def check_group(ctx: click.Context, realms: str | None, rolls_path: str | None, line_path: str | None,
                opts: tuple[str, ...], as_json: bool) -> None:
    """Check a played Rolling Realms line step by step (or: solve check pentaquest ...)."""
    if ctx.invoked_subcommand is not None:
        return
    missing = [n for n, v in (("--realms", realms), ("--rolls", rolls_path), ("--line", line_path)) if v is None]
    if missing:
        raise click.UsageError(f"missing option(s) {', '.join(missing)}")
    assert realms is not None and rolls_path is not None and line_path is not None
    game = _guarded(lambda: build_game(realms, rolls_path, opts))
    result = _guarded(lambda: check_line(game, line_path))
    if as_json:
        _emit_json(check_report(result))
    else:
        print_check(_stdout(), result)
    raise click.exceptions.Exit(result.exit_code)


check_group.add_command(check_pentaquest_command, "pentaquest")


def _target(text: str) -> int | tuple[int, int]:
    """'17' or '16-18' (the outlined Chapter-card circle)."""
    try:
        if "-" in text:
            lo, hi = text.split("-", 1)
            return (int(lo), int(hi))
        return int(text)
    except ValueError:
        raise InputError(f"--target: expected a star count like 17 or a range like 16-18, got {text!r}") from None


@check_group.command("chapter1")
@click.option("--realms", required=True, help="Three realms in a row, in order: parks,libertalia,ark-nova.")
@click.option("--rolls", "rolls_path", required=True, help="Roll file (up to 9 turns).")
@click.option("--line", "line_path", required=True, help="Played line (docs/line-format.md).")
@click.option("--target", "target_text", required=True, help="The outlined Chapter-card circle: 17 or 16-18.")
@click.option("--difficulty", type=click.Choice(["easy", "normal", "hard"]), default="normal", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def check_chapter1_command(realms: str, rolls_path: str, line_path: str, target_text: str, difficulty: str, as_json: bool) -> None:
    """Check a played campaign chapter 1: won or lost, at which turn, and why (docs/campaign.md)."""
    from solver.campaign import Chapter1, check_chapter1
    from solver.commands import parse_realm_list
    from solver.line import load_line
    from solver.rolls import load_rolls

    def run():
        keys = parse_realm_list(realms)
        rolls = load_rolls(rolls_path, max_turns=9)
        line = load_line(line_path)
        try:
            setup = Chapter1(keys, _target(target_text), difficulty, turns=len(rolls))
        except ValueError as exc:
            raise InputError(f"chapter 1: {exc}") from None
        return setup, check_chapter1(setup.game(rolls), setup, line)

    setup, verdict = _guarded(run)
    if as_json:
        _emit_json({"status": verdict.outcome, "turn": verdict.turn, "action": verdict.action, "reason": verdict.reason,
                    "stars": list(verdict.stars), "unspent": verdict.unspent, "target": setup.target_text(),
                    "difficulty": difficulty})
    else:
        where = f" at turn {verdict.turn}" if verdict.turn else ""
        click.echo(f"{verdict.outcome.upper()}{where}: {verdict.reason}")
        click.echo(f"  stars per realm: {', '.join(map(str, verdict.stars)) or '-'}; unspent resources: {verdict.unspent}; "
                   f"target {setup.target_text()}, difficulty {difficulty}")
    raise click.exceptions.Exit(0 if verdict.won else 1)


@check_group.command("chapter2")
@click.option("--realms", required=True, help="Three realms in a row, left to right: euphoria,parks,libertalia.")
@click.option("--rolls", "rolls_path", required=True, help="Roll file: the turns played (up to 14; hard 12).")
@click.option("--line", "line_path", required=True, help="Played line (docs/line-format.md) with 'move REALM' steps.")
@click.option("--difficulty", type=click.Choice(["easy", "normal", "hard"]), default="normal", show_default=True)
@click.option("--turns", type=click.IntRange(1, 14), default=None, help="The chapter's last turn (default 14, hard 12).")
@click.option("--win-beats-cap", is_flag=True, help="Reading: a step that wins and earns a 12th resource wins.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def check_chapter2_command(realms: str, rolls_path: str, line_path: str, difficulty: str, turns: int | None,
                           win_beats_cap: bool, as_json: bool) -> None:
    """Check a played campaign chapter 2: won or lost, at which turn and step, and why (docs/campaign-chapter2.md)."""
    from solver.campaign.chapter2 import run_chapter2, verdict_report, verdict_text

    setup, verdict = _guarded(lambda: run_chapter2(realms, rolls_path, line_path, difficulty, turns, win_beats_cap))
    if as_json:
        _emit_json(verdict_report(setup, verdict))
    else:
        click.echo(verdict_text(setup, verdict))
    raise click.exceptions.Exit(0 if verdict.won else 1)


@cli.command("chapter2")
@click.option("--rolls", "rolls_path", required=True, help="Roll file (up to 14 turns, hard 12; the answer says how many it used).")
@click.option("--realms", default=None, help="The row, left to right as placed: euphoria,parks,libertalia (order matters).")
@click.option("--difficulty", type=click.Choice(["easy", "normal", "hard"]), default="normal", show_default=True)
@click.option("--win-beats-cap", is_flag=True, help="Reading: a step that wins and earns a 12th resource wins.")
@click.option("--fleet", default=None, help="The fleet of 5 realms; with --drawn the solver chooses 2 more and the row order.")
@click.option("--drawn", default=None, help="The 1 realm drawn from the fleet.")
@click.option("--time-limit", type=float, default=None, help="CP-SAT deterministic time (work units, reproducible) for each turn count asked; default 20.")
@click.option("--workers", type=int, default=None, help="CP-SAT workers (default 1: deterministic).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (docs/campaign-chapter2.md, Solving).")
def chapter2_command(rolls_path: str, realms: str | None, difficulty: str, win_beats_cap: bool, fleet: str | None,
                     drawn: str | None, time_limit: float | None, workers: int | None, as_json: bool) -> None:
    """Solve campaign chapter 2: the fewest-turn win (checked, proven fewest), or a proof that none wins."""
    from solver.campaign.chapter2_solve import print_answer, run_command

    with Progress() as progress:
        answer = _guarded(lambda: run_command(rolls_path, realms, difficulty, win_beats_cap, fleet, drawn, time_limit,
                                              workers, progress.lines_callback))
    if as_json:
        _emit_json(answer.as_json())
    else:
        print_answer(click.echo, answer)
    raise click.exceptions.Exit(answer.exit_code)


@cli.command("verify")
@click.argument("certificate")
@click.option("--time-limit", type=float, default=None, help=TIME_LIMIT_HELP)
@click.option("--workers", type=int, default=None, help="CP-SAT workers for the re-run proof.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (docs/json.md).")
def verify_command(certificate: str, time_limit: float | None, workers: int | None, as_json: bool) -> None:
    """Re-check a certificate: replay its line with the engine and re-run its proof."""
    cert = _guarded(lambda: load_certificate(certificate))
    with Progress(text="re-running the proof …"):  # (a proof by cases can take a while: the seconds tick)
        ver = _guarded(lambda: verify_certificate(cert, time_limit, workers))
    if as_json:
        _emit_json(verify_report(ver))
    else:
        print_verification(_stdout(), ver)
    raise click.exceptions.Exit(ver.exit_code)


@check_group.command("chapter3")
@click.option("--realms", required=True, help="Three realms in a row, in order (the Boss starts above the middle one).")
@click.option("--rolls", "rolls_path", required=True, help="Roll file (up to 15 turns; it may stop where the chapter ended).")
@click.option("--line", "line_path", required=True, help="Played line (docs/line-format.md).")
@chapter3_setup_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def check_chapter3_command(realms: str, rolls_path: str, line_path: str, track: str | None, tracks_path: str | None,
                           damage_roll: int | None, turn_target: str | None, boss_path: str | None, difficulty: str,
                           unwinnable: str, same_step: str, as_json: bool) -> None:
    """Check a played campaign chapter 3 (the Boss Monster): won or lost, when, and why (docs/campaign-chapter3.md)."""
    from solver.campaign.chapter3 import TURNS, check_chapter3, setup_from_inputs, verdict_lines, verdict_report
    from solver.commands import parse_realm_list
    from solver.line import load_line
    from solver.rolls import load_rolls

    def run():
        setup = setup_from_inputs(parse_realm_list(realms), difficulty, track=track, tracks_path=tracks_path,
                                  damage_roll=damage_roll, turn_target=turn_target, boss_path_file=boss_path,
                                  unwinnable=unwinnable, same_step=same_step)
        rolls = load_rolls(rolls_path, max_turns=TURNS)
        return setup, check_chapter3(setup.game(rolls), setup, load_line(line_path))

    setup, verdict = _guarded(run)
    if as_json:
        _emit_json(verdict_report(setup, verdict))
    else:
        click.echo("\n".join(verdict_lines(setup, verdict)))
    raise click.exceptions.Exit(0 if verdict.won else 1)


@cli.command("chapter4")
@click.option("--rolls", "rolls_path", required=True, help="Roll file (up to 12 turns; the answer says how many it used).")
@click.option("--grid", default=None, help="The 2x2 grid, top row / bottom row: euphoria,scythe/wingspan,parks.")
@click.option("--resource-target", "target_text", required=True, help="The resource target: 14 (normal, hard) or a range of 3, 13-15 (easy).")
@click.option("--difficulty", type=click.Choice(["easy", "normal", "hard"]), default="normal", show_default=True)
@click.option("--fleet", default=None, help="The fleet of 6 realms; with --drawn the solver chooses 2 more and the layout.")
@click.option("--drawn", default=None, help="The 2 realms drawn from the fleet.")
@click.option("--win-box", type=click.Choice(["exact", "at-least"]), default="exact", show_default=True,
              help="Reading: the win is judged only at the 6th (easy 5th, hard 7th) swarm box, or at every later one too.")
@click.option("--swarm-sources", type=click.Choice(["every", "rolled"]), default="every", show_default=True,
              help="Reading: every # used needs a swarm copy, or only rolled dice do.")
@click.option("--time-limit", type=float, default=None, help=TIME_LIMIT_HELP + " Applies to each turn count asked.")
@click.option("--workers", type=int, default=None, help="CP-SAT workers (default 1: deterministic).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (docs/campaign-chapter4.md, Solving).")
def chapter4_command(rolls_path: str, grid: str | None, target_text: str, difficulty: str, fleet: str | None,
                     drawn: str | None, win_box: str, swarm_sources: str, time_limit: float | None, workers: int | None,
                     as_json: bool) -> None:
    """Solve campaign chapter 4 (the Swarm): the earliest winning line (checked), or a proof that none wins."""
    from solver.campaign.chapter4_solve import print_answer, run_command

    with Progress() as progress:
        answer = _guarded(lambda: run_command(rolls_path, grid, target_text, difficulty, fleet, drawn, win_box, swarm_sources,
                                              time_limit, workers, progress.lines_callback))
    if as_json:
        _emit_json(answer.as_json())
    else:
        print_answer(click.echo, answer)
    raise click.exceptions.Exit(answer.exit_code)


@cli.command("realms")
@click.argument("name", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (docs/json.md).")
def realms_command(name: str | None, as_json: bool) -> None:
    """List the realms (title, provenance), or show one realm's card and rules."""
    if name is None:
        realms = all_realms()
        if as_json:
            _emit_json(realms_report(realms))
        else:
            _stdout().print(realms_table(realms))
        return
    try:
        realm = get_realm(resolve_realm_name(name))
    except KeyError as exc:
        _fail(exc)
    if as_json:
        _emit_json(realm_report(realm))
    else:
        _stdout().print(realm_card(realm))


cli.add_command(pentaquest_command, "pentaquest")


@check_group.command("chapter4")
@click.option("--realms", required=True, help="Four realms of the 2x2 grid in reading order: top-left,top-right,bottom-left,bottom-right.")
@click.option("--rolls", "rolls_path", required=True, help="Roll file (up to 12 turns; it may stop where the chapter ended).")
@click.option("--line", "line_path", required=True, help="Played line with a 'swarm -> realm ...' line after each # (docs/campaign-chapter4.md).")
@click.option("--target", "target_text", required=True, help="The resource target: 14 (normal, hard) or a range of 3, 13-15 (easy).")
@click.option("--difficulty", type=click.Choice(["easy", "normal", "hard"]), default="normal", show_default=True)
@click.option("--win-box", type=click.Choice(["exact", "at-least"]), default="exact", show_default=True,
              help="Reading: the win is judged only at the 6th (easy 5th, hard 7th) swarm box, or at every later one too.")
@click.option("--swarm-sources", type=click.Choice(["every", "rolled"]), default="every", show_default=True,
              help="Reading: every # used needs a swarm copy, or only rolled dice do.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def check_chapter4_command(realms: str, rolls_path: str, line_path: str, target_text: str, difficulty: str,
                           win_box: str, swarm_sources: str, as_json: bool) -> None:
    """Check a played campaign chapter 4 (the Swarm): won or lost, when, and why (docs/campaign-chapter4.md)."""
    from solver.campaign.chapter4 import run_chapter4, verdict_lines, verdict_report

    setup, verdict = _guarded(lambda: run_chapter4(realms, rolls_path, line_path, target_text, difficulty, win_box, swarm_sources))
    if as_json:
        _emit_json(verdict_report(setup, verdict))
    else:
        click.echo("\n".join(verdict_lines(setup, verdict)))
    raise click.exceptions.Exit(0 if verdict.won else 1)


def _on_stop(sig: int) -> None:
    """Ctrl-C or SIGTERM (on the watcher thread, solver/interrupt.py): the status line stopped,
    the child processes of rounds solved at once ended, one line said, exit 128 + the signal
    (130 after Ctrl-C, as shells report it) at once, whatever the solver was doing. Nothing was
    answered, so nothing is printed as an answer."""
    Progress.stop_active()
    for child in multiprocessing.active_children():
        child.terminate()
    said = "interrupted (Ctrl-C)" if sig == signal.SIGINT else f"stopped ({signal.Signals(sig).name})"
    click.echo(f"{said}: stopped before an answer", err=True)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(128 + sig)


#: after Ctrl-C, multiprocessing's resource tracker (a process of its own) removes the semaphores
#: of the rounds' processes and warns that it had to: expected then, so not shown
QUIET_TRACKER = "ignore::UserWarning:multiprocessing.resource_tracker"


def main() -> None:
    """The `solve` console script: the click app, with Ctrl-C stopping it at once."""
    os.environ["PYTHONWARNINGS"] = ",".join(w for w in (os.environ.get("PYTHONWARNINGS"), QUIET_TRACKER) if w)
    stop_on_ctrl_c(_on_stop)
    cli()


if __name__ == "__main__":
    main()
