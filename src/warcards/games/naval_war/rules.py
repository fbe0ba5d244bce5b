"""Naval War rules: legal actions, transitions and scoring, one function per rule section.

Section names follow the printed-rules summary (shared reference naval-war.md): Setup, Opening, Turn,
Red cards, Normal cards, Air strikes, Sinking, Round end, Scoring a round, Variations, Fleet play.
Rulings on the text's gaps are in RULES.md; the code cites them as "ruling N".
"""

from __future__ import annotations

from itertools import repeat
from typing import TYPE_CHECKING

from warcards.engine.api import CHANCE, TERMINAL
from warcards.games.naval_war.cards import (
    ADDDMG,
    ADDSHIP,
    DD,
    MINE,
    REPAIR,
    SALVO,
    SMOKE,
    SUB,
    SWEEP,
    TORPEDO,
)
from warcards.games.naval_war.codes import (
    DDC,
    DECK,
    DEEP,
    DISCARD,
    FLEET,
    HAND,
    MINES,
    ON_DD,
    ON_SALVO,
    ON_SHIP,
    PH_AIM,
    PH_CHOICE,
    PH_DD_SINK,
    PH_DD_TARGET,
    PH_DEAL_CARD,
    PH_DEAL_SHIP,
    PH_DRAW,
    PH_END,
    PH_GIVE,
    PH_OPEN,
    PH_PLAY,
    PH_RED,
    PH_REFILL,
    PH_ROLL,
    PH_SHIP,
    PH_STRIKE,
    PHASE_NAMES,
    PLAY,
    R_DD,
    R_STRIKE,
    R_SUB,
    R_TORPEDO,
    UNSEEN,
)
from warcards.games.naval_war.codes import SMOKE as SMOKE_POS
from warcards.games.naval_war.notation import SLOTS
from warcards.games.naval_war.params import (
    DD_HITS,
    ELIMINATION_PENALTY,
    MAX_ROUNDS,
    MAX_TURNS_PER_ROUND,
    SOLE_SURVIVOR_BONUS,
)

if TYPE_CHECKING:
    from warcards.games.naval_war.state import NavalWarState

# ======================================================================================================
# Who may be attacked
# ======================================================================================================
def enemies(st: NavalWarState, p: int) -> tuple[int, ...]:
    """Living seats `p` may attack: never yourself (Turn: "never damage or sink your own ship") and never a
    fleet-mate (Fleet play). Cached until someone is eliminated."""
    foes = st.foes
    if foes is None:
        team = st.team
        alive = st.alive
        n = st.n
        foes = st.foes = tuple(
            tuple(j for j in range(n) if j != q and alive[j] and (team[q] < 0 or team[j] != team[q]))
            for q in range(n)
        )
    return foes[p]


def ship_targets(st: NavalWarState, p: int, through_smoke: bool) -> list[int]:
    """Targets `p` may attack: enemy ships, not a screened carrier, not under Smoke unless `through_smoke`.

    A target is a ship id, or a face-down ship's seat-and-slot index (night actions, see `seat_targets`).
    Cached until a fleet, a Smoke, a ship's face or a player's survival changes; callers do not mutate it."""
    key = 2 * p + through_smoke
    cache = st.tcache
    if cache is None:
        cache = st.tcache = {}
    else:
        found = cache.get(key)
        if found is not None:
            return found
    smoke = st.smoke
    tgt = st.tgt
    out: list[int] = []
    for j in enemies(st, p):
        if smoke[j] >= 0 and not through_smoke:
            continue
        ships = tgt[j]
        if ships is None:
            ships = seat_targets(st, j)
        out += ships
    cache[key] = out
    return out


def seat_targets(st: NavalWarState, j: int) -> list[int]:
    """The attackable ships of task force `j` (cached in `tgt[j]`): carriers only once unscreened (Setup).

    Night actions: a face-down ship is a target by its slot (its order among the face-down ships of the task
    force) and is never known to be a carrier; a face-up carrier is screened while any other ship is afloat
    (ruling N3)."""
    carrier = st.t.ship_carrier
    fleet = st.fleets[j]
    down = st.down
    if not down:
        ships = [s for s in fleet if not carrier[s]] or fleet[:]
    else:
        others = [s for s in fleet if not carrier[s] or (down >> s) & 1]
        keep = others or fleet
        base = st.L.ns + j * SLOTS
        ships = []
        slot = 0
        for s in fleet:
            if (down >> s) & 1:
                ships.append(base + slot)
                slot += 1
            elif s in keep:
                ships.append(s)
    st.tgt[j] = ships
    return ships


def ship_at(st: NavalWarState, target: int) -> int:
    """The ship a target index names (a face-down ship by its seat and slot, night actions)."""
    ns = st.L.ns
    if target < ns:
        return target
    j, slot = divmod(target - ns, SLOTS)
    down = st.down
    for s in st.fleets[j]:
        if (down >> s) & 1:
            if slot == 0:
                return s
            slot -= 1
    raise AssertionError(f"no face-down ship in slot {target} of task force {j}")


def expose(st: NavalWarState, s: int) -> None:
    """Night actions: a ship is turned face up when it fires or is attacked or hit (ruling N2)."""
    if (st.down >> s) & 1:
        st.down &= ~(1 << s)
        st.tgt[st.spos[s] - FLEET] = None
        st.tcache = None


def expose_firer(st: NavalWarState, p: int, k: int) -> None:
    """Night actions: a salvo is fired by a face-up ship of its gun size, else the lowest-numbered face-down
    one is turned face up (ruling N2)."""
    gun = st.t.kind_gun[k]
    ship_gun = st.t.ship_gun
    down = st.down
    hidden = [s for s in st.fleets[p] if ship_gun[s] == gun]
    if hidden and all((down >> s) & 1 for s in hidden):
        expose(st, min(hidden))


def salvo_cards_on_enemies(st: NavalWarState, p: int) -> list[int]:
    """Salvos lying under enemy ships (targets of Additional Damage)."""
    foes = 0
    for j in enemies(st, p):
        foes |= 1 << j
    spos = st.spos
    out = []
    for c in st.t.salvo_cards:
        pos = st.cpos[c]
        if ON_SHIP <= pos < ON_SALVO and (foes >> (spos[pos - ON_SHIP] - FLEET)) & 1:
            out.append(c)
    return out


def red_targets(st: NavalWarState, p: int, kind: int) -> list[int]:
    """Legal plays of red card `kind` by `p` (Red cards; Opening limits)."""
    t, L = st.t, st.L
    cat = t.kind_cat[kind]
    if cat == MINE:
        base = L.MINE + L.mine_index[kind] * 9
        return [
            base + j
            for j in enemies(st, p)
            if st.smoke[j] < 0 and not (st.in_open and (st.mined_open >> j) & 1)
        ]
    if cat == SUB:
        return [L.SUB + s for s in ship_targets(st, p, True)]
    if cat == TORPEDO:
        return [L.TORPEDO + s for s in ship_targets(st, p, False)]
    if cat == ADDDMG:
        if st.in_open:
            return []
        base = L.ADDDMG + L.adddmg_index[kind] * L.nc
        return [base + c for c in salvo_cards_on_enemies(st, p)]
    if cat == ADDSHIP:
        return [L.ADDSHIP] if st.harbor else []
    return []


def strike_targets(st: NavalWarState, p: int) -> list[int]:
    """Air strikes: enemy ships not under Smoke and not screened carriers."""
    return ship_targets(st, p, False)


def strike_carriers(st: NavalWarState, p: int) -> list[int]:
    """Carriers of `p` that may strike now (Variations, Kamikaze: a resting carrier may not)."""
    carrier, kwait = st.t.ship_carrier, st.kwait
    return [s for s in st.fleets[p] if carrier[s] and kwait[s] == 0]


def dd_targets(st: NavalWarState, p: int) -> list[int]:
    """Destroyer Squadron: a living enemy task force not under Smoke (ruling 7)."""
    return [j for j in enemies(st, p) if st.smoke[j] < 0]


def dd_sinkable(st: NavalWarState, j: int) -> list[int]:
    """Ships the Destroyer Squadron may pick: screened carriers only when nothing else is left (ruling 8)."""
    ships = st.tgt[j]
    return ships if ships is not None else seat_targets(st, j)


# ======================================================================================================
# Legal actions
# ======================================================================================================
def legal_actions(st: NavalWarState) -> list[int]:
    """Sorted legal actions at a decision node (the state's `_legal_actions`)."""
    ph = st.phase
    p = st.cur
    L = st.L
    if ph == PH_PLAY:
        return _play_actions(st, p)
    if ph == PH_AIM:
        return _aim_actions(st, p)
    if ph in (PH_CHOICE, PH_STRIKE):
        return _strike_actions(st, p)
    if ph == PH_RED:
        return sorted(red_targets(st, p, st.t.card_kind[st.pend]))
    if ph == PH_OPEN:
        kinds = sorted({st.t.card_kind[c] for c in st.hands[p] if st.t.kind_red[st.t.card_kind[c]]})
        out: list[int] = []
        for k in kinds:
            out.extend(red_targets(st, p, k))
        return sorted(out)
    if ph == PH_DD_TARGET:
        return [L.DD_TARGET + j for j in dd_targets(st, p)]
    if ph == PH_DD_SINK:
        return sorted(L.DD_SINK + s for s in dd_sinkable(st, st.dd_target))
    if ph == PH_GIVE:
        return _give_actions(st, p)
    return []


def _play_actions(st: NavalWarState, p: int) -> list[int]:
    """Turn: after drawing, play one card or discard one (Normal cards)."""
    t, L = st.t, st.L
    card_kind = t.card_kind
    kinds = {card_kind[c] for c in st.hands[p]}
    guns = 0
    gunbit = t.ship_gunbit
    for s in st.fleets[p]:
        guns |= gunbit[s]
    discard = L.DISCARD
    out = [discard + k for k in kinds]
    fire_of, kind_gunbit, kind_cat = L.fire_of_kind, t.kind_gunbit, t.kind_cat
    can_fire: bool | None = None
    swap_to = mates(st, p) if st.team[p] >= 0 else None
    for k in kinds:
        fire = fire_of[k]
        if fire >= 0:
            if guns & kind_gunbit[k]:
                if can_fire is None:
                    can_fire = bool(ship_targets(st, p, False)) or any(st.ddc[j] >= 0 for j in enemies(st, p))
                if can_fire:
                    out.append(fire)
            if swap_to:
                base = L.SWAP + L.salvo_index[k] * 9
                out.extend([base + m for m in swap_to])
            continue
        cat = kind_cat[k]
        if cat == SMOKE:
            out.append(L.SMOKE)
        elif cat == DD:
            out.append(L.DD)
        elif cat == SWEEP:
            if st.mine_hits[p]:
                out.append(L.SWEEP)
        elif cat == REPAIR:
            out.extend(L.REPAIR + c for c in own_salvos(st, p))
    out.sort()
    return out


def _aim_actions(st: NavalWarState, p: int) -> list[int]:
    """Normal cards, Salvo: the target of the salvo being fired — an enemy ship or Destroyer Squadron."""
    L = st.L
    at = L.AT
    out = sorted([at + s for s in ship_targets(st, p, False)])
    at_dd = L.AT_DD
    out.extend([at_dd + j for j in enemies(st, p) if st.ddc[j] >= 0])
    return out


def mates(st: NavalWarState, p: int) -> list[int]:
    """Living fleet-mates of `p` (Fleet play)."""
    tp = st.team[p]
    return [j for j in range(st.n) if j != p and st.alive[j] and tp >= 0 and st.team[j] == tp]


def own_salvos(st: NavalWarState, p: int) -> list[int]:
    """Salvos under `p`'s own ships (Repair targets)."""
    spos = st.spos
    out = []
    for c in st.t.salvo_cards:
        pos = st.cpos[c]
        if ON_SHIP <= pos < ON_SALVO and spos[pos - ON_SHIP] == FLEET + p:
            out.append(c)
    return out


def _strike_actions(st: NavalWarState, p: int) -> list[int]:
    """Air strikes: one target per carrier, named in turn; `draw` instead while none is named."""
    L = st.L
    if not st.elig:
        return [L.DRAW]
    carrier = st.elig[st.strike_ptr]
    targets = strike_targets(st, p)
    out = [L.STRIKE + s for s in targets]
    if st.p.kamikaze and st.t.ship_japan[carrier]:
        out.extend(L.KAMIKAZE + s for s in targets)
    if st.phase == PH_CHOICE:
        out.append(L.DRAW)
    if st.strikes or st.strike_ptr < len(st.elig) - 1:
        out.append(L.SKIP)
    out.sort()
    return out


def _give_actions(st: NavalWarState, m: int) -> list[int]:
    """Fleet play: the mate returns a salvo (not the one just received), or nothing if he has none."""
    t, L = st.t, st.L
    kinds = sorted({t.card_kind[c] for c in st.hands[m] if c != st.swap_card and t.kind_cat[t.card_kind[c]] == SALVO})
    if not kinds:
        return [L.GIVE_NONE]
    return [L.GIVE + L.salvo_index[k] for k in kinds]


# ======================================================================================================
# Chance
# ======================================================================================================
def chance_outcomes(st: NavalWarState) -> list[tuple[int, float]]:
    """Chance: a die (1/6 each), a play card by kind (copies/size), or a ship from the harbor (uniform)."""
    ph = st.phase
    if ph == PH_ROLL:
        return list(st.game.die_outcomes)
    if ph in (PH_DRAW, PH_REFILL, PH_DEAL_CARD):
        inv = 1.0 / st.deck_size
        return [(a, c * inv) for a, c in zip(st.L.kind_outcomes, st.deck_count, strict=True) if c]
    # A ship from the harbor pile (kept in id order).
    harbor = st.harbor
    return list(zip(harbor, repeat(1 / len(harbor))))


# ======================================================================================================
# Transitions
# ======================================================================================================
def apply(st: NavalWarState, action: int) -> None:
    """Apply a legal action or chance outcome (the state's `_apply`): the phase's handler, then the round
    end if someone's elimination left one side afloat."""
    st._outcomes = None
    _HANDLERS[st.phase](st, action)
    if st.round_over and st.phase != PH_END:
        end_round(st)


def _on_roll(st: NavalWarState, a: int) -> None:
    """A die face (outcome C_DIE + face - 1)."""
    _roll(st, a - st.L.C_DIE + 1)


def _on_draw(st: NavalWarState, a: int) -> None:
    """A play-card kind drawn (outcome C_KIND + kind)."""
    _draw(st, a - st.L.C_KIND)


def _on_dd_target(st: NavalWarState, a: int) -> None:
    """Destroyer Squadron: the task force named; the die follows."""
    st.dd_target = a - st.L.DD_TARGET
    st.roll_kind = R_DD
    st.phase, st.cur = PH_ROLL, CHANCE


def _on_dd_sink(st: NavalWarState, a: int) -> None:
    """Destroyer Squadron: the ship picked (by id, or by slot when face down)."""
    _dd_sink(st, ship_at(st, a - st.L.DD_SINK))


def _on_end(st: NavalWarState, a: int) -> None:
    """The game is over: never called (no action is legal)."""
    raise AssertionError("no action applies after the end")


# ----- Setup ------------------------------------------------------------------------------------------
def start_round(st: NavalWarState) -> None:
    """Setup: every card back in its deck, then deal 5 ships and 5 play cards each (4 and 4 with 9)."""
    t = st.t
    n = st.n
    boxed_cards = st.game.boxed_cards
    boxed_ships = st.game.boxed_ships
    st.cpos = [3 if c in boxed_cards else DECK for c in range(t.num_cards)]
    st.spos = [3 if s in boxed_ships else 0 for s in range(t.num_ships)]
    st.harbor = [s for s in range(t.num_ships) if s not in boxed_ships]
    st.deck_count = [sum(1 for c in cards if c not in boxed_cards) for cards in t.kind_cards]
    st.deck_size = sum(st.deck_count)
    st.hands = [[] for _ in range(n)]
    st.fleets = [[] for _ in range(n)]
    st.known = [[] for _ in range(n)]
    st.dmg = [0] * t.num_ships
    st.mine_hits = [0] * n
    st.mine_last = [-1] * n
    st.smoke = [-1] * n
    st.ddc = [-1] * n
    st.dd_hits = [0] * n
    st.alive = [True] * n
    st.foes = None
    st.tcache = None
    st.tgt = [None] * n
    st.down = 0
    st.kwait = [0] * t.num_ships
    st.turns = 0
    st.in_open = False
    st.open_done = 0
    st.mined_open = 0
    st.opened = 0
    st.hidden_nored = 0
    st.pend = -1
    st.round_over = False
    st.deal_left = n * st.p.deal
    st.phase, st.cur = PH_DEAL_SHIP, CHANCE


def _deal_seat(st: NavalWarState) -> int:
    """Dealing goes round the table from the dealer's left, one card at a time."""
    dealt = st.n * st.p.deal - st.deal_left
    return (st.dealer + 1 + dealt) % st.n


def _deal_ship(st: NavalWarState, s: int) -> None:
    """Setup: a ship dealt into a player's task force, face up (face down with night actions)."""
    j = _deal_seat(st)
    st.harbor.remove(s)
    st.spos[s] = FLEET + j
    st.fleets[j].append(s)
    st.tcache = None
    st.tgt[j] = None
    if st.p.night:
        st.down |= 1 << s
    st.deal_left -= 1
    if st.deal_left == 0:
        st.deal_left = st.n * st.p.deal
        st.phase = PH_DEAL_CARD


def _take_from_deck(st: NavalWarState, k: int) -> int:
    """The drawn copy of kind `k`: the lowest-numbered copy in the draw pile (the pile is unordered)."""
    cpos = st.cpos
    for c in st.t.kind_cards[k]:
        if cpos[c] == DECK:
            st.deck_count[k] -= 1
            st.deck_size -= 1
            return c
    raise AssertionError(f"kind {k} is not in the draw pile")


def _draw(st: NavalWarState, k: int) -> None:
    """A play card of kind `k` drawn: dealt, refilled in the opening, or the turn's draw (Turn)."""
    c = _take_from_deck(st, k)
    ph = st.phase
    if ph == PH_DEAL_CARD:
        j = _deal_seat(st)
        st.cpos[c] = HAND + j
        st.hands[j].append(c)
        st.deal_left -= 1
        if st.deal_left == 0:
            begin_opening(st)
        return
    p = st.turn
    if ph == PH_REFILL:
        st.cpos[c] = HAND + p
        st.hands[p].append(c)
        opening_continue(st)
        return
    # Turn: a red card drawn is played at once and is the turn (Turn; Red cards).
    if st.t.kind_red[k]:
        st.cpos[c] = PLAY
        st.pend = c
        red_drawn(st, c)
        return
    st.cpos[c] = HAND + p
    st.hands[p].append(c)
    st.phase, st.cur = PH_PLAY, p


# ----- Opening ----------------------------------------------------------------------------------------
def begin_opening(st: NavalWarState) -> None:
    """Opening: from the dealer (ruling 1), each player in turn plays his red cards, refilling his hand."""
    st.in_open = True
    st.open_done = 0
    st.mined_open = 0
    st.turn = st.dealer
    opening_continue(st)


def opening_continue(st: NavalWarState) -> None:
    """Opening: refill; discard Additional Damage and red cards with no target; ask for a red card; or pass on.

    "Additional Damage is simply discarded at this point"; "a special that cannot be played is discarded";
    the hand is refilled to its size after each red card while the draw pile lasts (ruling 18).
    """
    t = st.t
    kind_red, card_kind = t.kind_red, t.card_kind
    while not st.round_over:
        p = st.turn
        if st.open_done == st.n:
            st.in_open = False
            st.opened = (1 << st.n) - 1
            if st.deck_size == 0:
                end_round(st)
            else:
                start_turn(st, st.dealer if st.alive[st.dealer] else next_seat(st, st.dealer))
            return
        if not st.alive[p]:
            _opening_done(st, p)
            continue
        hand = st.hands[p]
        if len(hand) < st.p.hand_size and st.deck_size > 0:
            st.phase, st.cur = PH_REFILL, CHANCE
            return
        dropped = False
        for c in list(hand):
            k = card_kind[c]
            if kind_red[k] and not red_targets(st, p, k):
                _hand_remove(st, p, c)
                st.cpos[c] = DISCARD
                dropped = True
        if dropped:
            continue
        if any(kind_red[card_kind[c]] for c in hand):
            st.phase, st.cur = PH_OPEN, p
            return
        _opening_done(st, p)


def _opening_done(st: NavalWarState, p: int) -> None:
    """Opening: seat `p` holds no red card left to play; the next seat opens."""
    st.opened |= 1 << p
    st.open_done += 1
    st.turn = (p + 1) % st.n


# ----- The turn ---------------------------------------------------------------------------------------
def next_seat(st: NavalWarState, p: int) -> int:
    """Turns go clockwise (seat + 1), skipping eliminated players."""
    n = st.n
    q = (p + 1) % n
    while not st.alive[q]:
        q = (q + 1) % n
    return q


def start_turn(st: NavalWarState, p: int) -> None:
    """Turn: Smoke is removed before drawing; a surviving Destroyer Squadron attacks first (ruling 9)."""
    st.turn = p
    st.turns += 1
    if st.turns > MAX_TURNS_PER_ROUND:
        end_round(st)
        return
    c = st.smoke[p]
    if c >= 0:
        st.cpos[c] = DISCARD
        st.smoke[p] = -1
        st.tcache = None
    if st.ddc[p] >= 0:
        if dd_targets(st, p):
            st.phase, st.cur = PH_DD_TARGET, p
            return
        _discard_dd(st, p)
    turn_main(st)


def turn_main(st: NavalWarState) -> None:
    """Turn: draw one card, or instead launch air strikes with carriers (Air strikes).

    Night actions: the choice is always offered (`draw` alone without a carrier able to fly), so the others
    cannot tell from the phase whether the player holds a face-down carrier (ruling N5)."""
    p = st.turn
    elig = [] if st.p.gunnery else strike_carriers(st, p)
    if elig and not strike_targets(st, p):
        elig = []
    if elig or st.p.night:
        st.elig = elig
        st.strikes = []
        st.strike_ptr = 0
        st.phase, st.cur = PH_CHOICE, p
        return
    st.phase, st.cur = PH_DRAW, CHANCE


def end_turn(st: NavalWarState) -> None:
    """Turn end: Kamikaze rests count down; the round ends once the last card was drawn (Round end)."""
    if st.round_over:
        return
    p = st.turn
    if st.p.kamikaze:
        kwait = st.kwait
        for s in st.fleets[p]:
            if kwait[s]:
                kwait[s] -= 1
    if st.deck_size == 0:
        end_round(st)
        return
    start_turn(st, next_seat(st, p))


def _play(st: NavalWarState, a: int) -> None:
    """Normal cards: the card played (or discarded) after the draw."""
    t, L = st.t, st.L
    p = st.turn
    if a < L.FIRE:
        if a == L.SMOKE:
            c = _card_of(st, p, t.kinds_smoke)
            st.cpos[c] = SMOKE_POS + p
            st.smoke[p] = c
            st.tcache = None
        elif a == L.DD:
            c = _card_of(st, p, t.kinds_dd)
            st.cpos[c] = DDC + p
            st.ddc[p] = c
            st.dd_hits[p] = 0
        elif a == L.SWEEP:
            sweep(st, p)
        else:
            c = _card_of(st, p, (a - L.DISCARD,))
            st.cpos[c] = DISCARD
    elif a < L.AT:
        # The salvo leaves the hand face up while its target is named.
        c = _card_of(st, p, (t.salvo_kinds[a - L.FIRE],))
        st.cpos[c] = PLAY
        st.aim = c
        st.phase = PH_AIM
        return
    elif a < L.SWAP:
        repair(st, p, a - L.REPAIR)
    else:
        si, m = divmod(a - L.SWAP, 9)
        c = _card_of(st, p, (t.salvo_kinds[si],))
        st.cpos[c] = HAND + m
        st.hands[m].append(c)
        st.known[m].append(c)
        st.swap_card = c
        st.phase, st.cur = PH_GIVE, m
        return
    end_turn(st)


def _aim(st: NavalWarState, a: int) -> None:
    """Normal cards, Salvo: fire the salvo chosen at its target; the turn ends."""
    L = st.L
    c = st.aim
    st.aim = -1
    p = st.turn
    if st.down:
        expose_firer(st, p, st.t.card_kind[c])
    if a < L.AT_DD:
        target = ship_at(st, a - L.AT)
        if st.down:
            expose(st, target)
        fire(st, p, c, target)
    else:
        fire_at_dd(st, c, a - L.AT_DD)
    end_turn(st)


def _card_of(st: NavalWarState, p: int, kinds: tuple[int, ...]) -> int:
    """Remove and return the lowest-numbered card of one of `kinds` from `p`'s hand."""
    card_kind = st.t.card_kind
    best = -1
    for c in st.hands[p]:
        if card_kind[c] in kinds and (best < 0 or c < best):
            best = c
    _hand_remove(st, p, best)
    return best


def _hand_remove(st: NavalWarState, p: int, c: int) -> None:
    """Take card `c` out of `p`'s hand (and out of what is publicly known to be there)."""
    st.hands[p].remove(c)
    known = st.known[p]
    if c in known:
        known.remove(c)


def fire(st: NavalWarState, p: int, c: int, s: int) -> None:
    """Normal cards, Salvo: salvo `c` is placed under an enemy ship; its hits are damage (Sinking: the last
    hits take it)."""
    st.cpos[c] = ON_SHIP + s
    st.dmg[s] += st.t.kind_value[st.t.card_kind[c]]
    check_sunk(st, s, p)


def fire_at_dd(st: NavalWarState, c: int, j: int) -> None:
    """Normal cards, Destroyer Squadron: 4 hits from salvos destroy it (discarded, no points)."""
    st.cpos[c] = ON_DD + j
    st.dd_hits[j] += st.t.kind_value[st.t.card_kind[c]]
    if st.dd_hits[j] >= DD_HITS:
        _discard_dd(st, j)


def _discard_dd(st: NavalWarState, j: int) -> None:
    """Seat `j`'s Destroyer Squadron and the salvos on it go to the discard pile."""
    cpos = st.cpos
    cpos[st.ddc[j]] = DISCARD
    st.ddc[j] = -1
    st.dd_hits[j] = 0
    on = ON_DD + j
    for c in range(len(cpos)):
        if cpos[c] == on:
            cpos[c] = DISCARD


def repair(st: NavalWarState, p: int, x: int) -> None:
    """Normal cards, Repair: remove one salvo from your ship together with its Additional Damage."""
    t = st.t
    c = _card_of(st, p, t.kinds_repair)
    cpos = st.cpos
    cpos[c] = DISCARD
    s = cpos[x] - ON_SHIP
    st.dmg[s] -= t.kind_value[t.card_kind[x]]
    cpos[x] = DISCARD
    on = ON_SALVO + x
    for d in t.adddmg_cards:
        if cpos[d] == on:
            cpos[d] = DISCARD
            st.dmg[s] -= t.kind_value[t.card_kind[d]]


def sweep(st: NavalWarState, p: int) -> None:
    """Normal cards, Minesweeper: every minefield before your task force is discarded, its hits with it
    (ruling 5)."""
    c = _card_of(st, p, st.t.kinds_sweep)
    cpos = st.cpos
    cpos[c] = DISCARD
    here = MINES + p
    for d in st.t.mine_cards:
        if cpos[d] == here:
            cpos[d] = DISCARD
    st.mine_hits[p] = 0
    st.mine_last[p] = -1


# ----- Red cards --------------------------------------------------------------------------------------
def red_drawn(st: NavalWarState, c: int) -> None:
    """Turn: a red card drawn must be played at once; one that cannot be played is discarded."""
    p = st.turn
    k = st.t.card_kind[c]
    if st.t.kind_cat[k] == ADDSHIP and st.harbor:
        st.phase, st.cur = PH_SHIP, CHANCE
        return
    if red_targets(st, p, k):
        st.phase, st.cur = PH_RED, p
        return
    after_red(st)


def after_red(st: NavalWarState) -> None:
    """After a red card: it is discarded (unless it stays on the table); the opening or the turn goes on."""
    if st.pend >= 0 and st.cpos[st.pend] == PLAY:
        st.cpos[st.pend] = DISCARD
    st.pend = -1
    if st.round_over:
        return
    if st.in_open:
        opening_continue(st)
    elif st.p.draw_past_specials and st.deck_size > 0:
        st.phase, st.cur = PH_DRAW, CHANCE
    else:
        end_turn(st)


def _red_play(st: NavalWarState, a: int) -> None:
    """Red cards: the target chosen for a red card (drawn in a turn, or chosen from the hand in the opening)."""
    t, L = st.t, st.L
    p = st.cur
    if st.phase == PH_OPEN:
        if a == L.ADDSHIP:
            kinds = t.kinds_addship
        elif a < L.SUB:
            kinds = (t.mine_kinds[(a - L.MINE) // 9],)
        elif a < L.TORPEDO:
            kinds = t.kinds_sub
        elif a < L.ADDDMG:
            kinds = t.kinds_torpedo
        else:
            kinds = (t.adddmg_kinds[(a - L.ADDDMG) // L.nc],)
        c = _card_of(st, p, kinds)
        st.cpos[c] = PLAY
        st.pend = c
    c = st.pend
    if a == L.ADDSHIP:
        st.phase, st.cur = PH_SHIP, CHANCE
    elif a < L.SUB:
        lay_minefield(st, p, c, (a - L.MINE) % 9)
        after_red(st)
    elif a < L.ADDDMG:
        st.pend_target = ship_at(st, (a - L.SUB) if a < L.TORPEDO else (a - L.TORPEDO))
        if st.down:
            expose(st, st.pend_target)
        st.roll_kind = R_SUB if a < L.TORPEDO else R_TORPEDO
        st.phase, st.cur = PH_ROLL, CHANCE
    else:
        additional_damage(st, p, c, (a - L.ADDDMG) % L.nc)
        after_red(st)


def lay_minefield(st: NavalWarState, p: int, c: int, j: int) -> None:
    """Red cards, Minefield: 1 or 2 hits (2 with `mines_two`) on every ship of task force `j`, carriers
    included (ruling 3); ships it sinks go to its player."""
    st.cpos[c] = MINES + j
    st.mine_hits[j] += 2 if st.p.mines_two else st.t.kind_value[st.t.card_kind[c]]
    st.mine_last[j] = p
    if st.in_open:
        st.mined_open |= 1 << j
    if st.down:
        for s in st.fleets[j]:
            expose(st, s)
    for s in list(st.fleets[j]):
        if st.alive[j]:
            check_sunk(st, s, p)


def additional_damage(st: NavalWarState, p: int, c: int, x: int) -> None:
    """Red cards, Additional Damage: on a salvo under an enemy ship (ruling 11); a sink is its player's."""
    st.cpos[c] = ON_SALVO + x
    s = st.cpos[x] - ON_SHIP
    st.dmg[s] += st.t.kind_value[st.t.card_kind[c]]
    check_sunk(st, s, p)


def _additional_ship_arrives(st: NavalWarState, s: int) -> None:
    """Red cards, Additional Ship: the ship joins the fleet at once (ruling 17); a minefield already there
    hits it, and a ship it sinks goes to the last minefield's player (ruling 2)."""
    p = st.turn
    st.harbor.remove(s)
    st.spos[s] = FLEET + p
    st.fleets[p].append(s)
    st.tcache = None
    st.tgt[p] = None
    if st.p.night and not st.mine_hits[p]:
        st.down |= 1 << s
    if st.mine_hits[p]:
        check_sunk(st, s, st.mine_last[p])
    after_red(st)


def _roll(st: NavalWarState, r: int) -> None:
    """A die: Submarine sinks on 5–6, Torpedo Boat on 6, a Destroyer Squadron sinks r ships, an air strike
    sinks on 1 (1–2 as Kamikaze)."""
    kind = st.roll_kind
    p = st.turn
    if kind in (R_SUB, R_TORPEDO):
        if r >= (5 if kind == R_SUB else 6):
            sink(st, st.pend_target, p)
        after_red(st)
    elif kind == R_DD:
        st.dd_left = r
        _dd_continue(st)
    else:
        base = 3 * st.strike_i
        carrier, target, kami = st.strikes[base], st.strikes[base + 1], st.strikes[base + 2]
        if r == 1 or (kami and r == 2):
            sink(st, target, p)
            if kami:
                st.kwait[carrier] = r + 2
        elif kami:
            st.kwait[carrier] = 2
        st.strike_i += 1
        if not st.round_over:
            _next_strike(st)


# ----- Destroyer Squadron attack ------------------------------------------------------------------------
def _dd_continue(st: NavalWarState) -> None:
    """Normal cards, Destroyer Squadron: the owner picks the ships to sink one by one, then the DD is
    discarded and the owner's normal turn follows (ruling 9)."""
    j = st.dd_target
    if st.dd_left > 0 and st.alive[j] and st.fleets[j]:
        st.phase, st.cur = PH_DD_SINK, st.turn
        return
    _discard_dd(st, st.turn)
    if not st.round_over:
        turn_main(st)


def _dd_sink(st: NavalWarState, s: int) -> None:
    """Destroyer Squadron: sink the ship picked; pick again while the roll allows."""
    sink(st, s, st.turn)
    st.dd_left -= 1
    if not st.round_over:
        _dd_continue(st)


# ----- Air strikes --------------------------------------------------------------------------------------
def _strike_choice(st: NavalWarState, a: int) -> None:
    """Air strikes: instead of draw-and-play, one strike per carrier, every target named before any roll;
    a carrier may hold back (ruling 15)."""
    L = st.L
    if a == L.DRAW:
        st.phase, st.cur = PH_DRAW, CHANCE
        return
    if a != L.SKIP:
        carrier = st.elig[st.strike_ptr]
        kami = a >= L.KAMIKAZE
        target = ship_at(st, a - (L.KAMIKAZE if kami else L.STRIKE))
        if st.down:
            expose(st, carrier)
            expose(st, target)
        st.strikes.extend((carrier, target, int(kami)))
    st.strike_ptr += 1
    if st.strike_ptr < len(st.elig):
        st.phase = PH_STRIKE
        return
    st.strike_i = 0
    _next_strike(st)


def _next_strike(st: NavalWarState) -> None:
    """Roll the next named strike whose target is still afloat (ruling 15); then the turn ends."""
    strikes = st.strikes
    while 3 * st.strike_i < len(strikes):
        target = strikes[3 * st.strike_i + 1]
        if FLEET <= st.spos[target] < DEEP:
            st.roll_kind = R_STRIKE
            st.phase, st.cur = PH_ROLL, CHANCE
            return
        st.strike_i += 1
    end_turn(st)


# ----- Fleet play -------------------------------------------------------------------------------------
def _give(st: NavalWarState, a: int) -> None:
    """Fleet play: the mate returns one salvo (or none if he holds none); the exchange is open (ruling F2)."""
    L = st.L
    m = st.cur
    p = st.turn
    if a != L.GIVE_NONE:
        c = _card_of(st, m, (st.t.salvo_kinds[a - L.GIVE],))
        st.cpos[c] = HAND + p
        st.hands[p].append(c)
        st.known[p].append(c)
    st.swap_card = -1
    end_turn(st)


# ----- Sinking ----------------------------------------------------------------------------------------
def check_sunk(st: NavalWarState, s: int, by: int) -> None:
    """Sinking: accumulated hits at least the Hit Number sink the ship; `by` delivered the last hits."""
    if st.dmg[s] + st.mine_hits[st.spos[s] - FLEET] >= st.t.ship_hits[s]:
        sink(st, s, by)


def sink(st: NavalWarState, s: int, by: int) -> None:
    """Sinking: the ship goes to the Deep Six pile of `by`; the cards on it are discarded."""
    owner = st.spos[s] - FLEET
    st.fleets[owner].remove(s)
    st.tcache = None
    st.tgt[owner] = None
    st.down &= ~(1 << s)
    st.spos[s] = DEEP + by
    st.kwait[s] = 0
    if st.dmg[s]:
        cpos = st.cpos
        on = ON_SHIP + s
        for c in st.t.salvo_cards:
            if cpos[c] == on:
                cpos[c] = DISCARD
                for d in st.t.adddmg_cards:
                    if cpos[d] == ON_SALVO + c:
                        cpos[d] = DISCARD
        st.dmg[s] = 0
    if not st.fleets[owner]:
        eliminate(st, owner)


def eliminate(st: NavalWarState, j: int) -> None:
    """Sinking: a player with no ships is out for the round; his hand is discarded unseen, and his Smoke,
    Destroyer Squadron and the minefields before him go too (ruling E1)."""
    st.alive[j] = False
    st.foes = None
    st.tcache = None
    cpos = st.cpos
    hand = st.hands[j]
    for c in hand:
        cpos[c] = UNSEEN
    if (st.opened >> j) & 1:
        st.hidden_nored += len(hand)
    st.hands[j] = []
    st.known[j] = []
    if st.smoke[j] >= 0:
        cpos[st.smoke[j]] = DISCARD
        st.smoke[j] = -1
    if st.ddc[j] >= 0:
        _discard_dd(st, j)
    here = MINES + j
    for d in st.t.mine_cards:
        if cpos[d] == here:
            cpos[d] = DISCARD
    st.mine_hits[j] = 0
    st.mine_last[j] = -1
    team = st.team
    left = sum(st.alive) if team[j] < 0 else len({team[i] for i in range(st.n) if st.alive[i]})
    if left <= 1:
        st.round_over = True


# ----- Round end and scoring --------------------------------------------------------------------------
def round_points(st: NavalWarState) -> list[int]:
    """Scoring a round: Hit Numbers in the Deep Six, +10 to a sole survivor (each surviving member of the
    last fleet), -10 to every player eliminated in the round."""
    hits = st.t.ship_hits
    pts = [0] * st.n
    for s, pos in enumerate(st.spos):
        if DEEP <= pos < DEEP + 10:
            pts[pos - DEEP] += hits[s]
    team = st.team
    alive = st.alive
    sole = sum(alive) == 1 if team[0] < 0 else len({team[i] for i in range(st.n) if alive[i]}) == 1
    for i in range(st.n):
        if not alive[i]:
            pts[i] -= ELIMINATION_PENALTY
        elif sole:
            pts[i] += SOLE_SURVIVOR_BONUS
    return pts


def side_scores(st: NavalWarState) -> list[int]:
    """The score each seat's side stands on: its own, or its fleet's total (Fleet play)."""
    team = st.team
    if team[0] < 0:
        return list(st.scores)
    totals: dict[int, int] = {}
    for i in range(st.n):
        totals[team[i]] = totals.get(team[i], 0) + st.scores[i]
    return [totals[team[i]] for i in range(st.n)]


def end_round(st: NavalWarState) -> None:
    """Round end and Goal: score; the game ends when one side reaches the target alone at the top (a tie
    plays one more round, ruling 19); otherwise the leader deals the next round (ruling 20)."""
    pts = round_points(st)
    for i in range(st.n):
        st.scores[i] += pts[i]
    st.last_round = pts
    st.round_over = False
    sides = side_scores(st)
    best = max(sides)
    leaders = [i for i in range(st.n) if sides[i] == best]
    team = st.team
    distinct = len({team[i] if team[i] >= 0 else i for i in leaders})
    if (best >= st.p.target and distinct == 1) or st.round >= MAX_ROUNDS:
        st.returns_ = [1.0 / distinct if i in leaders else 0.0 for i in range(st.n)]
        st.phase, st.cur = PH_END, TERMINAL
        return
    top = max(st.scores)
    d = st.dealer
    while st.scores[d] != top:
        d = (d + 1) % st.n
    st.dealer = d
    st.round += 1
    start_round(st)


# ======================================================================================================
# Why an action is refused
# ======================================================================================================
def illegal_reason(st: NavalWarState, a: int) -> str:
    """A sentence saying why `a` is not legal now, citing the rule section."""
    L = st.L
    ph = st.phase
    p = st.cur
    text = L.action_text(a)
    who = f"player {p}"
    if ph == PH_PLAY:
        if a < L.FIRE and a >= L.DISCARD:
            return f"Turn: {who} holds no {text.split()[1]} card to discard; discard a card from your hand"
        if L.FIRE <= a < L.AT:
            return (f"Normal cards, Salvo: '{text}' is not allowed: a salvo needs the card in hand, one of your "
                    "ships with that gun size, and an enemy target")
        if L.AT <= a < L.REPAIR:
            return f"Normal cards, Salvo: '{text}' comes after 'fire KIND'; first choose the salvo to fire"
        if L.REPAIR <= a < L.SWAP:
            return "Normal cards, Repair: you need a Repair card and the salvo must lie under one of your ships"
        if a == L.SWEEP:
            return "Normal cards, Minesweeper: you need the card and a minefield before your task force (ruling 25)"
        if L.SWAP <= a < L.GIVE:
            return "Fleet play: you may swap a salvo in your hand only with a living fleet-mate"
        return f"Turn: '{text}' is not a play of a card in your hand now; play or discard one card"
    if ph in (PH_CHOICE, PH_STRIKE):
        return (f"Air strikes: '{text}' is not allowed: name a target for your next carrier (an enemy ship not "
                "under Smoke and not a screened carrier), 'skip' it, or 'draw' before any target is named")
    if ph in (PH_RED, PH_OPEN):
        card = st.t.card_ids[st.pend] if ph == PH_RED else "a red card in your hand"
        return (f"Red cards: '{text}' is not a legal play of {card} now (Submarines pass Smoke, Torpedo Boats and "
                "minefields do not; carriers are screened; one minefield per task force in the Opening; "
                "Additional Damage only on a salvo under an enemy ship)")
    if ph == PH_AIM:
        return (f"Normal cards, Salvo: '{text}' is not a target for {st.t.card_ids[st.aim]}: fire at an enemy ship "
                "not under Smoke and not a screened carrier (never your own ship or a fleet-mate's), or an enemy "
                "Destroyer Squadron")
    if ph == PH_DD_TARGET:
        return "Destroyer Squadron: name a living enemy task force not under Smoke (ruling 7)"
    if ph == PH_DD_SINK:
        return "Destroyer Squadron: pick a ship of the target task force; carriers only when nothing else is left"
    if ph == PH_GIVE:
        return "Fleet play: give back one salvo from your hand other than the one received, or 'give none'"
    return f"'{text}' is not legal in phase {PHASE_NAMES[ph]}"


_HANDLERS = {
    PH_DEAL_SHIP: _deal_ship,
    PH_DEAL_CARD: _on_draw,
    PH_REFILL: _on_draw,
    PH_OPEN: _red_play,
    PH_CHOICE: _strike_choice,
    PH_DRAW: _on_draw,
    PH_PLAY: _play,
    PH_RED: _red_play,
    PH_ROLL: _on_roll,
    PH_SHIP: _additional_ship_arrives,
    PH_STRIKE: _strike_choice,
    PH_DD_TARGET: _on_dd_target,
    PH_DD_SINK: _on_dd_sink,
    PH_GIVE: _give,
    PH_END: _on_end,
    PH_AIM: _aim,
}
"""The transition of each phase (indexed by phase number)."""
