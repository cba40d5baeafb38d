"""A played line: the decisions of a round, turn by turn, in a human-writable text form and JSON.

Text format (docs/line-format.md)::

    turn 1 roll 3 5
      die1 +1 -> parks trail=2
      copy-seven die2 -> wurfelwelten world=1 benefit=P
      compensate die2 P
      end ark-nova column=3
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Union

from .errors import InputError
from .textfile import read_text
from .resources import KINDS, Resources

SOURCE_KINDS = ("die", "copy-pair", "copy", "copy-seven", "create")
#: what each way of getting a # costs: hearts on a pair, hearts, coins on a 7; a created X costs X coins
SOURCE_COSTS = {"die": Resources(), "copy-pair": Resources(H=2), "copy": Resources(H=3), "copy-seven": Resources(C=2)}

Choice = tuple[tuple[str, Any], ...]


def make_choice(**kw: Any) -> Choice:
    """A realm choice as a hashable, ordered tuple of (name, value) pairs."""
    return tuple(sorted(kw.items()))


def choice_dict(choice: Choice) -> dict[str, Any]:
    return dict(choice)


@dataclass(frozen=True, order=True)
class Source:
    """Where a # comes from: a rolled die (0 or 1), a copy of one, or a created value."""

    kind: str
    die: int | None = None
    value: int | None = None

    def cost(self) -> Resources:
        if self.kind == "create":
            return Resources(C=self.value or 0)
        return SOURCE_COSTS[self.kind]

    def base_value(self, roll: tuple[int, int]) -> int:
        if self.kind == "create":
            assert self.value is not None
            return self.value
        assert self.die is not None
        return roll[self.die]

    def text(self) -> str:
        if self.kind == "create":
            return f"create {self.value}"
        if self.kind == "die":
            return f"die{self.die + 1}"
        return f"{self.kind} die{self.die + 1}"


@dataclass(frozen=True)
class Activation:
    """Use one # in one realm: its source, pumpkin change, realm and the choice on the card."""

    source: Source
    realm: str
    choice: Choice = ()
    shift: int = 0
    #: the 3-pumpkin power: +-1 and the # may enter a realm already activated this turn
    extra: bool = False

    def pumpkin_cost(self) -> int:
        return 3 if self.extra else 2 * abs(self.shift)

    def text(self) -> str:
        parts = [self.source.text()]
        if self.extra:
            parts.append(f"extra{self.shift:+d}")
        elif self.shift:
            parts.append(f"{self.shift:+d}")
        parts.append("->")
        parts.append(self.realm)
        parts.extend(f"{k}={_fmt(v)}" for k, v in self.choice)
        return " ".join(parts)


@dataclass(frozen=True)
class Compensation:
    """Trade an unusable rolled die for one resource of the player's choice."""

    die: int
    resource: str

    def text(self) -> str:
        return f"compensate die{self.die + 1} {self.resource}"


Action = Union[Activation, Compensation]


@dataclass(frozen=True)
class TurnPlay:
    """One turn: the roll, the actions in the order played, and end-of-turn choices per realm."""

    roll: tuple[int, int]
    actions: tuple[Action, ...] = ()
    end: tuple[tuple[str, Choice], ...] = ()

    def end_choice(self, realm: str) -> Choice | None:
        for key, ch in self.end:
            if key == realm:
                return ch
        return None


@dataclass(frozen=True)
class Line:
    turns: tuple[TurnPlay, ...] = field(default_factory=tuple)

    def turns_text(self) -> str:
        """Which turns the line covers, in words: "turn 1", "turns 1-6" (played turns)."""
        k = len(self.turns)
        return "turn 1" if k == 1 else f"turns 1-{k}"

    # ---- text -------------------------------------------------------------------------
    def to_text(self) -> str:
        out: list[str] = []
        for i, turn in enumerate(self.turns, 1):
            out.append(f"turn {i} roll {turn.roll[0]} {turn.roll[1]}")
            for act in turn.actions:
                out.append("  " + act.text())
            for realm, ch in turn.end:
                out.append("  end " + " ".join([realm] + [f"{k}={_fmt(v)}" for k, v in ch]))
        return "\n".join(out) + "\n"

    # ---- json -------------------------------------------------------------------------
    def to_json(self) -> list[dict[str, Any]]:
        turns = []
        for turn in self.turns:
            actions: list[dict[str, Any]] = []
            for act in turn.actions:
                if isinstance(act, Compensation):
                    actions.append({"compensate": f"die{act.die + 1}", "resource": act.resource})
                else:
                    actions.append(
                        {
                            "source": act.source.text(),
                            "shift": act.shift,
                            "extra": act.extra,
                            "realm": act.realm,
                            "choice": dict(act.choice),
                        }
                    )
            turns.append({"roll": list(turn.roll), "actions": actions, "end": {r: dict(c) for r, c in turn.end}})
        return turns


def _fmt(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def _parse_scalar(text: str) -> Any:
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if text in ("yes", "true"):
        return True
    if text in ("no", "false"):
        return False
    return text


def typed_choice(realm_key: str, choice: Choice) -> Choice:
    """The realm's text fields back to text: in the text format 'cells=11' reads as the number 11."""
    from .realms import get_realm  # local: realms import line

    text = get_realm(realm_key).text_choices
    return tuple((k, str(v) if k in text and not isinstance(v, bool) else v) for k, v in choice)


def parse_source(tokens: list[str], where: str) -> tuple[Source, list[str]]:
    """Parse a source at the start of tokens; return it and the rest."""
    if not tokens:
        raise InputError(f"{where}: missing source (die1, die2, copy die1, copy-pair die1, copy-seven die2, create 4)")
    head = tokens[0]
    m = re.fullmatch(r"die([12])", head)
    if m:
        return Source("die", int(m.group(1)) - 1), tokens[1:]
    if head in ("copy", "copy-pair", "copy-seven"):
        if len(tokens) < 2 or not re.fullmatch(r"die[12]", tokens[1]):
            raise InputError(f"{where}: '{head}' must name the die it copies (die1 or die2)")
        return Source(head, int(tokens[1][3]) - 1), tokens[2:]
    if head == "create":
        if len(tokens) < 2 or not re.fullmatch(r"[1-6]", tokens[1]):
            raise InputError(f"{where}: 'create' takes a value 1-6")
        return Source("create", None, int(tokens[1])), tokens[2:]
    raise InputError(f"{where}: unknown source {head!r} (die1, die2, copy die1, copy-pair die1, copy-seven die2, create 4)")


def _parse_choice(tokens: list[str], where: str) -> Choice:
    pairs = {}
    for tok in tokens:
        if "=" not in tok:
            raise InputError(f"{where}: expected name=value, got {tok!r}")
        k, v = tok.split("=", 1)
        pairs[k] = _parse_scalar(v)
    return make_choice(**pairs)


def parse_line_text(text: str, filename: str = "<line>") -> Line:
    """Parse the text line format; errors name the file and line number."""
    from .realms import resolve_realm_name  # local: realms import line

    turns: list[TurnPlay] = []
    roll: tuple[int, int] | None = None
    actions: list[Action] = []
    end: list[tuple[str, Choice]] = []

    def flush() -> None:
        if roll is not None:
            turns.append(TurnPlay(roll, tuple(actions), tuple(end)))

    for no, raw in enumerate(text.splitlines(), 1):
        where = f"{filename} line {no}"
        body = raw.split("#", 1)[0].strip()
        if not body:
            continue
        tokens = body.split()
        if tokens[0] == "turn":
            m = re.fullmatch(r"turn\s+(\d+)\s+roll\s+(\S+)\s+(\S+)", body)
            if not m:
                raise InputError(f"{where}: expected 'turn N roll A B'")
            if int(m.group(1)) != len(turns) + (1 if roll is not None else 0) + 1:
                raise InputError(f"{where}: turn numbers must count up from 1")
            flush()
            roll = (_die(m.group(2), where), _die(m.group(3), where))
            actions, end = [], []
            continue
        if roll is None:
            raise InputError(f"{where}: an action before the first 'turn N roll A B' line")
        if tokens[0] == "compensate":
            if len(tokens) != 3 or not re.fullmatch(r"die[12]", tokens[1]) or tokens[2] not in KINDS:
                raise InputError(f"{where}: expected 'compensate die1|die2 P|H|C'")
            actions.append(Compensation(int(tokens[1][3]) - 1, tokens[2]))
            continue
        if tokens[0] == "end":
            if len(tokens) < 2:
                raise InputError(f"{where}: 'end' needs a realm name")
            key = _realm(tokens[1], where, resolve_realm_name)
            end.append((key, typed_choice(key, _parse_choice(tokens[2:], where))))
            continue
        source, rest = parse_source(tokens, where)
        shift, extra = 0, False
        if rest and re.fullmatch(r"(extra)?[+-]\d", rest[0]):
            tok = rest.pop(0)
            extra = tok.startswith("extra")
            shift = int(tok[5:] if extra else tok)
        if not rest or rest[0] != "->":
            raise InputError(f"{where}: expected '-> realm' after the source and pumpkins")
        if len(rest) < 2:
            raise InputError(f"{where}: missing realm after '->'")
        realm = _realm(rest[1], where, resolve_realm_name)
        actions.append(Activation(source, realm, typed_choice(realm, _parse_choice(rest[2:], where)), shift, extra))
    flush()
    if not turns:
        raise InputError(f"{filename}: no turns in the line file")
    return Line(tuple(turns))


def _realm(name: str, where: str, resolve) -> str:
    try:
        return resolve(name)
    except KeyError as exc:
        raise InputError(f"{where}: {exc.args[0]}") from None


def _die(text: str, where: str) -> int:
    if not re.fullmatch(r"-?\d+", text):
        raise InputError(f"{where}: die {text!r} is not a number")
    v = int(text)
    if not 1 <= v <= 6:
        raise InputError(f"{where}: die {v} is outside 1-6")
    return v


def parse_line_json(data: Any, filename: str = "<line>") -> Line:
    """Parse the JSON form (a list of turns, or an object with a 'line' field)."""
    from .realms import resolve_realm_name

    if isinstance(data, dict) and "line" in data:
        data = data["line"]
    if not isinstance(data, list):
        raise InputError(f"{filename}: expected a list of turns")
    turns = []
    for i, t in enumerate(data, 1):
        where = f"{filename} turn {i}"
        try:
            roll = tuple(int(x) for x in t["roll"])
            if len(roll) != 2 or not all(1 <= v <= 6 for v in roll):
                raise InputError(f"{where}: roll must be two dice 1-6")
            acts: list[Action] = []
            for a in t.get("actions", []):
                if "compensate" in a:
                    acts.append(Compensation(int(str(a["compensate"])[-1]) - 1, a["resource"]))
                    continue
                src, rest = parse_source(str(a["source"]).split(), where)
                if rest:
                    raise InputError(f"{where}: bad source {a['source']!r}")
                key = _realm(a["realm"], where, resolve_realm_name)
                choice = typed_choice(key, make_choice(**a.get("choice", {})))
                acts.append(Activation(src, key, choice, int(a.get("shift", 0)), bool(a.get("extra", False))))
            end = tuple((k, typed_choice(k, make_choice(**c))) for k, c in ((_realm(r, where, resolve_realm_name), c) for r, c in t.get("end", {}).items()))
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"{where}: malformed turn ({exc})") from None
        turns.append(TurnPlay(roll, tuple(acts), end))  # type: ignore[arg-type]
    return Line(tuple(turns))


def load_line(path: str, parse_text: Callable[[str, str], Any] | None = None,
              parse_json: Callable[[Any, str], Any] | None = None) -> Any:
    """Read a line file: JSON when it parses as JSON, the text format otherwise (a chapter with
    its own steps passes its own parsers)."""
    parse_text = parse_text or parse_line_text
    parse_json = parse_json or parse_line_json
    text = read_text(path)
    stripped = text.lstrip()
    if stripped.startswith("[") or stripped.startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path} line {exc.lineno}: malformed JSON ({exc.msg})") from None
        return parse_json(data, path)
    return parse_text(text, path)


def actions_of(turn: TurnPlay) -> Iterable[Action]:
    return turn.actions
