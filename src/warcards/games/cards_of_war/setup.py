"""States built from scenario setups (`state_from_setup`): the zones' cards and the position fields a setup may
name, checked against the rules (no card lost or placed twice, no battle past 15 points)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from warcards.engine.errors import SetupError
from warcards.engine.setupfields import int_field, setup_parts
from warcards.engine.text import quote
from warcards.games.cards_of_war.cards import THEATRES
from warcards.games.cards_of_war.codes import BATTLE_NAMES, NO_THEATRE, NUM_BATTLES, OPEN, Phase
from warcards.games.cards_of_war.state import CardsOfWarState
from warcards.games.cards_of_war.views import zones

if TYPE_CHECKING:
    from warcards.games.cards_of_war.game import CardsOfWarGame


SETUP_FIELDS = ("phase", "player", "round", "first_player", "rounds_won", "hand_limits", "base_hand_limits",
                "theatres", "moves", "idle_moves")


def _int_pair(value: Any, field: str) -> list[int]:
    """A position field that holds one integer per seat."""
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise SetupError(f"position field {field} must be a list of two integers, got {quote(value)}")
    return [int(v) for v in value]


def state_from_setup(game: CardsOfWarGame, setup: Mapping[str, Any]) -> CardsOfWarState:
    """A deploy-phase state from `setup` ({"zones": ..., "position": ...}); cards not placed go to the draw
    pile of their deck (or to the zone marked "rest")."""
    zone_map, pos = setup_parts(setup, "")
    state = CardsOfWarState(game)
    bad = sorted(set(pos) - set(SETUP_FIELDS))
    if bad:
        raise SetupError(f"unknown position field {quote(bad[0])}; fields: {', '.join(SETUP_FIELDS)}")
    names = list(zones(state))
    by_id = {state.card_id(c): c for d in range(state.num_decks) for c in range(d * state.num_kinds, d * state.num_kinds + state.num_kinds)}
    placed: dict[int, str] = {}
    rest_zone: str | None = None
    for zone, cards in zone_map.items():
        if zone not in names or zone.startswith("first_draw"):
            raise SetupError(f"unknown zone {quote(zone)}; zones: {', '.join(n for n in names if 'first' not in n)}")
        if cards == "rest":
            rest_zone = zone
            continue
        if not isinstance(cards, list):
            raise SetupError(f"zone {quote(zone)} must list card ids or be \"rest\"")
        for ident in cards:
            if ident not in by_id:
                raise SetupError(f"zone {quote(zone)}: unknown card {quote(ident)}")
            card = by_id[ident]
            if card in placed:
                raise SetupError(f"card {ident} is placed twice ({placed[card]} and {zone})")
            placed[card] = zone
    contents: dict[str, list[int]] = {name: [] for name in names}
    for zone, cards in zone_map.items():
        if isinstance(cards, list):
            contents[zone] = [by_id[ident] for ident in cards]
    for card in sorted(set(by_id.values()) - set(placed)):
        target = rest_zone or ("draw" if state.num_decks == 1 else f"draw:{card // state.num_kinds}")
        if target != rest_zone and target in zone_map:
            raise SetupError(f"{state.card_id(card)} is placed nowhere and zone {quote(target)} is listed exactly; "
                             "list the card, or mark one zone \"rest\"")
        contents[target].append(card)
    if state.num_decks == 2:
        for zone, cards in contents.items():
            owner = zone.rsplit(":", 1)[-1] if zone.startswith(("draw", "discard", "hand")) else zone.split(":")[1]
            for card in cards:
                if str(card // state.num_kinds) != owner:
                    raise SetupError(f"2 DECK VERSION: {state.card_id(card)} belongs to deck {card // state.num_kinds}, not {zone}")
    if "phase" in pos and pos["phase"] != "deploy":
        raise SetupError("a setup starts in phase 'deploy' (the only phase a setup may name)")
    state.mover = int_field(pos, "player", 0, 0, 1, "")
    state.first_player = int_field(pos, "first_player", state.mover, 0, 1, "")
    state.round_number = int_field(pos, "round", 1, 1, prefix="")
    state.moves = int_field(pos, "moves", 0, 0, prefix="")
    state.idle_moves = int_field(pos, "idle_moves", 0, 0, prefix="")
    if state.mover not in (0, 1) or state.first_player not in (0, 1):
        raise SetupError("player and first_player are seats: 0 or 1")
    if "rounds_won" in pos:
        state.rounds_won = _int_pair(pos["rounds_won"], "rounds_won")
    if "base_hand_limits" in pos:
        state.base_hand_limits = _int_pair(pos["base_hand_limits"], "base_hand_limits")
        state.hand_limits = state.base_hand_limits[:]
    if "hand_limits" in pos:
        state.hand_limits = _int_pair(pos["hand_limits"], "hand_limits")
    if "theatres" in pos:
        th = pos["theatres"]
        if not (isinstance(th, list) and len(th) == 3 and all(t is None or t in THEATRES for t in th)):
            raise SetupError(f"theatres must list three of {THEATRES} or null, got {quote(th)}")
        state.battle_theatre = [THEATRES.index(t) if t else NO_THEATRE for t in th]
    if state.num_decks == 1:
        state.draw_piles = [sorted(contents["draw"])]
        state.discards = [contents["discard"]]
    else:
        state.draw_piles = [sorted(contents[f"draw:{d}"]) for d in (0, 1)]
        state.discards = [contents[f"discard:{d}"] for d in (0, 1)]
    state.hands = [sorted(contents["hand:0"]), sorted(contents["hand:1"])]
    table = state.table
    for b, name in enumerate(BATTLE_NAMES):
        for seat in (0, 1):
            open_pile = contents[f"battle:{seat}:{name}"]
            won_pile = contents[f"won:{seat}:{name}"]
            if open_pile and won_pile:
                raise SetupError(f"battle {name}: seat {seat} has both an open and a won pile")
            if won_pile:
                if state.battle_winner[b] >= 0:
                    raise SetupError(f"battle {name}: both seats have won it")
                state.battle_winner[b] = seat
            state.battle_piles[seat * NUM_BATTLES + b] = open_pile or won_pile
        if state.battle_winner[b] != OPEN and state.battle_piles[(1 - state.battle_winner[b]) * NUM_BATTLES + b]:
            raise SetupError(f"WINNING A BATTLE: battle {name} is won, so the loser's cards were discarded")
        if state.theatres_of_war and state.battle_theatre[b] < 0 and (state.battle_piles[b] or state.battle_piles[NUM_BATTLES + b]):
            raise SetupError(f"Theatres of War: battle {name} has cards, so position.theatres must name its theatre")
        for seat in (0, 1):
            total = 0
            for c in state.battle_piles[seat * NUM_BATTLES + b]:
                if not state.theatres_of_war or table.theatre[c % state.num_kinds] == state.battle_theatre[b]:
                    total += table.score[c % state.num_kinds]
            if state.battle_winner[b] < 0:
                if total >= state.game.numbers.battle_target:
                    raise SetupError(f"battle {name}: seat {seat} has {total} points, so the battle was won")
                state.battle_totals[seat * NUM_BATTLES + b] = total
    state.open_battles = sum(1 << b for b in range(NUM_BATTLES) if state.battle_winner[b] == OPEN)
    if all(w >= 0 for w in state.battle_winner):
        raise SetupError("all three battles are won: the round would be over")
    for seat in (0, 1):
        if len(state.hands[seat]) > max(state.hand_limits[seat], state.game.numbers.hand_size + 1):
            raise SetupError(f"hand:{seat} holds {len(state.hands[seat])} cards, more than its hand size")
    state.phase = Phase.DEPLOY
    state.to_act = state.mover
    return state
