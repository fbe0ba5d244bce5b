"""Naval War in player's words: the game log of each step as one seat saw it (`log_lines`), move labels
(`action_label`) and the result with its reason (`result`) — docs/contributing/log.md.

A step's lines are its move or chance result ("Player 1's Nelson fires 16-inch ×2 at your Hood: 2 hits, 4 of
5"), then what it brought about, read off the state before and after it: ships turned face up (night
actions), ships sunk with their points, Smoke lifting, a Destroyer Squadron leaving the centre, players out
for the round, the Opening's start and end, and at a round's end its scores. The next deal clears the table,
so the ships sunk in a round's last step are read off `ended_ships`, the ship positions the round ended with.

A seat reads only what it may know: a card drawn into another hand is "a card", a face-down ship of another
task force is named only once it is turned face up or sunk (R38, R39), and the carriers still to fly at night
stay unnamed (R41).

The names a player knows — ships by name ("King George V"), play cards by what they are ("14-inch ×2",
"Minefield 2"), phases in words, seats as "player 2" — are defined here for the log, the labels, the result
and the board. The board (`render`) sees only a seat's view, so it reads names off the printed decks and,
for a card file's own ids, spells the id out (`names_from_ids`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

from warcards.engine.api import CHANCE, GameResult, LogLine, SeenAction
from warcards.games.naval_war.cards import ADDDMG, CATEGORIES, GUNS, MINE, SALVO, CardTable, load_cards
from warcards.games.naval_war.codes import DEEP, DISCARD, FLEET, HAND, ON_SALVO, ON_SHIP, Phase, Roll
from warcards.games.naval_war.notation import SEATS, SLOTS
from warcards.games.naval_war.params import MAX_ROUNDS, MAX_TURNS_PER_ROUND
from warcards.games.naval_war.rules.round import deal_seat, side_scores
from warcards.games.naval_war.rules.targets import ship_at

if TYPE_CHECKING:
    from warcards.games.naval_war.game import NavalWarGame
    from warcards.games.naval_war.state import NavalWarState

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


def kind_name(table: CardTable, kind: int) -> str:
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


def card_name(table: CardTable, card: int) -> str:
    """A play card's name (its kind's)."""
    return kind_name(table, table.card_kind[card])


def ship_label(table: CardTable, ship: int) -> str:
    """A ship with its gun and Hit Number: "Hood (15-inch, 5 hits)", "Akagi (carrier, 3 hits)"."""
    gun = table.ship_gun[ship]
    return f"{table.ship_names[ship]} ({'carrier' if gun < 0 else GUNS[gun] + '-inch'}, {table.ship_hits[ship]} hits)"


def card_names(table: CardTable) -> dict[str, str]:
    """Every card id of the table (ships and play cards) with its name: the map the leak scans read."""
    names = dict(zip(table.ship_ids, table.ship_names, strict=True))
    names.update((table.card_ids[c], card_name(table, c)) for c in range(table.num_cards))
    return names


CATEGORY_WORDS = (
    "hits at an enemy ship, fired by one of your ships of its gun size",
    "red: a ship from the harbor joins your task force",
    "red: adds hits on a salvo under an enemy ship",
    "red: hits every ship of a task force, and ships added later",
    "red: at an enemy ship, a die of 5 or 6 sinks it, even through Smoke",
    "red: at an enemy ship, a die of 6 sinks it",
    "in the centre until your next turn (4 hits destroy it), then a die: that many ships of a task force sink",
    "your task force is safe from all but submarines and Additional Damage until your next turn",
    "remove one salvo (and its Additional Damage) from one of your ships",
    "remove every minefield before your task force",
)
"""What each card category does (Card anatomy; the guide's "A round"), indexed as `cards.CATEGORIES`."""


def deck_facts(game: NavalWarGame) -> dict[str, dict[str, object]]:
    """Every ship and play card of the game's table for a client (`GameSpec.card_facts`): a ship's name,
    nation, gun and Hit Number (Card anatomy); a play card's name, category, gun, value, red mark and what it
    does."""
    table = game.table
    facts: dict[str, dict[str, object]] = {}
    for ship, ship_id in enumerate(table.ship_ids):
        ship_gun = gun_text(table.ship_gun[ship])
        facts[ship_id] = {
            "name": table.ship_names[ship], "kind": "ship", "nation": table.ship_nation[ship], "gun": ship_gun,
            "hits": table.ship_hits[ship],
            "text": f"{'carrier' if ship_gun == 'carrier' else ship_gun + '-inch guns'}, Hit Number {table.ship_hits[ship]}, "
                    f"{table.ship_nation[ship]}",
        }
    for card, card_id in enumerate(table.card_ids):
        kind = table.card_kind[card]
        category = table.kind_cat[kind]
        value = table.kind_value[kind]
        gun = GUNS[table.kind_gun[kind]] if table.kind_gun[kind] >= 0 else None
        text = CATEGORY_WORDS[category]
        if category == SALVO:
            text = f"{value} hit{'s' * (value != 1)} at an enemy ship, fired by one of your {gun}-inch ships"
        elif category == ADDDMG:
            text = f"red: +{value} on a salvo under an enemy ship"
        elif category == MINE:
            text = f"red: {value} hit{'s' * (value != 1)} on every ship of a task force, and on ships added later"
        facts[card_id] = {"name": kind_name(table, kind), "kind": CATEGORIES[category], "gun": gun, "value": value,
                          "red": table.kind_red[kind], "text": text}
    return facts


@cache
def _printed() -> tuple[dict[str, tuple[str, int]], dict[str, str]]:
    """Ship names and Hit Numbers by id, and play-card names by kind code, of the printed decks."""
    table = load_cards()
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


_ROLL_NAMES = {Roll.SUB: "Submarine", Roll.TORPEDO: "Torpedo Boat"}


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


class _Step:
    """One step as `seat` (None: a spectator) saw it: the words for its seats and ships, and its lines;
    `hidden` when the seat does not see the step's action in full (`views.hidden_action_text`, decided once by
    the engine: a card or a night ship dealt or drawn to another seat)."""

    def __init__(self, before: NavalWarState, after: NavalWarState, seat: int | None, hidden: bool) -> None:
        self.before = before
        self.after = after
        self.seat = seat
        self.hidden = hidden
        self.table = before.table
        self.ended = after.round_index != before.round_index or (after.phase == Phase.END != before.phase)
        """Whether the step ended the round (the table is dealt afresh, or the game is over)."""
        self.mentioned: set[int] = set()
        """Ships the move's own line names (no 'turned face up' line for them)."""

    # ----- words ---------------------------------------------------------------------------------------
    def who(self, j: int) -> str:
        return "you" if j == self.seat else seat_name(j)

    def whose(self, j: int) -> str:
        return "your" if j == self.seat else f"{seat_name(j)}'s"

    def does(self, j: int, verb: str) -> str:
        """`verb` agreeing with seat `j` ("you draw", "player 2 draws")."""
        if j == self.seat:
            return f"you {verb}"
        ending = "es" if verb.endswith(("sh", "ch", "s")) else "s"
        return f"{seat_name(j)} {verb}{ending}"

    def ship(self, s: int) -> str:
        """Ship `s` with its owner at the start of the step ("your Hood", "player 2's Hood")."""
        self.mentioned.add(s)
        pos = self.before.ship_position[s]
        owner = pos - FLEET if FLEET <= pos < DEEP else self.before.turn_player
        return f"{self.whose(owner)} {self.name(s, owner)}"

    def name(self, s: int, owner: int) -> str:
        """Ship `s` of `owner` by name — but "face-down ship" for another's ship that was face down when a
        step ended the round without sinking it (the next deal clears the table before anyone sees it)."""
        if (self.ended and owner != self.seat and (self.before.face_down >> s) & 1
                and self.after.ended_ships[s] < DEEP):
            return "face-down ship"
        return self.table.ship_names[s]

    def hits(self, s: int, added: int) -> str:
        """`added` hits on ship `s`, with its damage afterwards against its Hit Number ("2 hits, 4 of 9"); hits
        beyond the Hit Number are not counted as damage ("4 hits, 3 of 3: enough to sink it")."""
        b = self.before
        total = b.damage[s] + b.mine_hits[b.ship_position[s] - FLEET] + added
        needed = self.table.ship_hits[s]
        if total > needed:
            return f"{added} hit{'s' * (added != 1)}, {needed} of {needed}: enough to sink it"
        return f"{added} hit{'s' * (added != 1)}, {total} of {needed}"

    # ----- the move or chance result -------------------------------------------------------------------
    def event(self, action: int) -> str | None:
        """The step's own line (None for a choice the next step tells: `draw`, `fire KIND`)."""
        phase = self.before.phase
        if phase == Phase.DEAL_SHIP:
            return self.dealt_ship(action)
        if phase in (Phase.DEAL_CARD, Phase.REFILL, Phase.DRAW):
            return self.drawn(action)
        if phase == Phase.ROLL:
            return self.rolled(action - self.before.game.chance_layout.die + 1)
        if phase == Phase.SHIP:
            return self.arrived(action - self.before.game.chance_layout.ship)
        block, index = self.before.layout.decode(action)
        if phase in (Phase.OPEN, Phase.RED):
            return self.red(block, index)
        if phase in (Phase.CHOICE, Phase.STRIKE):
            return self.strike(block, index)
        if phase == Phase.PLAY:
            return self.played(block, index)
        if phase == Phase.AIM:
            return self.aimed(block, index)
        p = self.before.to_act
        if phase == Phase.DD_TARGET:
            return f"{self.whose(p)} Destroyer Squadron attacks {self.whose(index)} task force"
        if phase == Phase.DD_SINK:
            return f"{self.whose(p)} Destroyer Squadron picks {self.ship(ship_at(self.before, index))}"
        turn = self.before.turn_player
        if block == "give_none":
            return f"{self.who(p)} {'have' if p == self.seat else 'has'} no other salvo to give back"
        kind = self.table.salvo_kinds[index]
        return f"{self.does(p, 'give')} {kind_name(self.table, kind)} back to {self.who(turn)}"

    def dealt_ship(self, s: int) -> str:
        b = self.before
        j = deal_seat(b)
        if not b.params.night:
            return f"{self.who(j)} {'are' if j == self.seat else 'is'} dealt {ship_label(self.table, s)}"
        if self.hidden:
            return f"{seat_name(j)} is dealt a ship face down"
        return f"you are dealt {ship_label(self.table, s)}, face down"

    def round_start(self) -> str | None:
        """The first ship dealt of a round: the round and its dealer (Setup; R20)."""
        b = self.before
        if b.phase != Phase.DEAL_SHIP or b.deal_left != b.num_players * b.params.deal:
            return None
        why = " (the highest score deals, R20)" if b.round_index > 1 else ""
        return f"Round {b.round_index}: {self.does(b.dealer, 'deal')}{why}"

    def drawn(self, action: int) -> str:
        b = self.before
        kind = action - b.game.chance_layout.card
        name = kind_name(self.table, kind)
        if b.phase == Phase.DEAL_CARD:
            return f"{seat_name(deal_seat(b))} is dealt a card" if self.hidden else f"you are dealt {name}"
        p = b.turn_player
        if b.phase == Phase.REFILL:
            return f"{seat_name(p)} draws a card" if self.hidden else f"you draw {name} (refilling your hand)"
        if self.table.kind_red[kind]:
            played = not self.ended and self.after.pending >= 0
            return f"{self.does(p, 'draw')} {name}, a red card: " + (
                "played at once" if played else "it has no target and is discarded")
        return f"{seat_name(p)} draws a card" if self.hidden else f"you draw {name}"

    def rolled(self, r: int) -> str:
        b = self.before
        p = b.turn_player
        kind = b.roll_kind
        if kind in _ROLL_NAMES:
            hit = r >= (5 if kind == Roll.SUB else 6)
            return f"die {r}: the {_ROLL_NAMES[kind]} {'hits' if hit else 'misses'} {self.ship(b.pending_target)}"
        if kind == Roll.DD:
            return (f"die {r}: {self.whose(p)} Destroyer Squadron may sink {r} ship{'s' * (r > 1)} of "
                    f"{self.whose(b.dd_target)} task force")
        base = 3 * b.strike_index
        carrier, target, kamikaze = b.strikes[base], b.strikes[base + 1], b.strikes[base + 2]
        hit = r == 1 or (bool(kamikaze) and r == 2)
        text = (f"die {r}: {self.table.ship_names[carrier]}'s "
                f"{'Kamikaze' if kamikaze else 'air'} strike {'hits' if hit else 'misses'} {self.ship(target)}")
        if kamikaze:
            rest = r + 1 if hit else 1
            text += f"; {self.table.ship_names[carrier]} rests {rest} turn{'s' * (rest > 1)}"
        return text

    def arrived(self, s: int) -> str:
        b = self.before
        p = b.turn_player
        if b.params.night and not b.mine_hits[p]:
            if self.hidden:
                return f"Additional Ship: a ship joins {self.whose(p)} task force face down"
            return f"Additional Ship: {ship_label(self.table, s)} joins your task force face down"
        return f"Additional Ship: {ship_label(self.table, s)} joins {self.whose(p)} task force"

    def red(self, block: str, index: int) -> str:
        """A red card played: from the hand in the Opening, or drawn in a turn (Red cards)."""
        b, t = self.before, self.table
        p = b.to_act
        if block == "addship":
            return f"{self.does(p, 'play')} Additional Ship"
        if block == "mine":
            mine, j = divmod(index, SEATS)
            kind = t.mine_kinds[mine]
            hits = 2 if b.params.mines_two else t.kind_value[kind]
            return (f"{self.does(p, 'lay')} {kind_name(t, kind)} before {self.whose(j)} task force: "
                    f"{hits} hit{'s' * (hits != 1)} on every ship")
        if block in ("sub", "torpedo"):
            target = self.ship(ship_at(b, index))
            if block == "sub":
                return f"{self.does(p, 'send')} a Submarine at {target}: a 5 or 6 sinks it"
            return f"{self.does(p, 'send')} a Torpedo Boat at {target}: a 6 sinks it"
        adddmg, salvo = divmod(index, t.num_cards)
        kind = t.adddmg_kinds[adddmg]
        s = b.card_position[salvo] - ON_SHIP
        return (f"{self.does(p, 'play')} {kind_name(t, kind)} on the {card_name(t, salvo)} under {self.ship(s)}: "
                f"{self.hits(s, t.kind_value[kind])}")

    def strike(self, block: str, index: int) -> str | None:
        """Air strikes named (or held back) before any die (Air strikes; R15)."""
        b = self.before
        p = b.to_act
        if block == "draw":
            return None
        carrier = b.carriers_to_name[b.carrier_index]
        if block == "skip":
            if p == self.seat or not (b.face_down >> carrier) & 1:
                return f"{self.whose(p)} {self.table.ship_names[carrier]} holds back"
            return f"{self.does(p, 'hold')} a carrier back"
        target = self.ship(ship_at(b, index))
        carrier_name = self.name(carrier, p)
        self.mentioned.add(carrier)
        if block == "kamikaze":
            return f"{self.whose(p)} {carrier_name} launches a Kamikaze strike at {target}: a 1 or 2 sinks it"
        return f"{self.whose(p)} {carrier_name} launches an air strike at {target}: a 1 sinks it"

    def played(self, block: str, index: int) -> str | None:
        """The card played or discarded after the draw (Normal cards)."""
        b, t = self.before, self.table
        p = b.to_act
        their = "your" if p == self.seat else "their"
        if block == "discard":
            return f"{self.does(p, 'discard')} {kind_name(t, index)}"
        if block == "smoke":
            return f"{self.does(p, 'lay')} Smoke over {their} task force"
        if block == "dd":
            return f"{self.does(p, 'send')} a Destroyer Squadron to the centre"
        if block == "sweep":
            return f"{self.does(p, 'sweep')} the minefields before {their} task force with a Minesweeper"
        if block == "repair":
            s = b.card_position[index] - ON_SHIP
            off = t.kind_value[t.card_kind[index]]
            on = ON_SALVO + index
            off += sum(t.kind_value[t.card_kind[d]] for d in t.adddmg_cards if b.card_position[d] == on)
            self.mentioned.add(s)
            left = b.damage[s] + b.mine_hits[p] - off
            return (f"{self.does(p, 'repair')} {their} {t.ship_names[s]}: the {card_name(t, index)} comes off, "
                    f"{left} of {t.ship_hits[s]} hits")
        if block == "swap":
            salvo, mate = divmod(index, SEATS)
            return (f"{self.does(p, 'give')} {kind_name(t, t.salvo_kinds[salvo])} to {self.who(mate)} "
                    "in a fleet exchange")
        return None

    def aimed(self, block: str, index: int) -> str:
        """A salvo fired at its target (Normal cards, Salvo); at night its firer turns face up (R39)."""
        b, t = self.before, self.table
        p = b.turn_player
        kind = t.card_kind[b.aiming]
        name = kind_name(t, kind)
        value = t.kind_value[kind]
        gun = t.kind_gun[kind]
        guns = [s for s in b.fleets[p] if t.ship_gun[s] == gun]
        face_up = [s for s in guns if not (b.face_down >> s) & 1]
        firer = face_up if face_up else [min(guns)]
        if len(firer) == 1:
            self.mentioned.add(firer[0])
            shooter = f"{self.whose(p)} {self.name(firer[0], p)} fires"
        else:
            shooter = self.does(p, "fire")
        if block == "at_dd":
            total = b.dd_hits[index] + value
            needed = b.params.dd_hits
            gone = " — destroyed" if total >= needed else ""
            return f"{shooter} {name} at {self.whose(index)} Destroyer Squadron: {total} of {needed} hits{gone}"
        s = ship_at(b, index)
        return f"{shooter} {name} at {self.ship(s)}: {self.hits(s, value)}"

    # ----- what the step brought about -----------------------------------------------------------------
    def consequences(self) -> list[str]:
        """Ships turned face up, ships sunk, Smoke lifting, Destroyer Squadrons leaving, players out, the
        Opening's start and end (in that order)."""
        b, a, t = self.before, self.after, self.table
        out: list[str] = []
        if not self.ended and (b.in_opening or a.in_opening) and b.card_position != a.card_position:
            for c, (was, now) in enumerate(zip(b.card_position, a.card_position, strict=True)):
                if now == DISCARD and HAND <= was < HAND + SEATS:
                    out.append(f"{self.does(was - HAND, 'discard')} {card_name(t, c)}: no target in the Opening")
        if not self.ended and b.face_down & ~a.face_down:
            gone = b.face_down & ~a.face_down
            for j, fleet in enumerate(a.fleets):
                shown = [t.ship_names[s] for s in fleet if (gone >> s) & 1 and s not in self.mentioned]
                if shown:
                    out.append(f"turned face up: {self.whose(j)} {', '.join(shown)}")
        ships_after = a.ended_ships if self.ended else a.ship_position
        if b.ship_position != ships_after:
            for s, (was, now) in enumerate(zip(b.ship_position, ships_after, strict=True)):
                if now >= DEEP and was < DEEP:
                    by = now - DEEP
                    out.append(f"{self.ship(s)} is sunk: {t.ship_hits[s]} points to {self.who(by)}")
        if not self.ended:
            for j in range(b.num_players):
                if b.smoke[j] >= 0 and a.smoke[j] < 0 and a.alive[j]:
                    out.append(f"{self.whose(j)} Smoke lifts")
                if b.dd_card[j] >= 0 and a.dd_card[j] < 0 and a.alive[j] and b.phase != Phase.AIM:
                    out.append(f"{self.whose(j)} Destroyer Squadron leaves the centre")
        afloat = self.afloat()
        for j in range(b.num_players):
            if b.alive[j] and j not in afloat:
                out.append(f"{self.who(j)} {'have' if j == self.seat else 'has'} no ship left: out for the round "
                           f"(-{b.params.elimination_penalty} points), the hand discarded unseen")
        if not self.ended and a.in_opening and not b.in_opening:
            out.append(f"the Opening: red cards in hand are played, {self.who(a.dealer)} first")
        if not self.ended and b.in_opening and not a.in_opening:
            out.append(f"the Opening is over; {self.does(a.turn_player, 'take')} the first turn")
        return out

    def afloat(self) -> set[int]:
        """The seats with ships afloat after the step (at a round's end, as the round ended)."""
        a = self.after
        if not self.ended:
            return {j for j in range(a.num_players) if a.alive[j]}
        return {pos - FLEET for pos in a.ended_ships if FLEET <= pos < DEEP}

    def round_end(self) -> list[str]:
        """A round's end: why it ended, each seat's points and score, the fleets' totals, the game's end."""
        b, a, t = self.before, self.after, self.table
        afloat = self.afloat()
        if len({b.team[j] if b.team[j] >= 0 else j for j in afloat}) <= 1:
            if not afloat:
                why = "no ship afloat"
            elif b.team[0] >= 0:
                why = f"only fleet {'ABCD'[b.team[min(afloat)]]} afloat"
            else:
                why = f"only {self.who(min(afloat))} afloat"
        elif b.turn_count >= MAX_TURNS_PER_ROUND:
            why = f"{MAX_TURNS_PER_ROUND} turns played (R28)"
        else:
            why = "the draw pile is used up"
        out = [f"Round {b.round_index} ends: {why}"]
        deep = [0] * b.num_players
        for s, pos in enumerate(a.ended_ships):
            if DEEP <= pos < DEEP + SEATS:
                deep[pos - DEEP] += t.ship_hits[s]
        for j in range(b.num_players):
            points = a.last_round[j]
            parts = [f"Deep Six {deep[j]}"]
            bonus = points - deep[j]
            if bonus > 0:
                parts.append(f"+{bonus} sole survivor")
            elif bonus < 0:
                parts.append(f"-{-bonus} out")
            out.append(f"{self.who(j)}: {points:+d} ({', '.join(parts)}) = {a.scores[j]} points")
        if b.team[0] >= 0:
            out.append("fleets: " + ", ".join(
                f"{'ABCD'[f]} {total}" for f, total in sorted(dict(zip(b.team, side_scores(a), strict=True)).items())))
        if a.phase == Phase.END:
            winners, reason = _why(a, self.who)
            won = " and ".join(self.who(j) for j in winners)
            out.append(f"Game over: {won} {'win' if self.seat in winners or len(winners) > 1 else 'wins'} — {reason}")
        else:
            sides = side_scores(a)
            best = max(sides)
            if best >= b.params.target:
                out.append(f"a tie at the top ({best} points): one more round (R19)")
        return out


def log_lines(
    before: NavalWarState, action: int, after: NavalWarState, seat: int | None, seen: SeenAction
) -> list[LogLine]:
    """The lines `seat` (None: a spectator) reads for `action` taken at `before`, which led to `after`; `seen` is
    what it sees of the action (the engine's one visibility decision)."""
    step = _Step(before, after, seat, seen.action is None)
    actor = before.to_act
    kind = "chance" if actor == CHANCE else "move"
    start = step.round_start()
    lines = [] if start is None else [LogLine(start, "summary", None)]
    event = step.event(action)
    texts = [] if event is None else [event]
    texts += step.consequences()
    lines += [LogLine(_cap(text), kind, actor) for text in texts]
    if step.ended:
        lines += [LogLine(_cap(text), "summary", None) for text in step.round_end()]
    return lines


# ----- the result ----------------------------------------------------------------------------------------
def _why(state: NavalWarState, who: Callable[[int], str]) -> tuple[tuple[int, ...], str]:
    """The winning seats and why, naming seats with `who`: the target reached alone on top (Goal; a fleet's
    members together, R33), or the round bound with the leaders sharing the win (R28)."""
    winners = tuple(j for j in range(state.num_players) if state.final_returns[j] > 0)
    sides = side_scores(state)
    team = state.team
    best = max(sides)
    leaders = sorted({team[j] if team[j] >= 0 else j for j in range(state.num_players) if sides[j] == best})
    target = state.params.target

    def side(j: int) -> str:
        if team[j] < 0:
            return who(j)
        members = " and ".join(who(i) for i in range(state.num_players) if team[i] == team[j])
        return f"fleet {'ABCD'[team[j]]} ({members})"

    if best >= target and len(leaders) == 1:
        return winners, f"{side(winners[0])} reached {best} points, the target being {target}, alone on top (Goal)"
    named = [side(j) for j in winners if team[j] < 0 or j == min(i for i in winners if team[i] == team[j])]
    lead = f"{named[0]} leads with {best}" if len(named) == 1 else f"{' and '.join(named)} share the lead at {best}"
    return winners, f"{MAX_ROUNDS} rounds played with no side alone on top at the target of {target}: {lead} (R28)"


def result(state: NavalWarState) -> GameResult:
    """The winner(s), each seat's points (and its fleet's, Fleet play) and why (`_why`)."""
    winners, reason = _why(state, seat_name)
    sides = side_scores(state)
    team = state.team
    scores = tuple(
        f"{state.scores[j]} points" + (f" (fleet {'ABCD'[team[j]]}: {sides[j]})" if team[j] >= 0 else "")
        for j in range(state.num_players)
    )
    return GameResult(winners=winners, scores=scores, reason=reason)


# ----- move labels ---------------------------------------------------------------------------------------
def _target(state: NavalWarState, target: int) -> str:
    """A target as a move list names it: "player 2's Hood, 3 of 5 hits", "player 2's face-down ship 1"."""
    t = state.table
    if target >= t.num_ships:
        j, slot = divmod(target - t.num_ships, SLOTS)
        return f"{seat_name(j)}'s face-down ship {slot + 1}"
    owner = state.ship_position[target] - FLEET
    damage = state.damage[target] + state.mine_hits[owner]
    return f"{seat_name(owner)}'s {t.ship_names[target]}, {damage} of {t.ship_hits[target]} hits"


def action_label(state: NavalWarState, action: int) -> str:
    """The notation of `action`, then the names it stands for ("fire SALVO14x2 (14-inch ×2)")."""
    text = state.action_to_string(action)
    names = _label_names(state, action)
    return f"{text} ({names})" if names else text


_SIMPLE_NAMES = {"smoke": "Smoke", "dd": "Destroyer Squadron", "sweep": "Minesweeper", "addship": "Additional Ship",
                 "skip": "the carrier holds back"}


def _label_names(state: NavalWarState, action: int) -> str | None:
    t = state.table
    if state.to_act == CHANCE:
        chance = state.game.chance_layout
        if action < chance.card:
            return t.ship_names[action - chance.ship]
        if action < chance.die:
            return kind_name(t, action - chance.card)
        return None
    block, index = state.layout.decode(action)
    if block in _SIMPLE_NAMES:
        return _SIMPLE_NAMES[block]
    if block == "draw":
        return "take the pile's top card, then play or discard a card"
    if block == "discard":
        return f"{kind_name(t, index)} to the discard pile"
    if block == "fire":
        return f"{kind_name(t, t.salvo_kinds[index])}: the target comes next"
    if block == "give":
        return kind_name(t, t.salvo_kinds[index])
    if block in ("at", "dd_sink"):
        return _target(state, index)
    if block in ("strike", "kamikaze", "sub", "torpedo"):
        what = {"strike": "air strike", "kamikaze": "Kamikaze strike", "sub": "Submarine", "torpedo": "Torpedo Boat"}
        return f"{what[block]} at {_target(state, index)}"
    if block in ("at_dd", "dd_target"):
        return f"{seat_name(index)}'s {'Destroyer Squadron' if block == 'at_dd' else 'task force'}"
    if block == "repair":
        return f"{card_name(t, index)} off {t.ship_names[state.card_position[index] - ON_SHIP]}"
    if block == "swap":
        salvo, mate = divmod(index, SEATS)
        return f"give {kind_name(t, t.salvo_kinds[salvo])} to {seat_name(mate)}"
    if block == "mine":
        mine, j = divmod(index, SEATS)
        return f"{kind_name(t, t.mine_kinds[mine])} before {seat_name(j)}'s task force"
    if block == "adddmg":
        adddmg, salvo = divmod(index, t.num_cards)
        s = state.card_position[salvo] - ON_SHIP
        return f"{kind_name(t, t.adddmg_kinds[adddmg])} on the {card_name(t, salvo)} under {_target(state, s)}"
    return None
