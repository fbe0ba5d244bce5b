"""What each seat sees (`observe`), a sampled full state for search (`determinize`), the god view (`zones`),
the position fields, and states built from scenario setups."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from warcards.engine.api import CHANCE, JSON, TERMINAL, Rng
from warcards.engine.errors import SetupError
from warcards.engine.setupfields import int_field, setup_parts
from warcards.engine.text import quote
from warcards.games.cards_of_war import rules
from warcards.games.cards_of_war.cards import THEATRES
from warcards.games.cards_of_war.params import BATTLE_TARGET, HAND_SIZE

if TYPE_CHECKING:
    from warcards.games.cards_of_war.game import CowGame
    from warcards.games.cards_of_war.state import CowState

BATTLES = rules.BATTLE_NAMES


def _who(s: CowState) -> int | str:
    cp = s.cp
    return "chance" if cp == CHANCE else "terminal" if cp == TERMINAL else cp


def _winner_text(value: int) -> int | str | None:
    return None if value < 0 else "void" if value == rules.VOID else value


def observe(s: CowState, seat: int) -> JSON:
    """A seat's view: its hand, every battle pile (face-down ones too: they were seen face up), the opponent's
    hand count, the discard piles, the draw pile sizes and every RECON answer so far (R8)."""
    cid = s.card_id
    battles = []
    for b in (0, 1, 2):
        battles.append({
            "name": BATTLES[b],
            "theatre": THEATRES[s.theatre[b]] if s.theatre[b] >= 0 else None,
            "winner": _winner_text(s.bwin[b]),
            "piles": [[cid(c) for c in s.bat[b]], [cid(c) for c in s.bat[3 + b]]],
            "totals": [s.tot[b], s.tot[3 + b]],
        })
    mine = s.player == seat and s.phase == rules.REINF and s.reinf_card >= 0
    return {
        "game": "cards-of-war",
        "seat": seat,
        "to_move": _who(s),
        "phase": rules.PHASE_NAMES[s.phase],
        "round": s.round_no,
        "player": s.player,
        "first_player": s.first,
        "rounds_won": s.rounds_won[:],
        "round_results": s.results[:],
        "hand": [cid(c) for c in s.hands[seat]],
        "hand_counts": [len(s.hands[0]), len(s.hands[1])],
        "hand_limits": s.limits[:],
        "draw_pile": [len(p) for p in s.piles],
        "discard": [[cid(c) for c in p] for p in s.discards],
        "battles": battles,
        "recon": [
            {"round": r, "by": by, "of": 1 - by, "counts": dict(zip(THEATRES, counts, strict=True))}
            for r, by, *counts in s.recon
        ],
        "first_draw": [cid(c) if c >= 0 else None for c in s.fd],
        "first_draw_tied": [cid(c) for c in s.fd_tied],
        "pending_reinforce": s.pending,
        "reinforce_card": cid(s.reinf_card) if mine else None,
        "joint_first": cid(s.joint_kind + s.off[s.player]) if s.joint_kind >= 0 else None,
        "options": {k: v for k, v in s.game.options.items() if k != "cards"},
        "deck": s.tbl.name,
        "deck_digest": s.tbl.digest,
        "winner": s.winner if s.phase == rules.OVER and s.winner >= 0 else None,
    }


def determinize(s: CowState, seat: int, rng: Rng) -> CowState:
    """A full state consistent with `seat`'s view: the opponent's hand is resampled from the cards `seat`
    cannot locate, keeping at least as many cards of each theatre as the last RECON answer still proves (R8).

    The unknown cards are pooled in sorted order before any draw, so the sample depends only on what `seat`
    knows: two states it cannot tell apart give the same sample for the same rng."""
    other = s._copy()
    opp = 1 - seat
    deck = s.deck[opp]
    hand = s.hands[opp]
    k = len(hand)
    if not k:
        return other
    unknown = sorted(hand + s.piles[deck])
    pool = unknown
    n = s.n
    theatre = s.tbl.theatre
    need = s.floors[opp][:]
    chosen: list[int] = []
    if s.phase == rules.JOINT2 and s.player == opp:
        # A joint deployment was declared: a partner of its first card is in the hand.
        partners = s.tbl.partners[s.joint_kind]
        candidates = [c for c in pool if partners >> (c % n) & 1]
        forced = candidates[rng.randrange(len(candidates))]
        chosen.append(forced)
        pool = [c for c in pool if c != forced]
        t = theatre[forced % n]
        need[t] = max(0, need[t] - 1)
    by_theatre: list[list[int]] = [[], [], [], []]
    for c in pool:
        by_theatre[theatre[c % n]].append(c)
    rest: list[int] = []
    for t in range(4):
        group = by_theatre[t]
        rng.shuffle(group)
        take = min(need[t], len(group))
        chosen.extend(group[:take])
        rest.extend(group[take:])
    rng.shuffle(rest)
    chosen.extend(rest[: k - len(chosen)])
    taken = set(chosen)
    other.hands[opp] = sorted(chosen)
    other.piles[deck] = [c for c in unknown if c not in taken]
    if s.phase == rules.REINF and s.player == opp and s.reinf_card >= 0:
        other.reinf_card = other.hands[opp][rng.randrange(k)]
    other._legal_cache = None
    return other


def hidden_action_text(s: CowState, action: int, seat: int | None) -> str | None:
    """What `seat` (None: a spectator) reads instead of legal `action`, or None when it sees it in full.

    Hidden: a card dealt or drawn into a hand (SETUP, REINFORCE, the refill after a turn): the drawer sees
    it. The draws to see who goes first are shown to both (SETUP), and every deployment is face up."""
    if s.cp != CHANCE or s.phase == rules.FIRST_DRAW:
        return None
    drawer = s.drawer if s.phase == rules.DEAL else s.player
    return None if seat == drawer else f"{s.game.seat_names()[drawer]} draws a card"


def zones(s: CowState) -> dict[str, list[str]]:
    """God view: every physical card in exactly one zone."""
    cid = s.card_id
    out: dict[str, list[str]] = {}
    if s.nd == 1:
        out["draw"] = [cid(c) for c in s.piles[0]]
        out["discard"] = [cid(c) for c in s.discards[0]]
    else:
        for d in (0, 1):
            out[f"draw:{d}"] = [cid(c) for c in s.piles[d]]
            out[f"discard:{d}"] = [cid(c) for c in s.discards[d]]
    for seat in (0, 1):
        out[f"hand:{seat}"] = [cid(c) for c in s.hands[seat]]
    for seat in (0, 1):
        for b in (0, 1, 2):
            pile = [cid(c) for c in s.bat[seat * 3 + b]]
            won = s.bwin[b] == seat
            out[f"battle:{seat}:{BATTLES[b]}"] = [] if won else pile
            out[f"won:{seat}:{BATTLES[b]}"] = pile if won else []
    for seat in (0, 1):
        out[f"first_draw:{seat}"] = [cid(s.fd[seat])] if s.fd[seat] >= 0 else []
    out["first_draw:tied"] = [cid(c) for c in s.fd_tied]
    return out


def position(s: CowState) -> JSON:
    """The documented position fields (docs/notation/cards-of-war.md)."""
    return {
        "phase": rules.PHASE_NAMES[s.phase],
        "round": s.round_no,
        "player": s.player,
        "first_player": s.first,
        "rounds_won": s.rounds_won[:],
        "round_results": s.results[:],
        "hand_limits": s.limits[:],
        "base_hand_limits": s.base[:],
        "theatres": [THEATRES[t] if t >= 0 else None for t in s.theatre],
        "battle_winners": [_winner_text(w) for w in s.bwin],
        "totals": [s.tot[0:3], s.tot[3:6]],
        "pending_reinforce": s.pending,
        "reinforce_card": s.card_id(s.reinf_card) if s.reinf_card >= 0 else None,
        "joint_first": s.card_id(s.joint_kind + s.off[s.player]) if s.joint_kind >= 0 else None,
        "kills": s.kills[:],
        "moves": s.moves,
        "idle_moves": s.idle,
        "winner": s.winner if s.phase == rules.OVER and s.winner >= 0 else None,
    }


SETUP_FIELDS = ("phase", "player", "round", "first_player", "rounds_won", "hand_limits", "base_hand_limits",
                "theatres", "moves", "idle_moves")


def _int_pair(value: Any, field: str) -> list[int]:
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise SetupError(f"position field {field} must be a list of two integers, got {quote(value)}")
    return [int(v) for v in value]


def state_from_setup(game: CowGame, setup: Mapping[str, Any]) -> CowState:
    """A deploy-phase state from `setup` ({"zones": ..., "position": ...}); cards not placed go to the draw
    pile of their deck (or to the zone marked "rest")."""
    from warcards.games.cards_of_war.state import CowState

    zone_map, pos = setup_parts(setup, "")
    s = CowState(game)
    bad = sorted(set(pos) - set(SETUP_FIELDS))
    if bad:
        raise SetupError(f"unknown position field {quote(bad[0])}; fields: {', '.join(SETUP_FIELDS)}")
    names = list(zones(s))
    by_id = {s.card_id(c): c for d in range(s.nd) for c in range(d * s.n, d * s.n + s.n)}
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
        target = rest_zone or ("draw" if s.nd == 1 else f"draw:{card // s.n}")
        if target != rest_zone and target in zone_map:
            raise SetupError(f"{s.card_id(card)} is placed nowhere and zone {quote(target)} is listed exactly; "
                             "list the card, or mark one zone \"rest\"")
        contents[target].append(card)
    if s.nd == 2:
        for zone, cards in contents.items():
            owner = zone.rsplit(":", 1)[-1] if zone.startswith(("draw", "discard", "hand")) else zone.split(":")[1]
            for card in cards:
                if str(card // s.n) != owner:
                    raise SetupError(f"2 DECK VERSION: {s.card_id(card)} belongs to deck {card // s.n}, not {zone}")
    if "phase" in pos and pos["phase"] != "deploy":
        raise SetupError("a setup starts in phase 'deploy' (the only phase a setup may name)")
    s.player = int_field(pos, "player", 0, 0, 1, "")
    s.first = int_field(pos, "first_player", s.player, 0, 1, "")
    s.round_no = int_field(pos, "round", 1, 1, prefix="")
    s.moves = int_field(pos, "moves", 0, 0, prefix="")
    s.idle = int_field(pos, "idle_moves", 0, 0, prefix="")
    if s.player not in (0, 1) or s.first not in (0, 1):
        raise SetupError("player and first_player are seats: 0 or 1")
    if "rounds_won" in pos:
        s.rounds_won = _int_pair(pos["rounds_won"], "rounds_won")
    if "base_hand_limits" in pos:
        s.base = _int_pair(pos["base_hand_limits"], "base_hand_limits")
        s.limits = s.base[:]
    if "hand_limits" in pos:
        s.limits = _int_pair(pos["hand_limits"], "hand_limits")
    if "theatres" in pos:
        th = pos["theatres"]
        if not (isinstance(th, list) and len(th) == 3 and all(t is None or t in THEATRES for t in th)):
            raise SetupError(f"theatres must list three of {THEATRES} or null, got {quote(th)}")
        s.theatre = [THEATRES.index(t) if t else -1 for t in th]
    if s.nd == 1:
        s.piles = [sorted(contents["draw"])]
        s.discards = [contents["discard"]]
    else:
        s.piles = [sorted(contents[f"draw:{d}"]) for d in (0, 1)]
        s.discards = [contents[f"discard:{d}"] for d in (0, 1)]
    s.hands = [sorted(contents["hand:0"]), sorted(contents["hand:1"])]
    tbl = s.tbl
    for b, name in enumerate(BATTLES):
        for seat in (0, 1):
            open_pile = contents[f"battle:{seat}:{name}"]
            won_pile = contents[f"won:{seat}:{name}"]
            if open_pile and won_pile:
                raise SetupError(f"battle {name}: seat {seat} has both an open and a won pile")
            if won_pile:
                if s.bwin[b] >= 0:
                    raise SetupError(f"battle {name}: both seats have won it")
                s.bwin[b] = seat
            s.bat[seat * 3 + b] = open_pile or won_pile
        if s.bwin[b] >= 0 and s.bat[(1 - s.bwin[b]) * 3 + b]:
            raise SetupError(f"WINNING A BATTLE: battle {name} is won, so the loser's cards were discarded")
        if s.tow and s.theatre[b] < 0 and (s.bat[b] or s.bat[3 + b]):
            raise SetupError(f"Theatres of War: battle {name} has cards, so position.theatres must name its theatre")
        for seat in (0, 1):
            total = 0
            for c in s.bat[seat * 3 + b]:
                if not s.tow or tbl.theatre[c % s.n] == s.theatre[b]:
                    total += tbl.score[c % s.n]
            if s.bwin[b] < 0:
                if total >= BATTLE_TARGET:
                    raise SetupError(f"battle {name}: seat {seat} has {total} points, so the battle was won")
                s.tot[seat * 3 + b] = total
    s.omask = sum(1 << b for b in (0, 1, 2) if s.bwin[b] < 0)
    if all(w >= 0 for w in s.bwin):
        raise SetupError("all three battles are won: the round would be over")
    for seat in (0, 1):
        if len(s.hands[seat]) > max(s.limits[seat], HAND_SIZE + 1):
            raise SetupError(f"hand:{seat} holds {len(s.hands[seat])} cards, more than its hand size")
    s.phase = rules.DEPLOY
    s.cp = s.player
    return s
