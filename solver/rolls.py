"""Roll files: one turn per line, two dice per turn (`3 5` or `3,5`); `#` starts a comment."""
from __future__ import annotations

import re

from .errors import InputError
from .textfile import read_text

Roll = tuple[int, int]


def parse_rolls(text: str, filename: str = "<rolls>", max_turns: int | None = None) -> tuple[Roll, ...]:
    rolls: list[Roll] = []
    for no, raw in enumerate(text.splitlines(), 1):
        body = raw.split("#", 1)[0].strip()
        if not body:
            continue
        where = f"{filename} line {no}"
        tokens = [t for t in re.split(r"[\s,;]+", body) if t]
        for tok in tokens:
            if not re.fullmatch(r"[+-]?\d+", tok):
                raise InputError(f"{where}: die {tok!r} is not a number")
        values = [int(t) for t in tokens]
        for v in values:
            if not 1 <= v <= 6:
                raise InputError(f"{where}: die {v} is outside 1-6")
        if len(values) != 2:
            raise InputError(f"{where}: a turn needs exactly two dice, found {len(values)}")
        rolls.append((values[0], values[1]))
    if not rolls:
        raise InputError(f"{filename}: no rolls in the file (one turn per line, two dice each)")
    if max_turns is not None and len(rolls) > max_turns:
        raise InputError(f"{filename}: {len(rolls)} turns, but a round has at most {max_turns}")
    return tuple(rolls)


def load_rolls(path: str, max_turns: int | None = None) -> tuple[Roll, ...]:
    text = read_text(path)
    return parse_rolls(text, path, max_turns)
