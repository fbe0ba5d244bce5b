"""Scenario setups for the Minimal Game: zones (zone -> card ids, or "rest") plus position fields.

A setup describes the start of a trick: zones `pile`, `hand:<seat>`, `face_down:<seat>` and `played` (the
`trick` zone, if listed, must be empty), and the position fields `leader` (the seat to lead) and
`tricks_won` (one count per seat). A card placed nowhere goes to the zone marked "rest", else to the pile;
a zone that is listed is exact. Anything else is a `SetupError` naming the zone or the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from minimal_game.codes import Phase
from minimal_game.state import MinimalState
from minimal_game.views import face_down_zone, hand_zone
from warcards.engine.api import TERMINAL
from warcards.engine.errors import SetupError
from warcards.engine.setupfields import int_field, int_list_field, setup_parts
from warcards.engine.text import quote

if TYPE_CHECKING:
    from minimal_game.game import MinimalGame

POSITION_FIELDS = ("leader", "tricks_won")
"""The position fields a setup may set."""


def state_from_setup(game: MinimalGame, setup: Mapping[str, Any]) -> MinimalState:
    """The state a scenario setup describes, at the start of a trick (the leader to act)."""
    zones, position = setup_parts(setup)
    state = MinimalState(game)
    players = state.num_players
    places: dict[str, list[int]] = {"pile": [], "played": [], "trick": []}
    for seat in range(players):
        places[hand_zone(seat)] = []
        places[face_down_zone(seat)] = []
    card_numbers = game.card_numbers
    placed: set[int] = set()
    rest: str | None = None
    for zone, cards in zones.items():
        if zone not in places:
            raise SetupError(f"setup: unknown zone {quote(zone)}; zones are: {', '.join(places)}")
        if cards == "rest":
            if rest is not None:
                raise SetupError(f"setup: only one zone may be \"rest\" ({quote(rest)} and {quote(zone)})")
            rest = zone
            continue
        for ident in cards:
            card = card_numbers.get(ident.lower())
            if card is None:
                raise SetupError(f"setup: zone {quote(zone)}: no card {quote(ident)} in the deck")
            if card in placed:
                raise SetupError(f"setup: card {state.table.ids[card]} is placed twice")
            placed.add(card)
            places[zone].append(card)
    if places["trick"]:
        raise SetupError("setup: a setup starts a trick, so zone 'trick' must be empty")
    default = rest or "pile"
    unplaced = [card for card in range(state.table.size) if card not in placed]
    if unplaced and rest is None and "pile" in zones:
        raise SetupError(f"setup: {state.table.ids[unplaced[0]]} is placed nowhere and zone 'pile' is listed "
                         "exactly; list the card, or mark one zone \"rest\"")
    places[default].extend(unplaced)
    sizes = {len(places[hand_zone(seat)]) for seat in range(players)}
    if len(sizes) != 1 or max(sizes) > game.hand_size:
        raise SetupError(f"setup: every hand holds the same number of cards, at most {game.hand_size} "
                         f"(rules 2 and 5), not {[len(places[hand_zone(seat)]) for seat in range(players)]}")
    unknown = [name for name in position if name not in POSITION_FIELDS]
    if unknown:
        raise SetupError(f"setup: unknown position field {quote(unknown[0])}; fields are: "
                         f"{', '.join(POSITION_FIELDS)}")
    state.pile = sorted(places["pile"])
    state.played = places["played"]
    for seat in range(players):
        state.hands[seat] = sorted(places[hand_zone(seat)])
        state.face_down[seat] = places[face_down_zone(seat)]
    state.leader = int_field(position, "leader", 0, 0, players - 1)
    state.tricks_won = int_list_field(position, "tricks_won", players, 0) or [0] * players
    state.draws_left = 0
    if any(state.hands):
        state.phase = Phase.PLAY
        state.to_act = state.leader
    else:
        state.phase = Phase.OVER
        state.to_act = TERMINAL
    return state
