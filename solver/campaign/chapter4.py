"""Campaign chapter 4, "The Swarm" (seed 003; rolling-realms.md §3 row 4, §6.7).

A layer over the base engine (solver/engine.py), which it does not change. Four realms lie in
a 2x2 grid; every use of a # in a realm (the *original*, through `engine.apply_activation`) is
followed by its *swarm copy*: the same # in a neighbouring realm, free and not changed
separately. A pair that scores exactly 2 stars in its two realms marks a swarm box; the chapter
is won at once when the 6th (easy 5th, hard 7th) box is marked with the resources earned
(spent + unspent) equal to the predicted target, and lost at once when the earned resources
exceed the target or a rolled # cannot be used. Readings decided here: docs/campaign-chapter4.md.

Line format: the base format (docs/line-format.md) plus one line per swarm copy, right after
the # it copies::

    turn 1 roll 3 5
      die1 +1 -> euphoria area=left
      swarm -> scythe mark=top
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Iterator

from ..engine import Game, RoundState, apply_activation, end_turn, observe_gain, realm_stars, roll_of, start
from ..errors import IllegalAction, InputError
from ..line import Activation, Choice, Compensation, Line, Source, TurnPlay, load_line, parse_line_json, parse_line_text
from ..realms import get_realm, resolve_realm_name
from ..realms.base import Effect, Use
from ..resources import Resources
from ..rolls import load_rolls
from ..rules import DEFAULT_RULES, RuleSet
from .targets import TargetRange

#: swarm boxes whose marking can win, per difficulty
BOXES_TO_WIN = {"easy": 5, "normal": 6, "hard": 7}
#: the chapter lasts up to this many turns
MAX_TURNS = 12
#: grid positions in reading order (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right) and
#: their two neighbours (left/right/above/below; diagonal realms are not neighbours)
NEIGHBOURS: dict[int, tuple[int, int]] = {0: (1, 2), 1: (0, 3), 2: (0, 3), 3: (1, 2)}
GRID_NAMES = ("top-left", "top-right", "bottom-left", "bottom-right")
#: the setup rule that excludes realms (seed 003, chapter 4 setup step 1a)
EXCLUSION_RULE = ("seed 003, chapter 4 setup 1a: realms that explicitly refer to a total of 3 realms, and realms "
                  "whose benefits include created dice, are excluded")
#: encoded realms the rule excludes, with the reason. No encoded realm gives a created die as a
#: benefit (the engine's benefits are pumpkins, hearts, coins and stars).
EXCLUDED: dict[str, str] = {
    "between-two-cities": "it refers to a total of 3 realms (its stars are counted from the other two realms)",
}
#: reading options: when the win is judged (`win_box`) and which #s need a swarm copy (`swarm_sources`)
WIN_BOX_READINGS = ("exact", "at-least")
SWARM_SOURCE_READINGS = ("every", "rolled")
#: marker the text/JSON reader uses to carry a swarm line through the base parser
_MARK = "__swarm__"


@dataclass(frozen=True, order=True)
class SwarmSource(Source):
    """The source of a swarm copy in a line: free, its value is the copied #'s value."""

    kind: str = "swarm"

    def cost(self) -> Resources:
        return Resources()

    def base_value(self, roll: tuple[int, int]) -> int:
        raise IllegalAction("a swarm copy has the value of the # it copies")

    def text(self) -> str:
        return "swarm"


SWARM = SwarmSource()


def is_swarm(action: Any) -> bool:
    return isinstance(action, Activation) and action.source.kind == "swarm"


@dataclass(frozen=True)
class Chapter4(TargetRange):
    """The chapter setup: 4 realms in a 2x2 grid, the resource target, the difficulty.

    `realms` in reading order: top-left, top-right, bottom-left, bottom-right. `target` is the
    predicted number of resources earned (an input: the player picks it; the seed prints no
    value): an exact number (normal, hard) or an inclusive range of 3 numbers `(lo, lo + 2)`
    (easy). `turns` is the chapter's limit (12; tests may use fewer). Reading options:
    `win_box` "exact" (default: the win is judged only when the 6th/5th/7th box is marked) or
    "at-least" (also at every later box); `swarm_sources` "every" (default: every # used needs
    a swarm copy) or "rolled" (only rolled dice do)."""

    realms: tuple[str, str, str, str]
    target: int | tuple[int, int]
    difficulty: str = "normal"
    turns: int = MAX_TURNS
    win_box: str = "exact"
    swarm_sources: str = "every"

    def __post_init__(self) -> None:
        if self.difficulty not in BOXES_TO_WIN:
            raise ValueError(f"difficulty must be easy, normal or hard, not {self.difficulty!r}")
        if len(self.realms) != 4:
            raise ValueError(f"chapter 4 plays exactly 4 realms in a 2x2 grid, got {len(self.realms)}")
        try:
            keys = tuple(get_realm(k).key for k in self.realms)
        except KeyError as exc:
            raise ValueError(exc.args[0]) from None
        for key in keys:
            if key in EXCLUDED:
                raise ValueError(f"{key} is excluded from chapter 4: {EXCLUDED[key]} ({EXCLUSION_RULE})")
        if len(set(keys)) != 4:
            raise ValueError(f"chapter 4 plays 4 different realms, got {', '.join(keys)}")
        object.__setattr__(self, "realms", keys)
        lo, hi = self.target_range
        if not 0 <= lo <= hi:
            raise ValueError(f"resource target {self.target!r} must be a number >= 0 or a range lo-hi with 0 <= lo <= hi")
        if self.difficulty == "easy" and hi - lo != 2:
            raise ValueError(f"easy: the resource target is a range of 3 numbers (like 12-14), not {self.target_text()}")
        if self.difficulty != "easy" and lo != hi:
            raise ValueError(f"{self.difficulty}: the resource target is one number, not the range {self.target_text()} (ranges are for easy)")
        if not 1 <= self.turns <= MAX_TURNS:
            raise ValueError(f"chapter 4 has at most {MAX_TURNS} turns")
        if self.win_box not in WIN_BOX_READINGS:
            raise ValueError(f"win_box must be {' or '.join(WIN_BOX_READINGS)}, not {self.win_box!r}")
        if self.swarm_sources not in SWARM_SOURCE_READINGS:
            raise ValueError(f"swarm_sources must be {' or '.join(SWARM_SOURCE_READINGS)}, not {self.swarm_sources!r}")

    @property
    def boxes_to_win(self) -> int:
        return BOXES_TO_WIN[self.difficulty]

    def neighbours(self, realm: int) -> tuple[int, int]:
        return NEIGHBOURS[realm]

    def needs_copy(self, source: Source) -> bool:
        return self.swarm_sources == "every" or source.kind == "die"

    def game(self, rolls: tuple[tuple[int, int], ...], rules: RuleSet = DEFAULT_RULES) -> Game:
        """The round of this chapter: the 4 realms in grid order, the rolls, compensation off."""
        if not 1 <= len(rolls) <= self.turns:
            raise ValueError(f"chapter 4 with turns={self.turns} takes 1 to {self.turns} rolls, got {len(rolls)}")
        return Game(tuple(get_realm(k) for k in self.realms), tuple(rolls), replace(rules, compensation="off"))


@dataclass(frozen=True)
class SwarmState:
    """The chapter's state between two steps: the base round state and what the chapter adds."""

    round: RoundState
    #: resources earned so far (gains; spending does not lower it)
    earned: Resources = Resources()
    #: stars per realm after the last step (the moment they are scored)
    stars: tuple[int, ...] = ()
    #: (turn, action) of the swarm copy that marked each swarm box, 1-based
    boxes: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class Chapter4Verdict:
    """`outcome` is "won", "lost" or "illegal"; `turn` and `action` are 1-based (None: not at a step)."""

    outcome: str
    turn: int | None
    reason: str
    action: int | None = None
    stars: tuple[int, ...] = ()
    #: (turn, action) where each swarm box was marked
    boxes: tuple[tuple[int, int], ...] = ()
    earned: int = 0
    unspent: int = 0
    #: the stars per realm after every step: (turn, action or None for the turn's end, stars)
    history: tuple[tuple[int, int | None, tuple[int, ...]], ...] = ()

    @property
    def won(self) -> bool:
        return self.outcome == "won"


def begin(game: Game) -> SwarmState:
    st = start(game)
    return SwarmState(st, Resources(), realm_stars(game, st))


def copy_source(source: Source) -> Source:
    """What a realm sees of a swarm copy: a copy of the same rolled die, or the same created #.

    For Charterstone (the realm where the non-assigned die matters) a copy of die k writes the
    other rolled die, as rolled: copies are ignored when choosing the number (seed 003)."""
    if source.kind == "create":
        return source
    return Source("copy", source.die)


def value_of(game: Game, state: RoundState, original: Activation) -> int:
    return original.source.base_value(roll_of(game, state)) + original.shift


def _effect(game: Game, state: RoundState, r: int, value: int, source: Source, choice: Choice) -> Effect:
    return game.realms[r].apply(state.sheets[r], Use(value, source, roll_of(game, state), state.turn), choice, game.rules)


def apply_original(game: Game, setup: Chapter4, st: SwarmState, act: Activation) -> SwarmState:
    """Use a # (rolled, copied with hearts or coins, or created) through the base engine.

    The chapter lets a realm be activated any number of times per turn, so the engine sees no
    realm as activated yet; everything else (sources, pumpkins, card rules and costs) is the
    engine's. Raises IllegalAction."""
    if is_swarm(act):
        raise IllegalAction("a swarm copy must come right after the # it copies")
    free = replace(st.round, activated=frozenset())
    after = apply_activation(game, free, act)
    gain = _effect(game, free, game.index(act.realm), value_of(game, free, act), act.source, act.choice).gain
    return SwarmState(after, st.earned + gain, realm_stars(game, after), st.boxes)


def apply_copy(game: Game, setup: Chapter4, st: SwarmState, original: Activation, copy: Activation) -> SwarmState:
    """Place the swarm copy of `original` (already applied) in a neighbouring realm: free, the
    same # as the original after its pumpkin change. Raises IllegalAction."""
    if not is_swarm(copy):
        raise IllegalAction(f"the swarm copy of {original.text()} must come next, written 'swarm -> realm ...'")
    if copy.shift or copy.extra:
        raise IllegalAction("copies cannot be modified separately from the original (no pumpkins on a swarm copy)")
    r, n = game.index(original.realm), game.index(copy.realm)
    if n not in setup.neighbours(r):
        names = " or ".join(game.realms[i].key for i in setup.neighbours(r))
        raise IllegalAction(f"{copy.realm} is not a neighbour of {original.realm} in the 2x2 grid (its neighbours: {names})")
    state = st.round
    eff = _effect(game, state, n, value_of(game, state, original), copy_source(original.source), copy.choice)
    if not state.resources.covers(eff.cost):
        raise IllegalAction(f"{copy.realm}: cannot pay the card's cost {eff.cost} (holding {state.resources})")
    sheets = observe_gain(game, state.sheets[:n] + (eff.state,) + state.sheets[n + 1 :], eff.gain)
    after = replace(state, resources=state.resources - eff.cost + eff.gain, sheets=sheets, activated=state.activated | {n})
    return SwarmState(after, st.earned + eff.gain, realm_stars(game, after), st.boxes)


def copy_ways(game: Game, setup: Chapter4, st: SwarmState, original: Activation) -> Iterator[tuple[Activation, SwarmState]]:
    """Every swarm copy of `original` (already applied) that the neighbours can take."""
    r = game.index(original.realm)
    value = value_of(game, st.round, original)
    for n in setup.neighbours(r):
        realm = game.realms[n]
        for choice in realm.candidates(st.round.sheets[n], value, game.rules):
            copy = Activation(SWARM, realm.key, choice)
            try:
                yield copy, apply_copy(game, setup, st, original, copy)
            except IllegalAction:
                continue


def swarm_box(before: SwarmState, after: SwarmState, r: int, n: int) -> bool:
    """A double activation (original in realm r, copy in realm n) that scores exactly 2 stars
    in the two realms combined marks a swarm box."""
    return (after.stars[r] - before.stars[r]) + (after.stars[n] - before.stars[n]) == 2


def number_uses(game: Game, setup: Chapter4, st: SwarmState, source: Source) -> Iterator[tuple[Activation, Activation | None, SwarmState]]:
    """Every way to use a # from `source` now: each pumpkin change the held pumpkins pay for
    (2 per step of +-1; the 3-pumpkin power adds nothing when realms may be activated again),
    each realm and choice the base engine accepts, then each swarm copy a neighbour takes."""
    roll = roll_of(game, st.round)
    base = source.base_value(roll)
    held = st.round.resources - source.cost()
    shifts = sorted((d for d in range(1 - base, 7 - base) if 2 * abs(d) <= held.P), key=abs)
    for shift in shifts:
        for realm in game.realms:
            for choice in realm.candidates(st.round.sheets[game.index(realm.key)], base + shift, game.rules):
                act = Activation(source, realm.key, choice, shift)
                try:
                    mid = apply_original(game, setup, st, act)
                except IllegalAction:
                    continue
                if not setup.needs_copy(source):
                    yield act, None, mid
                    continue
                for copy, end in copy_ways(game, setup, mid, act):
                    yield act, copy, end


def exceeds(setup: Chapter4, st: SwarmState) -> bool:
    return st.earned.total() > setup.target_range[1]


def die_usable(game: Game, setup: Chapter4, st: SwarmState, die: int) -> bool:
    """Rolled die `die` can still be used (with its swarm copy) by the chapter's rules."""
    if st.round.die_spent[die]:
        return False
    return next(number_uses(game, setup, st, Source("die", die)), None) is not None


def _unused_die(game: Game, setup: Chapter4, st: SwarmState, die: int) -> tuple[str, str]:
    """(outcome, reason) for a rolled die left unused at the end of a turn's actions."""
    value = roll_of(game, st.round)[die]
    exceeding: tuple[Activation, Activation | None] | None = None
    for act, copy, end in number_uses(game, setup, st, Source("die", die)):
        if not exceeds(setup, end):
            eg = act.text() + (f", {copy.text()}" if copy else "")
            return "illegal", f"die{die + 1} ({value}) is not used but could be (e.g. {eg}): every rolled # must be used"
        exceeding = exceeding or (act, copy)
    if exceeding:
        return "lost", (f"die{die + 1} ({value}) can only be used by earning more than the resource target "
                        f"{setup.target_text()} ({st.earned.total()} earned so far)")
    return "lost", f"die{die + 1} ({value}) cannot be used with its swarm copy (holding {st.round.resources})"


def _win_text(setup: Chapter4, st: SwarmState) -> str:
    return (f"swarm box {len(st.boxes)} marked (the {_ordinal(setup.boxes_to_win)} wins on {setup.difficulty}) with "
            f"{st.earned.total()} resources earned, the target {setup.target_text()}")


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def check_chapter4(game: Game, setup: Chapter4, line: Line) -> Chapter4Verdict:
    """Replay a line under chapter 4's rules: won (turn, step), lost (turn, step, reason) or illegal.

    The line may stop at the step that wins or loses; later steps are not looked at."""
    keys = tuple(r.key for r in game.realms)
    if keys != setup.realms:
        return Chapter4Verdict("illegal", None, f"the game's realms {keys} are not the setup's {setup.realms}")
    if game.turns > setup.turns:
        return Chapter4Verdict("illegal", None, f"the rolls give {game.turns} turns, the chapter has at most {setup.turns}")
    st = begin(game)
    lo, hi = setup.target_range
    history: list[tuple[int, int | None, tuple[int, ...]]] = []

    def verdict(outcome: str, msg: str, t: int | None, i: int | None) -> Chapter4Verdict:
        return Chapter4Verdict(outcome, t, msg, i, st.stars, st.boxes, st.earned.total(), st.round.resources.total(),
                               tuple(history))

    if len(line.turns) > game.turns:
        return verdict("illegal", f"the line has {len(line.turns)} turns, the rolls give {game.turns}", game.turns, None)
    for t, turn in enumerate(line.turns):
        if tuple(turn.roll) != game.rolls[t]:
            return verdict("illegal", f"the line says roll {turn.roll[0]} {turn.roll[1]}, the rolls say "
                                      f"{game.rolls[t][0]} {game.rolls[t][1]}", t + 1, None)
        actions = turn.actions
        i = 0
        while i < len(actions):
            act = actions[i]
            if isinstance(act, Compensation):
                return verdict("illegal", f"{act.text()}: the campaign has no compensation (campaign_skip_dice off)", t + 1, i + 1)
            before = st
            try:
                st = apply_original(game, setup, st, act)
            except IllegalAction as exc:
                return verdict("illegal", f"{act.text()}: {exc}", t + 1, i + 1)
            history.append((t + 1, i + 1, st.stars))
            if exceeds(setup, st):
                return verdict("lost", f"{act.text()}: {st.earned.total()} resources earned, more than the target {setup.target_text()}", t + 1, i + 1)
            if not setup.needs_copy(act.source):
                if i + 1 < len(actions) and is_swarm(actions[i + 1]):
                    return verdict("illegal", f"{actions[i + 1].text()}: only rolled dice get a swarm copy (swarm_sources=rolled)", t + 1, i + 2)
                i += 1
                continue
            if i + 1 >= len(actions) or not is_swarm(actions[i + 1]):
                way = next(copy_ways(game, setup, st, act), None)
                if way:
                    msg = f"{act.text()}: needs its swarm copy (the same #) in a neighbouring realm right after it, e.g. {way[0].text()}"
                else:
                    nb = " or ".join(game.realms[n].key for n in setup.neighbours(game.index(act.realm)))
                    msg = f"{act.text()}: no neighbouring realm ({nb}) can take the swarm copy, so the # cannot go to {act.realm}"
                return verdict("illegal", msg, t + 1, i + 1)
            copy = actions[i + 1]
            try:
                st = apply_copy(game, setup, st, act, copy)
            except IllegalAction as exc:
                return verdict("illegal", f"{copy.text()}: {exc}", t + 1, i + 2)
            history.append((t + 1, i + 2, st.stars))
            if exceeds(setup, st):
                return verdict("lost", f"{copy.text()}: {st.earned.total()} resources earned, more than the target {setup.target_text()}", t + 1, i + 2)
            if swarm_box(before, st, game.index(act.realm), game.index(copy.realm)):
                st = replace(st, boxes=st.boxes + ((t + 1, i + 2),))
                n = len(st.boxes)
                judged = n == setup.boxes_to_win or (setup.win_box == "at-least" and n > setup.boxes_to_win)
                if judged and lo <= st.earned.total() <= hi:
                    return verdict("won", _win_text(setup, st), t + 1, i + 2)
                if n == setup.boxes_to_win and setup.win_box == "exact":
                    return verdict("lost", _win_text(setup, st) + ": the chapter can no longer be won (win_box=exact)", t + 1, i + 2)
            i += 2
        # a rolled die left unused: lost when one cannot be used as the state stands (that loses
        # at once, whatever the other die could do), else illegal (it must be used)
        unused = sorted((_unused_die(game, setup, st, k) for k in (0, 1) if not st.round.die_spent[k]),
                        key=lambda judged: judged[0] != "lost")
        if unused:
            return verdict(*unused[0], t + 1, None)
        try:
            after = end_turn(game, st.round, dict(turn.end))
        except IllegalAction as exc:
            return verdict("illegal", f"end of turn: {exc}", t + 1, None)
        st = replace(st, round=after, stars=realm_stars(game, after))
        history.append((t + 1, None, st.stars))
    played = len(line.turns)
    status = f"{len(st.boxes)} swarm box(es) of {setup.boxes_to_win}, {st.earned.total()} resources earned (target {setup.target_text()})"
    if played == setup.turns:
        return verdict("lost", f"turn {played}, the last, ended without the win: {status}", played, None)
    return verdict("illegal", f"the line stops after turn {played} (of up to {setup.turns}) before the chapter is won or lost: {status}",
                   played, None)


# ---- reading a chapter-4 line ------------------------------------------------------------------

_SWARM_LINE = re.compile(r"swarm(\s+(extra)?[+-]\d)?\s+->\s+\S+.*")


def _restore(line: Line) -> Line:
    """Turn the marked activations back into swarm copies."""
    turns = []
    for turn in line.turns:
        acts = []
        for a in turn.actions:
            if isinstance(a, Activation) and any(k == _MARK for k, _ in a.choice):
                a = Activation(SWARM, a.realm, tuple((k, v) for k, v in a.choice if k != _MARK), a.shift, a.extra)
            acts.append(a)
        turns.append(TurnPlay(turn.roll, tuple(acts), turn.end))
    return Line(tuple(turns))


def parse_chapter4_line_text(text: str, filename: str = "<line>") -> Line:
    """The base line text format plus `swarm -> realm choice...` lines (errors name file and line)."""
    out = []
    for no, raw in enumerate(text.splitlines(), 1):
        body = raw.split("#", 1)[0].strip()
        if body.split()[:1] == ["swarm"]:
            if not _SWARM_LINE.fullmatch(body):
                raise InputError(f"{filename} line {no}: expected 'swarm -> realm choice...' (the swarm copy of the # above)")
            if _MARK in body:
                raise InputError(f"{filename} line {no}: {_MARK} is not a choice name")
            body = "create 1" + body[len("swarm"):] + f" {_MARK}=yes"
        out.append(body)
    return _restore(parse_line_text("\n".join(out), filename))


def parse_chapter4_line_json(data: Any, filename: str = "<line>") -> Line:
    """The base JSON line form; an action {"source": "swarm", "realm": ..., "choice": {...}} is a swarm copy."""
    turns = data["line"] if isinstance(data, dict) and "line" in data else data
    if isinstance(turns, list):
        marked = []
        for t in turns:
            if isinstance(t, dict) and isinstance(t.get("actions"), list):
                acts = []
                for a in t["actions"]:
                    if isinstance(a, dict) and a.get("source") == "swarm":
                        choice = a.get("choice", {})
                        if not isinstance(choice, dict):
                            raise InputError(f"{filename}: a swarm copy's choice must be an object")
                        a = dict(a, source="create 1", choice=dict(choice, **{_MARK: True}))
                    acts.append(a)
                t = dict(t, actions=acts)
            marked.append(t)
        turns = marked
    return _restore(parse_line_json(turns, filename))


def load_chapter4_line(path: str) -> Line:
    """Read a chapter-4 line file: JSON when it parses as JSON, the text format otherwise."""
    return load_line(path, parse_chapter4_line_text, parse_chapter4_line_json)


def parse_grid(text: str) -> tuple[str, str, str, str]:
    """Canonical keys of the 4 realms of the grid, from 'a,b,c,d' (reading order)."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    keys = []
    for name in names:
        try:
            keys.append(resolve_realm_name(name))
        except KeyError as exc:
            raise InputError(f"--realms: {exc.args[0]}") from None
    if len(keys) != 4:
        raise InputError(f"--realms: chapter 4 plays 4 realms in a 2x2 grid (top-left, top-right, bottom-left, "
                         f"bottom-right), got {len(keys)}")
    return tuple(keys)  # type: ignore[return-value]


def parse_target(text: str) -> int | tuple[int, int]:
    """'14' or '13-15' (the resource target noted on the Chapter card)."""
    m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", text)
    if not m:
        raise InputError(f"--target: expected a resource count like 14 or a range like 13-15, got {text!r}")
    return int(m.group(1)) if m.group(2) is None else (int(m.group(1)), int(m.group(2)))


# ---- the command line's face (cli.py: solve check chapter4) -------------------------------------

def run_chapter4(realms: str, rolls_path: str, line_path: str, target: str, difficulty: str = "normal",
                 win_box: str = "exact", swarm_sources: str = "every") -> tuple[Chapter4, Chapter4Verdict]:
    """Read the inputs (InputError: one line naming the problem) and check the line."""
    keys = parse_grid(realms)
    wanted = parse_target(target)
    try:
        setup = Chapter4(keys, wanted, difficulty, win_box=win_box, swarm_sources=swarm_sources)
    except ValueError as exc:
        raise InputError(f"chapter 4: {exc}") from None
    rolls = load_rolls(rolls_path, max_turns=MAX_TURNS)
    line = load_chapter4_line(line_path)
    return setup, check_chapter4(setup.game(rolls), setup, line)


def verdict_report(setup: Chapter4, verdict: Chapter4Verdict) -> dict[str, Any]:
    """The verdict as one JSON object."""
    return {
        "status": verdict.outcome, "turn": verdict.turn, "action": verdict.action, "reason": verdict.reason,
        "grid": {pos: key for pos, key in zip(GRID_NAMES, setup.realms)},
        "stars": {key: s for key, s in zip(setup.realms, verdict.stars)},
        "swarm_boxes": [{"turn": t, "action": a} for t, a in verdict.boxes], "boxes_to_win": setup.boxes_to_win,
        "earned": verdict.earned, "unspent": verdict.unspent, "target": setup.target_text(),
        "difficulty": setup.difficulty, "win_box": setup.win_box, "swarm_sources": setup.swarm_sources,
        "history": [{"turn": t, "action": a, "stars": list(s)} for t, a, s in verdict.history],
    }


def verdict_lines(setup: Chapter4, verdict: Chapter4Verdict) -> list[str]:
    """The verdict for a person: outcome and reason, then the chapter's state."""
    where = f" at turn {verdict.turn}" if verdict.turn else ""
    where += f", action {verdict.action}" if verdict.action else ""
    a, b, c, d = setup.realms
    stars = ", ".join(f"{k} {s}" for k, s in zip(setup.realms, verdict.stars)) or "-"
    boxes = ", ".join(f"t{t}.{i}" for t, i in verdict.boxes) or "none"
    return [
        f"{verdict.outcome.upper()}{where}: {verdict.reason}",
        f"  grid: {a} | {b} / {c} | {d}; stars: {stars}",
        f"  swarm boxes: {len(verdict.boxes)} of {setup.boxes_to_win} ({boxes}); resources earned {verdict.earned} "
        f"(unspent {verdict.unspent}), target {setup.target_text()}; difficulty {setup.difficulty}",
    ]
