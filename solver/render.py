"""Drawing answers for people with rich: summaries, lines turn by turn, realm sheets, progress.

Everything here writes to a given Console (stdout in the CLI); the progress line goes to stderr
and only when stderr is a terminal, so piped output stays clean.
"""
from __future__ import annotations

import sys
import time
from typing import Any, Callable, Sequence

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from .certificate import Verification
from .commands import CheckResult, GameResult
from .engine import Game, RoundState, Step, realm_stars
from .line import Action, Activation, Compensation, Line, TurnPlay
from .realms import is_solvable
from .realms.base import Realm
from .resources import KIND_NAMES, Resources
from .solve import RoundResult

SOURCE_WORDS = {
    "copy-pair": "copy of die{d} ({v}) for 2 hearts (the roll is a pair)",
    "copy": "copy of die{d} ({v}) for 3 hearts",
    "copy-seven": "copy of die{d} ({v}) for 2 coins (the dice sum to 7)",
}

STATUS_STYLE = {
    "optimal": "bold green",
    "reachable": "bold green",
    "legal": "bold green",
    "verified": "bold green",
    "unreachable": "bold yellow",
    "illegal": "bold red",
    "not-verified": "bold red",
    "unknown": "bold red",
}


# ---- words -----------------------------------------------------------------------------------

def resources_words(res: Resources) -> str:
    """'2 pumpkins, 1 heart' (or 'nothing')."""
    parts = [f"{n} {KIND_NAMES[k]}{'s' if n != 1 else ''}" for k, n in (("P", res.P), ("H", res.H), ("C", res.C)) if n]
    return ", ".join(parts) if parts else "nothing"


def choice_words(choice: Sequence[tuple[str, Any]]) -> str:
    """'trail 2, benefit yes' from the choice pairs of a realm."""
    out = []
    for k, v in choice:
        shown = ("yes" if v else "no") if isinstance(v, bool) else str(v)
        out.append(f"{k} {shown}")
    return ", ".join(out)


def action_words(game: Game, roll: tuple[int, int], action: Action) -> str:
    """One action in words: where the # comes from, pumpkin changes, the realm and the choice."""
    if isinstance(action, Compensation):
        return (f"compensate die{action.die + 1} ({roll[action.die]}, no legal place): "
                f"gain 1 {KIND_NAMES.get(action.resource, action.resource)}")
    assert isinstance(action, Activation)
    src = action.source
    base = src.base_value(roll)
    if src.kind == "die":
        text = f"die{src.die + 1} ({base})"
    elif src.kind == "create":
        text = f"created {base} for {base} coin{'s' if base != 1 else ''}"
    else:
        text = SOURCE_WORDS[src.kind].format(d=(src.die or 0) + 1, v=base)
    if action.extra:
        text += f", {action.shift:+d} with the 3-pumpkin power (may enter an activated realm) = {base + action.shift}"
    elif action.shift:
        text += f", {action.shift:+d} for {2 * abs(action.shift)} pumpkins = {base + action.shift}"
    title = _title(game, action.realm)
    where = choice_words(action.choice)
    return f"{text} → {title}" + (f" ({where})" if where else "")


def end_words(game: Game, turn: TurnPlay) -> list[str]:
    """End-of-turn choices in words ('end of turn: Ark Nova outlines column 3')."""
    return [f"end of turn: {_title(game, key)} ({choice_words(ch)})" for key, ch in turn.end if ch]


def _title(game: Game, key: str) -> str:
    for realm in game.realms:
        if realm.key == key:
            return realm.title
    return key


def stars_words(game: Game, state: RoundState) -> str:
    """'3 (0 / 2 / 1)': the total, then per realm in the round's order."""
    stars = realm_stars(game, state)
    return f"{sum(stars)} ({' / '.join(map(str, stars))})"


def realm_order(game: Game) -> str:
    return " / ".join(r.title for r in game.realms)


# ---- tables ----------------------------------------------------------------------------------

def turn_states(steps: Sequence[Step]) -> dict[int, RoundState]:
    """The state at the end of each fully replayed turn (turn index -> state)."""
    return {s.turn: s.state for s in steps if s.index == -1}


def line_table(game: Game, line: Line, steps: Sequence[Step], title: str = "Line, turn by turn",
               error: str | None = None) -> Table:
    """One row per turn: the roll, each action in words, resources and stars after the turn.

    With `error`, the turn where the replay stopped gets a last row: its legal actions, then the
    illegal step marked with ✗."""
    after = turn_states(steps)
    table = Table(title=title, show_lines=True, caption=f"stars per realm: {realm_order(game)}")
    table.add_column("turn", justify="right", no_wrap=True)
    table.add_column("roll", no_wrap=True)
    table.add_column("actions", ratio=4)
    table.add_column("resources after", ratio=1)
    table.add_column("stars so far", ratio=1)
    for t, turn in enumerate(line.turns):
        if t not in after:
            if error is not None:
                done = [s for s in steps if s.turn == t and s.index >= 0]
                words = [action_words(game, turn.roll, turn.actions[s.index]) for s in done]
                state = done[-1].state if done else (after[t - 1] if t else None)
                table.add_row(
                    str(t + 1),
                    f"{turn.roll[0]} {turn.roll[1]}",
                    Text("\n".join(words + [f"✗ {error}"])),
                    Text(resources_words(state.resources) if state else "nothing"),
                    Text(stars_words(game, state) if state else "0"),
                )
            break
        words = [action_words(game, turn.roll, a) for a in turn.actions] + end_words(game, turn)
        state = after[t]
        table.add_row(
            str(t + 1),
            f"{turn.roll[0]} {turn.roll[1]}",
            Text("\n".join(words) or "(no action)"),
            Text(resources_words(state.resources)),
            Text(stars_words(game, state)),
        )
    return table


def sheets_table(game: Game, state: RoundState, title: str) -> Table:
    """The three realm sheets side by side, drawn by each realm's sheet_rows()."""
    table = Table(title=title, show_lines=False)
    stars = realm_stars(game, state)
    for realm, s in zip(game.realms, stars):
        table.add_column(f"{realm.title} — {s} ★")
    table.add_row(*(sheet_grid(realm.sheet_rows(state.sheets[r])) for r, realm in enumerate(game.realms)))
    return table


def sheet_grid(rows: Sequence[tuple[str, str]]) -> Table:
    """One realm's sheet_rows() as a label | text grid."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column()
    for label, text in rows:
        grid.add_row(Text(label), Text(text))
    return grid


def _status_text(label: str, status: str, rest: str) -> Text:
    text = Text()
    text.append(label, style=STATUS_STYLE.get(status, "bold"))
    text.append(rest)
    return text


def _proof_by(proof: dict | None) -> str:
    """Who proved it: CP-SAT, the LP relaxation of the model (with its checked bound), or both
    split on the 3-pumpkin activations (solver/split.py)."""
    if proof and proof.get("method") == "lp-relaxation":
        return f"LP relaxation, bound {float(proof['bound']):.3f}"
    if proof and proof.get("method") == "extras-split":
        k = proof["extras_at_least"]
        return (f"split on 3-pumpkin activations: with {k} or more, LP relaxation bound "
                f"{float(proof['lp']['bound']):.3f}; with fewer, CP-SAT")
    return "CP-SAT"


def round_summary(game: Game, result: RoundResult) -> Text:
    """The answer in one paragraph; UNKNOWN is said plainly and never looks like a success."""
    st = result.status
    score = f"{result.score:.1f}" if result.score is not None else "-"
    if result.question == "target":
        if st == "reachable":
            head = _status_text("REACHABLE", st, f": {result.stars} stars ≥ target {result.target} (witness line below)")
        elif st == "unreachable":
            head = _status_text("UNREACHABLE", st, f": target {result.target} stars is proven impossible "
                                                   f"({_proof_by(result.proof)}: stars ≥ {result.target} is INFEASIBLE)")
        else:
            head = _status_text("UNKNOWN", st, f": the time limit stopped the solver before deciding target "
                                               f"{result.target}; this is NOT an answer")
    else:
        if st == "optimal":
            head = _status_text("OPTIMAL", st, f": {result.stars} stars, proven ({_proof_by(result.proof)}: "
                                               f"stars ≥ {(result.stars or 0) + 1} is INFEASIBLE)")
        elif getattr(result, "stars_proven", False) and not result.proof:
            left_bound = "no bound proven" if result.leftover_bound is None else f"bound {result.leftover_bound}"
            head = _status_text("UNKNOWN", st, f": {result.stars} stars is proven the most any line can score, but the "
                                               f"leftover tie-break ({result.leftover}, {left_bound}) was not "
                                               "proven before the time limit. This is NOT a proven optimum")
        elif result.stars is not None and result.star_bound == result.stars and result.proof:
            head = _status_text("UNKNOWN", st, f": the search reached {result.stars} stars with bound {result.stars}, "
                                               f"but the proof that {result.stars + 1} stars are impossible "
                                               f"({result.proof['status']}) did not finish. This is NOT a proven optimum")
        else:
            best = f"best line found {result.stars} stars" if result.stars is not None else "no line found"
            bound = f"upper bound {result.star_bound} stars" if result.star_bound is not None else "no bound proven"
            head = _status_text("UNKNOWN", st, f": the time limit stopped the solver; {best}, {bound}. "
                                               "This is NOT a proven optimum")
    lines = [head]
    if getattr(result, "played", None) is not None:
        lines.append(Text(f"  {result.played.turns_text()} as played (--played); the answer is about the rest of the round"))
    facts = [
        ("stars", result.stars),
        ("leftover resources", result.leftover),
        ("score", score),
        ("star bound", result.star_bound),
        ("solve time", f"{result.solve_time:.2f} s (deterministic {result.deterministic_time:.2f})"),
    ]
    if result.proof:
        facts.append(("proof", f"{result.proof['question']}: {result.proof['status']}"))
    for k, v in facts:
        lines.append(Text(f"  {k}: {'-' if v is None else v}"))
    return Text("\n").join(lines)


def print_round(console: Console, game: Game, result: RoundResult) -> None:
    """The summary, the line turn by turn and the final sheets."""
    if result.line is not None and result.replay is not None:
        console.print(line_table(game, result.line, result.replay.steps))
        console.print(sheets_table(game, result.replay.final, "Final sheets"))
        console.print(Text("line (text format):\n" + result.line.to_text().rstrip()))
    console.print(round_summary(game, result))


def print_game(console: Console, result: "GameResult") -> None:
    """Each round as `solve round` prints it, then the game total."""
    for i, (game, res) in enumerate(result.rounds, 1):
        console.rule(f"Round {i}: {realm_order(game)}")
        print_round(console, game, res)
    table = Table(title="Game total")
    for col in ("round", "realms", "status", "stars", "leftover", "star bound"):
        table.add_column(col)
    for i, (game, res) in enumerate(result.rounds, 1):
        table.add_row(str(i), realm_order(game), res.status.upper(), _plain(res.stars), _plain(res.leftover), _plain(res.star_bound))
    table.add_row("game", "", result.status.upper(), _plain(result.stars), _plain(result.leftover), _plain(result.star_bound))
    console.print(table)
    if result.status != "optimal":
        console.print(Text("UNKNOWN: at least one round is not proven optimal; the total is NOT a proven optimum",
                           style=STATUS_STYLE.get("unknown", "bold")))


def print_check(console: Console, check: CheckResult) -> None:
    """Per turn the actions, resources, stars and sheets; then the verdict or the first illegal step."""
    game, line, rep = check.game, check.line, check.replay
    console.print(line_table(game, line, rep.steps, "Line replayed, turn by turn", rep.error))
    for t, state in sorted(turn_states(rep.steps).items()):
        console.print(sheets_table(game, state, f"Sheets after turn {t + 1}"))
    if rep.legal:
        console.print(_status_text("LEGAL", "legal", f": {rep.stars_total} stars + {rep.final.resources.total()} "
                                                     f"leftover = score {rep.score_tenths / 10:.1f}"))
    else:
        console.print(_status_text("ILLEGAL", "illegal", f": {rep.error}"))


def print_verification(console: Console, ver: Verification) -> None:
    for check in ver.checks:
        mark = Text("  ok   " if check.ok else "  FAIL ", style="green" if check.ok else "red")
        console.print(mark + Text(f"{check.name}: {check.detail}"))
    if ver.status == "verified":
        console.print(_status_text("VERIFIED", "verified", f": {ver.claim}"))
    elif ver.status == "unknown":
        console.print(_status_text("NOT VERIFIED (UNKNOWN)", "unknown", f": {ver.claim} — the proof did not finish "
                                                                         "within the time limit"))
    else:
        console.print(_status_text("NOT VERIFIED", "not-verified", f": {ver.claim}"))


# ---- realms ----------------------------------------------------------------------------------

def realms_table(realms: Sequence[Realm]) -> Table:
    """Every realm; its key (what --realms takes) and provenance are never cut on a narrow
    terminal (seen at 80 columns: "feast-for-od…"), the titles and aliases wrap instead."""
    table = Table(title="Realms")
    table.add_column("key", no_wrap=True, min_width=max((len(r.key) for r in realms), default=3))
    table.add_column("title", ratio=2, overflow="fold")
    table.add_column("provenance", no_wrap=True)
    table.add_column("solve", ratio=1)
    table.add_column("also known as", ratio=2, overflow="fold")
    for r in realms:
        table.add_row(r.key, r.title, r.provenance, "solve + check" if solvable(r) else "check only", Text(", ".join(r.aliases)))
    return table


def solvable(realm: Realm) -> bool:
    """The realm has a CP-SAT model (else only the engine: `solve check` works, `solve round` not)."""
    return is_solvable(realm)


def realm_card(realm: Realm) -> Group:
    """A realm's card: usage, scoring, provenance, rulebook text and the card data."""
    from .report import card_data

    doc = rules_text(realm)
    parts: list[Any] = [Text(f"{realm.title} ({realm.key})", style="bold")]
    table = Table(show_header=False, show_lines=True)
    table.add_column("field", style="bold")
    table.add_column("value")
    table.add_row("provenance", Text(f"{realm.provenance}: {realm.card.get('provenance_note', '')}"))
    table.add_row("source", Text(str(realm.card.get("source", "-"))))
    table.add_row("usage", Text(str(realm.card.get("usage", ""))))
    table.add_row("scoring", Text(str(realm.card.get("scoring", ""))))
    table.add_row("max stars", Text(str(realm.card.get("max_stars", 6))))
    if doc:
        table.add_row("rules", Text(doc))
    for key, value in card_data(realm).items():
        table.add_row(f"card: {key}", Text(_plain(value)))
    table.add_row("sheet at the start", sheet_grid(realm.sheet_rows(realm.initial(_default_rules()))))
    parts.append(table)
    return Group(*parts)


def rules_text(realm: Realm) -> str:
    """The rulebook text quoted in the realm's module docstring, paragraphs re-flowed."""
    doc = (sys.modules[type(realm).__module__].__doc__ or "").strip()
    return "\n\n".join(" ".join(p.split()) for p in doc.split("\n\n"))


def _default_rules():  # type: ignore[no-untyped-def]
    from .rules import DEFAULT_RULES

    return DEFAULT_RULES


def _plain(value: Any) -> str:
    if isinstance(value, list):
        return "\n".join(_plain(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}={_plain(v)}" for k, v in value.items())
    return str(value)


# ---- progress --------------------------------------------------------------------------------

class Progress:
    """A rich status line on stderr while the solver runs (only when stderr is a terminal): the
    best line so far, the proven bound, the stage and the time, which ticks between reports."""

    def __init__(self, enabled: bool | None = None, console: Console | None = None, text: str = "solving …") -> None:
        self.console = console or Console(stderr=True)
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self._status: Any = None
        self._t0 = time.perf_counter()
        self._text = text

    #: the status line showing now (stopped by Ctrl-C from another thread: `stop_active`)
    _active: "Progress | None" = None

    def __enter__(self) -> "Progress":
        self._t0 = time.perf_counter()
        if self.enabled:
            self._status = self.console.status(self)  # re-rendered at each refresh (__rich__)
            self._status.start()
            Progress._active = self
        return self

    def __exit__(self, *exc: object) -> None:
        if self._status is not None:
            self._status.stop()
        Progress._active = None

    @classmethod
    def stop_active(cls) -> None:
        """The status line showing now, if any, taken off the terminal (its cursor given back)."""
        active = cls._active
        if active is not None and active._status is not None:
            active._status.stop()

    def __rich__(self) -> Text:
        return Text(f"{self._text} · {time.perf_counter() - self._t0:.0f} s")

    @staticmethod
    def message(best: int | None, bound: int, stage: str) -> str:
        """Short enough for an 80-column terminal: the best line's stars, the proven bound, the stage."""
        found = f"best {best} ★ · bound {bound} ★" if best is not None else f"solving … bound {bound} ★"
        return f"{found} · {stage}" if stage else found

    @staticmethod
    def rounds_message(done: int, total: int) -> str:
        return f"solving … {done} of {total} rounds done"

    def _show(self, text: str) -> None:
        self._text = text
        if self._status is not None:
            self._status.update(self)

    @property
    def callback(self) -> Callable[[int | None, int, str], None] | None:
        """The progress callback for solve_optimal (best stars, proven bound, stage), or None."""
        if not self.enabled:
            return None
        return lambda best, bound, stage: self._show(self.message(best, bound, stage))

    @property
    def lines_callback(self) -> Callable[[str], None] | None:
        """The campaign solvers' progress (one line per question answered, solver/campaign):
        each line printed above the status line, which keeps ticking while a question runs."""
        if not self.enabled:
            return None

        def say(line: str) -> None:
            self.console.print(line, markup=False, highlight=False)

        return say

    @property
    def rounds_callback(self) -> Callable[[int, int], None] | None:
        """The callback for rounds solved at once (`solve_game` with jobs > 1): k of n done."""
        if not self.enabled:
            return None
        return lambda done, total: self._show(self.rounds_message(done, total))

