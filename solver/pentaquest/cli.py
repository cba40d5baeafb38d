"""Click commands `solve pentaquest` and `solve check pentaquest` (thin over the library)."""
from __future__ import annotations

import json
import sys
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from ..render import Progress
from .api import check, solve
from .deck import Deck, load_default_deck, load_deck
from .engine import Game
from .errors import PentaquestInputError
from .line import format_line, line_to_json, load_line
from .narrate import narrate
from .options import BGA, Options, options_to_dict, parse_options
from .stream import check_stream_length, load_stream

EXIT = {"optimal": 0, "unreachable": 1, "unknown": 3}


def _fail_input(exc: PentaquestInputError) -> None:
    click.echo(f"error: {exc}", err=True)
    raise click.exceptions.Exit(2)


def _load(deck_path: str | None, dice_path: str, opts: tuple[str, ...], bga: bool) -> tuple[Deck, tuple[int, ...], Options]:
    deck = load_deck(deck_path) if deck_path else load_default_deck()
    stream = load_stream(dice_path)
    check_stream_length(stream, len(deck), dice_path.rsplit("/", 1)[-1])
    options = parse_options(list(opts), BGA if bga else Options())
    return deck, stream, options


def _print_turns(console: Console, game: Game, line) -> None:  # type: ignore[no-untyped-def]
    table = Table(title="Game, turn by turn", show_lines=True)
    table.add_column("turn", justify="right")
    table.add_column("quest area")
    table.add_column("roll")
    table.add_column("rerolls / army used")
    table.add_column("monster beaten")
    for tr in narrate(game, line):
        table.add_row(str(tr.turn), "\n".join(tr.quest), " ".join(map(str, tr.roll)),
                      "\n".join(tr.steps) or "-", tr.outcome)
    console.print(table)


@click.command("pentaquest")
@click.option("--deck", "deck_path", default=None, help="Deck file (default: bundled reconstructed deck).")
@click.option("--dice", "dice_path", required=True, help="Stream file of d6 values, consumed in order.")
@click.option("--time-limit", type=float, default=60.0, show_default=True, help="Seconds before reporting unknown.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--option", "opts", multiple=True, help="Rule option name=value (repeatable).")
@click.option("--bga", is_flag=True, help="BGA reading: ☀ and ☾ must show different numbers.")
def pentaquest_command(deck_path: str | None, dice_path: str, time_limit: float, as_json: bool,
                       opts: tuple[str, ...], bga: bool) -> None:
    """Best Pentaquest play over a fixed dice stream (proven optimal, or proven unwinnable)."""
    try:
        deck, stream, options = _load(deck_path, dice_path, opts, bga)
    except PentaquestInputError as exc:
        _fail_input(exc)
        return
    with Progress():  # a status line whose seconds tick, on a terminal (stderr) only
        res = solve(deck, stream, options, time_limit)
    if as_json:
        obj: dict[str, Any] = {
            "game": "pentaquest", "status": res.status, "score": res.score, "turns": res.turns,
            "won": res.won, "army_uses": res.uses, "deck_size": len(deck),
            "line": line_to_json(deck, res.line), "line_text": format_line(deck, res.line) if res.line else "",
            "solve_time": round(res.solve_time, 3), "bound": res.bound, "nodes": res.nodes,
            "message": res.message, "options": options_to_dict(options),
        }
        click.echo(json.dumps(obj, ensure_ascii=False))
    else:
        console = Console(file=sys.stdout)
        game = Game(deck, stream, options)
        if res.line:
            _print_turns(console, game, res.line)
        summary = Table(title="Result")
        summary.add_column("field")
        summary.add_column("value")
        for k, v in (("status", res.status), ("won", res.won), ("score (unused army)", res.score),
                     ("turns survived", f"{res.turns}/{len(deck)}"), ("army cards used", res.uses),
                     ("upper bound", res.bound), ("solve time", f"{res.solve_time:.2f} s"),
                     ("search nodes", res.nodes), ("note", res.message)):
            summary.add_row(k, str(v))
        console.print(summary)
        if res.line:
            console.print("line:", markup=False)
            console.print(format_line(deck, res.line), markup=False, end="")
    raise click.exceptions.Exit(EXIT[res.status])


@click.command("pentaquest")
@click.option("--deck", "deck_path", default=None, help="Deck file (default: bundled reconstructed deck).")
@click.option("--dice", "dice_path", required=True, help="Stream file of d6 values.")
@click.option("--line", "line_path", required=True, help="Played game: text (one line per turn) or JSON.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--option", "opts", multiple=True, help="Rule option name=value (repeatable).")
@click.option("--bga", is_flag=True, help="BGA reading: ☀ and ☾ must show different numbers.")
def check_pentaquest_command(deck_path: str | None, dice_path: str, line_path: str, as_json: bool,
                             opts: tuple[str, ...], bga: bool) -> None:
    """Validate a played Pentaquest game against the deck and dice stream."""
    try:
        deck, stream, options = _load(deck_path, dice_path, opts, bga)
        line = load_line(deck, line_path)
    except PentaquestInputError as exc:
        _fail_input(exc)
        return
    res = check(deck, stream, line, options)
    if as_json:
        click.echo(json.dumps({
            "game": "pentaquest", "legal": res.legal, "won": res.won, "score": res.score, "turns": res.turns,
            "error_turn": res.error_turn, "reason": res.reason, "end": res.end_reason,
        }, ensure_ascii=False))
    else:
        console = Console(file=sys.stdout)
        if res.legal:
            _print_turns(console, Game(deck, stream, options), line)
            verdict = "won" if res.won else f"lost ({res.end_reason})"
            console.print(f"legal: {verdict}; score {res.score} (unused army cards); "
                          f"turns survived {res.turns}/{len(deck)}", markup=False)
        else:
            console.print(f"illegal: turn {res.error_turn}: {res.reason}", markup=False)
    raise click.exceptions.Exit(0 if res.legal else 1)
