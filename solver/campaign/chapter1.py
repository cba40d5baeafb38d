"""Campaign chapter 1, "The Hole in the Realmiverse" (seed 003; rolling-realms.md §3, §6.7).

A thin layer over the base engine (solver/engine.py), which it does not change: every step of a
line goes through `engine.apply_activation` / `engine.end_turn`, and this module adds the
chapter's rules around those calls. Readings decided here are listed in docs/campaign.md.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable

from ..engine import Game, RoundState, apply_activation, end_turn, realm_stars, roll_of, start
from ..errors import IllegalAction
from ..line import Activation, Compensation, Line, Source
from ..realms import get_realm
from ..realms.base import Use
from ..rules import DEFAULT_RULES, RuleSet
from .targets import TargetRange

#: most unspent resources (all kinds together) allowed at the end for a win, per difficulty
MAX_UNSPENT = {"easy": 5, "normal": 4, "hard": 3}
#: at most this many pumpkins per activation
MAX_PUMPKINS = 3
#: sources whose # may be changed with pumpkins: rolled dice and heart copies
PUMPKIN_SOURCES = ("die", "copy-pair", "copy")


@dataclass(frozen=True)
class Chapter1(TargetRange):
    """The chapter setup: 3 realms in a row (order chosen), the outlined star target, the difficulty.

    `target` is the outlined Chapter-card circle (an input: the seed does not print the circles):
    an exact star count `n` or an inclusive range `(lo, hi)`. `turns` is 9 in the chapter; the
    last turn of the rolls is the one the win is judged at (tests use shorter rolls)."""

    realms: tuple[str, str, str]
    target: int | tuple[int, int]
    difficulty: str = "normal"
    turns: int = 9
    #: reading option: also count pumpkins paid as a realm card's cost toward the 3-pumpkin limit
    limit_counts_card_costs: bool = False

    def __post_init__(self) -> None:
        if len(self.realms) != 3 or len(set(self.realms)) != 3:
            raise ValueError("chapter 1 plays exactly 3 different realms in a row")
        object.__setattr__(self, "realms", tuple(get_realm(k).key for k in self.realms))
        if self.difficulty not in MAX_UNSPENT:
            raise ValueError(f"difficulty must be easy, normal or hard, not {self.difficulty!r}")
        lo, hi = self.target_range
        if not 0 <= lo <= hi:
            raise ValueError(f"star target {self.target!r} must be a number or a range lo..hi with 0 <= lo <= hi")
        if not 1 <= self.turns <= 9:
            raise ValueError("chapter 1 has at most 9 turns")

    @property
    def max_unspent(self) -> int:
        return MAX_UNSPENT[self.difficulty]

    def game(self, rolls: tuple[tuple[int, int], ...], rules: RuleSet = DEFAULT_RULES) -> Game:
        """The round of this chapter: its realms in order, the rolls, compensation off."""
        if len(rolls) != self.turns:
            raise ValueError(f"chapter 1 with turns={self.turns} needs {self.turns} rolls, got {len(rolls)}")
        return Game(tuple(get_realm(k) for k in self.realms), tuple(rolls), replace(rules, compensation="off"))


@dataclass(frozen=True)
class Chapter1Verdict:
    """`outcome` is "won", "lost" or "illegal"; `turn` is 1-based (None: before the first turn)."""

    outcome: str
    turn: int | None
    reason: str
    #: action index within the turn (1-based) for an illegal step; None otherwise
    action: int | None = None
    stars: tuple[int, ...] = ()
    unspent: int = 0

    @property
    def won(self) -> bool:
        return self.outcome == "won"


def _card_pumpkins(game: Game, state: RoundState, act: Activation) -> int:
    """Pumpkins the realm card itself asks for this activation (0 when the step is illegal anyway)."""
    try:
        r = game.index(act.realm)
        roll = roll_of(game, state)
        value = act.source.base_value(roll) + act.shift
        eff = game.realms[r].apply(state.sheets[r], Use(value, act.source, roll, state.turn), act.choice, game.rules)
    except (IllegalAction, AssertionError):
        return 0
    return eff.cost.P


def check_activation(game: Game, setup: Chapter1, state: RoundState, act: Activation) -> None:
    """The chapter's rules for one activation, on top of the base rules; raise IllegalAction."""
    roll = roll_of(game, state)
    changed = act.shift != 0 or act.extra
    if changed and act.source.kind not in PUMPKIN_SOURCES:
        raise IllegalAction(
            f"chapter 1: pumpkins only change rolled dice or heart copies, not a {act.source.text()} #"
        )
    spent = act.pumpkin_cost() + (_card_pumpkins(game, state, act) if setup.limit_counts_card_costs else 0)
    if spent > MAX_PUMPKINS:
        raise IllegalAction(f"chapter 1: at most {MAX_PUMPKINS} pumpkins per activation ({spent} spent)")
    if act.source.kind == "copy" and roll[0] == roll[1]:
        raise IllegalAction("chapter 1: 3 hearts to copy a die of a pair, where 2 hearts suffice (copy-pair)")
    if act.extra:
        try:
            r = game.index(act.realm)
        except IllegalAction:
            return  # the base engine names the unknown realm
        if r not in state.activated:
            raise IllegalAction(
                f"chapter 1: 3 pumpkins for ±1 into {act.realm}, not yet activated this turn, where 2 suffice"
            )


def apply_chapter1_activation(game: Game, setup: Chapter1, state: RoundState, act: Activation) -> RoundState:
    check_activation(game, setup, state, act)
    return apply_activation(game, state, act)


def die_placements(
    game: Game, setup: Chapter1 | None, state: RoundState, die: int, *,
    step: Callable[[RoundState, Activation], RoundState] | None = None, max_shift: int = 1,
) -> list[Activation]:
    """Every way rolled die `die` could be used as the next step (chapter rules included).

    Tried: every realm, every choice the realm offers, with no change, ±1 for 2 pumpkins (realms
    not yet activated this turn) or the 3-pumpkin ±1 (realms already activated); each candidate
    must pass the base engine's `apply_activation` and this chapter's `check_activation`.

    Other chapters reuse it: `step` applies an activation under their rules instead (raising
    IllegalAction), `max_shift` widens the 2-pumpkin changes tried (chapter 1 needs ±1 only: it
    allows at most 3 pumpkins per activation)."""
    if state.die_spent[die]:
        return []
    value = roll_of(game, state)[die]
    src = Source("die", die)
    found: list[Activation] = []
    for r, realm in enumerate(game.realms):
        if r in state.activated:
            changes = [(d, True) for d in (-1, 1)]
        else:
            changes = [(d, False) for d in sorted(range(-max_shift, max_shift + 1), key=abs)]
        for shift, extra in changes:
            if not 1 <= value + shift <= 6:
                continue
            for choice in realm.candidates(state.sheets[r], value + shift, game.rules):
                act = Activation(src, realm.key, choice, shift, extra)
                try:
                    if step is None:
                        assert setup is not None
                        apply_chapter1_activation(game, setup, state, act)
                    else:
                        step(state, act)
                except IllegalAction:
                    continue
                found.append(act)
    return found


def die_usable(game: Game, setup: Chapter1 | None, state: RoundState, die: int, **hooks: Any) -> bool:
    """Some way to use rolled die `die` now exists (`hooks`: `step`, `max_shift` of die_placements)."""
    return bool(die_placements(game, setup, state, die, **hooks))


def judge_end(game: Game, setup: Chapter1, state: RoundState) -> Chapter1Verdict:
    """The win check after the last turn: ≥ 2 stars per realm, total in target, few resources."""
    stars = realm_stars(game, state)
    unspent = state.resources.total()
    turn = game.turns
    why: list[str] = []
    short = [f"{r.key} {s}" for r, s in zip(game.realms, stars) if s < 2]
    if short:
        why.append(f"fewer than 2 stars in {', '.join(short)}")
    lo, hi = setup.target_range
    if not lo <= sum(stars) <= hi:
        why.append(f"{sum(stars)} stars is not the target {setup.target_text()}")
    if unspent > setup.max_unspent:
        why.append(f"{unspent} unspent resources, more than {setup.max_unspent} ({setup.difficulty})")
    if why:
        return Chapter1Verdict("lost", turn, "; ".join(why), None, stars, unspent)
    return Chapter1Verdict(
        "won", turn, f"{sum(stars)} stars (target {setup.target_text()}), {unspent} unspent resources", None, stars, unspent
    )


def check_chapter1(game: Game, setup: Chapter1, line: Line) -> Chapter1Verdict:
    """Replay a line under chapter 1's rules: won, lost (turn and reason) or illegal (step and rule).

    A line that loses may stop at the losing turn; turns after it are not looked at."""
    keys = tuple(r.key for r in game.realms)
    if keys != setup.realms:
        return Chapter1Verdict("illegal", None, f"the game's realms {keys} are not the setup's {setup.realms}")
    if game.turns != setup.turns:
        return Chapter1Verdict("illegal", None, f"the rolls give {game.turns} turns, the chapter has {setup.turns}")
    state = start(game)

    def illegal(msg: str, t: int, i: int | None) -> Chapter1Verdict:
        return Chapter1Verdict("illegal", t + 1, msg, i, realm_stars(game, state), state.resources.total())

    if len(line.turns) > game.turns:
        return illegal(f"the line has {len(line.turns)} turns, the rolls give {game.turns}", game.turns - 1, None)
    for t in range(game.turns):
        if t >= len(line.turns):
            return illegal(f"the line stops after turn {t} of {game.turns}", t, None)
        turn = line.turns[t]
        if tuple(turn.roll) != game.rolls[t]:
            return illegal(f"the line says roll {turn.roll[0]} {turn.roll[1]}, the rolls say {game.rolls[t][0]} {game.rolls[t][1]}", t, None)
        for i, action in enumerate(turn.actions):
            if isinstance(action, Compensation):
                return illegal(f"{action.text()}: the campaign has no compensation (campaign_skip_dice off)", t, i + 1)
            try:
                state = apply_chapter1_activation(game, setup, state, action)
            except IllegalAction as exc:
                return illegal(f"{action.text()}: {exc}", t, i + 1)
        roll = game.rolls[t]
        # an unusable die loses at once, even beside an unused usable one (as in chapters 2-4)
        unused = {k: die_placements(game, setup, state, k) for k in (0, 1) if not state.die_spent[k]}
        for k, ways in unused.items():
            if not ways:
                return Chapter1Verdict(
                    "lost", t + 1, f"die{k + 1} ({roll[k]}) cannot be used (holding {state.resources})",
                    None, realm_stars(game, state), state.resources.total(),
                )
        for k, ways in unused.items():
            return illegal(
                f"die{k + 1} ({roll[k]}) is not used but could be (e.g. {ways[0].text()}): every rolled # must be used",
                t, None,
            )
        try:
            state = end_turn(game, state, dict(turn.end))
        except IllegalAction as exc:
            return illegal(f"end of turn: {exc}", t, None)
    return judge_end(game, setup, state)
