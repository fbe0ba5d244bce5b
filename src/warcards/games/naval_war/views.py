"""Naval War views: the god view (`zones`, `position`), a seat's view (`observe`), `determinize`, and
scenario setups (`state_from_setup`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from itertools import compress
from typing import TYPE_CHECKING, Any

from warcards.engine.api import CHANCE, JSON, Rng
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
from warcards.games.naval_war.cards import ADDDMG, DD, MINE, SALVO, Tables
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
    ON_DD,
    ON_SALVO,
    ON_SHIP,
    PH_CHOICE,
    PH_DEAL_CARD,
    PH_DEAL_SHIP,
    PH_DRAW,
    PH_OPEN,
    PH_PLAY,
    PH_REFILL,
    PH_SHIP,
    PH_STRIKE,
    PHASE_NAMES,
    PLAY,
    R_DD,
    R_STRIKE,
    R_SUB,
    R_TORPEDO,
    SMOKE,
    UNSEEN,
)

if TYPE_CHECKING:
    from warcards.games.naval_war.game import NavalWarGame
    from warcards.games.naval_war.state import NavalWarState

_ROLLS = {R_SUB: "submarine", R_TORPEDO: "torpedo-boat", R_DD: "destroyer-squadron", R_STRIKE: "air-strike"}


# ----- god view -----------------------------------------------------------------------------------------
def zones(st: NavalWarState) -> dict[str, list[str]]:
    """Every zone's card ids: piles, each seat's hand, task force, Deep Six, minefields, Smoke, Destroyer
    Squadron and the salvos on it, and `on:SHIP` for the salvos (and Additional Damage) under a ship."""
    t = st.t
    card_zone, ship_zone = st.game.zone_names
    z: dict[str, list[str]] = {name: [] for name in st.game.zone_order}
    cpos = st.cpos
    card_ids = t.card_ids
    for c, pos in enumerate(cpos):
        if pos >= ON_SALVO:
            pos = cpos[pos - ON_SALVO]
        z[card_zone[pos]].append(card_ids[c])
    ship_ids = t.ship_ids
    for s, pos in enumerate(st.spos):
        z[ship_zone[pos]].append(ship_ids[s])
    return z


def zone_tables(t: Tables, n: int) -> tuple[tuple[dict[int, str], dict[int, str]], list[str]]:
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


def _attached(st: NavalWarState) -> dict[str, str]:
    t = st.t
    return {t.card_ids[d]: t.card_ids[st.cpos[d] - ON_SALVO] for d in t.adddmg_cards if st.cpos[d] >= ON_SALVO}


@cache
def _position_table() -> dict[str, Callable[[NavalWarState], Any]]:
    """The documented position fields (docs/notation/naval-war.md), each with how it is read off the state
    (built on first use: the state's attribute types are known only once the state module is loaded)."""
    return {
        "phase": lambda st: PHASE_NAMES[st.phase],
        "round": lambda st: st.round,
        "dealer": lambda st: st.dealer,
        "turn": lambda st: st.turn,
        "turns": lambda st: st.turns,
        "scores": lambda st: list(st.scores),
        "last_round": lambda st: list(st.last_round),
        "eliminated": lambda st: [i for i in range(st.n) if not st.alive[i]],
        "mine_last": lambda st: list(st.mine_last),
        "kamikaze_wait": lambda st: {st.t.ship_ids[s]: w for s, w in enumerate(st.kwait) if w},
        "attached": lambda st: _attached(st),
        "opening": lambda st: st.in_open,
        "opening_done": lambda st: [i for i in range(st.n) if (st.opened >> i) & 1],
        "mined_in_opening": lambda st: [i for i in range(st.n) if (st.mined_open >> i) & 1],
        "unseen_non_red": lambda st: st.hidden_nored,
        "pending": lambda st: st.t.card_ids[st.pend] if st.pend >= 0 else None,
        "pending_target": lambda st: st.t.ship_ids[st.pend_target] if st.pend_target >= 0 else None,
        "roll": lambda st: _ROLLS.get(st.roll_kind),
        "strikes": lambda st: _strikes(st),
        "carriers_to_name": lambda st: [st.t.ship_ids[s] for s in st.elig[st.strike_ptr:]],
        "dd_target": lambda st: st.dd_target,
        "dd_left": lambda st: st.dd_left,
        "swap_card": lambda st: st.t.card_ids[st.swap_card] if st.swap_card >= 0 else None,
        "aiming": lambda st: st.t.card_ids[st.aim] if st.aim >= 0 else None,
        "face_down": lambda st: [st.t.ship_ids[s] for s in range(st.t.num_ships) if (st.down >> s) & 1],
        "deal_left": lambda st: st.deal_left,
    }


def position(st: NavalWarState, fields: frozenset[str] | None = None) -> JSON:
    """The documented position fields (docs/notation/naval-war.md); with `fields`, only those of them (a bot
    asking for three fields does not pay for thirty)."""
    table = _position_table()
    if fields is None:
        return {name: build(st) for name, build in table.items()}
    return {name: build(st) for name, build in table.items() if name in fields}


def _strikes(st: NavalWarState) -> list[JSON]:
    t = st.t
    s = st.strikes
    return [
        {"carrier": t.ship_ids[s[i]], "target": t.ship_ids[s[i + 1]], "kamikaze": bool(s[i + 2]),
         "rolled": i // 3 < st.strike_i}
        for i in range(0, len(s), 3)
    ]


# ----- a seat's view ------------------------------------------------------------------------------------
def observe(st: NavalWarState, seat: int, fields: frozenset[str] | None = None) -> JSON:
    """What `seat` may know: its hand, every card on the table, hand counts, pile sizes, the face-up discard
    pile and Deep Six piles, the scores, and what is being resolved. With `fields`, only those top-level
    fields, the task forces, the discard pile and the position fields each built only when asked for (bots
    read a few fields on every move)."""
    t = st.t
    cpos = st.cpos
    view: JSON = {
        "seat": seat,
        "players": st.n,
        "teams": list(st.team),
        "target": st.p.target,
        "current_player": st.cur,
    }
    if fields is None or "hand" in fields:
        view["hand"] = sorted(t.card_ids[c] for c in st.hands[seat])
    view["deck_size"] = st.deck_size
    view["harbor_size"] = len(st.harbor)
    if fields is None or "discard" in fields or "unseen_discards" in fields:
        view["discard"] = sorted(t.card_ids[c] for c, pos in enumerate(cpos) if pos == DISCARD)
        view["unseen_discards"] = cpos.count(UNSEEN)
    if fields is None or "task_forces" in fields:
        view["task_forces"] = _task_forces(st, seat)
    if fields is None or not fields <= _OWN_FIELDS:
        public = position(st, None if fields is None else fields - _OWN_FIELDS)
        public.pop("face_down", None)
        if st.p.night and seat != st.turn and "carriers_to_name" in public:
            public["carriers_to_name"] = None  # which face-down ships are carriers stays hidden (ruling N5)
        view.update(public)
    if st.cur < -1:
        view["returns"] = st.returns()
    if fields is not None:
        return {key: value for key, value in view.items() if key in fields}
    return view


def _task_forces(st: NavalWarState, seat: int) -> list[JSON]:
    """Each seat's task force as `seat` sees it (face-down ships of others show no id, gun or hits). Bots
    ask for it at every move of a search's rollouts, so each pile is gathered in one pass over its cards."""
    t = st.t
    n = st.n
    cpos = st.cpos
    card_ids = t.card_ids
    under: dict[int, list[int]] = {}
    adds: dict[int, list[str]] = {}
    for c, pos in enumerate(cpos):
        if pos >= ON_SHIP:
            if pos < ON_SALVO:
                under.setdefault(pos - ON_SHIP, []).append(c)
            else:
                adds.setdefault(pos - ON_SALVO, []).append(card_ids[c])
    mines: list[list[str]] = [[] for _ in range(n)]
    for c in t.mine_cards:
        if MINES <= cpos[c] < MINES + n:
            mines[cpos[c] - MINES].append(card_ids[c])
    dd_salvos: list[list[str]] = [[] for _ in range(n)]
    for c in t.salvo_cards:
        if ON_DD <= cpos[c] < ON_DD + n:
            dd_salvos[cpos[c] - ON_DD].append(card_ids[c])
    deep_six: list[list[str]] = [[] for _ in range(n)]
    for s, pos in enumerate(st.spos):
        if pos >= DEEP:
            deep_six[pos - DEEP].append(t.ship_ids[s])
    forces = []
    down = st.down
    dmg = st.dmg
    for i in range(n):
        ships: list[JSON] = []
        mine_hits = st.mine_hits[i]
        for s in st.fleets[i]:
            if (down >> s) & 1 and i != seat:
                ships.append({"id": None, "face_down": True, "gun": None, "hits": None,
                              "damage": dmg[s] + mine_hits, "salvos": [], "resting": 0})
                continue
            gun = t.ship_gun[s]
            salvos = under.get(s)
            ships.append({
                "id": t.ship_ids[s],
                "face_down": bool((down >> s) & 1),
                "gun": "carrier" if gun < 0 else GUN_TEXT[gun],
                "hits": t.ship_hits[s],
                "damage": dmg[s] + mine_hits,
                "salvos": [{"card": card_ids[c], "additional": adds.get(c, [])} for c in salvos] if salvos else [],
                "resting": st.kwait[s],
            })
        dd = st.ddc[i]
        forces.append({
            "seat": i,
            "alive": st.alive[i],
            "ships": ships,
            "mines": mines[i],
            "mine_hits": mine_hits,
            "last_minefield": st.mine_last[i],
            "smoke": card_ids[st.smoke[i]] if st.smoke[i] >= 0 else None,
            "destroyer_squadron": None if dd < 0 else {
                "card": card_ids[dd],
                "hits": st.dd_hits[i],
                "salvos": dd_salvos[i],
            },
            "deep_six": sorted(deep_six[i]),
            "hand_count": len(st.hands[i]),
            "known_in_hand": sorted([card_ids[c] for c in st.known[i]]),
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
def determinize(st: NavalWarState, seat: int, rng: Rng) -> NavalWarState:
    """Resample the cards `seat` cannot see — the draw pile, other hands (but the cards publicly known to be
    there), the hands discarded unseen — keeping what the seat knows: after a player's opening his hand holds
    no red card (red cards are played at once), and so do hands discarded after their owner's opening.

    The unseen cards are pooled in card order before any draw, so two states the seat cannot tell apart give
    the same sample for the same `rng` (the sample depends only on the seat's view)."""
    other = st._copy()
    t = st.t
    card_kind = t.card_kind
    cpos = other.cpos
    n = st.n
    known = st.known
    # The unseen cards, in card order: the draw pile, hands discarded unseen, the other hands less their
    # publicly known cards.
    codes = {DECK, UNSEEN}
    codes.update(HAND + j for j in range(n) if j != seat)
    pool = list(compress(range(len(cpos)), map(codes.__contains__, cpos)))
    shown = {c for j in range(n) if j != seat for c in known[j]}
    if shown:
        pool = [c for c in pool if c not in shown]
    slots: list[tuple[int, int, bool]] = [  # (position code, how many, must be non-red)
        (HAND + j, len(st.hands[j]) - len(known[j]), bool((st.opened >> j) & 1)) for j in range(n) if j != seat
    ]
    unseen = cpos.count(UNSEEN)
    slots.append((UNSEEN, st.hidden_nored, True))
    slots.append((UNSEEN, unseen - st.hidden_nored, False))
    opener = st.cur if st.phase == PH_OPEN and st.cur != seat else -1
    while True:
        assigned = _deal_hidden(pool, slots, _plain_cards(t), rng)
        if opener < 0 or _can_open(st, opener, [c for c, code in assigned.items() if code == HAND + opener]):
            break
    hands = other.hands
    for j in range(n):
        if j != seat:
            hands[j] = known[j][:]
    # Only the placed cards, and the unseen cards that were not in the draw pile, change places.
    deck_count = other.deck_count
    was = st.cpos
    for c, code in assigned.items():
        if was[c] == DECK:
            deck_count[card_kind[c]] -= 1
        cpos[c] = code
        if code != UNSEEN:
            hands[code - HAND].append(c)
    moved = [c for j in range(n) if j != seat for c in st.hands[j]]
    if unseen:
        moved += compress(range(len(was)), map(UNSEEN.__eq__, was))
    for c in moved:
        if c not in assigned and c not in shown:
            cpos[c] = DECK
            deck_count[card_kind[c]] += 1
    if st.down:
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


_PLAIN: dict[int, tuple[Tables, tuple[bool, ...]]] = {}
"""Per card table: whether each play card is a normal (black) card, by the id of its card tables."""


def _plain_cards(t: Tables) -> tuple[bool, ...]:
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


def _can_open(st: NavalWarState, p: int, hand: list[int]) -> bool:
    """What everyone knows of a player choosing a red card in the opening (Opening): his hand holds at least
    one red card, none of them Additional Damage or without a target (those were discarded at once)."""
    t = st.t
    reds = [t.card_kind[c] for c in hand if t.kind_red[t.card_kind[c]]]
    return bool(reds) and all(rules.red_targets(st, p, k) for k in reds)


def _shuffle_face_down(st: NavalWarState, seat: int, rng: Rng) -> None:
    """Night actions: the other seats' face-down ships may be any ship `seat` has not seen (harbor or face
    down elsewhere); face-down ships carry no damage (a hit turns a ship face up). A player who has named an
    air strike keeps his ships: his carriers still to fly are part of the position (ruling N4). Before he names
    one (the choice that opens every night turn, N5) his face-down ships are resampled like any other's and
    his carriers able to fly are read off the sample, so no sample gives his true ships away. The unseen ships
    are pooled in id order before the draws, so the sample depends only on what `seat` knows."""
    down = st.down
    striker = st.cur if st.phase == PH_CHOICE and st.cur != seat else -1
    keep = st.cur if st.phase == PH_STRIKE else -1
    slots = [(j, k) for j in range(st.n) if j not in (seat, keep)
             for k, s in enumerate(st.fleets[j]) if (down >> s) & 1]
    pool = sorted(st.harbor + [st.fleets[j][k] for j, k in slots])
    new_down = down
    for j, k in slots:
        new_down &= ~(1 << st.fleets[j][k])
    for (j, k), s in zip(slots, _take(pool, len(slots), rng), strict=True):
        st.fleets[j][k] = s
        st.spos[s] = FLEET + j
        new_down |= 1 << s
    st.harbor = sorted(pool)
    for s in pool:
        st.spos[s] = HARBOR
    st.down = new_down
    st.tgt = [None] * st.n
    st.tcache = None
    if striker >= 0:
        elig = [] if st.p.gunnery else rules.strike_carriers(st, striker)
        st.elig = elig if elig and rules.strike_targets(st, striker) else []


# ----- what each seat sees of an action -----------------------------------------------------------------
def hidden_action_text(st: NavalWarState, action: int, seat: int | None) -> str | None:
    """What `seat` (None: a spectator) reads instead of legal `action`, or None when it sees it in full.

    Hidden: a play card dealt or drawn into a hand (the owner sees it), except a red card drawn in a turn,
    which is played at once (Turn; Red cards); with night actions, a ship dealt or an Additional Ship that
    joins a task force face down (its owner sees it). Every player action is played face up, the fleet
    exchanges included (ruling F2), and dice are public."""
    if st.cur != CHANCE:
        return None
    phase = st.phase
    names = st.game.seat_names()
    if phase in (PH_DEAL_CARD, PH_DEAL_SHIP):
        owner = rules._deal_seat(st)
        if phase == PH_DEAL_SHIP and not st.p.night:
            return None
        what = "a ship face down" if phase == PH_DEAL_SHIP else "a card"
        return None if seat == owner else f"{names[owner]} is dealt {what}"
    owner = st.turn
    if phase == PH_SHIP:
        face_down = st.p.night and not st.mine_hits[owner]
        return None if seat == owner or not face_down else f"{names[owner]}'s Additional Ship joins face down"
    if phase in (PH_REFILL, PH_DRAW):
        kind = action - st.L.C_KIND
        if phase == PH_DRAW and st.t.kind_red[kind]:
            return None
        return None if seat == owner else f"{names[owner]} draws a card"
    return None


# ----- scenario setups ----------------------------------------------------------------------------------
_POSITION_KEYS = {"phase", "round", "dealer", "turn", "scores", "last_round", "mine_last", "kamikaze_wait",
                  "attached", "face_down"}


def state_from_setup(game: NavalWarGame, setup: Mapping[str, Any]) -> NavalWarState:
    """A state built from zones and position fields (docs/notation/naval-war.md, Setups)."""
    from warcards.games.naval_war.state import NavalWarState

    zone_map, pos = setup_parts(setup, "naval-war setup: ")
    bad = sorted(set(pos) - _POSITION_KEYS)
    if bad:
        raise SetupError(f"naval-war setup: unknown position field {quote(bad[0])}; fields are {sorted(_POSITION_KEYS)}")
    st = NavalWarState(game)
    rules.start_round(st)
    t = st.t
    n = st.n
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
        st.cpos[c] = _card_code(st, card_zone, t.card_ids[c])
    for s in range(t.num_ships):
        zone = placed_ships.get(s, rest_zone if rest_zone is not None and _is_ship_zone(rest_zone) else "harbor")
        if s in boxed_ships:
            if zone not in ("harbor", "box"):
                raise SetupError(f"naval-war setup: {t.ship_ids[s]} is out of the game with these options")
            continue
        if s not in placed_ships:
            _check_unlisted(zone_map, zone, rest_zone, t.ship_ids[s])
        st.spos[s] = _ship_code(st, zone, t.ship_ids[s])
    # Additional Damage sits on a salvo: the one named in position.attached, else the first salvo listed.
    attached: Mapping[str, str] = mapping_field(pos, "attached", str, "naval-war setup: ")
    for d in t.adddmg_cards:
        code = st.cpos[d]
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
            if x < 0 or st.cpos[x] != code:
                raise SetupError(f"naval-war setup: attached {quote(salvo_id)} is not a salvo under {t.ship_ids[ship]}")
        st.cpos[d] = ON_SALVO + x
    _rebuild(st)
    prefix = "naval-war setup: "
    st.round = int_field(pos, "round", 1, 1, prefix=prefix)
    st.dealer = int_field(pos, "dealer", 0, 0, n - 1, prefix)
    st.turn = int_field(pos, "turn", st.dealer, 0, n - 1, prefix)
    for key in ("scores", "last_round"):
        values = int_list_field(pos, key, n, prefix=prefix)
        if values is not None:
            setattr(st, key, values)
    mine_last = int_list_field(pos, "mine_last", n, -1, n - 1, prefix)
    if mine_last is not None:
        st.mine_last = mine_last
    for j in range(n):
        if st.mine_hits[j] and st.mine_last[j] < 0:
            st.mine_last[j] = (j + 1) % n
    for sid, wait in mapping_field(pos, "kamikaze_wait", int, prefix).items():
        if sid not in ship_index or wait < 0:
            raise SetupError(f"naval-war setup: kamikaze_wait names {quote(sid)}: {wait}, not a ship and a count")
        st.kwait[ship_index[sid]] = wait
    for sid in str_list_field(pos, "face_down", prefix):
        if sid not in ship_index or not FLEET <= st.spos[ship_index[sid]] < DEEP:
            raise SetupError(f"naval-war setup: face_down names {quote(sid)}, not a ship in a task force")
        st.down |= 1 << ship_index[sid]
    phase = str_field(pos, "phase", "turn", prefix)
    if not any(st.alive):
        raise SetupError("naval-war setup: no seat has a ship afloat; a round needs a task force (Round end)")
    if phase == "turn" and st.deck_size == 0:
        raise SetupError("naval-war setup: the deck is empty, so the round is over (Round end: it ends once the "
                         "last card is drawn); give the deck cards, or start in 'play'")
    st.opened = (1 << n) - 1
    if phase == "turn":
        rules.start_turn(st, st.turn)
    elif phase == "play":
        st.phase, st.cur = PH_PLAY, st.turn
    elif phase == "opening":
        st.opened = 0
        st.in_open = True
        st.open_done = 0
        st.mined_open = 0
        rules.opening_continue(st)
    else:
        raise SetupError(f"naval-war setup: position.phase {quote(phase)}; setups start in 'turn', 'play' or 'opening'")
    if st.round_over:
        rules.end_round(st)
    return st


def _check_unlisted(zone_map: Mapping[str, Any], zone: str, rest_zone: str | None, ident: str) -> None:
    """A zone listed in the setup is exact: a card placed nowhere goes to "rest", or to a zone not listed."""
    if zone != rest_zone and zone in zone_map:
        raise SetupError(f"naval-war setup: {ident} is placed nowhere and zone {quote(zone)} is listed exactly; "
                         "list it, or mark one zone \"rest\"")


def _is_ship_zone(zone: str) -> bool:
    return zone in ("harbor", "box") or zone.split(":")[0] in ("fleet", "deep6")


def _is_card_zone(zone: str) -> bool:
    return not _is_ship_zone(zone) or zone == "box"


def _card_code(st: NavalWarState, zone: str, ident: str) -> int:
    simple = {"deck": DECK, "discard": DISCARD, "discard:unseen": UNSEEN, "box": BOX, "play": PLAY}
    if zone in simple:
        return simple[zone]
    if zone.startswith("on:"):
        ship = zone[3:]
        if ship not in st.t.ship_ids:
            raise SetupError(f"naval-war setup: zone {quote(zone)} names no ship")
        return ON_SHIP + st.t.ship_ids.index(ship)
    kind, _, seat = zone.partition(":")
    bases = {"hand": HAND, "mines": MINES, "smoke": SMOKE, "dd": DDC, "dd-salvos": ON_DD}
    if kind in bases and seat.isdigit() and int(seat) < st.n:
        return bases[kind] + int(seat)
    raise SetupError(f"naval-war setup: {ident} cannot go in zone {quote(zone)} (play-card zones: deck, discard, "
                     "discard:unseen, box, play, hand:N, mines:N, smoke:N, dd:N, dd-salvos:N, on:SHIP)")


def _ship_code(st: NavalWarState, zone: str, ident: str) -> int:
    if zone == "harbor":
        return HARBOR
    kind, _, seat = zone.partition(":")
    if kind in ("fleet", "deep6") and seat.isdigit() and int(seat) < st.n:
        return (FLEET if kind == "fleet" else DEEP) + int(seat)
    raise SetupError(f"naval-war setup: ship {ident} cannot go in zone {quote(zone)} (ship zones: harbor, fleet:N, "
                     "deep6:N)")


def _rebuild(st: NavalWarState) -> None:
    """Derive the mirrors (hands, fleets, counts, damage) from the card positions."""
    t = st.t
    n = st.n
    cpos = st.cpos
    st.hands = [[c for c, pos in enumerate(cpos) if pos == HAND + i] for i in range(n)]
    st.fleets = [[s for s, pos in enumerate(st.spos) if pos == FLEET + i] for i in range(n)]
    st.harbor = [s for s, pos in enumerate(st.spos) if pos == HARBOR]
    st.deck_count = [sum(1 for c in cards if cpos[c] == DECK) for cards in t.kind_cards]
    st.deck_size = sum(st.deck_count)
    st.dmg = [0] * t.num_ships
    for c, pos in enumerate(cpos):
        if ON_SHIP <= pos < ON_SALVO:
            st.dmg[pos - ON_SHIP] += t.kind_value[t.card_kind[c]]
        elif pos >= ON_SALVO:
            st.dmg[cpos[pos - ON_SALVO] - ON_SHIP] += t.kind_value[t.card_kind[c]]
    per_mine = [2 if st.p.mines_two else t.kind_value[t.card_kind[c]] for c in range(t.num_cards)]
    st.mine_hits = [sum(per_mine[c] for c in t.mine_cards if cpos[c] == MINES + i) for i in range(n)]
    st.smoke = [next((c for c, pos in enumerate(cpos) if pos == SMOKE + i), -1) for i in range(n)]
    st.ddc = [next((c for c, pos in enumerate(cpos) if pos == DDC + i), -1) for i in range(n)]
    st.dd_hits = [sum(t.kind_value[t.card_kind[c]] for c, pos in enumerate(cpos) if pos == ON_DD + i)
                  for i in range(n)]
    st.alive = [bool(f) for f in st.fleets]
    st.foes = None
    st.tcache = None
    st.tgt = [None] * n
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
