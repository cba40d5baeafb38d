"""Campaign chapter 3, "The Boss Monster" (seed 003; rolling-realms.md §3, §6.7).

A thin layer over the base engine (solver/engine.py), which it does not change: every step of a
line goes through `engine.apply_activation` / `engine.end_turn`, and this module adds the
chapter's rules around those calls: the Boss card moving around the row of realms, damage marked
on the chosen track by a matching resource or star in the realm neighbouring the Boss, the loss on
the 12th earned resource of a kind or an unusable #, and the win when the last damage space is
marked during the turn target. Readings decided here are listed in docs/campaign-chapter3.md.

The chapter's pumpkin and heart rules are the base game's (§6.1: any 2k pumpkins for ±k, or the
3-pumpkin ±1); chapter 1's per-activation limits do not apply. That is why "can this die be used"
is asked of the engine's full `legal_actions` here rather than of `chapter1.die_placements`, which
only tries the changes chapter 1 allows (±1 and the 3-pumpkin ±1).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..engine import Game, RoundState, apply_activation, end_turn, legal_actions, realm_stars, roll_of, start
from ..errors import IllegalAction, InputError
from ..line import Activation, Compensation, Line, Source
from ..realms import get_realm
from ..realms.base import Effect, Use
from ..resources import KINDS, Resources
from ..rules import DEFAULT_RULES, RuleSet
from ..textfile import read_text

#: turns the chapter lasts at most ("You can play up to 15 turns")
TURNS = 15
#: earning this many resources of one kind (spent or not) loses the chapter at once
EARN_LIMIT = 12
#: a damage space asks for one of these: a pumpkin, heart or coin gained, or a star scored
SYMBOLS = ("P", "H", "C", "S")
SYMBOL_NAMES = {"P": "pumpkin", "H": "heart", "C": "coin", "S": "star"}
_SYMBOL_WORDS = {"p": "P", "h": "H", "c": "C", "s": "S", "pumpkin": "P", "heart": "H", "coin": "C", "star": "S", "*": "S"}
#: the damage tracks on the Boss card: one per die face
TRACKS = 6

#: where the Boss card can lie around a row of three realms, and the realm(s) it neighbours
#: (left/right/above/below; never diagonal): above or below a realm, or beside a row end
POSITIONS: dict[str, tuple[int, ...]] = {
    "above-left": (0,),
    "above-middle": (1,),
    "above-right": (2,),
    "right-end": (2,),
    "below-right": (2,),
    "below-middle": (1,),
    "below-left": (0,),
    "left-end": (0,),
}
#: the spec's default Boss path (option `boss_path`), clockwise from the seed's start above the middle realm
DEFAULT_BOSS_PATH: tuple[str, ...] = (
    "above-middle", "above-right", "right-end", "below-right", "below-middle", "below-left", "left-end", "above-left",
)
#: the seed: "Place the Boss card above the middle realm"
BOSS_START = "above-middle"

#: turn-target numbers outlined per difficulty (easy skips the step: any turn wins)
TARGET_SIZE = {"easy": 0, "normal": 2, "hard": 1}
#: reading option `unwinnable`: "lost" = lost at once when a win is no longer possible;
#: "play-on" = only the seed's stated losses, and lost after the chapter's last turn
UNWINNABLE = ("lost", "play-on")
#: reading option `same_step`: the verdict when one step both wins and earns the 12th resource
SAME_STEP = ("lost", "won")


@dataclass(frozen=True)
class Chapter3:
    """The chapter setup: 3 realms in a row (order chosen: the Boss starts above the middle one),
    the damage track marked on the Boss card, the turn target, the difficulty.

    Card values the seed does not print are inputs (docs/campaign-chapter3.md): `track` = the
    spaces of the damage track the setup die chose, left to right, each P/H/C (gain that resource)
    or S (score a star); `turn_target` = the outlined turns (normal: 2 consecutive, hard: 1, easy:
    none - any turn); `boss_path` = the Boss card's places turn by turn, clockwise, starting
    above the middle realm (default: the spec's 8-place path). `turns` is 15 in the chapter
    (tests use shorter rounds)."""

    realms: tuple[str, str, str]
    track: tuple[str, ...]
    turn_target: tuple[int, ...] = ()
    difficulty: str = "normal"
    boss_path: tuple[str, ...] = DEFAULT_BOSS_PATH
    turns: int = TURNS
    #: reading option: what happens when a win is no longer possible (see UNWINNABLE)
    unwinnable: str = "lost"
    #: reading option: the verdict when one step marks the winning space and earns the 12th resource
    same_step: str = "lost"

    def __post_init__(self) -> None:
        if len(self.realms) != 3 or len(set(self.realms)) != 3:
            raise ValueError("chapter 3 plays exactly 3 different realms in a row")
        keys = []
        for name in self.realms:
            try:
                keys.append(get_realm(name).key)
            except KeyError as exc:
                raise ValueError(exc.args[0]) from None
        object.__setattr__(self, "realms", tuple(keys))
        if self.difficulty not in TARGET_SIZE:
            raise ValueError(f"difficulty must be easy, normal or hard, not {self.difficulty!r}")
        if not 1 <= self.turns <= TURNS:
            raise ValueError(f"chapter 3 has at most {TURNS} turns")
        object.__setattr__(self, "track", tuple(self.track))
        if not self.track or any(s not in SYMBOLS for s in self.track):
            raise ValueError(f"the damage track needs at least one space, each P, H, C or S (star), not {self.track!r}")
        object.__setattr__(self, "turn_target", tuple(sorted(int(t) for t in self.turn_target)))
        self._check_turn_target()
        object.__setattr__(self, "boss_path", tuple(self.boss_path))
        check_boss_path(self.boss_path)
        if self.unwinnable not in UNWINNABLE:
            raise ValueError(f"option unwinnable must be {' or '.join(UNWINNABLE)}, not {self.unwinnable!r}")
        if self.same_step not in SAME_STEP:
            raise ValueError(f"option same_step must be {' or '.join(SAME_STEP)}, not {self.same_step!r}")

    def _check_turn_target(self) -> None:
        want, got = TARGET_SIZE[self.difficulty], self.turn_target
        if self.difficulty == "easy":
            if got:
                raise ValueError("easy skips the turn target (any turn wins); give none")
            return
        if len(got) != want:
            what = "2 consecutive turns" if want == 2 else "1 turn"
            given = ", ".join(map(str, got)) if got else "none"
            raise ValueError(f"{self.difficulty}: the turn target is {what}, got {given}")
        if want == 2 and got[1] != got[0] + 1:
            raise ValueError(f"{self.difficulty}: the turn target must be 2 consecutive turns, not {got[0]} and {got[1]}")
        for t in got:
            if not 1 <= t <= self.turns:
                raise ValueError(f"turn target {t} is outside the chapter's turns 1-{self.turns}")

    @property
    def target_turns(self) -> tuple[int, ...]:
        """The turns (1-based) in which marking the last space wins: the outlined ones (easy: all)."""
        return self.turn_target or tuple(range(1, self.turns + 1))

    def target_text(self) -> str:
        if not self.turn_target:
            return "any turn"
        return "-".join(map(str, self.turn_target))

    def track_text(self) -> str:
        return " ".join(self.track)

    def boss_at(self, turn: int) -> str:
        """The Boss card's place during 0-based `turn` (it moves one step at the end of every turn)."""
        return self.boss_path[turn % len(self.boss_path)]

    def neighbours(self, turn: int) -> tuple[int, ...]:
        return POSITIONS[self.boss_at(turn)]

    def game(self, rolls: tuple[tuple[int, int], ...], rules: RuleSet = DEFAULT_RULES) -> Game:
        """The round of this chapter: its realms in order, the rolls so far, compensation off."""
        if not 1 <= len(rolls) <= self.turns:
            raise ValueError(f"chapter 3 with turns={self.turns} takes 1-{self.turns} rolls, got {len(rolls)}")
        return Game(tuple(get_realm(k) for k in self.realms), tuple(rolls), replace(rules, compensation="off"))


def check_boss_path(path: tuple[str, ...]) -> None:
    """A Boss path names known places, starts above the middle realm and moves every turn."""
    if not path:
        raise ValueError("the Boss path needs at least one place")
    unknown = [p for p in path if p not in POSITIONS]
    if unknown:
        raise ValueError(f"unknown Boss place {unknown[0]!r} (known: {', '.join(POSITIONS)})")
    if path[0] != BOSS_START:
        raise ValueError(f"the Boss path starts {BOSS_START} (seed: the Boss card is placed above the middle realm), not {path[0]}")
    if len(path) > 1 and any(path[i] == path[(i + 1) % len(path)] for i in range(len(path))):
        raise ValueError("the Boss path repeats a place on consecutive turns (the Boss moves one step every turn)")


@dataclass(frozen=True)
class Mark:
    """One damage space marked: turn and action (1-based), the realm that earned it, the symbol."""

    turn: int
    action: int
    realm: str
    symbol: str

    def text(self) -> str:
        return f"turn {self.turn} action {self.action}: {SYMBOL_NAMES[self.symbol]} in {self.realm}"


@dataclass(frozen=True)
class Chapter3Verdict:
    """`outcome` is "won", "lost" or "illegal"; `turn` is 1-based (None: before the first turn);
    `action` the 1-based step within the turn where the verdict fell (None: end of the turn).

    The chapter's state at that moment: stars per realm (scored the moment their condition is
    met), resources earned per kind (spent or not), unspent resources, damage spaces marked of
    the track's length (every mark listed), and where the Boss card was."""

    outcome: str
    turn: int | None
    reason: str
    action: int | None = None
    stars: tuple[int, ...] = ()
    earned: Resources = Resources()
    unspent: int = 0
    damage: int = 0
    track_length: int = 0
    boss: str = BOSS_START
    marks: tuple[Mark, ...] = ()
    #: every step that changed the stars: (turn, action or None for the end of the turn, stars per realm after it)
    star_log: tuple[tuple[int, int | None, tuple[int, ...]], ...] = ()

    @property
    def won(self) -> bool:
        return self.outcome == "won"


def activation_effect(game: Game, state: RoundState, act: Activation) -> Effect:
    """What the realm card does for a legal activation (the same call the engine makes), so that
    the gain of this one activation is known apart from the costs paid."""
    r = game.index(act.realm)
    roll = roll_of(game, state)
    value = act.source.base_value(roll) + act.shift
    return game.realms[r].apply(state.sheets[r], Use(value, act.source, roll, state.turn), act.choice, game.rules)


def damage_hit(symbol: str, neighbours: tuple[int, ...], realm: int, gain: Resources,
               before: tuple[int, ...], after: tuple[int, ...]) -> int | None:
    """The realm (index) where one activation damages the Boss, or None: the activation is in
    realm index `realm`, gains `gain`, and moves the stars per realm from `before` to `after`;
    `symbol` is the leftmost unmarked damage space.

    A resource must be gained by the activated realm, and that realm must neighbour the Boss; a
    star counts when a neighbouring realm's star count rises with this step (also a realm that
    scores from the other realms, like Between Two Cities)."""
    if symbol == "S":
        return next((r for r in neighbours if after[r] > before[r]), None)
    return realm if realm in neighbours and gain.get(symbol) > 0 else None


def die_placements(game: Game, state: RoundState, die: int) -> list[Activation]:
    """Every way rolled die `die` could be the next step: any realm, any choice, any pumpkin
    change the base rules allow (2k pumpkins for ±k, the 3-pumpkin ±1) that the held resources
    pay for - the engine's own `legal_actions`, restricted to this die."""
    if state.die_spent[die]:
        return []
    src = Source("die", die)
    return [a for a in legal_actions(game, state, dice_only=True) if isinstance(a, Activation) and a.source == src]


def die_usable(game: Game, state: RoundState, die: int) -> bool:
    return bool(die_placements(game, state, die))


def check_chapter3(game: Game, setup: Chapter3, line: Line) -> Chapter3Verdict:
    """Replay a line under chapter 3's rules: won (turn and step), lost (turn and reason) or
    illegal (step and rule). The line may stop at the winning or losing step; steps after it
    are not looked at."""
    keys = tuple(r.key for r in game.realms)
    if keys != setup.realms:
        return Chapter3Verdict("illegal", None, f"the game's realms {keys} are not the setup's {setup.realms}")
    if game.turns > setup.turns:
        return Chapter3Verdict("illegal", None, f"the rolls give {game.turns} turns, the chapter has at most {setup.turns}")
    if game.rules.compensation != "off":
        return Chapter3Verdict("illegal", None, "the campaign has no compensation: build the game with setup.game(rolls)")
    state = start(game)
    stars = realm_stars(game, state)
    earned = Resources()
    marks: list[Mark] = []
    star_log: list[tuple[int, int | None, tuple[int, ...]]] = []

    def verdict(outcome: str, msg: str, t: int, i: int | None) -> Chapter3Verdict:
        return Chapter3Verdict(outcome, t + 1, msg, i, stars, earned, state.resources.total(), len(marks),
                               len(setup.track), setup.boss_at(t), tuple(marks), tuple(star_log))

    if len(line.turns) > game.turns:
        return verdict("illegal", f"the line has {len(line.turns)} turns, the rolls give {game.turns}", game.turns - 1, None)
    for t, turn in enumerate(line.turns):
        if tuple(turn.roll) != game.rolls[t]:
            return verdict("illegal", f"the line says roll {turn.roll[0]} {turn.roll[1]}, the rolls say "
                                      f"{game.rolls[t][0]} {game.rolls[t][1]}", t, None)
        neighbours = setup.neighbours(t)
        for i, action in enumerate(turn.actions):
            if isinstance(action, Compensation):
                return verdict("illegal", f"{action.text()}: the campaign has no compensation (campaign_skip_dice off)", t, i + 1)
            try:
                after = apply_activation(game, state, action)
            except IllegalAction as exc:
                return verdict("illegal", f"{action.text()}: {exc}", t, i + 1)
            gain = activation_effect(game, state, action).gain
            realm = game.index(action.realm)
            state, before, stars = after, stars, realm_stars(game, after)
            if stars != before:
                star_log.append((t + 1, i + 1, stars))
            earned = earned + gain
            hit = ""  # the symbol marked by this step (at most one per activation)
            if len(marks) < len(setup.track):
                symbol = setup.track[len(marks)]
                where = damage_hit(symbol, neighbours, realm, gain, before, stars)
                if where is not None:
                    marks.append(Mark(t + 1, i + 1, game.realms[where].key, symbol))
                    hit = symbol
            over = [k for k in KINDS if earned.get(k) >= EARN_LIMIT]
            finished = bool(hit) and len(marks) == len(setup.track)
            won = finished and t + 1 in setup.target_turns
            lost_msg = (f"{action.text()}: earned {EARN_LIMIT} {SYMBOL_NAMES[over[0]]}s (spent or not; earned {earned})"
                        if over else "")
            if won and (not lost_msg or setup.same_step == "won"):
                extra = f" (the same step earned the {EARN_LIMIT}th {SYMBOL_NAMES[over[0]]}; option same_step=won)" if over else ""
                return verdict("won", f"{action.text()}: the last damage space ({SYMBOL_NAMES[hit]}, "
                                      f"{len(marks)} of {len(setup.track)}) marked in turn {t + 1}, "
                                      f"within the turn target {setup.target_text()}{extra}", t, i + 1)
            if lost_msg:
                if won:
                    lost_msg += " - the same step marked the last damage space (option same_step=lost)"
                return verdict("lost", lost_msg, t, i + 1)
            if finished and setup.unwinnable == "lost":
                return verdict("lost", f"{action.text()}: the last damage space was marked in turn {t + 1}, outside the "
                                       f"turn target {setup.target_text()}; the chapter can no longer be won", t, i + 1)
        roll = game.rolls[t]
        unused = {k: die_placements(game, state, k) for k in (0, 1) if not state.die_spent[k]}
        for k, ways in unused.items():  # a # that cannot be used loses at once, whatever else is unused
            if not ways:
                return verdict("lost", f"die{k + 1} ({roll[k]}) cannot be used (holding {state.resources})", t, None)
        for k, ways in unused.items():
            return verdict("illegal", f"die{k + 1} ({roll[k]}) is not used but could be (e.g. {ways[0].text()}): "
                                      f"every rolled # must be used", t, None)
        if t + 1 >= setup.turns:
            return verdict("lost", f"turn {t + 1}, the chapter's last, ended without the win "
                                   f"({len(marks)} of {len(setup.track)} damage spaces marked)", t, None)
        if setup.unwinnable == "lost" and t + 1 >= setup.target_turns[-1]:
            return verdict("lost", f"turn {t + 1}, the last of the turn target {setup.target_text()}, ended without the "
                                   f"win ({len(marks)} of {len(setup.track)} damage spaces marked); the chapter can "
                                   f"no longer be won", t, None)
        if t + 1 == len(line.turns):
            return verdict("illegal", f"the line stops after turn {t + 1} without a win or a loss (the chapter runs up "
                                      f"to turn {setup.turns})", t, None)
        try:
            state = end_turn(game, state, dict(turn.end))
        except IllegalAction as exc:
            return verdict("illegal", f"end of turn: {exc}", t, None)
        before, stars = stars, realm_stars(game, state)
        if stars != before:
            star_log.append((t + 1, None, stars))
    # only reached when the line has no turns at all
    return verdict("illegal", "the line has no turns", 0, None)


# ---- inputs the seed does not print: damage tracks, Boss path, turn target --------------------

def parse_symbol(text: str, where: str) -> str:
    sym = _SYMBOL_WORDS.get(text.strip().lower())
    if sym is None:
        raise InputError(f"{where}: unknown damage space {text!r} (P, H, C or S for a star)")
    return sym


def parse_track(text: str, where: str = "--track") -> tuple[str, ...]:
    """'P H S C' or 'P,H,S,C': one damage track, left to right."""
    tokens = [t for t in re.split(r"[\s,;]+", text) if t]
    if not tokens:
        raise InputError(f"{where}: the damage track is empty (give spaces like P H S C)")
    return tuple(parse_symbol(t, where) for t in tokens)


def parse_tracks(text: str, filename: str = "<tracks>") -> dict[int, tuple[str, ...]]:
    """The Boss card's six damage tracks, one line each: 'N: P H S C' (N = the die face 1-6)."""
    tracks: dict[int, tuple[str, ...]] = {}
    for no, raw in enumerate(text.splitlines(), 1):
        body = raw.split("#", 1)[0].strip()
        if not body:
            continue
        where = f"{filename} line {no}"
        m = re.fullmatch(r"(\d+)\s*:\s*(.*)", body)
        if not m:
            raise InputError(f"{where}: expected 'N: spaces' (N = die face 1-6, spaces P H C S)")
        face = int(m.group(1))
        if not 1 <= face <= TRACKS:
            raise InputError(f"{where}: track {face} is not a die face 1-{TRACKS}")
        if face in tracks:
            raise InputError(f"{where}: track {face} is given twice")
        tracks[face] = parse_track(m.group(2), where)
    missing = [f for f in range(1, TRACKS + 1) if f not in tracks]
    if missing:
        raise InputError(f"{filename}: the Boss card has {TRACKS} damage tracks; missing {', '.join(map(str, missing))}")
    return tracks


def load_track(path: str, roll: int) -> tuple[str, ...]:
    """The damage track the setup die chose from a tracks file."""
    if not 1 <= roll <= TRACKS:
        raise InputError(f"--damage-roll: a die face 1-{TRACKS}, not {roll}")
    return parse_tracks(read_text(path), path)[roll]


def parse_boss_path(text: str, filename: str = "<boss path>") -> tuple[str, ...]:
    """A Boss path file: the places in order, whitespace/comma separated; '#' starts a comment."""
    names: list[str] = []
    for raw in text.splitlines():
        body = raw.split("#", 1)[0]
        names.extend(t for t in re.split(r"[\s,;]+", body) if t)
    path = tuple(names)
    try:
        check_boss_path(path)
    except ValueError as exc:
        raise InputError(f"{filename}: {exc}") from None
    return path


def load_boss_path(path: str) -> tuple[str, ...]:
    return parse_boss_path(read_text(path), path)


def parse_turn_target(text: str) -> tuple[int, ...]:
    """'9', '8-9' or '8,9' (the outlined Chapter-card turns)."""
    parts = [p for p in re.split(r"[\s,\-]+", text.strip()) if p]
    if not parts or len(parts) > 2 or not all(p.isdigit() for p in parts):
        raise InputError(f"--turn-target: expected a turn like 9 or two consecutive turns like 8-9, got {text!r}")
    return tuple(int(p) for p in parts)


# ---- the command line's inputs and report (cli.py `solve check chapter3`) ---------------------

def setup_from_inputs(realms: tuple[str, ...], difficulty: str = "normal", *, track: str | None = None,
                      tracks_path: str | None = None, damage_roll: int | None = None, turn_target: str | None = None,
                      boss_path_file: str | None = None, unwinnable: str = "lost", same_step: str = "lost") -> Chapter3:
    """A Chapter3 from the command line's texts; every problem is one InputError line."""
    if (track is None) == (tracks_path is None):
        raise InputError("give the damage track either as --track P,H,S,C or as --tracks FILE with --damage-roll N")
    if tracks_path is not None:
        if damage_roll is None:
            raise InputError("--tracks needs --damage-roll N (the setup die: which of the 6 tracks is marked)")
        spaces = load_track(tracks_path, damage_roll)
    else:
        if damage_roll is not None:
            raise InputError("--damage-roll picks a track from --tracks FILE; with --track it has no use")
        assert track is not None
        spaces = parse_track(track)
    target = parse_turn_target(turn_target) if turn_target is not None else ()
    path = load_boss_path(boss_path_file) if boss_path_file is not None else DEFAULT_BOSS_PATH
    try:
        return Chapter3(tuple(realms), spaces, target, difficulty, path, unwinnable=unwinnable, same_step=same_step)  # type: ignore[arg-type]
    except ValueError as exc:
        raise InputError(f"chapter 3: {exc}") from None


def verdict_report(setup: Chapter3, verdict: Chapter3Verdict) -> dict[str, object]:
    """The verdict as one JSON object (`solve check chapter3 --json`)."""
    return {
        "status": verdict.outcome,
        "turn": verdict.turn,
        "action": verdict.action,
        "reason": verdict.reason,
        "stars": list(verdict.stars),
        "earned": {k: verdict.earned.get(k) for k in KINDS},
        "unspent": verdict.unspent,
        "damage": verdict.damage,
        "track": list(setup.track),
        "marks": [{"turn": m.turn, "action": m.action, "realm": m.realm, "space": m.symbol} for m in verdict.marks],
        "boss": verdict.boss,
        "star_log": [{"turn": t, "action": i, "stars": list(st)} for t, i, st in verdict.star_log],
        "turn_target": list(setup.turn_target),
        "difficulty": setup.difficulty,
        "options": {"unwinnable": setup.unwinnable, "same_step": setup.same_step},
    }


def verdict_lines(setup: Chapter3, verdict: Chapter3Verdict) -> list[str]:
    """The verdict for a person: outcome, turn and reason, then the chapter's state."""
    where = f" at turn {verdict.turn}" if verdict.turn else ""
    step = f", action {verdict.action}" if verdict.action else ""
    marks = "; ".join(m.text() for m in verdict.marks) or "none"
    return [
        f"{verdict.outcome.upper()}{where}{step}: {verdict.reason}",
        f"  damage {verdict.damage} of {len(setup.track)} ({setup.track_text()}); marks: {marks}",
        f"  stars per realm: {', '.join(map(str, verdict.stars)) or '-'}; earned {verdict.earned}; "
        f"unspent resources: {verdict.unspent}; Boss {verdict.boss}",
        f"  turn target {setup.target_text()}, difficulty {setup.difficulty}",
    ]
