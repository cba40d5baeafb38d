"""The rules engine: applies a line step by step (this is the puzzle-checker).

Pure functions over immutable states. It states the rules of rolling-realms.md sections 1 and 6
and nothing else: no symmetry breaking, no dominance, no solver tricks.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Hashable, Iterator, Sequence

from .errors import IllegalAction
from .line import Action, Activation, Choice, Compensation, Line, Source, TurnPlay
from .realms.base import Realm, TurnEnd, Use
from .resources import KINDS, Resources
from .rules import DEFAULT_RULES, RuleSet


@dataclass(frozen=True)
class Game:
    """The fixed facts of a round: its realms (in order), the rolls, the rule options."""

    realms: tuple[Realm, ...]
    rolls: tuple[tuple[int, int], ...]
    rules: RuleSet = DEFAULT_RULES

    def index(self, key: str) -> int:
        for i, r in enumerate(self.realms):
            if r.key == key:
                return i
        raise IllegalAction(f"realm {key!r} is not in this round ({', '.join(r.key for r in self.realms)})")

    @property
    def turns(self) -> int:
        return len(self.rolls)


@dataclass(frozen=True)
class RoundState:
    """Everything that matters between two steps of a round."""

    turn: int
    resources: Resources
    sheets: tuple[Hashable, ...]
    #: realms (by index) already activated this turn
    activated: frozenset[int] = frozenset()
    #: rolled die k already spent this turn (placed or compensated)
    die_spent: tuple[bool, bool] = (False, False)
    #: realm index where rolled die k was placed this turn (None: not placed)
    die_realm: tuple[int | None, int | None] = (None, None)


def start(game: Game) -> RoundState:
    return RoundState(0, Resources(), tuple(r.initial(game.rules) for r in game.realms))


def roll_of(game: Game, state: RoundState) -> tuple[int, int]:
    if state.turn >= game.turns:
        raise IllegalAction("the round is over: no rolls left")
    return game.rolls[state.turn]


def check_source(game: Game, state: RoundState, source: Source) -> None:
    roll = roll_of(game, state)
    if source.kind == "create":
        if source.value is None or not 1 <= source.value <= 6:
            raise IllegalAction("a created # must be 1-6")
        return
    if source.die not in (0, 1):
        raise IllegalAction("a source names die1 or die2")
    if source.kind == "die" and state.die_spent[source.die]:
        raise IllegalAction(f"die{source.die + 1} was already used this turn")
    if source.kind == "copy-pair" and roll[0] != roll[1]:
        raise IllegalAction("2 hearts copy a die only when the roll is a pair")
    if source.kind == "copy-seven" and roll[0] + roll[1] != 7:
        raise IllegalAction("2 coins copy a die only when the dice sum to 7")


def apply_activation(game: Game, state: RoundState, act: Activation) -> RoundState:
    """Use one # in one realm, or raise IllegalAction with the rule broken."""
    roll = roll_of(game, state)
    check_source(game, state, act.source)
    r = game.index(act.realm)
    base = act.source.base_value(roll)
    if act.extra and abs(act.shift) != 1:
        raise IllegalAction("the 3-pumpkin power changes a # by exactly +1 or -1")
    value = base + act.shift
    if not 1 <= value <= 6:
        raise IllegalAction(f"a # never goes below 1 or above 6 ({base}{act.shift:+d} = {value})")
    if r in state.activated and not act.extra:
        raise IllegalAction(f"{act.realm} was already activated this turn (only the 3-pumpkin power allows a second #)")
    paid = act.source.cost() + Resources(P=act.pumpkin_cost())
    if not state.resources.covers(paid):
        raise IllegalAction(f"cannot pay {paid} for the # (holding {state.resources})")
    held = state.resources - paid
    realm = game.realms[r]
    effect = realm.apply(state.sheets[r], Use(value, act.source, roll, state.turn), act.choice, game.rules)
    if not held.covers(effect.cost):
        raise IllegalAction(f"{act.realm}: cannot pay the card's cost {effect.cost} (holding {held})")
    sheets = observe_gain(game, state.sheets[:r] + (effect.state,) + state.sheets[r + 1 :], effect.gain)
    die_spent, die_realm = state.die_spent, state.die_realm
    if act.source.kind == "die":
        k = act.source.die
        assert k is not None
        die_spent = _set(die_spent, k, True)
        die_realm = _set(die_realm, k, r)
    return replace(
        state,
        resources=held - effect.cost + effect.gain,
        sheets=sheets,
        activated=state.activated | {r},
        die_spent=die_spent,
        die_realm=die_realm,
    )


def placements(game: Game, state: RoundState, value: int, source: Source, realm: int) -> list[tuple[Choice, Any]]:
    """Legal placements of an unchanged # in one realm that the held resources can pay for."""
    roll = roll_of(game, state)
    opts = game.realms[realm].options(state.sheets[realm], Use(value, source, roll, state.turn), game.rules)
    return [(c, e) for c, e in opts if state.resources.covers(e.cost)]


def can_compensate(game: Game, state: RoundState, die: int) -> str | None:
    """None when the die may be compensated now, else the reason it may not."""
    if game.rules.compensation == "off":
        return "compensation is off (rule option compensation=off)"
    if state.die_spent[die]:
        return f"die{die + 1} was already used this turn"
    value = roll_of(game, state)[die]
    for r, realm in enumerate(game.realms):
        if r in state.activated:
            continue
        if placements(game, state, value, Source("die", die), r):
            return f"die{die + 1} ({value}) can still be used in {realm.key}"
    return None


def apply_compensation(game: Game, state: RoundState, comp: Compensation) -> RoundState:
    if comp.die not in (0, 1):
        raise IllegalAction("compensation names die1 or die2")
    if comp.resource not in KINDS:
        raise IllegalAction("compensation gives P, H or C")
    reason = can_compensate(game, state, comp.die)
    if reason:
        raise IllegalAction(f"cannot compensate: {reason}")
    gain = Resources.of(comp.resource)
    return replace(
        state,
        resources=state.resources + gain,
        sheets=observe_gain(game, state.sheets, gain),
        die_spent=_set(state.die_spent, comp.die, True),
    )


def observe_gain(game: Game, sheets: tuple[Hashable, ...], gain: Resources) -> tuple[Hashable, ...]:
    """Tell every realm that the player earned `gain` (realms that count earnings anywhere in
    the round, like My Little Scythe; every other realm keeps its sheet)."""
    if not gain.total():
        return sheets
    return tuple(realm.observe_gain(sheets[r], gain, game.rules) for r, realm in enumerate(game.realms))


def apply_action(game: Game, state: RoundState, action: Action) -> RoundState:
    if isinstance(action, Compensation):
        return apply_compensation(game, state, action)
    return apply_activation(game, state, action)


def turn_end_info(game: Game, state: RoundState, realm: int) -> TurnEnd:
    return TurnEnd(
        roll=roll_of(game, state),
        placed_here=(state.die_realm[0] == realm, state.die_realm[1] == realm),
        turn=state.turn,
        last_turn=state.turn == game.turns - 1,
    )


def end_options(game: Game, state: RoundState, realm: int) -> list[tuple[Choice, Hashable]]:
    return game.realms[realm].end_turn_options(state.sheets[realm], turn_end_info(game, state, realm), game.rules)


def end_turn(game: Game, state: RoundState, choices: dict[str, Choice] | None = None) -> RoundState:
    """Close the turn: each realm's end-of-turn step (choices by realm key), then the next turn."""
    choices = dict(choices or {})
    sheets = list(state.sheets)
    for r, realm in enumerate(game.realms):
        opts = end_options(game, state, r)
        wanted = choices.pop(realm.key, None)
        if wanted is None:
            if len(opts) > 1:
                listed = "; ".join(" ".join(f"{k}={v}" for k, v in c) for c, _ in opts)
                raise IllegalAction(f"{realm.key}: the end of turn needs a choice ({listed})")
            sheets[r] = opts[0][1]
            continue
        for c, new in opts:
            if c == wanted:
                sheets[r] = new
                break
        else:
            listed = "; ".join(" ".join(f"{k}={v}" for k, v in c) or "nothing" for c, _ in opts)
            raise IllegalAction(f"{realm.key}: end-of-turn choice not allowed (allowed: {listed})")
    if choices:
        raise IllegalAction(f"end-of-turn choice for a realm with no end-of-turn step: {', '.join(choices)}")
    return RoundState(state.turn + 1, state.resources, tuple(sheets))


def realm_stars(game: Game, state: RoundState) -> tuple[int, ...]:
    """Stars per realm, each capped at the rule's star cap.

    Two passes: every realm's own stars (capped), then each realm's stars given the other
    realms' own stars (`stars_in_round`; the same number except for realms that score from the
    other realms, like Between Two Cities), capped again."""
    cap = game.rules.star_cap
    own = [min(cap, realm.stars(state.sheets[r], game.rules)) for r, realm in enumerate(game.realms)]
    return tuple(
        min(cap, realm.stars_in_round(state.sheets[r], game.rules, tuple(own[:r] + own[r + 1 :])))
        for r, realm in enumerate(game.realms)
    )


def score_tenths(game: Game, state: RoundState) -> int:
    """Round score in tenths of a star: 10 x stars + unspent resources."""
    return 10 * sum(realm_stars(game, state)) + state.resources.total()


@dataclass(frozen=True)
class Step:
    """One replayed step: where it happened and the state after it."""

    turn: int
    index: int  # action index within the turn; -1 for the end of the turn
    text: str
    state: RoundState


@dataclass(frozen=True)
class Replay:
    steps: tuple[Step, ...]
    final: RoundState
    stars: tuple[int, ...]
    score_tenths: int
    error: str | None = None
    error_turn: int | None = None
    error_step: int | None = None

    @property
    def legal(self) -> bool:
        return self.error is None

    @property
    def stars_total(self) -> int:
        return sum(self.stars)


def replay(game: Game, line: Line, partial: bool = False) -> Replay:
    """Apply a whole line; stop at the first illegal step and say which rule it broke.
    `partial`: the line may stop before the round's last turn (the turns played so far)."""
    state = start(game)
    steps: list[Step] = []

    def fail(msg: str, t: int, i: int) -> Replay:
        return Replay(tuple(steps), state, realm_stars(game, state), score_tenths(game, state), msg, t, i)

    if len(line.turns) > game.turns:
        return fail(f"the line has {len(line.turns)} turns but the rolls give {game.turns}", len(game.rolls), -1)
    for t, turn in enumerate(line.turns):
        if tuple(turn.roll) != game.rolls[t]:
            return fail(f"turn {t + 1}: the line says roll {turn.roll[0]} {turn.roll[1]}, the rolls file says {game.rolls[t][0]} {game.rolls[t][1]}", t, -1)
        for i, action in enumerate(turn.actions):
            try:
                state = apply_action(game, state, action)
            except IllegalAction as exc:
                return fail(f"turn {t + 1}, action {i + 1} ({action.text()}): {exc}", t, i)
            steps.append(Step(t, i, action.text(), state))
        try:
            state = end_turn(game, state, dict(turn.end))
        except IllegalAction as exc:
            return fail(f"turn {t + 1}, end of turn: {exc}", t, -1)
        steps.append(Step(t, -1, "end of turn", state))
    if len(line.turns) < game.turns and not partial:
        return fail(f"the line stops after turn {len(line.turns)} of {game.turns}", len(line.turns), -1)
    return Replay(tuple(steps), state, realm_stars(game, state), score_tenths(game, state))


# ---- enumeration (random lines, exhaustive search) -------------------------------------------

def sources(game: Game, state: RoundState) -> Iterator[Source]:
    roll = roll_of(game, state)
    for k in (0, 1):
        if not state.die_spent[k]:
            yield Source("die", k)
    for k in (0, 1):
        if roll[0] == roll[1]:
            yield Source("copy-pair", k)
        yield Source("copy", k)
        if roll[0] + roll[1] == 7:
            yield Source("copy-seven", k)
    for x in range(1, 7):
        yield Source("create", None, x)


def legal_actions(game: Game, state: RoundState, dice_only: bool = False) -> list[Action]:
    """Every legal action now (activations with every source, pumpkin change and choice);
    `dice_only`: only activations of the rolled dice (no compensation, copies or created #s)."""
    out: list[Action] = []
    roll = roll_of(game, state)
    for k in (0, 1):
        if not dice_only and game.rules.compensation != "off" and can_compensate(game, state, k) is None:
            out.extend(Compensation(k, kind) for kind in KINDS)
    for src in sources(game, state):
        if dice_only and src.kind != "die":
            continue
        if not state.resources.covers(src.cost()):
            continue
        held = state.resources - src.cost()
        base = src.base_value(roll)
        shifts = [(d, False) for d in range(1 - base, 7 - base) if 2 * abs(d) <= held.P]
        if held.P >= 3:
            shifts += [(d, True) for d in (-1, 1) if 1 <= base + d <= 6]
        for shift, extra in shifts:
            value = base + shift
            after = held - Resources(P=3 if extra else 2 * abs(shift))
            for r, realm in enumerate(game.realms):
                if r in state.activated and not extra:
                    continue
                for choice, eff in realm.options(state.sheets[r], Use(value, src, roll, state.turn), game.rules):
                    if after.covers(eff.cost):
                        out.append(Activation(src, realm.key, choice, shift, extra))
    return out


def end_choice_sets(game: Game, state: RoundState) -> list[dict[str, Choice]]:
    """Every combination of end-of-turn choices (one per realm with a choice)."""
    combos: list[dict[str, Choice]] = [{}]
    for r, realm in enumerate(game.realms):
        opts = end_options(game, state, r)
        if len(opts) <= 1:
            continue
        combos = [dict(c, **{realm.key: ch}) for c in combos for ch, _ in opts]
    return combos


def _set(t: tuple, i: int, v: Any) -> tuple:
    return t[:i] + (v,) + t[i + 1 :]


def turn_play(roll: tuple[int, int], actions: Sequence[Action], end: dict[str, Choice]) -> TurnPlay:
    return TurnPlay(roll, tuple(actions), tuple(sorted(end.items())))
