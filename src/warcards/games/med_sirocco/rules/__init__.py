"""Med Sirocco rules: legal actions, transitions and scoring, one function per rule section.

The functions take the `MedSiroccoState` (plain lists and ints) and change it in place. `advance` runs the
engagement procedure (1.4, 3.0–3.4, 4.0) until a player must decide or chance must act. Section numbers
are those of the rulebook; the rulings on its gaps are in RULES.md, cited as `R<n>`.

The package is split along the rule text's sections; each module imports only the ones before it:
`play_checks` (may this card be played now: 1.4 C, 2.x, 3.1, 3.2) and `scoring` (1.1, 1.2, 1.3), `table`
(the card moves every rule makes), `specials` (2.42–2.48, S01–S07, 3.3), `outcome` (the end of a round,
3.4, 2.41, 5.0), `legal` (the legal actions of each phase and the refusals), `procedure` (1.4 A–D: the
Operation's steps, a player's play, chance events, `advance`).
"""

from __future__ import annotations

from warcards.games.med_sirocco.rules.legal import illegal_reason, legal_actions
from warcards.games.med_sirocco.rules.outcome import draw, supply_candidates
from warcards.games.med_sirocco.rules.play_checks import hand_limit
from warcards.games.med_sirocco.rules.procedure import (
    advance,
    apply,
    apply_chance,
    chance,
    start_operation,
)
from warcards.games.med_sirocco.rules.scoring import new_deal, returns, victory_points

__all__ = [
    "advance",
    "apply",
    "apply_chance",
    "chance",
    "draw",
    "hand_limit",
    "illegal_reason",
    "legal_actions",
    "new_deal",
    "returns",
    "start_operation",
    "supply_candidates",
    "victory_points",
]
