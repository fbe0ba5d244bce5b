"""`render(observation, seat)`: a seat's view of the Minimal Game as a plain-text table."""

from __future__ import annotations

from typing import Any


def render(observation: dict[str, Any], seat: int) -> str:
    """The phase, the scores, the trick, the counts of the hidden piles and the seat's own cards."""
    lines = [f"Minimal Game ({observation['deck']}) — {observation['phase']}, leader: player "
             f"{observation['leader']}, tricks won: {observation['tricks_won']}"]
    trick = ["-" if card is None else card for card in observation["trick"]]
    lines.append(f"trick: {'  '.join(f'p{other}: {card}' for other, card in enumerate(trick))}")
    lines.append(f"pile: {observation['pile_size']} cards; hands: {observation['hand_sizes']}; "
                 f"face down: {observation['face_down_counts']}")
    lines.append(f"played: {' '.join(observation['played']) or '-'}")
    lines.append(f"your hand (player {seat}): {' '.join(observation['hand']) or '-'}; your face-down "
                 f"cards: {' '.join(observation['my_face_down']) or '-'}")
    return "\n".join(lines)
