"""The realm registry: canonical keys, aliases, and loading realm objects."""
from __future__ import annotations

import importlib
import re
import unicodedata

from .base import Realm

#: canonical key -> module name (one module and one data file per realm); promo realms first
MODULES: dict[str, str] = {
    "wurfelwelten": "wurfelwelten",
    "ark-nova": "ark_nova",
    "feast-for-odin": "feast_for_odin",
    "libertalia": "libertalia",
    "parks": "parks",
    "red-rising": "red_rising",
    "between-two-castles": "between_two_castles",
    "wingspan": "wingspan",
    "scythe": "scythe",
    "pendulum": "pendulum",
    "viticulture": "viticulture",
    "euphoria": "euphoria",
    "between-two-cities": "between_two_cities",
    "charterstone": "charterstone",
    "tapestry": "tapestry",
    "my-little-scythe": "my_little_scythe",
    "azul": "azul",
}


def is_solvable(realm: Realm) -> bool:
    """A realm is solvable when its module gives the CP-SAT face (`encode`); the others are
    engine-only: usable for line checking and playouts, refused by the solver."""
    return type(realm).encode is not Realm.encode


def solvable_keys() -> list[str]:
    """Keys of the realms with a CP-SAT face (the solver's property suite runs over these)."""
    return [k for k in MODULES if is_solvable(get_realm(k))]


def engine_only_keys() -> list[str]:
    return [k for k in MODULES if not is_solvable(get_realm(k))]


def _modules() -> dict[str, str]:
    return MODULES


_cache: dict[str, Realm] = {}


def normalise(name: str) -> str:
    """'A Feast for Odin' -> 'a-feast-for-odin'; 'Würfelwelten' -> 'wurfelwelten'."""
    text = unicodedata.normalize("NFKD", name.strip().lower())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = text.replace("ß", "ss")
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def get_realm(key: str) -> Realm:
    key = resolve_realm_name(key)
    if key not in _cache:
        module = importlib.import_module(f"{__name__}.{_modules()[key]}")
        _cache[key] = module.REALM()
    return _cache[key]


def all_realms(engine_only: bool = True) -> list[Realm]:
    """Every known realm; engine_only=False leaves out the realms without a CP-SAT face."""
    return [get_realm(k) for k in (MODULES if engine_only else solvable_keys())]


def _aliases() -> dict[str, str]:
    table: dict[str, str] = {}
    for key in _modules():
        table[key] = key
        table[key.replace("-", "")] = key
    extra = {
        "a-feast-for-odin": "feast-for-odin",
        "ein-fest-fur-odin": "feast-for-odin",
        "fest-fur-odin": "feast-for-odin",
        "odin": "feast-for-odin",
        "arche-nova": "ark-nova",
        "wuerfelwelten": "wurfelwelten",
        "the-society": "red-rising",
        "society": "red-rising",
        "red-rising-the-society": "red-rising",
        "between-two-castles-of-mad-king-ludwig": "between-two-castles",
        "castles": "between-two-castles",
        "cities": "between-two-cities",
        "mls": "my-little-scythe",
    }
    table.update(extra)
    return table


def resolve_realm_name(name: str) -> str:
    """The canonical key of a realm name (accents, spaces and case are forgiven)."""
    key = normalise(name)
    table = _aliases()
    if key in table:
        return table[key]
    raise KeyError(f"unknown realm {name!r} (known: {', '.join(_modules())})")
