"""Campaign chapter 2, "Synchronicity" (seed 003; rolling-realms.md §3, §6.7).

A layer over the base engine (solver/engine.py), which it does not change: every activation goes
through `engine.apply_activation`, every turn end through `engine.end_turn`. The chapter keeps its
own state beside the base `RoundState`: the row of realms (left to right; it changes as realms
score), the stars marked per realm (scored the moment their condition is met, never unmarked),
the resources earned (spent or not) and the free moves used. "Can this # be used" is chapter 1's
search (`die_placements`) run with this chapter's rules. Readings: docs/campaign-chapter2.md.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Union

from ..engine import Game, RoundState, apply_activation, end_turn, realm_stars, roll_of, start
from ..errors import IllegalAction, InputError
from ..line import Activation, Compensation, Line, load_line, parse_line_json, parse_line_text
from ..realms import get_realm, resolve_realm_name
from ..realms.base import Realm, Use
from ..resources import KIND_NAMES, KINDS, Resources
from ..rules import DEFAULT_RULES, RuleSet
from .chapter1 import die_placements

#: the chapter's last turn per difficulty ("You can play up to 14 turns (hard: 12)")
MAX_TURNS = {"easy": 14, "normal": 14, "hard": 12}
#: free moves to the far right without scoring ("Once per game (easy: 3 times / hard: 0 times)")
FREE_MOVES = {"easy": 3, "normal": 1, "hard": 0}
#: earning this many resources of one kind (spent or not) loses ("you lose if you would earn the 12th")
RESOURCE_LIMIT = 12
#: stars to mark in every realm to win (a realm holds at most 6)
STARS_TO_WIN = 6
#: realms seed 003 names as scoring without being activated ("e.g., Between Two Cities and My Little Scythe")
SEED_EXCLUDED = ("between-two-cities", "my-little-scythe")
#: the widest 2-pumpkin change of one # (1 -> 6): what the "can this # be used" search tries
MAX_SHIFT = 5


class ExcludedRealm(ValueError):
    """A realm chapter 2 forbids (setup step 1a)."""


def exclusion_reason(realm: Realm) -> str | None:
    """Why `realm` may not play chapter 2, or None.

    Excluded: "Realms that can score stars without activating them". A realm's stars change only
    through its own sheet unless it uses one of the engine's cross-realm hooks, so the hooks decide
    (no second list to keep in step): `stars_in_round` (stars from the other realms' stars) or
    `observe_gain` (its sheet counts resources earned anywhere). The seed's two examples are
    excluded whatever their options."""
    cls = type(realm)
    if cls.stars_in_round is not Realm.stars_in_round:
        return "it scores stars from the other realms' stars, without being activated"
    if cls.observe_gain is not Realm.observe_gain:
        return "it scores stars from resources earned in any realm, without being activated"
    if realm.key in SEED_EXCLUDED:
        return "seed 003 names it as scoring stars without being activated"
    return None


def check_not_excluded(key: str) -> None:
    why = exclusion_reason(get_realm(key))
    if why:
        raise ExcludedRealm(
            f"{key} is excluded from chapter 2: {why} (seed 003, chapter 2 setup 1a: "
            "realms that can score stars without activating them are excluded)"
        )


@dataclass(frozen=True)
class Chapter2:
    """The chapter setup: the row of 3 active realms (left to right, as placed), the difficulty.

    `turns` is the chapter's last turn: 14 (hard 12) by default; smaller values only shorten
    examples and tests. The seed prints every value of this chapter (no Chapter-card inputs)."""

    realms: tuple[str, str, str]
    difficulty: str = "normal"
    turns: int | None = None
    #: reading option: when one step both earns the 12th resource of a kind and marks the last
    #: star, the win counts (True) instead of the loss (False, default: the loss is "immediate")
    win_beats_cap: bool = False

    def __post_init__(self) -> None:
        if self.difficulty not in MAX_TURNS:
            raise ValueError(f"difficulty must be easy, normal or hard, not {self.difficulty!r}")
        keys = tuple(get_realm(k).key for k in self.realms)
        if len(keys) != 3 or len(set(keys)) != 3:
            raise ValueError("chapter 2 plays exactly 3 different realms in a row")
        for key in keys:
            check_not_excluded(key)
        object.__setattr__(self, "realms", keys)
        most = MAX_TURNS[self.difficulty]
        if self.turns is None:
            object.__setattr__(self, "turns", most)
        elif not 1 <= self.turns <= most:
            raise ValueError(f"chapter 2 has at most {most} turns ({self.difficulty}), not {self.turns}")

    @property
    def last_turn(self) -> int:
        assert self.turns is not None
        return self.turns

    @property
    def free_moves(self) -> int:
        return FREE_MOVES[self.difficulty]

    def game(self, rolls: tuple[tuple[int, int], ...], rules: RuleSet = DEFAULT_RULES) -> Game:
        """The round: the realms in setup order, the rolls of the turns played, compensation off.

        The rolls may stop before the last turn (the chapter ends at once when it is won)."""
        if not 1 <= len(rolls) <= self.last_turn:
            raise ValueError(f"chapter 2 ({self.difficulty}) plays 1 to {self.last_turn} turns, the rolls give {len(rolls)}")
        return Game(tuple(get_realm(k) for k in self.realms), tuple(rolls), replace(rules, compensation="off"))


@dataclass(frozen=True)
class Chapter2State:
    """The chapter's state beside the base round state (all per-realm tuples in setup order)."""

    round: RoundState
    #: realm keys left to right; the last one is "the rightmost realm"
    row: tuple[str, ...]
    #: stars marked per realm (capped at 6; a star once marked stays marked)
    stars: tuple[int, ...]
    #: resources earned so far, spent or not
    earned: Resources = Resources()
    moves_used: int = 0

    @property
    def rightmost(self) -> str:
        return self.row[-1]

    @property
    def won(self) -> bool:
        return all(s >= STARS_TO_WIN for s in self.stars)


def start_chapter2(game: Game) -> Chapter2State:
    st = start(game)
    return Chapter2State(st, tuple(r.key for r in game.realms), realm_stars(game, st))


def over_limit(earned: Resources) -> str | None:
    """The first kind earned RESOURCE_LIMIT times or more, or None."""
    for kind in KINDS:
        if earned.get(kind) >= RESOURCE_LIMIT:
            return kind
    return None


def _gain(game: Game, state: RoundState, act: Activation) -> Resources:
    """What the realm card gives for this activation (it already passed `apply_activation`)."""
    r = game.index(act.realm)
    roll = roll_of(game, state)
    use = Use(act.source.base_value(roll) + act.shift, act.source, roll, state.turn)
    return game.realms[r].apply(state.sheets[r], use, act.choice, game.rules).gain


def _mark(game: Game, cs: Chapter2State, after: RoundState) -> Chapter2State:
    """Mark the stars scored by the last step; every realm that scored moves to the far right.

    A realm already at 6 stars marks nothing more, so it does not move (the seed's Euphoria note)."""
    now = realm_stars(game, after)
    stars = tuple(max(a, b) for a, b in zip(cs.stars, now))
    scored = [game.realms[r].key for r in range(len(stars)) if stars[r] > cs.stars[r]]
    row = tuple(k for k in cs.row if k not in scored) + tuple(k for k in cs.row if k in scored)
    return replace(cs, round=after, stars=stars, row=row)


def apply_chapter2_activation(game: Game, cs: Chapter2State, act: Activation) -> Chapter2State:
    """One # under the base rules and the chapter's rightmost-realm rule; raise IllegalAction.

    The resource limit is not checked here: earning the 12th resource is legal and loses."""
    after = apply_activation(game, cs.round, act)
    gain = _gain(game, cs.round, act)
    r = game.index(act.realm)
    marked = _mark(game, cs, after)
    if act.realm == cs.rightmost and marked.stars[r] > cs.stars[r]:
        raise IllegalAction(
            f"chapter 2: a # in the rightmost realm may not gain a star there "
            f"({act.realm} would go from {cs.stars[r]} to {marked.stars[r]} stars)"
        )
    return replace(marked, earned=cs.earned + gain)


def apply_move(setup: Chapter2, cs: Chapter2State, realm: str) -> Chapter2State:
    """The chapter's free move: a realm to the far right without scoring; raise IllegalAction."""
    if realm not in cs.row:
        raise IllegalAction(f"realm {realm!r} is not in this round ({', '.join(cs.row)})")
    if not setup.free_moves:
        raise IllegalAction(f"chapter 2 ({setup.difficulty}) has no free move to the far right")
    if cs.moves_used >= setup.free_moves:
        times = "once" if setup.free_moves == 1 else f"{setup.free_moves} times"
        raise IllegalAction(f"chapter 2 ({setup.difficulty}) allows the free move to the far right {times}, all used")
    if realm == cs.rightmost:
        raise IllegalAction(f"{realm} is already the rightmost realm: the move would change nothing")
    row = tuple(k for k in cs.row if k != realm) + (realm,)
    return replace(cs, row=row, moves_used=cs.moves_used + 1)


def end_chapter2_turn(game: Game, cs: Chapter2State, choices: dict[str, Any]) -> Chapter2State:
    """The base end of turn (e.g. Ark Nova's outline); any star it scored is marked as well."""
    return _mark(game, cs, end_turn(game, cs.round, choices))


def chapter2_die_placements(game: Game, cs: Chapter2State, die: int, *, limit: bool = True,
                            rightmost: bool = True) -> list[Activation]:
    """Every way rolled die `die` can be used now under the chapter's rules (chapter 1's search,
    with any 2-pumpkin change: this chapter has no pumpkin limit).

    With `limit`, a use that would earn the 12th resource of a kind does not count as a use;
    `rightmost=False` leaves out the rightmost-realm rule (to explain why a die is unusable)."""

    def step(state: RoundState, act: Activation) -> RoundState:
        if not rightmost:
            return apply_activation(game, state, act)
        after = apply_chapter2_activation(game, replace(cs, round=state), act)
        if limit and over_limit(after.earned):
            raise IllegalAction("would earn the 12th resource of a kind")
        return after.round

    return die_placements(game, None, cs.round, die, step=step, max_shift=MAX_SHIFT)


def unusable_reason(game: Game, cs: Chapter2State, die: int) -> str:
    """Why rolled die `die` cannot be used (chapter2_die_placements found nothing)."""
    capped = chapter2_die_placements(game, cs, die, limit=False)
    if capped:
        return f"each use would earn the {RESOURCE_LIMIT}th resource of a kind, e.g. {capped[0].text()}"
    blocked = chapter2_die_placements(game, cs, die, rightmost=False)
    if blocked:
        return f"its only uses would gain a star in the rightmost realm {cs.rightmost}, e.g. {blocked[0].text()}"
    return f"no realm takes it, holding {cs.round.resources}"


def judge_step(game: Game, setup: Chapter2, cs: Chapter2State) -> tuple[str, str] | None:
    """The chapter decided at once after a step: ("lost", why) on the 12th resource of a kind,
    ("won", why) when every realm has 6 stars marked; None: play on.

    A step that does both loses (the loss is "immediate"), unless `setup.win_beats_cap`."""
    kind = over_limit(cs.earned)
    if kind and not (cs.won and setup.win_beats_cap):
        return "lost", f"earns the {RESOURCE_LIMIT}th {KIND_NAMES[kind]} (earned {cs.earned}, spent or not)"
    if cs.won:
        return "won", f"6 stars marked in every realm ({_stars_text(game, cs.stars)})"
    return None


# ---- the chapter's line: the base line plus `move REALM` steps ----------------------------------

@dataclass(frozen=True)
class Move:
    """`move REALM`: the free move, in turn `turn` (1-based) after `after` of that turn's actions."""

    turn: int
    after: int
    realm: str

    def text(self) -> str:
        return f"move {self.realm}"


Step = Union[Activation, Compensation, Move]


@dataclass(frozen=True)
class Chapter2Line:
    line: Line
    moves: tuple[Move, ...] = ()

    def steps(self, t: int) -> list[Step]:
        """Turn t's (0-based) actions with its moves in their places, in the order played."""
        acts = self.line.turns[t].actions
        out: list[Step] = []
        here = sorted((m for m in self.moves if m.turn == t + 1), key=lambda m: m.after)
        for i in range(len(acts) + 1):
            out.extend(m for m in here if m.after == i)
            if i < len(acts):
                out.append(acts[i])
        return out


def parse_chapter2_text(text: str, filename: str = "<line>") -> Chapter2Line:
    """The text line format (docs/line-format.md) plus `move REALM` lines inside a turn."""
    kept: list[str] = []
    moves: list[Move] = []
    turn, count = 0, 0
    for no, raw in enumerate(text.splitlines(), 1):
        tokens = raw.split("#", 1)[0].split()
        if tokens and tokens[0] == "move":
            where = f"{filename} line {no}"
            if turn == 0:
                raise InputError(f"{where}: a move before the first 'turn N roll A B' line")
            if len(tokens) != 2:
                raise InputError(f"{where}: expected 'move REALM'")
            try:
                realm = resolve_realm_name(tokens[1])
            except KeyError as exc:
                raise InputError(f"{where}: {exc.args[0]}") from None
            moves.append(Move(turn, count, realm))
            kept.append("")  # keep the line numbers of the base parser's messages
            continue
        if tokens and tokens[0] == "turn":
            turn, count = turn + 1, 0
        elif tokens and tokens[0] != "end":
            count += 1
        kept.append(raw)
    return Chapter2Line(parse_line_text("\n".join(kept), filename), tuple(moves))


def parse_chapter2_json(data: Any, filename: str = "<line>") -> Chapter2Line:
    """The JSON line format plus `{"move": "REALM"}` entries among a turn's actions."""
    turns = data["line"] if isinstance(data, dict) and "line" in data else data
    if not isinstance(turns, list):
        raise InputError(f"{filename}: expected a list of turns")
    moves: list[Move] = []
    kept = []
    for t, turn in enumerate(turns, 1):
        if not isinstance(turn, dict) or not isinstance(turn.get("actions", []), list):
            raise InputError(f"{filename} turn {t}: malformed turn")
        acts = []
        for a in turn.get("actions", []):
            if isinstance(a, dict) and "move" in a:
                try:
                    moves.append(Move(t, len(acts), resolve_realm_name(str(a["move"]))))
                except KeyError as exc:
                    raise InputError(f"{filename} turn {t}: {exc.args[0]}") from None
            else:
                acts.append(a)
        kept.append(dict(turn, actions=acts))
    return Chapter2Line(parse_line_json(kept, filename), tuple(moves))


def load_chapter2_line(path: str) -> Chapter2Line:
    """Read a chapter-2 line file: JSON when it starts with [ or {, the text format otherwise."""
    return load_line(path, parse_chapter2_text, parse_chapter2_json)


# ---- the checker -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Chapter2Step:
    """The chapter's state after one step (the per-step star record)."""

    turn: int
    #: 1-based index of the step in its turn (actions and moves in the order played); None: turn end
    action: int | None
    text: str
    stars: tuple[int, ...]
    row: tuple[str, ...]
    earned: Resources


@dataclass(frozen=True)
class Chapter2Verdict:
    """`outcome` is "won", "lost" or "illegal"; `turn` is 1-based (None: before the first turn);
    `action` the 1-based step of that turn where it was decided (None: end of turn / whole line)."""

    outcome: str
    turn: int | None
    reason: str
    action: int | None = None
    step: str = ""
    #: stars marked per realm, in setup order
    stars: tuple[int, ...] = ()
    row: tuple[str, ...] = ()
    earned: Resources = Resources()
    unspent: Resources = Resources()
    moves_used: int = 0
    history: tuple[Chapter2Step, ...] = field(default=(), repr=False)

    @property
    def won(self) -> bool:
        return self.outcome == "won"


def _stars_text(game: Game, stars: tuple[int, ...]) -> str:
    return ", ".join(f"{r.key} {s}" for r, s in zip(game.realms, stars))


def check_chapter2(game: Game, setup: Chapter2, line: Line | Chapter2Line) -> Chapter2Verdict:
    """Replay a line under chapter 2's rules: won (at once, at the step), lost (turn, step and
    reason) or illegal (step and rule). The line may stop where it is won or lost; what follows
    is not looked at."""
    cline = line if isinstance(line, Chapter2Line) else Chapter2Line(line)
    keys = tuple(r.key for r in game.realms)
    if keys != setup.realms:
        return Chapter2Verdict("illegal", None, f"the game's realms {keys} are not the setup's {setup.realms}")
    if not 1 <= game.turns <= setup.last_turn:
        return Chapter2Verdict("illegal", None, f"the rolls give {game.turns} turns, the chapter has 1 to {setup.last_turn}")
    cs = start_chapter2(game)
    history: list[Chapter2Step] = []

    def verdict(outcome: str, t: int | None, reason: str, i: int | None = None, text: str = "") -> Chapter2Verdict:
        return Chapter2Verdict(outcome, t, reason, i, text, cs.stars, cs.row, cs.earned, cs.round.resources,
                               cs.moves_used, tuple(history))

    def record(t: int, i: int | None, text: str) -> None:
        history.append(Chapter2Step(t, i, text, cs.stars, cs.row, cs.earned))

    lturns = cline.line.turns
    if len(lturns) > game.turns:
        return verdict("illegal", game.turns, f"the line has {len(lturns)} turns, the rolls give {game.turns}")
    for m in cline.moves:
        if m.turn > len(lturns) or m.after > len(lturns[m.turn - 1].actions):
            return verdict("illegal", m.turn, f"{m.text()} is placed outside the line's turns")
    for t in range(game.turns):
        if t >= len(lturns):
            return verdict("illegal", t + 1, f"the line stops after turn {t} of {game.turns} with no win or loss")
        turn = lturns[t]
        roll = game.rolls[t]
        if tuple(turn.roll) != roll:
            return verdict("illegal", t + 1, f"the line says roll {turn.roll[0]} {turn.roll[1]}, the rolls say {roll[0]} {roll[1]}")
        steps = cline.steps(t)
        for i, step in enumerate(steps, 1):
            text = step.text()
            if isinstance(step, Move):
                try:
                    cs = apply_move(setup, cs, step.realm)
                except IllegalAction as exc:
                    return verdict("illegal", t + 1, f"{text}: {exc}", i, text)
                record(t + 1, i, text)
                continue
            if isinstance(step, Compensation):
                return verdict("illegal", t + 1, f"{text}: the campaign has no compensation (campaign_skip_dice off)", i, text)
            try:
                cs = apply_chapter2_activation(game, cs, step)
            except IllegalAction as exc:
                return verdict("illegal", t + 1, f"{text}: {exc}", i, text)
            record(t + 1, i, text)
            decided = judge_step(game, setup, cs)
            if decided and decided[0] == "lost":
                return verdict("lost", t + 1, f"{text} {decided[1]}", i, text)
            if decided:
                rest = len(steps) - i + sum(len(cline.steps(u)) for u in range(t + 1, len(lturns)))
                note = f"; the {rest} later step(s) of the line are not played" if rest else ""
                return verdict("won", t + 1, f"{decided[1]}{note}", i, text)
        # a die that cannot be used loses at once, whatever else the line left undone this turn
        unused = {k: chapter2_die_placements(game, cs, k) for k in (0, 1) if not cs.round.die_spent[k]}
        for k, ways in unused.items():
            if not ways:
                return verdict("lost", t + 1, f"die{k + 1} ({roll[k]}) cannot be used ({unusable_reason(game, cs, k)})")
        for k, ways in unused.items():
            return verdict("illegal", t + 1, f"die{k + 1} ({roll[k]}) is not used but could be "
                           f"(e.g. {ways[0].text()}): every rolled # must be used")
        try:
            cs = end_chapter2_turn(game, cs, dict(turn.end))
        except IllegalAction as exc:
            return verdict("illegal", t + 1, f"end of turn: {exc}")
        record(t + 1, None, "end of turn")
        decided = judge_step(game, setup, cs)
        if decided:
            return verdict(decided[0], t + 1, f"{decided[1]} at the end of the turn")
        if t + 1 == setup.last_turn:
            short = [f"{r.key} {s}" for r, s in zip(game.realms, cs.stars) if s < STARS_TO_WIN]
            return verdict("lost", t + 1, f"the last turn ({setup.last_turn}) is over with fewer than "
                           f"{STARS_TO_WIN} stars in {', '.join(short)}")
    return verdict("illegal", game.turns, f"the rolls stop after turn {game.turns} with no win or loss "
                   f"(the chapter goes on to turn {setup.last_turn}): give the rolls of every turn played")



# ---- the command line's side (cli.py `solve check chapter2` only wires options to these) -----------

def run_chapter2(realms: str, rolls_path: str, line_path: str, difficulty: str = "normal",
                 turns: int | None = None, win_beats_cap: bool = False) -> tuple[Chapter2, Chapter2Verdict]:
    """Read the inputs and check the line; every bad input is one InputError line (exit 2)."""
    from ..commands import parse_realm_list
    from ..rolls import load_rolls

    keys = parse_realm_list(realms)
    try:
        setup = Chapter2(keys, difficulty, turns, win_beats_cap)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    rolls = load_rolls(rolls_path)
    try:
        game = setup.game(rolls)
    except ValueError as exc:
        raise InputError(f"{rolls_path}: {exc}") from None
    return setup, check_chapter2(game, setup, load_chapter2_line(line_path))


def verdict_text(setup: Chapter2, v: Chapter2Verdict) -> str:
    where = f" at turn {v.turn}" if v.turn else ""
    if v.action:
        where += f", step {v.action}"
    stars = ", ".join(f"{k} {s}" for k, s in zip(setup.realms, v.stars)) or "-"
    return (f"{v.outcome.upper()}{where}: {v.reason}\n"
            f"  stars: {stars}; row (left to right): {' '.join(v.row) or '-'}; earned {v.earned}, unspent {v.unspent}; "
            f"free moves used {v.moves_used} of {setup.free_moves}; difficulty {setup.difficulty}, last turn {setup.last_turn}")


def verdict_report(setup: Chapter2, v: Chapter2Verdict) -> dict[str, Any]:
    """The verdict as one JSON object (stars keyed by realm; the per-step record in `history`)."""
    res = lambda r: {k: r.get(k) for k in KINDS}  # noqa: E731
    return {
        "status": v.outcome, "turn": v.turn, "action": v.action, "step": v.step, "reason": v.reason,
        "stars": dict(zip(setup.realms, v.stars)), "row": list(v.row),
        "earned": res(v.earned), "unspent": res(v.unspent),
        "moves_used": v.moves_used, "free_moves": setup.free_moves,
        "difficulty": setup.difficulty, "last_turn": setup.last_turn, "win_beats_cap": setup.win_beats_cap,
        "history": [{"turn": h.turn, "action": h.action, "step": h.text, "stars": dict(zip(setup.realms, h.stars)),
                     "row": list(h.row), "earned": res(h.earned)} for h in v.history],
    }
