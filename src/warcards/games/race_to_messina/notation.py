"""Race to Messina action numbering and notation (docs/notation/race-to-messina.md).

The fixed action space, with N cards and D discard-ability cards:

| range | action | text |
|---|---|---|
| 0 .. N-1 | discard card c (Strategy, Recovery) | `discard X05` |
| N .. 2N-1 | deploy card c (to the seat's only group, or the Sicily Axis Set facing the Americans) | `deploy X05` / `deploy X05 vs americans` |
| 2N .. 3N-1 | Sicily Axis: deploy card c to the Set facing the British | `deploy X05 vs british` |
| 3N .. 4N-1 | activate card c (Supply, Recon, Progress, Hube's PT) | `activate X19` |
| 4N .. 4N+D*N-1 | activate discard-ability card k on target t | `activate X01 target A24` |
| then | keep, reveal, done, pass | `keep`, `reveal`, `done`, `pass` |

Chance outcomes are card numbers: `draw X12`. Cards are written by id (`X05`), by name (`Luftwaffe`,
case-insensitive) or both (`X05 Luftwaffe`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from warcards.engine.errors import InvalidActionError
from warcards.engine.text import QUOTE_LIMIT, quote
from warcards.games.race_to_messina.cards import CardTable, card_table

K_DISCARD = 0
K_DEPLOY = 1
K_DEPLOY2 = 2
K_ACTIVATE = 3
K_TARGET = 4
K_KEEP = 5
K_REVEAL = 6
K_DONE = 7
K_PASS = 8


@dataclass(frozen=True)
class Encoding:
    """Offsets of the action ranges (see the module docstring)."""

    n: int
    deploy: int
    deploy2: int
    activate: int
    target: int
    keep: int
    reveal: int
    done: int
    pass_: int
    size: int


@cache
def encoding() -> Encoding:
    """The action layout for the card list."""
    table = card_table()
    n = table.size
    keep = 4 * n + len(table.dt_cards) * n
    return Encoding(n=n, deploy=n, deploy2=2 * n, activate=3 * n, target=4 * n, keep=keep,
                    reveal=keep + 1, done=keep + 2, pass_=keep + 3, size=keep + 4)


def decode(action: int) -> tuple[int, int, int]:
    """(kind, card, target) of a player action; card and target are -1 where they do not apply."""
    enc = encoding()
    n = enc.n
    if not 0 <= action < enc.size:
        raise InvalidActionError(f"{action} is not a Race to Messina action: actions are 0..{enc.size - 1}")
    if action < enc.target:
        return action // n, action % n, -1
    if action < enc.keep:
        k, target = divmod(action - enc.target, n)
        return K_TARGET, card_table().dt_cards[k], target
    return K_KEEP + (action - enc.keep), -1, -1


def card_label(table: CardTable, card: int) -> str:
    """`X05 Luftwaffe`."""
    return f"{table.ids[card]} {table.names[card]}"


def _strip_brackets(text: str) -> str:
    return text.strip().strip("()").strip()


def parse_card(text: str) -> int:
    """A card number from `X05`, `Luftwaffe` or `X05 Luftwaffe` (case-insensitive); linear in `text`."""
    table = card_table()
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
        f"unknown card {quote(text.strip())}: write a card id (X01..X47, A01..A47) or a card name, e.g. "
        "'X05' or 'Luftwaffe' (see docs/notation/race-to-messina.md)"
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


def parse(text: str, sicily_axis_deploy: bool) -> int:
    """The action for `text` (context-free: the same text is the same action everywhere).

    Bare numbers are the engine's (`State.parse_action`). Linear in the length of `text`: words are found
    with `str.split`, never with a backtracking pattern."""
    enc = encoding()
    stripped = text.strip()
    lowered = stripped.lower()
    simple = {"keep": enc.keep, "reveal": enc.reveal, "done": enc.done, "pass": enc.pass_}
    if lowered in simple:
        return simple[lowered]
    parts = stripped.split(None, 1)
    verb = parts[0].lower() if parts else ""
    rest = parts[1].strip() if len(parts) > 1 else ""
    if not rest:
        raise InvalidActionError(f"cannot read {quote(text)}: {FORMS}")
    if verb == "discard":
        return parse_card(rest)
    if verb == "draw":
        return parse_card(rest)
    if verb == "deploy":
        words = rest.split()
        if len(words) >= 3 and words[-2].lower() in _SIDE_WORDS and words[-1].lower() in _SIDES:
            card = parse_card(" ".join(words[:-2]))
            return (enc.deploy2 if _SIDES[words[-1].lower()] else enc.deploy) + card
        if sicily_axis_deploy:
            card_text = rest if len(rest) <= QUOTE_LIMIT else "CARD"
            raise InvalidActionError(
                f"Deployment (Sicily): the Axis deploys to one of two Sets; write 'deploy {card_text} vs americans' "
                f"or 'deploy {card_text} vs british'"
            )
        return enc.deploy + parse_card(rest)
    if verb == "activate":
        words = rest.split()
        split = next((i for i in range(1, len(words) - 1) if words[i].lower() in _TARGET_WORDS), -1)
        if split < 0:
            return enc.activate + parse_card(rest)
        source = parse_card(" ".join(words[:split]))
        target = parse_card(" ".join(words[split + 1:]))
        k = card_table().dt_index[source]
        if k < 0:
            raise InvalidActionError(
                f"{card_label(card_table(), source)} has no discard ability, so it takes no target; "
                f"write 'activate {card_table().ids[source]}'"
            )
        return enc.target + k * enc.n + target
    raise InvalidActionError(f"unknown verb {quote(verb)} in {quote(text)}: {FORMS}")


def to_string(action: int, sicily_axis: bool) -> str:
    """A player action in the notation; `sicily_axis` adds the Set to Axis deployments in Sicily."""
    table = card_table()
    kind, card, target = decode(action)
    if kind == K_DISCARD:
        return f"discard {card_label(table, card)}"
    if kind == K_DEPLOY:
        return f"deploy {card_label(table, card)}" + (" vs americans" if sicily_axis else "")
    if kind == K_DEPLOY2:
        return f"deploy {card_label(table, card)} vs british"
    if kind == K_ACTIVATE:
        return f"activate {card_label(table, card)}"
    if kind == K_TARGET:
        return f"activate {card_label(table, card)} target {card_label(table, target)}"
    return ("keep", "reveal", "done", "pass")[kind - K_KEEP]


def chance_to_string(outcome: int) -> str:
    """A chance outcome: the card drawn."""
    return f"draw {card_label(card_table(), outcome)}"
