"""Naval War names a player knows: ships by name ("King George V"), play cards by what they are ("14-inch ×2",
"Minefield 2"), phases in words, seats as "player 2" — for the log, move labels, the result and the board.

The log and the labels read names off the game's card table; the board (`render`) sees only a seat's view,
so it reads them off the printed decks and, for a card file's own ids, spells the id out
(`names_from_ids`)."""

from __future__ import annotations

from functools import cache

from warcards.games.naval_war.cards import ADDDMG, GUNS, MINE, SALVO, Tables, load_tables

CATEGORY_NAMES = (
    "Salvo", "Additional Ship", "Additional Damage", "Minefield", "Submarine", "Torpedo Boat",
    "Destroyer Squadron", "Smoke", "Repair", "Minesweeper",
)
"""Each card category's name (Card anatomy; indexed as `cards.CATEGORIES`)."""

PHASE_WORDS = {
    "deal-ships": "dealing ships",
    "deal-cards": "dealing play cards",
    "refill": "refilling a hand",
    "opening": "Opening: play a red card",
    "choice": "draw, or launch air strikes",
    "draw": "drawing a card",
    "play": "play or discard a card",
    "red": "name the red card's target",
    "roll": "the die is rolled",
    "additional-ship": "an Additional Ship arrives",
    "air-strike": "name the next air strike",
    "dd-target": "Destroyer Squadron: pick a task force",
    "dd-sink": "Destroyer Squadron: pick a ship",
    "give": "give a salvo back",
    "end": "game over",
    "aim": "aim the salvo",
}
"""Each phase (`position()["phase"]`) in words."""


def seat_name(seat: int) -> str:
    """A seat as the log and the board name it ("player 2")."""
    return f"player {seat}"


def gun_text(gun: int) -> str:
    """A gun size in inches ("15"), or "carrier" for -1."""
    return "carrier" if gun < 0 else GUNS[gun]


def kind_name(table: Tables, kind: int) -> str:
    """A play card's name: salvos by gun and hits ("14-inch ×2"), the others by category (Card anatomy)."""
    category = table.kind_cat[kind]
    value = table.kind_value[kind]
    if category == SALVO:
        return f"{GUNS[table.kind_gun[kind]]}-inch ×{value}"
    if category == ADDDMG:
        return f"Additional Damage +{value}"
    if category == MINE:
        return f"Minefield {value}"
    return CATEGORY_NAMES[category]


def card_name(table: Tables, card: int) -> str:
    """A play card's name (its kind's)."""
    return kind_name(table, table.card_kind[card])


def ship_label(table: Tables, ship: int) -> str:
    """A ship with its gun and Hit Number: "Hood (15-inch, 5 hits)", "Akagi (carrier, 3 hits)"."""
    gun = table.ship_gun[ship]
    return f"{table.ship_names[ship]} ({'carrier' if gun < 0 else GUNS[gun] + '-inch'}, {table.ship_hits[ship]} hits)"


def card_names(table: Tables) -> dict[str, str]:
    """Every card id of the table (ships and play cards) with its name: the map the leak scans read."""
    names = dict(zip(table.ship_ids, table.ship_names, strict=True))
    names.update((table.card_ids[c], card_name(table, c)) for c in range(table.num_cards))
    return names


@cache
def _printed() -> tuple[dict[str, tuple[str, int]], dict[str, str]]:
    """Ship names and Hit Numbers by id, and play-card names by kind code, of the printed decks."""
    table = load_tables()
    ships = {sid: (name, hits) for sid, name, hits in zip(table.ship_ids, table.ship_names, table.ship_hits, strict=True)}
    kinds = {code: kind_name(table, k) for k, code in enumerate(table.kind_codes)}
    return ships, kinds


def ship_name_of(ship_id: str) -> str:
    """A ship's name from its id, for the board: the printed name, else the id spelled out
    (`SOUTH_DAKOTA` -> "South Dakota")."""
    found = _printed()[0].get(ship_id)
    return found[0] if found else ship_id.replace("_", " ").title()


def ship_hits_of(ship_id: str) -> int | None:
    """A printed ship's Hit Number from its id (None for a card file's own ship)."""
    found = _printed()[0].get(ship_id)
    return found[1] if found else None


def card_name_of(card_id: str) -> str:
    """A play card's name from its id or kind code, for the board (`SALVO14x2-3` -> "14-inch ×2"); a card
    file's own code is shown as it is."""
    code = card_id.rsplit("-", 1)[0] if "-" in card_id else card_id
    return _printed()[1].get(code, code)
