"""Dice stream: d6 values consumed in order (initial roll 5, each reroll of k dice the next k)."""
from __future__ import annotations

import re
from pathlib import Path

from .errors import PentaquestInputError


def parse_stream_text(text: str, source: str = "<stream>") -> tuple[int, ...]:
    """Values separated by whitespace or commas; `#` starts a comment."""
    values: list[int] = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0]
        for tok in re.split(r"[\s,]+", line.strip()):
            if not tok:
                continue
            if not re.fullmatch(r"[+-]?\d+", tok):
                raise PentaquestInputError(f"not a die value: {tok!r}", source, lineno)
            v = int(tok)
            if not 1 <= v <= 6:
                raise PentaquestInputError(f"die value {v} outside 1-6", source, lineno)
            values.append(v)
    return tuple(values)


def check_stream_length(stream: tuple[int, ...], deck_size: int, source: str = "<stream>") -> None:
    """The stream must hold at least the initial roll of every turn of a winning game (5 per card)."""
    need = 5 * deck_size
    if len(stream) < need:
        raise PentaquestInputError(
            f"stream too short for the game: {len(stream)} values, a {deck_size}-card game needs at least {need}",
            source,
        )


def load_stream(path: str | Path) -> tuple[int, ...]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise PentaquestInputError(f"cannot read stream: {exc.strerror}", str(path)) from None
    except UnicodeDecodeError:
        raise PentaquestInputError("stream is not UTF-8 text", str(path)) from None
    return parse_stream_text(text, p.name)
