"""Naval War views: the god view (`zones`, `position`), a seat's view (`observe`), `determinize`, and what
each seat sees of an action (`hidden_action_text`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import compress
from typing import TYPE_CHECKING, Any

from warcards.engine.api import CHANCE, JSON, Rng
from warcards.games.naval_war import rules
from warcards.games.naval_war.cards import CardTable
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
    PHASE_NAMES,
    PLAY,
    SMOKE,
    UNSEEN,
    Phase,
    Roll,
)

if TYPE_CHECKING:
    from warcards.games.naval_war.state import NavalWarState

_ROLLS = {Roll.SUB: "submarine", Roll.TORPEDO: "torpedo-boat", Roll.DD: "destroyer-squadron", Roll.STRIKE: "air-strike"}


# ----- god view -----------------------------------------------------------------------------------------
def snapshot_problem(state: NavalWarState) -> str | None:
    """What is out of step in a position read from a snapshot (`State._snapshot_problem`): the mirrors kept
    for speed must agree with the card and ship positions — each hand and task force holds exactly the cards
    and ships placed there, the harbor the ships placed there (in id order), the deck counts the cards left
    in the draw pile and the draw pile's kinds; a seat still in the round has a ship once the ships are dealt
    (the legal lists rely on it: a living seat is a target). None when they do."""
    card_position, ship_position = state.card_position, state.ship_position
    for seat in range(state.num_players):
        if sorted(state.hands[seat]) != [c for c, pos in enumerate(card_position) if pos == HAND + seat]:
            return f"hands[{seat}] is not the cards whose card_position is seat {seat}'s hand"
        if sorted(state.fleets[seat]) != [s for s, pos in enumerate(ship_position) if pos == FLEET + seat]:
            return f"fleets[{seat}] is not the ships whose ship_position is seat {seat}'s task force"
        if state.alive[seat] and not state.fleets[seat] and state.phase != Phase.DEAL_SHIP:
            return f"seat {seat} is alive with no ship (only while the ships are dealt may a living seat have none)"
    if state.harbor != [s for s, pos in enumerate(ship_position) if pos == HARBOR]:
        return "harbor is not the ships whose ship_position is the harbor, in id order"
    counts = [sum(1 for c in cards if card_position[c] == DECK) for cards in state.table.kind_cards]
    if state.deck_count != counts or state.deck_size != sum(counts):
        return "deck_count and deck_size are not the counts of the cards whose card_position is the draw pile"
    if state.draw_pile != rules.draw_pile(state.table, counts):
        return "draw_pile is not the draw pile's chance outcomes, one entry per card, sorted (deck_count written out)"
    if [state.draw_kinds, state.draw_keys] != list(rules.draw_kinds(state.table, counts)):
        return "draw_kinds and draw_keys are not the kinds left in the draw pile and their copies (deck_count)"
    return None


def zones(state: NavalWarState) -> dict[str, list[str]]:
    """Every zone's card ids: piles, each seat's hand, task force, Deep Six, minefields, Smoke, Destroyer
    Squadron and the salvos on it, and `on:SHIP` for the salvos (and Additional Damage) under a ship."""
    t = state.table
    card_zone, ship_zone = state.game.zone_names
    z: dict[str, list[str]] = {name: [] for name in state.game.zone_order}
    cpos = state.card_position
    card_ids = t.card_ids
    for c, pos in enumerate(cpos):
        if pos >= ON_SALVO:
            pos = cpos[pos - ON_SALVO]
        z[card_zone[pos]].append(card_ids[c])
    ship_ids = t.ship_ids
    for s, pos in enumerate(state.ship_position):
        z[ship_zone[pos]].append(ship_ids[s])
    return z


def zone_tables(t: CardTable, n: int) -> tuple[tuple[dict[int, str], dict[int, str]], list[str]]:
    """Zone names by card and ship position code, and the zones in listing order (built once per game)."""
    card_zone = {DECK: "deck", DISCARD: "discard", UNSEEN: "discard:unseen", BOX: "box", PLAY: "play"}
    ship_zone = {HARBOR: "harbor", BOX: "box"}
    order = ["deck", "harbor", "discard", "discard:unseen", "box", "play"]
    for i in range(n):
        card_zone.update({HAND + i: f"hand:{i}", MINES + i: f"mines:{i}", SMOKE + i: f"smoke:{i}",
                          DDC + i: f"dd:{i}", ON_DD + i: f"dd-salvos:{i}"})
        ship_zone.update({FLEET + i: f"fleet:{i}", DEEP + i: f"deep6:{i}"})
        order += [f"{name}:{i}" for name in ("hand", "fleet", "deep6", "mines", "smoke", "dd", "dd-salvos")]
    for s, sid in enumerate(t.ship_ids):
        card_zone[ON_SHIP + s] = "on:" + sid
        order.append("on:" + sid)
    return (card_zone, ship_zone), order


def _attached(state: NavalWarState) -> dict[str, str]:
    t = state.table
    return {t.card_ids[d]: t.card_ids[state.card_position[d] - ON_SALVO] for d in t.adddmg_cards if state.card_position[d] >= ON_SALVO}


@cache
def _position_table() -> dict[str, Callable[[NavalWarState], Any]]:
    """The documented position fields (docs/notation/naval-war.md), each with how it is read off the state
    (built on first use: the state's attribute types are known only once the state module is loaded)."""
    return {
        "phase": lambda state: PHASE_NAMES[state.phase],
        "round": lambda state: state.round_index,
        "dealer": lambda state: state.dealer,
        "turn": lambda state: state.turn_player,
        "turns": lambda state: state.turn_count,
        "scores": lambda state: list(state.scores),
        "last_round": lambda state: list(state.last_round),
        "eliminated": lambda state: [i for i in range(state.num_players) if not state.alive[i]],
        "mine_last": lambda state: list(state.mine_last),
        "kamikaze_wait": lambda state: {state.table.ship_ids[s]: w for s, w in enumerate(state.kamikaze_wait) if w},
        "attached": lambda state: _attached(state),
        "opening": lambda state: state.in_opening,
        "opening_done": lambda state: [i for i in range(state.num_players) if (state.opening_done >> i) & 1],
        "mined_in_opening": lambda state: [i for i in range(state.num_players) if (state.mined_in_opening >> i) & 1],
        "unseen_non_red": lambda state: state.unseen_non_red,
        "pending": lambda state: state.table.card_ids[state.pending] if state.pending >= 0 else None,
        "pending_target": lambda state: state.table.ship_ids[state.pending_target] if state.pending_target >= 0 else None,
        "roll": lambda state: _ROLLS.get(state.roll_kind),
        "strikes": lambda state: _strikes(state),
        "carriers_to_name": lambda state: [state.table.ship_ids[s] for s in state.carriers_to_name[state.carrier_index:]],
        "dd_target": lambda state: state.dd_target,
        "dd_left": lambda state: state.dd_left,
        "swap_card": lambda state: state.table.card_ids[state.swap_card] if state.swap_card >= 0 else None,
        "aiming": lambda state: state.table.card_ids[state.aiming] if state.aiming >= 0 else None,
        "face_down": lambda state: [state.table.ship_ids[s] for s in range(state.table.num_ships) if (state.face_down >> s) & 1],
        "deal_left": lambda state: state.deal_left,
    }


def position(state: NavalWarState, fields: frozenset[str] | None = None) -> JSON:
    """The documented position fields (docs/notation/naval-war.md); with `fields`, only those of them (a bot
    asking for three fields does not pay for thirty)."""
    table = _position_table()
    if fields is None:
        return {name: build(state) for name, build in table.items()}
    return {name: build(state) for name, build in table.items() if name in fields}


def _strikes(state: NavalWarState) -> list[JSON]:
    t = state.table
    s = state.strikes
    return [
        {"carrier": t.ship_ids[s[i]], "target": t.ship_ids[s[i + 1]], "kamikaze": bool(s[i + 2]),
         "rolled": i // 3 < state.strike_index}
        for i in range(0, len(s), 3)
    ]


# ----- a seat's view ------------------------------------------------------------------------------------
def observe(state: NavalWarState, seat: int) -> JSON:
    """What `seat` may know (`_view`)."""
    return _view(state, seat, None)


def observe_fields(state: NavalWarState, seat: int, fields: frozenset[str]) -> JSON:
    """The named top-level fields of `observe(state, seat)`, each built only when asked for (`_view`)."""
    return _view(state, seat, fields)


def observe_public(state: NavalWarState) -> JSON:
    """What every seat may know: a spectator's view (`public_view()`, `_view` for no seat)."""
    return _view(state, None, None)


def _view(state: NavalWarState, seat: int | None, fields: frozenset[str] | None) -> JSON:
    """What `seat` may know: its hand, every card on the table, hand counts, pile sizes, the face-up discard
    pile and Deep Six piles, the scores, and what is being resolved; for `seat` None what every seat may know
    (a spectator's view): no hand, every face-down ship hidden, at night no carriers to name (R41). With
    `fields`, only those top-level fields, the task forces, the discard pile and the position fields each
    built only when asked for (bots read a few fields on every move)."""
    t = state.table
    cpos = state.card_position
    view: JSON = {
        "seat": seat,
        "players": state.num_players,
        "teams": list(state.team),
        "target": state.params.target,
        "current_player": state.to_act,
    }
    changed = state.game.options.get("params")
    if changed and (fields is None or "params" in fields):
        view["params"] = dict(changed)  # house rules: the changed rule parameters (docs/tuning.md)
    if seat is not None and (fields is None or "hand" in fields):
        view["hand"] = sorted(t.card_ids[c] for c in state.hands[seat])
    view["deck_size"] = state.deck_size
    view["harbor_size"] = len(state.harbor)
    if fields is None or "discard" in fields or "unseen_discards" in fields:
        view["discard"] = sorted(t.card_ids[c] for c, pos in enumerate(cpos) if pos == DISCARD)
        view["unseen_discards"] = cpos.count(UNSEEN)
    if fields is None or "task_forces" in fields:
        view["task_forces"] = _task_forces(state, seat)
    if fields is None or not fields <= _OWN_FIELDS:
        public = position(state, None if fields is None else fields - _OWN_FIELDS)
        public.pop("face_down", None)
        if state.params.night and seat != state.turn_player and "carriers_to_name" in public:
            public["carriers_to_name"] = None  # which face-down ships are carriers stays hidden (R41)
        view.update(public)
    if state.to_act < -1:
        view["returns"] = state.returns()
    if fields is not None:
        return {key: value for key, value in view.items() if key in fields}
    return view


def _task_forces(state: NavalWarState, seat: int | None) -> list[JSON]:
    """Each seat's task force as `seat` sees it (face-down ships of others show no id, gun or hits). Bots
    ask for it at every move of a search's rollouts, so each pile is gathered in one pass over its cards."""
    t = state.table
    n = state.num_players
    cpos = state.card_position
    card_ids = t.card_ids
    under: dict[int, list[int]] = {}
    adds: dict[int, list[str]] = {}
    for c in [c for c, pos in enumerate(cpos) if pos >= ON_SHIP]:  # the few cards under ships and salvos
        pos = cpos[c]
        if pos < ON_SALVO:
            if pos - ON_SHIP in under:
                under[pos - ON_SHIP].append(c)
            else:
                under[pos - ON_SHIP] = [c]
        elif pos - ON_SALVO in adds:
            adds[pos - ON_SALVO].append(card_ids[c])
        else:
            adds[pos - ON_SALVO] = [card_ids[c]]
    mines: list[list[str]] = [[] for _ in range(n)]
    for c in t.mine_cards:
        if MINES <= cpos[c] < MINES + n:
            mines[cpos[c] - MINES].append(card_ids[c])
    dd_card = state.dd_card
    dd_salvos: list[list[str]] = [[] for _ in range(n)]
    if dd_card.count(NONE) < n:  # a Destroyer Squadron is out: gather the salvos on it
        for c in t.salvo_cards:
            if ON_DD <= cpos[c] < ON_DD + n:
                dd_salvos[cpos[c] - ON_DD].append(card_ids[c])
    deep_six: list[list[str]] = [[] for _ in range(n)]
    ship_position = state.ship_position
    for s in [s for s, pos in enumerate(ship_position) if pos >= DEEP]:
        deep_six[ship_position[s] - DEEP].append(t.ship_ids[s])
    forces = []
    down = state.face_down
    dmg = state.damage
    ship_ids = t.ship_ids
    ship_gun = t.ship_gun
    ship_hits = t.ship_hits
    resting = state.kamikaze_wait
    for i in range(n):
        ships: list[JSON] = []
        mine_hits = state.mine_hits[i]
        for s in state.fleets[i]:
            face_down = (down >> s) & 1 == 1
            if face_down and i != seat:
                ships.append({"id": None, "face_down": True, "gun": None, "hits": None,
                              "damage": dmg[s] + mine_hits, "salvos": [], "resting": 0})
                continue
            gun = ship_gun[s]
            salvos = under.get(s)
            ships.append({
                "id": ship_ids[s],
                "face_down": face_down,
                "gun": "carrier" if gun < 0 else GUN_TEXT[gun],
                "hits": ship_hits[s],
                "damage": dmg[s] + mine_hits,
                "salvos": [{"card": card_ids[c], "additional": adds.get(c, [])} for c in salvos] if salvos else [],
                "resting": resting[s],
            })
        dd = dd_card[i]
        forces.append({
            "seat": i,
            "alive": state.alive[i],
            "ships": ships,
            "mines": mines[i],
            "mine_hits": mine_hits,
            "last_minefield": state.mine_last[i],
            "smoke": card_ids[state.smoke[i]] if state.smoke[i] >= 0 else None,
            "destroyer_squadron": None if dd < 0 else {
                "card": card_ids[dd],
                "hits": state.dd_hits[i],
                "salvos": dd_salvos[i],
            },
            "deep_six": sorted(deep_six[i]),
            "hand_count": len(state.hands[i]),
            "known_in_hand": sorted([card_ids[c] for c in state.known[i]]),
        })
    return forces


_OWN_FIELDS = frozenset({
    "seat", "players", "teams", "target", "current_player", "hand", "deck_size", "harbor_size", "discard",
    "unseen_discards", "task_forces", "returns",
})
"""The fields `observe` builds itself; any other field asked for comes from `position` (so a field added
to `_position_table` needs no change here)."""


GUN_TEXT = ("11", "12.6", "14", "15", "16", "18")


# ----- determinize --------------------------------------------------------------------------------------
def determinize(state: NavalWarState, seat: int, rng: Rng) -> NavalWarState:
    """Resample the cards `seat` cannot see — the draw pile, other hands (but the cards publicly known to be
    there), the hands discarded unseen — keeping what the seat knows: after a player's opening his hand holds
    no red card (red cards are played at once), and so do hands discarded after their owner's opening.

    The unseen cards are pooled in card order before any draw, so two states the seat cannot tell apart give
    the same sample for the same `rng` (the sample depends only on the seat's view)."""
    other = state._copy()
    t = state.table
    card_kind = t.card_kind
    cpos = other.card_position
    n = state.num_players
    known = state.known
    # The unseen cards, in card order: the draw pile, hands discarded unseen, the other hands less their
    # publicly known cards.
    codes = {DECK, UNSEEN}
    codes.update(HAND + j for j in range(n) if j != seat)
    pool = list(compress(range(len(cpos)), map(codes.__contains__, cpos)))
    shown = {c for j in range(n) if j != seat for c in known[j]}
    if shown:
        pool = [c for c in pool if c not in shown]
    slots: list[tuple[int, int, bool]] = [  # (position code, how many, must be non-red)
        (HAND + j, len(state.hands[j]) - len(known[j]), bool((state.opening_done >> j) & 1)) for j in range(n) if j != seat
    ]
    unseen = cpos.count(UNSEEN)
    slots.append((UNSEEN, state.unseen_non_red, True))
    slots.append((UNSEEN, unseen - state.unseen_non_red, False))
    opener = state.to_act if state.phase == Phase.OPEN and state.to_act != seat else -1
    while True:
        assigned = _deal_hidden(pool, slots, _plain_cards(t), rng)
        if opener < 0 or _can_open(state, opener, [c for c, code in assigned.items() if code == HAND + opener]):
            break
    hands = other.hands
    for j in range(n):
        if j != seat:
            hands[j] = known[j][:]
    # Only the placed cards, and the unseen cards that were not in the draw pile, change places.
    deck_count = other.deck_count
    was = state.card_position
    for c, code in assigned.items():
        if was[c] == DECK:
            deck_count[card_kind[c]] -= 1
        cpos[c] = code
        if code != UNSEEN:
            hands[code - HAND].append(c)
    moved = [c for j in range(n) if j != seat for c in state.hands[j]]
    if unseen:
        moved += compress(range(len(was)), map(UNSEEN.__eq__, was))
    for c in moved:
        if c not in assigned and c not in shown:
            cpos[c] = DECK
            deck_count[card_kind[c]] += 1
    other.draw_pile = rules.draw_pile(other.table, deck_count)
    other.draw_kinds, other.draw_keys = rules.draw_kinds(other.table, deck_count)
    other.draw_chance = None
    if state.face_down:
        _shuffle_face_down(other, seat, rng)
    return other


def _deal_hidden(pool: list[int], slots: list[tuple[int, int, bool]], plain_card: tuple[bool, ...],
                 rng: Rng) -> dict[int, int]:
    """Place the unseen cards: slots that must hold no red card first, then the others; the cards not placed
    make the draw pile."""
    plain = list(compress(pool, map(plain_card.__getitem__, pool)))
    assigned: dict[int, int] = {}
    for code, count, no_red in slots:
        if no_red and count:
            for c in _take(plain, count, rng):
                assigned[c] = code
    if any(count and not no_red for _, count, no_red in slots):
        rest = plain + [c for c in pool if not plain_card[c]]
        for code, count, no_red in slots:
            if not no_red and count:
                for c in _take(rest, count, rng):
                    assigned[c] = code
    return assigned


_PLAIN: dict[int, tuple[CardTable, tuple[bool, ...]]] = {}
"""Per card table: whether each play card is a normal (black) card, by the id of its card tables."""


def _plain_cards(t: CardTable) -> tuple[bool, ...]:
    """Whether each play card is a normal (black) card (built once per card file)."""
    found = _PLAIN.get(id(t))
    if found is None or found[0] is not t:
        found = _PLAIN[id(t)] = (t, tuple(not t.kind_red[k] for k in t.card_kind))
    return found[1]


def _take(pool: list[int], count: int, rng: Rng) -> list[int]:
    """`count` items drawn uniformly without replacement, removed from `pool` (a partial Fisher-Yates
    shuffle: one draw per item taken, not per item in the pool)."""
    random_ = rng.random
    taken = []
    for _ in range(count):
        j = int(random_() * len(pool))
        taken.append(pool[j])
        pool[j] = pool[-1]
        pool.pop()
    return taken


def _can_open(state: NavalWarState, p: int, hand: list[int]) -> bool:
    """What everyone knows of a player choosing a red card in the opening (Opening): his hand holds at least
    one red card, none of them Additional Damage or without a target (those were discarded at once)."""
    t = state.table
    reds = [t.card_kind[c] for c in hand if t.kind_red[t.card_kind[c]]]
    return bool(reds) and all(rules.red_targets(state, p, k) for k in reds)


def _shuffle_face_down(state: NavalWarState, seat: int, rng: Rng) -> None:
    """Night actions: the other seats' face-down ships may be any ship `seat` has not seen (harbor or face
    down elsewhere); face-down ships carry no damage (a hit turns a ship face up). A player who has named an
    air strike keeps his ships: his carriers still to fly are part of the position (R42). Before he names
    one (the choice that opens every night turn, R41) his face-down ships are resampled like any other's and
    his carriers able to fly are read off the sample, so no sample gives his true ships away. The unseen ships
    are pooled in id order before the draws, so the sample depends only on what `seat` knows."""
    down = state.face_down
    striker = state.to_act if state.phase == Phase.CHOICE and state.to_act != seat else -1
    keep = state.to_act if state.phase == Phase.STRIKE else -1
    slots = [(j, k) for j in range(state.num_players) if j not in (seat, keep)
             for k, s in enumerate(state.fleets[j]) if (down >> s) & 1]
    pool = sorted(state.harbor + [state.fleets[j][k] for j, k in slots])
    new_down = down
    for j, k in slots:
        new_down &= ~(1 << state.fleets[j][k])
    for (j, k), s in zip(slots, _take(pool, len(slots), rng), strict=True):
        state.fleets[j][k] = s
        state.ship_position[s] = FLEET + j
        new_down |= 1 << s
    state.harbor = sorted(pool)
    for s in pool:
        state.ship_position[s] = HARBOR
    state.face_down = new_down
    rules.forget_fleets(state)
    if striker >= 0:
        elig = [] if state.params.gunnery else rules.strike_carriers(state, striker)
        state.carriers_to_name = elig if elig and rules.strike_targets(state, striker) else []


# ----- what each seat sees of an action -----------------------------------------------------------------
def nothing_to(state: NavalWarState, action: int, seat: int | None) -> bool:
    """No step is nothing to any seat (`State._nothing_to`): every action is played face up and each one that
    gives no log line of its own (`draw`, `fire KIND`: the next step tells it) moves the phase every seat's
    view shows, so the engine need not compare views."""
    return False


def hidden_action_text(state: NavalWarState, action: int, seat: int | None) -> str | None:
    """What `seat` (None: a spectator) reads instead of legal `action`, or None when it sees it in full.

    Hidden: a play card dealt or drawn into a hand (the owner sees it), except a red card drawn in a turn,
    which is played at once (Turn; Red cards); with night actions, a ship dealt or an Additional Ship that
    joins a task force face down (its owner sees it). Every player action is played face up, the fleet
    exchanges included (R32), and dice are public."""
    if state.to_act != CHANCE:
        return None
    phase = state.phase
    names = state.game.seat_names()
    if phase in (Phase.DEAL_CARD, Phase.DEAL_SHIP):
        owner = rules.deal_seat(state)
        if phase == Phase.DEAL_SHIP and not state.params.night:
            return None
        what = "a ship face down" if phase == Phase.DEAL_SHIP else "a card"
        return None if seat == owner else f"{names[owner]} is dealt {what}"
    owner = state.turn_player
    if phase == Phase.SHIP:
        face_down = state.params.night and not state.mine_hits[owner]
        return None if seat == owner or not face_down else f"{names[owner]}'s Additional Ship joins face down"
    if phase in (Phase.REFILL, Phase.DRAW):
        kind = action - state.game.first_draw_outcome
        if phase == Phase.DRAW and state.table.kind_red[kind]:
            return None
        return None if seat == owner else f"{names[owner]} draws a card"
    return None
