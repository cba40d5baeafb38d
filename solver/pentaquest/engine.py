"""Rules engine (the checker): frozen game state and pure step functions.

`apply(game, state, action)` applies one player action and returns the new state, or raises
IllegalMove naming the turn and the rule broken. Turn starts (phase 1 fill, phase 2 roll) and
the end check (phase 5) happen automatically inside `apply`. No solver tricks live here.

Reading of the seed used here (docs/pentaquest.md, "Rule readings"):
* a turn is: automatic fill + roll of 5 dice (next 5 stream values, dice 1..5 in order), then
  up to 2 (first turn) / 1 free rerolls, then any army cards, then `defeat` of one quest card
  whose requirement the current dice meet. The defeat ends the turn (one monster per turn).
  Defeating straight after the roll (phase 2) is the same as defeating with no reroll/army use.
* a turn that ends without a defeat (`pass`) loses the game at once.
* a reroll of k dice takes the next k stream values, assigned to the rerolled dice in die order.
* if the stream cannot supply the 5 values of a turn's roll, the game ends there as a loss.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .deck import Deck
from .errors import IllegalMove
from .matcher import card_matches
from .options import Options

QUEST_SIZE = 5
N_DICE = 5
MIRROR = {1: 6, 2: 5, 3: 4, 4: 3, 5: 2, 6: 1}


@dataclass(frozen=True)
class Game:
    """Fixed inputs of one game: the deck (in draw order), the dice stream, the rule options."""

    deck: Deck
    stream: tuple[int, ...]
    options: Options = Options()


@dataclass(frozen=True)
class GameState:
    """Everything that changes during a game. Cards are deck indices (0-based)."""

    turn: int
    next_card: int
    quest: tuple[int, ...]
    army: tuple[int, ...]
    used: tuple[int, ...]
    defeated: tuple[int, ...]
    dice: tuple[int, ...]
    pos: int
    free_left: int
    army_started: bool
    status: str = "playing"  # playing | won | lost
    end_reason: str = ""

    @property
    def score(self) -> int:
        """Army cards never used."""
        return len(self.army)

    @property
    def turns_survived(self) -> int:
        """Turns in which a monster was defeated."""
        return len(self.defeated)


@dataclass(frozen=True)
class Reroll:
    """Free reroll (phase 3) of the given dice positions (1-5)."""

    dice: tuple[int, ...]


@dataclass(frozen=True)
class Use:
    """Use an army card (phase 4). dice: target positions; delta: +1/-1 for a ±1 card, else 0."""

    card: int
    dice: tuple[int, ...]
    delta: int = 0


@dataclass(frozen=True)
class Defeat:
    """Defeat one quest-area monster whose requirement the current dice meet; ends the turn."""

    card: int


@dataclass(frozen=True)
class Pass:
    """End the turn without defeating a monster (the solo game is lost)."""


Action = Reroll | Use | Defeat | Pass


def _start_turn(game: Game, state: GameState, turn: int) -> GameState:
    """Phase 1 (fill the quest area) and phase 2 (roll 5 dice from the stream)."""
    quest = list(state.quest)
    nxt = state.next_card
    while len(quest) < QUEST_SIZE and nxt < len(game.deck):
        quest.append(nxt)
        nxt += 1
    free = game.options.first_turn_free_rerolls if turn == 1 else game.options.free_rerolls
    if state.pos + N_DICE > len(game.stream):
        return replace(state, turn=turn, next_card=nxt, quest=tuple(quest), dice=(), free_left=0,
                       army_started=False, status="lost",
                       end_reason=f"stream exhausted: no 5 values left for the roll of turn {turn}")
    dice = game.stream[state.pos:state.pos + N_DICE]
    return replace(state, turn=turn, next_card=nxt, quest=tuple(quest), dice=tuple(dice),
                   pos=state.pos + N_DICE, free_left=free, army_started=False)


def initial_state(game: Game) -> GameState:
    empty = GameState(turn=0, next_card=0, quest=(), army=(), used=(), defeated=(), dice=(), pos=0,
                      free_left=0, army_started=False)
    return _start_turn(game, empty, 1)


def _check_positions(turn: int, dice: tuple[int, ...], what: str) -> None:
    if not dice:
        raise IllegalMove(turn, f"{what}: no dice named")
    if len(set(dice)) != len(dice):
        raise IllegalMove(turn, f"{what}: a die is named twice")
    for d in dice:
        if not 1 <= d <= N_DICE:
            raise IllegalMove(turn, f"{what}: die {d} does not exist (dice are 1-5)")


def _reroll(game: Game, state: GameState, dice: tuple[int, ...], what: str) -> tuple[tuple[int, ...], int]:
    """Reroll the named dice: the next len(dice) stream values go to them in die order."""
    if state.pos + len(dice) > len(game.stream):
        raise IllegalMove(state.turn, f"{what}: stream exhausted (needs {len(dice)} values, "
                                      f"{len(game.stream) - state.pos} left)")
    new = list(state.dice)
    values = iter(game.stream[state.pos:state.pos + len(dice)])
    for d in sorted(dice):
        new[d - 1] = next(values)
    return tuple(new), state.pos + len(dice)


def card_label(game: Game, card: int) -> str:
    if 0 <= card < len(game.deck):
        return repr(game.deck.cards[card].name)
    return f"#{card + 1}"


def apply(game: Game, state: GameState, action: Action) -> GameState:
    """Apply one action; return the new state or raise IllegalMove with the rule broken."""
    t = state.turn
    if state.status != "playing":
        raise IllegalMove(t, f"the game is already over ({state.status}: {state.end_reason})")
    if isinstance(action, Reroll):
        if state.army_started:
            raise IllegalMove(t, "free reroll after an army card was used (phase 3 comes before phase 4)")
        if state.free_left <= 0:
            allowed = game.options.first_turn_free_rerolls if t == 1 else game.options.free_rerolls
            raise IllegalMove(t, f"no free reroll left ({allowed} per turn on this turn)")
        _check_positions(t, action.dice, "free reroll")
        dice, pos = _reroll(game, state, action.dice, "free reroll")
        return replace(state, dice=dice, pos=pos, free_left=state.free_left - 1)
    if isinstance(action, Use):
        if action.card not in state.army:
            why = "already used and discarded" if action.card in state.used else "not in the army"
            raise IllegalMove(t, f"army card {card_label(game, action.card)} is {why}")
        ability = game.deck.cards[action.card].ability
        what = f"{ability} card {card_label(game, action.card)}"
        _check_positions(t, action.dice, what)
        if ability == "reroll":
            if action.delta:
                raise IllegalMove(t, f"{what}: a reroll takes no +/- direction")
            dice, pos = _reroll(game, state, action.dice, what)
        else:
            if len(action.dice) != 1:
                raise IllegalMove(t, f"{what}: acts on exactly one die")
            i = action.dice[0] - 1
            v = state.dice[i]
            if ability == "mirror":
                if action.delta:
                    raise IllegalMove(t, f"{what}: mirror takes no +/- direction")
                nv = MIRROR[v]
            else:
                delta = {"plus": 1, "minus": -1}.get(ability, action.delta)
                if ability == "plusminus" and action.delta not in (1, -1):
                    raise IllegalMove(t, f"{what}: choose + or - for a ±1 card")
                if ability in ("plus", "minus") and action.delta not in (0, delta):
                    raise IllegalMove(t, f"{what}: this card only changes a die by {delta:+d}")
                nv = v + delta
                if not 1 <= nv <= 6:
                    raise IllegalMove(t, f"{what}: die {i + 1} shows {v}, cannot go {delta:+d} (dice stay 1-6)")
            dice = state.dice[:i] + (nv,) + state.dice[i + 1:]
            pos = state.pos
        army = tuple(c for c in state.army if c != action.card)
        return replace(state, dice=dice, pos=pos, army=army, used=state.used + (action.card,),
                       army_started=True)
    if isinstance(action, Defeat):
        c = action.card
        if c not in state.quest:
            where = "already defeated" if c in state.defeated else "not in the quest area"
            raise IllegalMove(t, f"monster {card_label(game, c)} is {where}")
        card = game.deck.cards[c]
        if not card_matches(card.alternatives, state.dice, game.options.sun_moon_may_match):
            raise IllegalMove(t, f"dice {' '.join(map(str, state.dice))} do not meet {card.name!r} "
                                 f"({card.requirement_text()})")
        after = replace(state, quest=tuple(q for q in state.quest if q != c), army=state.army + (c,),
                        defeated=state.defeated + (c,))
        if not after.quest and after.next_card >= len(game.deck):
            return replace(after, status="won", end_reason="every monster defeated")
        return _start_turn(game, after, t + 1)
    if isinstance(action, Pass):
        return replace(state, status="lost", end_reason=f"no monster defeated in turn {t}")
    raise TypeError(f"unknown action {action!r}")


@dataclass(frozen=True)
class Replay:
    """Outcome of replaying a line: states after each turn (index 0 = start of turn 1)."""

    final: GameState
    turn_starts: tuple[GameState, ...]


def replay(game: Game, turns: tuple[tuple[Action, ...], ...]) -> Replay:
    """Replay a whole line, one tuple of actions per turn. A turn without a defeat is a pass.

    Raises IllegalMove on the first broken rule (including actions after the defeat, turns
    after the game ended, or a line that stops while the game is still running).
    """
    state = initial_state(game)
    starts = [state]
    for n, actions in enumerate(turns, 1):
        if state.status != "playing":
            raise IllegalMove(n, f"the game is already over ({state.status}: {state.end_reason})")
        for k, action in enumerate(actions):
            if isinstance(action, (Defeat, Pass)) and k != len(actions) - 1:
                raise IllegalMove(n, "actions after the defeat/pass: one monster per turn and the defeat ends the turn")
            state = apply(game, state, action)
        if not actions or not isinstance(actions[-1], (Defeat, Pass)):
            state = apply(game, state, Pass())
        starts.append(state)
    if state.status == "playing":
        raise IllegalMove(state.turn, "the line stops before the game ends")
    return Replay(state, tuple(starts))
