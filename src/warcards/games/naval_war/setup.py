"""Naval War scenario setups: a state built from zones and position fields (docs/notation/naval-war.md,
Setups)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from warcards.engine.errors import SetupError
from warcards.engine.setupfields import (
    int_field,
    int_list_field,
    mapping_field,
    setup_parts,
    str_field,
    str_list_field,
)
from warcards.engine.text import quote
from warcards.games.naval_war import rules
from warcards.games.naval_war.cards import ADDDMG, DD, MINE, SALVO
from warcards.games.naval_war.cards import SMOKE as SMOKE_CAT
from warcards.games.naval_war.codes import (
    BOX,
    DDC,
    DECK,
    DEEP,
    DISCARD,
    FLEET,
    HAND,
    HARBOR,
    MINES,
    NONE,
    ON_DD,
    ON_SALVO,
    ON_SHIP,
    PLAY,
    SMOKE,
    UNSEEN,
    Phase,
)
from warcards.games.naval_war.state import NavalWarState

if TYPE_CHECKING:
    from warcards.games.naval_war.game import NavalWarGame

# ----- scenario setups ----------------------------------------------------------------------------------
_POSITION_KEYS = {"phase", "round", "dealer", "turn", "scores", "last_round", "mine_last", "kamikaze_wait",
                  "attached", "face_down"}


def state_from_setup(game: NavalWarGame, setup: Mapping[str, Any]) -> NavalWarState:
    """A state built from zones and position fields (docs/notation/naval-war.md, Setups)."""
    zone_map, pos = setup_parts(setup, "naval-war setup: ")
    bad = sorted(set(pos) - _POSITION_KEYS)
    if bad:
        raise SetupError(f"naval-war setup: unknown position field {quote(bad[0])}; fields are {sorted(_POSITION_KEYS)}")
    state = NavalWarState(game)
    rules.start_round(state)
    t = state.table
    n = state.num_players
    card_index = {cid: i for i, cid in enumerate(t.card_ids)}
    ship_index = {sid: i for i, sid in enumerate(t.ship_ids)}
    placed_cards: dict[int, str] = {}
    placed_ships: dict[int, str] = {}
    rest_zone: str | None = None
    for zone, ids in zone_map.items():
        if ids == "rest":
            rest_zone = zone
            continue
        if not isinstance(ids, list):
            raise SetupError(f"naval-war setup: zone {quote(zone)} must be a list of card ids or \"rest\"")
        for ident in ids:
            where = placed_cards.get(card_index.get(ident, -1)) or placed_ships.get(ship_index.get(ident, -1))
            if where is not None:
                raise SetupError(f"naval-war setup: {ident} is placed twice ({where} and {zone})")
            if ident in card_index:
                placed_cards[card_index[ident]] = zone
            elif ident in ship_index:
                placed_ships[ship_index[ident]] = zone
            else:
                raise SetupError(f"naval-war setup: {quote(ident)} in zone {quote(zone)} is not a naval-war card id")
    boxed_cards, boxed_ships = game.boxed_cards, game.boxed_ships
    for c in range(t.num_cards):
        card_zone = placed_cards.get(c)
        if c in boxed_cards:
            if card_zone not in (None, "box"):
                raise SetupError(f"naval-war setup: {t.card_ids[c]} is out of the game with these options")
            continue
        if card_zone is None:
            card_zone = rest_zone if rest_zone is not None and _is_card_zone(rest_zone) else "deck"
            _check_unlisted(zone_map, card_zone, rest_zone, t.card_ids[c])
        state.card_position[c] = _card_code(state, card_zone, t.card_ids[c])
    for s in range(t.num_ships):
        zone = placed_ships.get(s, rest_zone if rest_zone is not None and _is_ship_zone(rest_zone) else "harbor")
        if s in boxed_ships:
            if zone not in ("harbor", "box"):
                raise SetupError(f"naval-war setup: {t.ship_ids[s]} is out of the game with these options")
            continue
        if s not in placed_ships:
            _check_unlisted(zone_map, zone, rest_zone, t.ship_ids[s])
        state.ship_position[s] = _ship_code(state, zone, t.ship_ids[s])
    # Additional Damage sits on a salvo: the one named in position.attached, else the first salvo listed.
    attached: Mapping[str, str] = mapping_field(pos, "attached", str, "naval-war setup: ")
    for d in t.adddmg_cards:
        code = state.card_position[d]
        if not ON_SHIP <= code < ON_SALVO:
            continue
        ship = code - ON_SHIP
        salvo_id = attached.get(t.card_ids[d])
        if salvo_id is None:
            candidates = [card_index[i] for i in zone_map.get("on:" + t.ship_ids[ship], [])
                          if card_index.get(i, -1) in t.salvo_cards]
            if not candidates:
                raise SetupError(f"naval-war setup: {t.card_ids[d]} lies on {t.ship_ids[ship]} with no salvo "
                                 "(Additional Damage goes on a salvo)")
            x = candidates[0]
        else:
            x = card_index.get(salvo_id, -1)
            if x < 0 or state.card_position[x] != code:
                raise SetupError(f"naval-war setup: attached {quote(salvo_id)} is not a salvo under {t.ship_ids[ship]}")
        state.card_position[d] = ON_SALVO + x
    _rebuild(state)
    prefix = "naval-war setup: "
    state.round_index = int_field(pos, "round", 1, 1, prefix=prefix)
    state.dealer = int_field(pos, "dealer", 0, 0, n - 1, prefix)
    state.turn_player = int_field(pos, "turn", state.dealer, 0, n - 1, prefix)
    for key in ("scores", "last_round"):
        values = int_list_field(pos, key, n, prefix=prefix)
        if values is not None:
            setattr(state, key, values)
    mine_last = int_list_field(pos, "mine_last", n, -1, n - 1, prefix)
    if mine_last is not None:
        state.mine_last = mine_last
    for j in range(n):
        if state.mine_hits[j] and state.mine_last[j] < 0:
            state.mine_last[j] = (j + 1) % n
    for sid, wait in mapping_field(pos, "kamikaze_wait", int, prefix).items():
        if sid not in ship_index or wait < 0:
            raise SetupError(f"naval-war setup: kamikaze_wait names {quote(sid)}: {wait}, not a ship and a count")
        state.kamikaze_wait[ship_index[sid]] = wait
    for sid in str_list_field(pos, "face_down", prefix):
        if sid not in ship_index or not FLEET <= state.ship_position[ship_index[sid]] < DEEP:
            raise SetupError(f"naval-war setup: face_down names {quote(sid)}, not a ship in a task force")
        state.face_down |= 1 << ship_index[sid]
    phase = str_field(pos, "phase", "turn", prefix)
    if not any(state.alive):
        raise SetupError("naval-war setup: no seat has a ship afloat; a round needs a task force (Round end)")
    if phase == "turn" and state.deck_size == 0:
        raise SetupError("naval-war setup: the deck is empty, so the round is over (Round end: it ends once the "
                         "last card is drawn); give the deck cards, or start in 'play'")
    state.opening_done = (1 << n) - 1
    if phase == "turn":
        rules.start_turn(state, state.turn_player)
    elif phase == "play":
        state.phase, state.to_act = Phase.PLAY, state.turn_player
    elif phase == "opening":
        state.opening_done = 0
        state.in_opening = True
        state.opening_count = 0
        state.mined_in_opening = 0
        rules.opening_continue(state)
    else:
        raise SetupError(f"naval-war setup: position.phase {quote(phase)}; setups start in 'turn', 'play' or 'opening'")
    if state.round_over:
        rules.end_round(state)
    return state


def _check_unlisted(zone_map: Mapping[str, Any], zone: str, rest_zone: str | None, ident: str) -> None:
    """A zone listed in the setup is exact: a card placed nowhere goes to "rest", or to a zone not listed."""
    if zone != rest_zone and zone in zone_map:
        raise SetupError(f"naval-war setup: {ident} is placed nowhere and zone {quote(zone)} is listed exactly; "
                         "list it, or mark one zone \"rest\"")


def _is_ship_zone(zone: str) -> bool:
    return zone in ("harbor", "box") or zone.split(":")[0] in ("fleet", "deep6")


def _is_card_zone(zone: str) -> bool:
    return not _is_ship_zone(zone) or zone == "box"


def _card_code(state: NavalWarState, zone: str, ident: str) -> int:
    simple = {"deck": DECK, "discard": DISCARD, "discard:unseen": UNSEEN, "box": BOX, "play": PLAY}
    if zone in simple:
        return simple[zone]
    if zone.startswith("on:"):
        ship = zone[3:]
        if ship not in state.table.ship_ids:
            raise SetupError(f"naval-war setup: zone {quote(zone)} names no ship")
        return ON_SHIP + state.table.ship_ids.index(ship)
    kind, _, seat = zone.partition(":")
    bases = {"hand": HAND, "mines": MINES, "smoke": SMOKE, "dd": DDC, "dd-salvos": ON_DD}
    if kind in bases and seat.isdigit() and int(seat) < state.num_players:
        return bases[kind] + int(seat)
    raise SetupError(f"naval-war setup: {ident} cannot go in zone {quote(zone)} (play-card zones: deck, discard, "
                     "discard:unseen, box, play, hand:N, mines:N, smoke:N, dd:N, dd-salvos:N, on:SHIP)")


def _ship_code(state: NavalWarState, zone: str, ident: str) -> int:
    if zone == "harbor":
        return HARBOR
    kind, _, seat = zone.partition(":")
    if kind in ("fleet", "deep6") and seat.isdigit() and int(seat) < state.num_players:
        return (FLEET if kind == "fleet" else DEEP) + int(seat)
    raise SetupError(f"naval-war setup: ship {ident} cannot go in zone {quote(zone)} (ship zones: harbor, fleet:N, "
                     "deep6:N)")


def _rebuild(state: NavalWarState) -> None:
    """Derive the mirrors (hands, fleets, counts, damage) from the card positions."""
    t = state.table
    n = state.num_players
    cpos = state.card_position
    state.hands = [[c for c, pos in enumerate(cpos) if pos == HAND + i] for i in range(n)]
    state.fleets = [[s for s, pos in enumerate(state.ship_position) if pos == FLEET + i] for i in range(n)]
    state.harbor = [s for s, pos in enumerate(state.ship_position) if pos == HARBOR]
    state.deck_count = [sum(1 for c in cards if cpos[c] == DECK) for cards in t.kind_cards]
    state.draw_pile = rules.draw_pile(t, state.deck_count)
    state.draw_kinds, state.draw_keys = rules.draw_kinds(t, state.deck_count)
    state.draw_chance = None
    state.deck_size = len(state.draw_pile)
    state.damage = [0] * t.num_ships
    for c, pos in enumerate(cpos):
        if ON_SHIP <= pos < ON_SALVO:
            state.damage[pos - ON_SHIP] += t.kind_value[t.card_kind[c]]
        elif pos >= ON_SALVO:
            state.damage[cpos[pos - ON_SALVO] - ON_SHIP] += t.kind_value[t.card_kind[c]]
    per_mine = [2 if state.params.mines_two else t.kind_value[t.card_kind[c]] for c in range(t.num_cards)]
    state.mine_hits = [sum(per_mine[c] for c in t.mine_cards if cpos[c] == MINES + i) for i in range(n)]
    state.smoke = [next((c for c, pos in enumerate(cpos) if pos == SMOKE + i), NONE) for i in range(n)]
    state.dd_card = [next((c for c, pos in enumerate(cpos) if pos == DDC + i), NONE) for i in range(n)]
    state.dd_hits = [sum(t.kind_value[t.card_kind[c]] for c, pos in enumerate(cpos) if pos == ON_DD + i)
                  for i in range(n)]
    state.alive = [bool(f) for f in state.fleets]
    state.foes = None
    rules.forget_fleets(state)
    state.under = None
    allowed = {MINES: (MINE,), SMOKE: (SMOKE_CAT,), DDC: (DD,), ON_DD: (SALVO,), ON_SHIP: (SALVO, ADDDMG)}
    names = {MINES: "mines:N", SMOKE: "smoke:N", DDC: "dd:N", ON_DD: "dd-salvos:N", ON_SHIP: "on:SHIP"}
    for c, pos in enumerate(cpos):
        base = ON_SHIP if pos >= ON_SHIP else (pos // 10) * 10
        cats = allowed.get(base)
        if cats is not None and t.kind_cat[t.card_kind[c]] not in cats:
            raise SetupError(f"naval-war setup: {t.card_ids[c]} cannot lie in a {names[base]} zone")
    for i in range(n):
        for base in (SMOKE, DDC):
            if sum(1 for pos in cpos if pos == base + i) > 1:
                raise SetupError(f"naval-war setup: seat {i} has more than one card in {names[base]}")
