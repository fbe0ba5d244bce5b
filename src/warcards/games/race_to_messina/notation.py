"""Race to Messina action numbering and notation (docs/notation/race-to-messina.md).

The action space of a card table, with N cards and D discard-ability cards: the blocks of
`action_layout(table)`. Every function reads the game's own table (`game.table`, `state.table`), so a card
file of the `cards` option has its own ids, names and layout.

| block | range | action | text |
|---|---|---|---|
| `discard` | 0 .. N-1 | discard card c (Strategy, Recovery) | `discard X05` |
| `deploy` | N .. 2N-1 | deploy card c (to the seat's only group, or the Sicily Axis Set facing the Americans) | `deploy X05` / `deploy X05 vs americans` |
| `deploy_second` | 2N .. 3N-1 | Sicily Axis: deploy card c to the Set facing the British | `deploy X05 vs british` |
| `activate` | 3N .. 4N-1 | activate card c (Supply, Recon, Progress, Hube's PT) | `activate X19` |
| `target` | 4N .. 4N+D*N-1 | activate discard-ability card k on target t | `activate X01 target A24` |
| `keep` .. `pass_` | then | keep, reveal, done, pass | `keep`, `reveal`, `done`, `pass` |

Chance outcomes are card numbers: `draw X12`. Cards are written by id (`X05`), by name (`Luftwaffe`,
case-insensitive) or both (`X05 Luftwaffe`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Final

from warcards.engine.actions import ActionLayout
from warcards.engine.api import CHANCE
from warcards.engine.errors import InvalidActionError
from warcards.engine.text import QUOTE_LIMIT, quote
from warcards.games.race_to_messina.cards import CardTable
from warcards.games.race_to_messina.codes import NO_CARD, Phase

if TYPE_CHECKING:
    from warcards.games.race_to_messina.state import RaceToMessinaState

K_DISCARD: Final = 0
K_DEPLOY: Final = 1
K_DEPLOY_SECOND: Final = 2
K_ACTIVATE: Final = 3
K_TARGET: Final = 4
K_KEEP: Final = 5
K_REVEAL: Final = 6
K_DONE: Final = 7
K_PASS: Final = 8


@lru_cache(maxsize=64)
def action_layout(table: CardTable) -> ActionLayout:
    """The action layout for a card table (see the module docstring): N cards, D discard-ability cards
    (cached per table; a tuner's trials each load a table of their own)."""
    n = table.size
    return ActionLayout.build(
        ("discard", n),
        ("deploy", n),
        ("deploy_second", n),
        ("activate", n),
        ("target", len(table.dt_cards) * n),
        ("keep", 1),
        ("reveal", 1),
        ("done", 1),
        ("pass_", 1),
    )


_SINGLE_KINDS = {"keep": K_KEEP, "reveal": K_REVEAL, "done": K_DONE, "pass_": K_PASS}
SINGLE_WORDS = ("keep", "reveal", "done", "pass")
"""The notation of the one-action blocks, in layout order (K_KEEP .. K_PASS)."""


def decode(table: CardTable, action: int) -> tuple[int, int, int]:
    """(kind, card, target) of a player action; card and target are NO_CARD where they do not apply."""
    layout = action_layout(table)
    if not 0 <= action < layout.size:
        raise InvalidActionError(f"{action} is not a Race to Messina action: actions are 0..{layout.size - 1}")
    n = table.size
    if action < layout.target:
        return action // n, action % n, NO_CARD
    if action < layout.keep:
        k, target = divmod(action - layout.target, n)
        return K_TARGET, table.dt_cards[k], target
    return _SINGLE_KINDS[layout.decode(action)[0]], NO_CARD, NO_CARD


def card_label(table: CardTable, card: int) -> str:
    """`X05 Luftwaffe`."""
    return f"{table.ids[card]} {table.names[card]}"


def _strip_brackets(text: str) -> str:
    return text.strip().strip("()").strip()


def parse_card(table: CardTable, text: str) -> int:
    """A card number from `X05`, `Luftwaffe` or `X05 Luftwaffe` (case-insensitive); linear in `text`."""
    cleaned = _strip_brackets(text)
    key = cleaned.lower()
    if key in table.by_key:
        return table.by_key[key]
    ident = cleaned[:3].lower()
    follows = cleaned[3:4]
    if ident in table.by_key and _is_card_id(ident) and not (follows.isalnum() or follows == "_"):
        card = table.by_key[ident]
        rest = _strip_brackets(cleaned[3:])
        if not rest or rest.lower() == table.names[card].lower():
            return card
        raise InvalidActionError(f"{ident.upper()} is {table.names[card]!r}, not {quote(rest)}")
    raise InvalidActionError(
        f"unknown card {quote(text.strip())}: write a card id ({id_ranges(table)}) or a card name, e.g. "
        f"{quote(table.ids[0])} or {quote(table.names[0])} (see docs/notation/race-to-messina.md)"
    )


def _is_card_id(text: str) -> bool:
    """`x05` or `a47`: a side letter and two ASCII digits."""
    return len(text) == 3 and text[0] in "xa" and text[1] in "0123456789" and text[2] in "0123456789"


FORMS = (
    "accepted forms: 'discard CARD', 'deploy CARD' (Sicily Axis: 'deploy CARD vs americans|british'), "
    "'activate CARD', 'activate CARD target CARD', 'keep', 'reveal', 'done', 'pass', 'draw CARD' "
    "(chance), or an action number; CARD is an id like X05 or a name like Luftwaffe"
)


_SIDE_WORDS = ("vs", "against", "to")
_SIDES = {"american": False, "americans": False, "british": True, "brit": True, "brits": True}
_TARGET_WORDS = ("target", "on", "->")


def id_ranges(table: CardTable) -> str:
    """`X01..X47, A01..A47`: the first and last id of each faction (Axis cards come first in a table)."""
    axis = [ident for ident in table.ids if ident[0] == "X"]
    ally = [ident for ident in table.ids if ident[0] == "A"]
    return ", ".join(f"{ids[0]}..{ids[-1]}" for ids in (axis, ally) if ids)


def parse(table: CardTable, text: str, sicily_axis_deploy: bool) -> int:
    """The action for `text` (context-free: the same text is the same action everywhere).

    Bare numbers are the engine's (`State.parse_action`). Linear in the length of `text`: words are found
    with `str.split`, never with a backtracking pattern."""
    layout = action_layout(table)
    stripped = text.strip()
    lowered = stripped.lower()
    simple = {"keep": layout.keep, "reveal": layout.reveal, "done": layout.done, "pass": layout.pass_}
    if lowered in simple:
        return simple[lowered]
    parts = stripped.split(None, 1)
    verb = parts[0].lower() if parts else ""
    rest = parts[1].strip() if len(parts) > 1 else ""
    if not rest:
        raise InvalidActionError(f"cannot read {quote(text)}: {FORMS}")
    if verb == "discard":
        return parse_card(table, rest)
    if verb == "draw":
        return parse_card(table, rest)
    if verb == "deploy":
        words = rest.split()
        if len(words) >= 3 and words[-2].lower() in _SIDE_WORDS and words[-1].lower() in _SIDES:
            card = parse_card(table, " ".join(words[:-2]))
            return (layout.deploy_second if _SIDES[words[-1].lower()] else layout.deploy) + card
        if sicily_axis_deploy:
            card_text = rest if len(rest) <= QUOTE_LIMIT else "CARD"
            raise InvalidActionError(
                f"Deployment (Sicily): the Axis deploys to one of two Sets; write 'deploy {card_text} vs americans' "
                f"or 'deploy {card_text} vs british'"
            )
        return layout.deploy + parse_card(table, rest)
    if verb == "activate":
        words = rest.split()
        split = next((i for i in range(1, len(words) - 1) if words[i].lower() in _TARGET_WORDS), -1)
        if split < 0:
            return layout.activate + parse_card(table, rest)
        source = parse_card(table, " ".join(words[:split]))
        target = parse_card(table, " ".join(words[split + 1:]))
        k = table.dt_index[source]
        if k < 0:
            raise InvalidActionError(
                f"{card_label(table, source)} has no discard ability, so it takes no target; "
                f"write 'activate {table.ids[source]}'"
            )
        return layout.target + k * table.size + target
    raise InvalidActionError(f"unknown verb {quote(verb)} in {quote(text)}: {FORMS}")


def to_string(table: CardTable, action: int, sicily_axis: bool) -> str:
    """A player action in the notation; `sicily_axis` adds the Set to Axis deployments in Sicily."""
    kind, card, target = decode(table, action)
    if kind == K_DISCARD:
        return f"discard {card_label(table, card)}"
    if kind == K_DEPLOY:
        return f"deploy {card_label(table, card)}" + (" vs americans" if sicily_axis else "")
    if kind == K_DEPLOY_SECOND:
        return f"deploy {card_label(table, card)} vs british"
    if kind == K_ACTIVATE:
        return f"activate {card_label(table, card)}"
    if kind == K_TARGET:
        return f"activate {card_label(table, card)} target {card_label(table, target)}"
    return SINGLE_WORDS[kind - K_KEEP]


def chance_to_string(table: CardTable, outcome: int) -> str:
    """A chance outcome: the card drawn."""
    return f"draw {card_label(table, outcome)}"


def sicily_axis_deploying(state: RaceToMessinaState) -> bool:
    """The Sicily Axis is deploying: its deploy actions name one of its two Sets."""
    variant = state.variant
    return variant.set_cap > 0 and state.phase == Phase.DEPLOYMENT and state.to_act == variant.axis_seat


def action_to_string(state: RaceToMessinaState, action: int) -> str:
    """`action` in the notation at `state`: a draw at a chance node, a player's action elsewhere."""
    if state.to_act == CHANCE and 0 <= action < state.table.size:
        return chance_to_string(state.table, action)
    return to_string(state.table, action, sicily_axis_deploying(state))


def parse_action(state: RaceToMessinaState, text: str) -> int:
    """A draw (`draw CARD`) at a chance node, a player's action elsewhere; the other is refused.
    Bare numbers are the engine's (`State.parse_action`)."""
    chance = state.to_act == CHANCE
    words = text.split(None, 1)
    is_draw = bool(words) and words[0].lower() == "draw"
    if chance and not is_draw:
        raise InvalidActionError(f"a card is being drawn (chance node): write 'draw CARD', not {quote(text)}")
    if is_draw and not chance:
        raise InvalidActionError(
            f"{quote(text)} is a chance outcome (a draw is the game's event), but a player is to act now"
        )
    return parse(state.table, text, sicily_axis_deploying(state))
