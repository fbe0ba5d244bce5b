"""Naval War rules: legal actions, transitions and scoring, one function per rule section.

Section names follow the printed-rules summary (shared reference naval-war.md): Setup, Opening, Turn,
Red cards, Normal cards, Air strikes, Sinking, Round end, Scoring a round, Variations, Fleet play.
Rulings on the text's gaps are in RULES.md; the code cites them by id ("R12").
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
    UNSEEN,
    Phase,
    Roll,
)
from warcards.games.naval_war.codes import SMOKE as SMOKE_POS
from warcards.games.naval_war.notation import SEATS, SLOTS, action_text
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
def enemies(state: NavalWarState, p: int) -> tuple[int, ...]:
    """Living seats `p` may attack: never yourself (Turn: "never damage or sink your own ship") and never a
    fleet-mate (Fleet play). Cached until someone is eliminated."""
    foes = state.foes
    if foes is None:
        team = state.team
        alive = state.alive
        n = state.num_players
        foes = state.foes = tuple(
            tuple(j for j in range(n) if j != q and alive[j] and (team[q] < 0 or team[j] != team[q]))
            for q in range(n)
        )
    return foes[p]


def ship_targets(state: NavalWarState, p: int, through_smoke: bool) -> list[int]:
    """Targets `p` may attack: enemy ships, not a screened carrier, not under Smoke unless `through_smoke`.

    A target is a ship id, or a face-down ship's seat-and-slot index (night actions, see `seat_targets`).
    Cached until a fleet, a Smoke, a ship's face or a player's survival changes; callers do not mutate it."""
    key = 2 * p + through_smoke
    cache = state.targets_cache
    if cache is None:
        cache = state.targets_cache = {}
    else:
        found = cache.get(key)
        if found is not None:
            return found
    smoke = state.smoke
    tgt = state.fleet_targets
    out: list[int] = []
    for j in enemies(state, p):
        if smoke[j] >= 0 and not through_smoke:
            continue
        ships = tgt[j]
        if ships is None:
            ships = seat_targets(state, j)
        out += ships
    cache[key] = out
    return out


def seat_targets(state: NavalWarState, j: int) -> list[int]:
    """The attackable ships of task force `j` (cached in `tgt[j]`): carriers only once unscreened (Setup).

    Night actions: a face-down ship is a target by its slot (its order among the face-down ships of the task
    force) and is never known to be a carrier; a face-up carrier is screened while any other ship is afloat
    (R40)."""
    carrier = state.table.ship_carrier
    fleet = state.fleets[j]
    down = state.face_down
    if not down:
        ships = [s for s in fleet if not carrier[s]] or fleet[:]
    else:
        others = [s for s in fleet if not carrier[s] or (down >> s) & 1]
        keep = others or fleet
        base = state.table.num_ships + j * SLOTS
        ships = []
        slot = 0
        for s in fleet:
            if (down >> s) & 1:
                ships.append(base + slot)
                slot += 1
            elif s in keep:
                ships.append(s)
    state.fleet_targets[j] = ships
    return ships


def ship_at(state: NavalWarState, target: int) -> int:
    """The ship a target index names (a face-down ship by its seat and slot, night actions)."""
    ns = state.table.num_ships
    if target < ns:
        return target
    j, slot = divmod(target - ns, SLOTS)
    down = state.face_down
    for s in state.fleets[j]:
        if (down >> s) & 1:
            if slot == 0:
                return s
            slot -= 1
    raise AssertionError(f"no face-down ship in slot {target} of task force {j}")


def expose(state: NavalWarState, s: int) -> None:
    """Night actions: a ship is turned face up when it fires or is attacked or hit (R39)."""
    if (state.face_down >> s) & 1:
        state.face_down &= ~(1 << s)
        state.fleet_targets[state.ship_position[s] - FLEET] = None
        state.targets_cache = None


def expose_firer(state: NavalWarState, p: int, k: int) -> None:
    """Night actions: a salvo is fired by a face-up ship of its gun size, else the lowest-numbered face-down
    one is turned face up (R39)."""
    gun = state.table.kind_gun[k]
    ship_gun = state.table.ship_gun
    down = state.face_down
    hidden = [s for s in state.fleets[p] if ship_gun[s] == gun]
    if hidden and all((down >> s) & 1 for s in hidden):
        expose(state, min(hidden))


def salvo_cards_on_enemies(state: NavalWarState, p: int) -> list[int]:
    """Salvos lying under enemy ships (targets of Additional Damage)."""
    foes = 0
    for j in enemies(state, p):
        foes |= 1 << j
    spos = state.ship_position
    out = []
    for c in state.table.salvo_cards:
        pos = state.card_position[c]
        if ON_SHIP <= pos < ON_SALVO and (foes >> (spos[pos - ON_SHIP] - FLEET)) & 1:
            out.append(c)
    return out


def red_targets(state: NavalWarState, p: int, kind: int) -> list[int]:
    """Legal plays of red card `kind` by `p` (Red cards; Opening limits)."""
    t, layout = state.table, state.layout
    cat = t.kind_cat[kind]
    if cat == MINE:
        base = layout.mine + t.mine_index[kind] * SEATS
        return [
            base + j
            for j in enemies(state, p)
            if state.smoke[j] < 0 and not (state.in_opening and (state.mined_in_opening >> j) & 1)
        ]
    if cat == SUB:
        return [layout.sub + s for s in ship_targets(state, p, True)]
    if cat == TORPEDO:
        return [layout.torpedo + s for s in ship_targets(state, p, False)]
    if cat == ADDDMG:
        if state.in_opening:
            return []
        base = layout.adddmg + t.adddmg_index[kind] * t.num_cards
        return [base + c for c in salvo_cards_on_enemies(state, p)]
    if cat == ADDSHIP:
        return [layout.addship] if state.harbor else []
    return []


def strike_targets(state: NavalWarState, p: int) -> list[int]:
    """Air strikes: enemy ships not under Smoke and not screened carriers."""
    return ship_targets(state, p, False)


def strike_carriers(state: NavalWarState, p: int) -> list[int]:
    """Carriers of `p` that may strike now (Variations, Kamikaze: a resting carrier may not)."""
    carrier, kwait = state.table.ship_carrier, state.kamikaze_wait
    return [s for s in state.fleets[p] if carrier[s] and kwait[s] == 0]


def dd_targets(state: NavalWarState, p: int) -> list[int]:
    """Destroyer Squadron: a living enemy task force not under Smoke (R7)."""
    return [j for j in enemies(state, p) if state.smoke[j] < 0]


def dd_sinkable(state: NavalWarState, j: int) -> list[int]:
    """Ships the Destroyer Squadron may pick: screened carriers only when nothing else is left (R8)."""
    ships = state.fleet_targets[j]
    return ships if ships is not None else seat_targets(state, j)


# ======================================================================================================
# Legal actions
# ======================================================================================================
def legal_actions(state: NavalWarState) -> list[int]:
    """Sorted legal actions at a decision node (the state's `_legal_actions`)."""
    ph = state.phase
    p = state.to_act
    layout = state.layout
    if ph == Phase.PLAY:
        return _play_actions(state, p)
    if ph == Phase.AIM:
        return _aim_actions(state, p)
    if ph in (Phase.CHOICE, Phase.STRIKE):
        return _strike_actions(state, p)
    if ph == Phase.RED:
        return sorted(red_targets(state, p, state.table.card_kind[state.pending]))
    if ph == Phase.OPEN:
        kinds = sorted({state.table.card_kind[c] for c in state.hands[p] if state.table.kind_red[state.table.card_kind[c]]})
        out: list[int] = []
        for k in kinds:
            out.extend(red_targets(state, p, k))
        return sorted(out)
    if ph == Phase.DD_TARGET:
        return [layout.dd_target + j for j in dd_targets(state, p)]
    if ph == Phase.DD_SINK:
        return sorted(layout.dd_sink + s for s in dd_sinkable(state, state.dd_target))
    if ph == Phase.GIVE:
        return _give_actions(state, p)
    return []


def _play_actions(state: NavalWarState, p: int) -> list[int]:
    """Turn: after drawing, play one card or discard one (Normal cards)."""
    t, layout = state.table, state.layout
    card_kind = t.card_kind
    kinds = {card_kind[c] for c in state.hands[p]}
    guns = 0
    gunbit = t.ship_gunbit
    for s in state.fleets[p]:
        guns |= gunbit[s]
    discard = layout.discard
    out = [discard + k for k in kinds]
    fire_of, kind_gunbit, kind_cat = state.game.fire_of_kind, t.kind_gunbit, t.kind_cat
    can_fire: bool | None = None
    swap_to = mates(state, p) if state.team[p] >= 0 else None
    for k in kinds:
        fire = fire_of[k]
        if fire >= 0:
            if guns & kind_gunbit[k]:
                if can_fire is None:
                    can_fire = bool(ship_targets(state, p, False)) or any(state.dd_card[j] >= 0 for j in enemies(state, p))
                if can_fire:
                    out.append(fire)
            if swap_to:
                base = layout.swap + t.salvo_index[k] * SEATS
                out.extend([base + m for m in swap_to])
            continue
        cat = kind_cat[k]
        if cat == SMOKE:
            out.append(layout.smoke)
        elif cat == DD:
            out.append(layout.dd)
        elif cat == SWEEP:
            if state.mine_hits[p]:
                out.append(layout.sweep)
        elif cat == REPAIR:
            out.extend(layout.repair + c for c in own_salvos(state, p))
    out.sort()
    return out


def _aim_actions(state: NavalWarState, p: int) -> list[int]:
    """Normal cards, Salvo: the target of the salvo being fired — an enemy ship or Destroyer Squadron."""
    layout = state.layout
    at = layout.at
    out = sorted([at + s for s in ship_targets(state, p, False)])
    at_dd = layout.at_dd
    out.extend([at_dd + j for j in enemies(state, p) if state.dd_card[j] >= 0])
    return out


def mates(state: NavalWarState, p: int) -> list[int]:
    """Living fleet-mates of `p` (Fleet play)."""
    tp = state.team[p]
    return [j for j in range(state.num_players) if j != p and state.alive[j] and tp >= 0 and state.team[j] == tp]


def own_salvos(state: NavalWarState, p: int) -> list[int]:
    """Salvos under `p`'s own ships (Repair targets)."""
    spos = state.ship_position
    out = []
    for c in state.table.salvo_cards:
        pos = state.card_position[c]
        if ON_SHIP <= pos < ON_SALVO and spos[pos - ON_SHIP] == FLEET + p:
            out.append(c)
    return out


def _strike_actions(state: NavalWarState, p: int) -> list[int]:
    """Air strikes: one target per carrier, named in turn; `draw` instead while none is named."""
    layout = state.layout
    if not state.carriers_to_name:
        return [layout.draw]
    carrier = state.carriers_to_name[state.carrier_index]
    targets = strike_targets(state, p)
    out = [layout.strike + s for s in targets]
    if state.params.kamikaze and state.table.ship_japan[carrier]:
        out.extend(layout.kamikaze + s for s in targets)
    if state.phase == Phase.CHOICE:
        out.append(layout.draw)
    if state.strikes or state.carrier_index < len(state.carriers_to_name) - 1:
        out.append(layout.skip)
    out.sort()
    return out


def _give_actions(state: NavalWarState, m: int) -> list[int]:
    """Fleet play: the mate returns a salvo (not the one just received), or nothing if he has none."""
    t, layout = state.table, state.layout
    kinds = sorted({t.card_kind[c] for c in state.hands[m] if c != state.swap_card and t.kind_cat[t.card_kind[c]] == SALVO})
    if not kinds:
        return [layout.give_none]
    return [layout.give + t.salvo_index[k] for k in kinds]


# ======================================================================================================
# Chance
# ======================================================================================================
def chance_outcomes(state: NavalWarState) -> list[tuple[int, float]]:
    """Chance: a die (1/6 each), a play card by kind (copies/size), or a ship from the harbor (uniform)."""
    ph = state.phase
    if ph == Phase.ROLL:
        return list(state.game.die_outcomes)
    if ph in (Phase.DRAW, Phase.REFILL, Phase.DEAL_CARD):
        inv = 1.0 / state.deck_size
        return [(a, c * inv) for a, c in zip(state.game.draw_outcomes, state.deck_count, strict=True) if c]
    # A ship from the harbor pile (kept in id order).
    harbor = state.harbor
    return list(zip(harbor, repeat(1 / len(harbor))))


# ======================================================================================================
# Transitions
# ======================================================================================================
def apply(state: NavalWarState, action: int) -> None:
    """Apply a legal action or chance outcome (the state's `_apply`): the phase's handler, then the round
    end if someone's elimination left one side afloat."""
    state._outcomes = None
    _HANDLERS[state.phase](state, action)
    if state.round_over and state.phase != Phase.END:
        end_round(state)


def _on_roll(state: NavalWarState, a: int) -> None:
    """A die face (chance block `die`: face - 1)."""
    _roll(state, a - state.game.chance_layout.die + 1)


def _on_draw(state: NavalWarState, a: int) -> None:
    """A play-card kind drawn (chance block `card`: the kind)."""
    _draw(state, a - state.game.chance_layout.card)


def _on_dd_target(state: NavalWarState, a: int) -> None:
    """Destroyer Squadron: the task force named; the die follows."""
    state.dd_target = a - state.layout.dd_target
    state.roll_kind = Roll.DD
    state.phase, state.to_act = Phase.ROLL, CHANCE


def _on_dd_sink(state: NavalWarState, a: int) -> None:
    """Destroyer Squadron: the ship picked (by id, or by slot when face down)."""
    _dd_sink(state, ship_at(state, a - state.layout.dd_sink))


def _on_end(state: NavalWarState, a: int) -> None:
    """The game is over: never called (no action is legal)."""
    raise AssertionError("no action applies after the end")


# ----- Setup ------------------------------------------------------------------------------------------
def start_round(state: NavalWarState) -> None:
    """Setup: every card back in its deck, then deal 5 ships and 5 play cards each (4 and 4 with 9)."""
    t = state.table
    n = state.num_players
    boxed_cards = state.game.boxed_cards
    boxed_ships = state.game.boxed_ships
    state.card_position = [BOX if c in boxed_cards else DECK for c in range(t.num_cards)]
    state.ship_position = [BOX if s in boxed_ships else HARBOR for s in range(t.num_ships)]
    state.harbor = [s for s in range(t.num_ships) if s not in boxed_ships]
    state.deck_count = [sum(1 for c in cards if c not in boxed_cards) for cards in t.kind_cards]
    state.deck_size = sum(state.deck_count)
    state.hands = [[] for _ in range(n)]
    state.fleets = [[] for _ in range(n)]
    state.known = [[] for _ in range(n)]
    state.damage = [0] * t.num_ships
    state.mine_hits = [0] * n
    state.mine_last = [NONE] * n
    state.smoke = [NONE] * n
    state.dd_card = [NONE] * n
    state.dd_hits = [0] * n
    state.alive = [True] * n
    state.foes = None
    state.targets_cache = None
    state.fleet_targets = [None] * n
    state.face_down = 0
    state.kamikaze_wait = [0] * t.num_ships
    state.turn_count = 0
    state.in_opening = False
    state.opening_count = 0
    state.mined_in_opening = 0
    state.opening_done = 0
    state.unseen_non_red = 0
    state.pending = NONE
    state.round_over = False
    state.deal_left = n * state.params.deal
    state.phase, state.to_act = Phase.DEAL_SHIP, CHANCE


def deal_seat(state: NavalWarState) -> int:
    """Dealing goes round the table from the dealer's left, one card at a time."""
    dealt = state.num_players * state.params.deal - state.deal_left
    return (state.dealer + 1 + dealt) % state.num_players


def _deal_ship(state: NavalWarState, s: int) -> None:
    """Setup: a ship dealt into a player's task force, face up (face down with night actions)."""
    j = deal_seat(state)
    state.harbor.remove(s)
    state.ship_position[s] = FLEET + j
    state.fleets[j].append(s)
    state.targets_cache = None
    state.fleet_targets[j] = None
    if state.params.night:
        state.face_down |= 1 << s
    state.deal_left -= 1
    if state.deal_left == 0:
        state.deal_left = state.num_players * state.params.deal
        state.phase = Phase.DEAL_CARD


def _take_from_deck(state: NavalWarState, k: int) -> int:
    """The drawn copy of kind `k`: the lowest-numbered copy in the draw pile (the pile is unordered)."""
    cpos = state.card_position
    for c in state.table.kind_cards[k]:
        if cpos[c] == DECK:
            state.deck_count[k] -= 1
            state.deck_size -= 1
            return c
    raise AssertionError(f"kind {k} is not in the draw pile")


def _draw(state: NavalWarState, k: int) -> None:
    """A play card of kind `k` drawn: dealt, refilled in the opening, or the turn's draw (Turn)."""
    c = _take_from_deck(state, k)
    ph = state.phase
    if ph == Phase.DEAL_CARD:
        j = deal_seat(state)
        state.card_position[c] = HAND + j
        state.hands[j].append(c)
        state.deal_left -= 1
        if state.deal_left == 0:
            begin_opening(state)
        return
    p = state.turn_player
    if ph == Phase.REFILL:
        state.card_position[c] = HAND + p
        state.hands[p].append(c)
        opening_continue(state)
        return
    # Turn: a red card drawn is played at once and is the turn (Turn; Red cards).
    if state.table.kind_red[k]:
        state.card_position[c] = PLAY
        state.pending = c
        red_drawn(state, c)
        return
    state.card_position[c] = HAND + p
    state.hands[p].append(c)
    state.phase, state.to_act = Phase.PLAY, p


# ----- Opening ----------------------------------------------------------------------------------------
def begin_opening(state: NavalWarState) -> None:
    """Opening: from the dealer (R1), each player in turn plays his red cards, refilling his hand."""
    state.in_opening = True
    state.opening_count = 0
    state.mined_in_opening = 0
    state.turn_player = state.dealer
    opening_continue(state)


def opening_continue(state: NavalWarState) -> None:
    """Opening: refill; discard Additional Damage and red cards with no target; ask for a red card; or pass on.

    "Additional Damage is simply discarded at this point"; "a special that cannot be played is discarded";
    the hand is refilled to its size after each red card while the draw pile lasts (R18).
    """
    t = state.table
    kind_red, card_kind = t.kind_red, t.card_kind
    while not state.round_over:
        p = state.turn_player
        if state.opening_count == state.num_players:
            state.in_opening = False
            state.opening_done = (1 << state.num_players) - 1
            if state.deck_size == 0:
                end_round(state)
            else:
                start_turn(state, state.dealer if state.alive[state.dealer] else next_seat(state, state.dealer))
            return
        if not state.alive[p]:
            _opening_done(state, p)
            continue
        hand = state.hands[p]
        if len(hand) < state.params.hand_size and state.deck_size > 0:
            state.phase, state.to_act = Phase.REFILL, CHANCE
            return
        dropped = False
        for c in list(hand):
            k = card_kind[c]
            if kind_red[k] and not red_targets(state, p, k):
                _hand_remove(state, p, c)
                state.card_position[c] = DISCARD
                dropped = True
        if dropped:
            continue
        if any(kind_red[card_kind[c]] for c in hand):
            state.phase, state.to_act = Phase.OPEN, p
            return
        _opening_done(state, p)


def _opening_done(state: NavalWarState, p: int) -> None:
    """Opening: seat `p` holds no red card left to play; the next seat opens."""
    state.opening_done |= 1 << p
    state.opening_count += 1
    state.turn_player = (p + 1) % state.num_players


# ----- The turn ---------------------------------------------------------------------------------------
def next_seat(state: NavalWarState, p: int) -> int:
    """Turns go clockwise (seat + 1), skipping eliminated players."""
    n = state.num_players
    q = (p + 1) % n
    while not state.alive[q]:
        q = (q + 1) % n
    return q


def start_turn(state: NavalWarState, p: int) -> None:
    """Turn: Smoke is removed before drawing; a surviving Destroyer Squadron attacks first (R9)."""
    state.turn_player = p
    state.turn_count += 1
    if state.turn_count > MAX_TURNS_PER_ROUND:
        end_round(state)
        return
    c = state.smoke[p]
    if c >= 0:
        state.card_position[c] = DISCARD
        state.smoke[p] = NONE
        state.targets_cache = None
    if state.dd_card[p] >= 0:
        if dd_targets(state, p):
            state.phase, state.to_act = Phase.DD_TARGET, p
            return
        _discard_dd(state, p)
    turn_main(state)


def turn_main(state: NavalWarState) -> None:
    """Turn: draw one card, or instead launch air strikes with carriers (Air strikes).

    Night actions: the choice is always offered (`draw` alone without a carrier able to fly), so the others
    cannot tell from the phase whether the player holds a face-down carrier (R41)."""
    p = state.turn_player
    elig = [] if state.params.gunnery else strike_carriers(state, p)
    if elig and not strike_targets(state, p):
        elig = []
    if elig or state.params.night:
        state.carriers_to_name = elig
        state.strikes = []
        state.carrier_index = 0
        state.phase, state.to_act = Phase.CHOICE, p
        return
    state.phase, state.to_act = Phase.DRAW, CHANCE


def end_turn(state: NavalWarState) -> None:
    """Turn end: Kamikaze rests count down; the round ends once the last card was drawn (Round end)."""
    if state.round_over:
        return
    p = state.turn_player
    if state.params.kamikaze:
        kwait = state.kamikaze_wait
        for s in state.fleets[p]:
            if kwait[s]:
                kwait[s] -= 1
    if state.deck_size == 0:
        end_round(state)
        return
    start_turn(state, next_seat(state, p))


def _play(state: NavalWarState, a: int) -> None:
    """Normal cards: the card played (or discarded) after the draw."""
    t, layout = state.table, state.layout
    p = state.turn_player
    if a < layout.fire:
        if a == layout.smoke:
            c = _card_of(state, p, t.kinds_smoke)
            state.card_position[c] = SMOKE_POS + p
            state.smoke[p] = c
            state.targets_cache = None
        elif a == layout.dd:
            c = _card_of(state, p, t.kinds_dd)
            state.card_position[c] = DDC + p
            state.dd_card[p] = c
            state.dd_hits[p] = 0
        elif a == layout.sweep:
            sweep(state, p)
        else:
            c = _card_of(state, p, (a - layout.discard,))
            state.card_position[c] = DISCARD
    elif a < layout.at:
        # The salvo leaves the hand face up while its target is named.
        c = _card_of(state, p, (t.salvo_kinds[a - layout.fire],))
        state.card_position[c] = PLAY
        state.aiming = c
        state.phase = Phase.AIM
        return
    elif a < layout.swap:
        repair(state, p, a - layout.repair)
    else:
        si, m = divmod(a - layout.swap, SEATS)
        c = _card_of(state, p, (t.salvo_kinds[si],))
        state.card_position[c] = HAND + m
        state.hands[m].append(c)
        state.known[m].append(c)
        state.swap_card = c
        state.phase, state.to_act = Phase.GIVE, m
        return
    end_turn(state)


def _aim(state: NavalWarState, a: int) -> None:
    """Normal cards, Salvo: fire the salvo chosen at its target; the turn ends."""
    layout = state.layout
    c = state.aiming
    state.aiming = NONE
    p = state.turn_player
    if state.face_down:
        expose_firer(state, p, state.table.card_kind[c])
    if a < layout.at_dd:
        target = ship_at(state, a - layout.at)
        if state.face_down:
            expose(state, target)
        fire(state, p, c, target)
    else:
        fire_at_dd(state, c, a - layout.at_dd)
    end_turn(state)


def _card_of(state: NavalWarState, p: int, kinds: tuple[int, ...]) -> int:
    """Remove and return the lowest-numbered card of one of `kinds` from `p`'s hand."""
    card_kind = state.table.card_kind
    best = NONE
    for c in state.hands[p]:
        if card_kind[c] in kinds and (best < 0 or c < best):
            best = c
    _hand_remove(state, p, best)
    return best


def _hand_remove(state: NavalWarState, p: int, c: int) -> None:
    """Take card `c` out of `p`'s hand (and out of what is publicly known to be there)."""
    state.hands[p].remove(c)
    known = state.known[p]
    if c in known:
        known.remove(c)


def fire(state: NavalWarState, p: int, c: int, s: int) -> None:
    """Normal cards, Salvo: salvo `c` is placed under an enemy ship; its hits are damage (Sinking: the last
    hits take it)."""
    state.card_position[c] = ON_SHIP + s
    state.damage[s] += state.table.kind_value[state.table.card_kind[c]]
    check_sunk(state, s, p)


def fire_at_dd(state: NavalWarState, c: int, j: int) -> None:
    """Normal cards, Destroyer Squadron: 4 hits from salvos destroy it (discarded, no points)."""
    state.card_position[c] = ON_DD + j
    state.dd_hits[j] += state.table.kind_value[state.table.card_kind[c]]
    if state.dd_hits[j] >= DD_HITS:
        _discard_dd(state, j)


def _discard_dd(state: NavalWarState, j: int) -> None:
    """Seat `j`'s Destroyer Squadron and the salvos on it go to the discard pile."""
    cpos = state.card_position
    cpos[state.dd_card[j]] = DISCARD
    state.dd_card[j] = NONE
    state.dd_hits[j] = 0
    on = ON_DD + j
    for c in range(len(cpos)):
        if cpos[c] == on:
            cpos[c] = DISCARD


def repair(state: NavalWarState, p: int, x: int) -> None:
    """Normal cards, Repair: remove one salvo from your ship together with its Additional Damage."""
    t = state.table
    c = _card_of(state, p, t.kinds_repair)
    cpos = state.card_position
    cpos[c] = DISCARD
    s = cpos[x] - ON_SHIP
    state.damage[s] -= t.kind_value[t.card_kind[x]]
    cpos[x] = DISCARD
    on = ON_SALVO + x
    for d in t.adddmg_cards:
        if cpos[d] == on:
            cpos[d] = DISCARD
            state.damage[s] -= t.kind_value[t.card_kind[d]]


def sweep(state: NavalWarState, p: int) -> None:
    """Normal cards, Minesweeper: every minefield before your task force is discarded, its hits with it
    (R5)."""
    c = _card_of(state, p, state.table.kinds_sweep)
    cpos = state.card_position
    cpos[c] = DISCARD
    here = MINES + p
    for d in state.table.mine_cards:
        if cpos[d] == here:
            cpos[d] = DISCARD
    state.mine_hits[p] = 0
    state.mine_last[p] = NONE


# ----- Red cards --------------------------------------------------------------------------------------
def red_drawn(state: NavalWarState, c: int) -> None:
    """Turn: a red card drawn must be played at once; one that cannot be played is discarded."""
    p = state.turn_player
    k = state.table.card_kind[c]
    if state.table.kind_cat[k] == ADDSHIP and state.harbor:
        state.phase, state.to_act = Phase.SHIP, CHANCE
        return
    if red_targets(state, p, k):
        state.phase, state.to_act = Phase.RED, p
        return
    after_red(state)


def after_red(state: NavalWarState) -> None:
    """After a red card: it is discarded (unless it stays on the table); the opening or the turn goes on."""
    if state.pending >= 0 and state.card_position[state.pending] == PLAY:
        state.card_position[state.pending] = DISCARD
    state.pending = NONE
    if state.round_over:
        return
    if state.in_opening:
        opening_continue(state)
    elif state.params.draw_past_specials and state.deck_size > 0:
        state.phase, state.to_act = Phase.DRAW, CHANCE
    else:
        end_turn(state)


def _red_play(state: NavalWarState, a: int) -> None:
    """Red cards: the target chosen for a red card (drawn in a turn, or chosen from the hand in the opening)."""
    t, layout = state.table, state.layout
    p = state.to_act
    if state.phase == Phase.OPEN:
        if a == layout.addship:
            kinds = t.kinds_addship
        elif a < layout.sub:
            kinds = (t.mine_kinds[(a - layout.mine) // SEATS],)
        elif a < layout.torpedo:
            kinds = t.kinds_sub
        elif a < layout.adddmg:
            kinds = t.kinds_torpedo
        else:
            kinds = (t.adddmg_kinds[(a - layout.adddmg) // t.num_cards],)
        c = _card_of(state, p, kinds)
        state.card_position[c] = PLAY
        state.pending = c
    c = state.pending
    if a == layout.addship:
        state.phase, state.to_act = Phase.SHIP, CHANCE
    elif a < layout.sub:
        lay_minefield(state, p, c, (a - layout.mine) % SEATS)
        after_red(state)
    elif a < layout.adddmg:
        state.pending_target = ship_at(state, (a - layout.sub) if a < layout.torpedo else (a - layout.torpedo))
        if state.face_down:
            expose(state, state.pending_target)
        state.roll_kind = Roll.SUB if a < layout.torpedo else Roll.TORPEDO
        state.phase, state.to_act = Phase.ROLL, CHANCE
    else:
        additional_damage(state, p, c, (a - layout.adddmg) % t.num_cards)
        after_red(state)


def lay_minefield(state: NavalWarState, p: int, c: int, j: int) -> None:
    """Red cards, Minefield: 1 or 2 hits (2 with `mines_two`) on every ship of task force `j`, carriers
    included (R3); ships it sinks go to its player."""
    state.card_position[c] = MINES + j
    state.mine_hits[j] += 2 if state.params.mines_two else state.table.kind_value[state.table.card_kind[c]]
    state.mine_last[j] = p
    if state.in_opening:
        state.mined_in_opening |= 1 << j
    if state.face_down:
        for s in state.fleets[j]:
            expose(state, s)
    for s in list(state.fleets[j]):
        if state.alive[j]:
            check_sunk(state, s, p)


def additional_damage(state: NavalWarState, p: int, c: int, x: int) -> None:
    """Red cards, Additional Damage: on a salvo under an enemy ship (R11); a sink is its player's."""
    state.card_position[c] = ON_SALVO + x
    s = state.card_position[x] - ON_SHIP
    state.damage[s] += state.table.kind_value[state.table.card_kind[c]]
    check_sunk(state, s, p)


def _additional_ship_arrives(state: NavalWarState, s: int) -> None:
    """Red cards, Additional Ship: the ship joins the fleet at once (R17); a minefield already there
    hits it, and a ship it sinks goes to the last minefield's player (R2)."""
    p = state.turn_player
    state.harbor.remove(s)
    state.ship_position[s] = FLEET + p
    state.fleets[p].append(s)
    state.targets_cache = None
    state.fleet_targets[p] = None
    if state.params.night and not state.mine_hits[p]:
        state.face_down |= 1 << s
    if state.mine_hits[p]:
        check_sunk(state, s, state.mine_last[p])
    after_red(state)


def _roll(state: NavalWarState, r: int) -> None:
    """A die: Submarine sinks on 5–6, Torpedo Boat on 6, a Destroyer Squadron sinks r ships, an air strike
    sinks on 1 (1–2 as Kamikaze)."""
    kind = state.roll_kind
    p = state.turn_player
    if kind in (Roll.SUB, Roll.TORPEDO):
        if r >= (5 if kind == Roll.SUB else 6):
            sink(state, state.pending_target, p)
        after_red(state)
    elif kind == Roll.DD:
        state.dd_left = r
        _dd_continue(state)
    else:
        base = 3 * state.strike_index
        carrier, target, kami = state.strikes[base], state.strikes[base + 1], state.strikes[base + 2]
        if r == 1 or (kami and r == 2):
            sink(state, target, p)
            if kami:
                state.kamikaze_wait[carrier] = r + 2
        elif kami:
            state.kamikaze_wait[carrier] = 2
        state.strike_index += 1
        if not state.round_over:
            _next_strike(state)


# ----- Destroyer Squadron attack ------------------------------------------------------------------------
def _dd_continue(state: NavalWarState) -> None:
    """Normal cards, Destroyer Squadron: the owner picks the ships to sink one by one, then the DD is
    discarded and the owner's normal turn follows (R9)."""
    j = state.dd_target
    if state.dd_left > 0 and state.alive[j] and state.fleets[j]:
        state.phase, state.to_act = Phase.DD_SINK, state.turn_player
        return
    _discard_dd(state, state.turn_player)
    if not state.round_over:
        turn_main(state)


def _dd_sink(state: NavalWarState, s: int) -> None:
    """Destroyer Squadron: sink the ship picked; pick again while the roll allows."""
    sink(state, s, state.turn_player)
    state.dd_left -= 1
    if not state.round_over:
        _dd_continue(state)


# ----- Air strikes --------------------------------------------------------------------------------------
def _strike_choice(state: NavalWarState, a: int) -> None:
    """Air strikes: instead of draw-and-play, one strike per carrier, every target named before any roll;
    a carrier may hold back (R15)."""
    layout = state.layout
    if a == layout.draw:
        state.phase, state.to_act = Phase.DRAW, CHANCE
        return
    if a != layout.skip:
        carrier = state.carriers_to_name[state.carrier_index]
        kami = a >= layout.kamikaze
        target = ship_at(state, a - (layout.kamikaze if kami else layout.strike))
        if state.face_down:
            expose(state, carrier)
            expose(state, target)
        state.strikes.extend((carrier, target, int(kami)))
    state.carrier_index += 1
    if state.carrier_index < len(state.carriers_to_name):
        state.phase = Phase.STRIKE
        return
    state.strike_index = 0
    _next_strike(state)


def _next_strike(state: NavalWarState) -> None:
    """Roll the next named strike whose target is still afloat (R15); then the turn ends."""
    strikes = state.strikes
    while 3 * state.strike_index < len(strikes):
        target = strikes[3 * state.strike_index + 1]
        if FLEET <= state.ship_position[target] < DEEP:
            state.roll_kind = Roll.STRIKE
            state.phase, state.to_act = Phase.ROLL, CHANCE
            return
        state.strike_index += 1
    end_turn(state)


# ----- Fleet play -------------------------------------------------------------------------------------
def _give(state: NavalWarState, a: int) -> None:
    """Fleet play: the mate returns one salvo (or none if he holds none); the exchange is open (R32)."""
    layout = state.layout
    m = state.to_act
    p = state.turn_player
    if a != layout.give_none:
        c = _card_of(state, m, (state.table.salvo_kinds[a - layout.give],))
        state.card_position[c] = HAND + p
        state.hands[p].append(c)
        state.known[p].append(c)
    state.swap_card = NONE
    end_turn(state)


# ----- Sinking ----------------------------------------------------------------------------------------
def check_sunk(state: NavalWarState, s: int, by: int) -> None:
    """Sinking: accumulated hits at least the Hit Number sink the ship; `by` delivered the last hits."""
    if state.damage[s] + state.mine_hits[state.ship_position[s] - FLEET] >= state.table.ship_hits[s]:
        sink(state, s, by)


def sink(state: NavalWarState, s: int, by: int) -> None:
    """Sinking: the ship goes to the Deep Six pile of `by`; the cards on it are discarded."""
    owner = state.ship_position[s] - FLEET
    state.fleets[owner].remove(s)
    state.targets_cache = None
    state.fleet_targets[owner] = None
    state.face_down &= ~(1 << s)
    state.ship_position[s] = DEEP + by
    state.kamikaze_wait[s] = 0
    if state.damage[s]:
        cpos = state.card_position
        on = ON_SHIP + s
        for c in state.table.salvo_cards:
            if cpos[c] == on:
                cpos[c] = DISCARD
                for d in state.table.adddmg_cards:
                    if cpos[d] == ON_SALVO + c:
                        cpos[d] = DISCARD
        state.damage[s] = 0
    if not state.fleets[owner]:
        eliminate(state, owner)


def eliminate(state: NavalWarState, j: int) -> None:
    """Sinking: a player with no ships is out for the round; his hand is discarded unseen, and his Smoke,
    Destroyer Squadron and the minefields before him go too (R30)."""
    state.alive[j] = False
    state.foes = None
    state.targets_cache = None
    cpos = state.card_position
    hand = state.hands[j]
    for c in hand:
        cpos[c] = UNSEEN
    if (state.opening_done >> j) & 1:
        state.unseen_non_red += len(hand)
    state.hands[j] = []
    state.known[j] = []
    if state.smoke[j] >= 0:
        cpos[state.smoke[j]] = DISCARD
        state.smoke[j] = NONE
    if state.dd_card[j] >= 0:
        _discard_dd(state, j)
    here = MINES + j
    for d in state.table.mine_cards:
        if cpos[d] == here:
            cpos[d] = DISCARD
    state.mine_hits[j] = 0
    state.mine_last[j] = NONE
    team = state.team
    left = sum(state.alive) if team[j] < 0 else len({team[i] for i in range(state.num_players) if state.alive[i]})
    if left <= 1:
        state.round_over = True


# ----- Round end and scoring --------------------------------------------------------------------------
def round_points(state: NavalWarState) -> list[int]:
    """Scoring a round: Hit Numbers in the Deep Six, +10 to a sole survivor (each surviving member of the
    last fleet), -10 to every player eliminated in the round."""
    hits = state.table.ship_hits
    pts = [0] * state.num_players
    for s, pos in enumerate(state.ship_position):
        if DEEP <= pos < DEEP + SEATS:
            pts[pos - DEEP] += hits[s]
    team = state.team
    alive = state.alive
    sole = sum(alive) == 1 if team[0] < 0 else len({team[i] for i in range(state.num_players) if alive[i]}) == 1
    for i in range(state.num_players):
        if not alive[i]:
            pts[i] -= ELIMINATION_PENALTY
        elif sole:
            pts[i] += SOLE_SURVIVOR_BONUS
    return pts


def side_scores(state: NavalWarState) -> list[int]:
    """The score each seat's side stands on: its own, or its fleet's total (Fleet play)."""
    team = state.team
    if team[0] < 0:
        return list(state.scores)
    totals: dict[int, int] = {}
    for i in range(state.num_players):
        totals[team[i]] = totals.get(team[i], 0) + state.scores[i]
    return [totals[team[i]] for i in range(state.num_players)]


def end_round(state: NavalWarState) -> None:
    """Round end and Goal: score; the game ends when one side reaches the target alone at the top (a tie
    plays one more round, R19); otherwise the leader deals the next round (R20)."""
    pts = round_points(state)
    for i in range(state.num_players):
        state.scores[i] += pts[i]
    state.last_round = pts
    state.round_over = False
    sides = side_scores(state)
    best = max(sides)
    leaders = [i for i in range(state.num_players) if sides[i] == best]
    team = state.team
    distinct = len({team[i] if team[i] >= 0 else i for i in leaders})
    if (best >= state.params.target and distinct == 1) or state.round_index >= MAX_ROUNDS:
        state.final_returns = [1.0 / distinct if i in leaders else 0.0 for i in range(state.num_players)]
        state.phase, state.to_act = Phase.END, TERMINAL
        return
    top = max(state.scores)
    d = state.dealer
    while state.scores[d] != top:
        d = (d + 1) % state.num_players
    state.dealer = d
    state.round_index += 1
    start_round(state)


# ======================================================================================================
# Why an action is refused
# ======================================================================================================
def illegal_reason(state: NavalWarState, a: int) -> str:
    """A sentence saying why `a` is not legal now, citing the rule section."""
    layout = state.layout
    ph = state.phase
    p = state.to_act
    text = action_text(state.table, a)
    who = f"player {p}"
    if ph == Phase.PLAY:
        if a < layout.fire and a >= layout.discard:
            return f"Turn: {who} holds no {text.split()[1]} card to discard; discard a card from your hand"
        if layout.fire <= a < layout.at:
            return (f"Normal cards, Salvo: '{text}' is not allowed: a salvo needs the card in hand, one of your "
                    "ships with that gun size, and an enemy target")
        if layout.at <= a < layout.repair:
            return f"Normal cards, Salvo: '{text}' comes after 'fire KIND'; first choose the salvo to fire"
        if layout.repair <= a < layout.swap:
            return "Normal cards, Repair: you need a Repair card and the salvo must lie under one of your ships"
        if a == layout.sweep:
            return "Normal cards, Minesweeper: you need the card and a minefield before your task force (R25)"
        if layout.swap <= a < layout.give:
            return "Fleet play: you may swap a salvo in your hand only with a living fleet-mate"
        return f"Turn: '{text}' is not a play of a card in your hand now; play or discard one card"
    if ph in (Phase.CHOICE, Phase.STRIKE):
        return (f"Air strikes: '{text}' is not allowed: name a target for your next carrier (an enemy ship not "
                "under Smoke and not a screened carrier), 'skip' it, or 'draw' before any target is named")
    if ph in (Phase.RED, Phase.OPEN):
        card = state.table.card_ids[state.pending] if ph == Phase.RED else "a red card in your hand"
        return (f"Red cards: '{text}' is not a legal play of {card} now (Submarines pass Smoke, Torpedo Boats and "
                "minefields do not; carriers are screened; one minefield per task force in the Opening; "
                "Additional Damage only on a salvo under an enemy ship)")
    if ph == Phase.AIM:
        return (f"Normal cards, Salvo: '{text}' is not a target for {state.table.card_ids[state.aiming]}: fire at an enemy ship "
                "not under Smoke and not a screened carrier (never your own ship or a fleet-mate's), or an enemy "
                "Destroyer Squadron")
    if ph == Phase.DD_TARGET:
        return "Destroyer Squadron: name a living enemy task force not under Smoke (R7)"
    if ph == Phase.DD_SINK:
        return "Destroyer Squadron: pick a ship of the target task force; carriers only when nothing else is left"
    if ph == Phase.GIVE:
        return "Fleet play: give back one salvo from your hand other than the one received, or 'give none'"
    return f"'{text}' is not legal in phase {PHASE_NAMES[ph]}"


_HANDLERS = {
    Phase.DEAL_SHIP: _deal_ship,
    Phase.DEAL_CARD: _on_draw,
    Phase.REFILL: _on_draw,
    Phase.OPEN: _red_play,
    Phase.CHOICE: _strike_choice,
    Phase.DRAW: _on_draw,
    Phase.PLAY: _play,
    Phase.RED: _red_play,
    Phase.ROLL: _on_roll,
    Phase.SHIP: _additional_ship_arrives,
    Phase.STRIKE: _strike_choice,
    Phase.DD_TARGET: _on_dd_target,
    Phase.DD_SINK: _on_dd_sink,
    Phase.GIVE: _give,
    Phase.END: _on_end,
    Phase.AIM: _aim,
}
"""The transition of each phase (indexed by phase number)."""
