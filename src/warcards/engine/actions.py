"""Fixed integer action spaces as named blocks: every game lays its actions out with this one helper.

A game's player actions (and, separately, its chance outcomes) are consecutive blocks of integers; each
block has a name, a size and an offset. Build the layout once per card table, then read offsets as
attributes in hot code and decode an action to (block name, index within the block) everywhere else:

    layout = ActionLayout.build(("draw", 1), ("play", num_cards), ("target", num_cards * seats), ("done", 1))
    layout.play + card            # the action that plays `card`
    layout.decode(action)         # ("play", card)
    layout.size                   # the size of the action space
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING


@dataclass(frozen=True, slots=True)
class Block:
    """One named run of actions: `offset .. offset + size - 1`."""

    name: str
    offset: int
    size: int

    @property
    def stop(self) -> int:
        """One past the block's last action."""
        return self.offset + self.size

    def __contains__(self, action: object) -> bool:
        return isinstance(action, int) and self.offset <= action < self.offset + self.size


class ActionLayout:
    """Consecutive named blocks of a fixed action space; each block's offset is also an attribute."""

    def __init__(self, blocks: tuple[Block, ...]) -> None:
        self._blocks = blocks
        self._offsets = [block.offset for block in blocks]
        self.size = blocks[-1].stop if blocks else 0
        for block in blocks:
            setattr(self, block.name, block.offset)

    @classmethod
    def build(cls, *blocks: tuple[str, int]) -> ActionLayout:
        """A layout of `(name, size)` blocks laid end to end from 0; names are identifiers and unique, sizes
        non-negative (an empty block keeps its name and offset but holds no action)."""
        made: list[Block] = []
        offset = 0
        seen: set[str] = set()
        for name, size in blocks:
            if not name.isidentifier() or name.startswith("_") or name in seen or name == "size" or hasattr(cls, name):
                raise ValueError(f"bad or repeated block name {name!r}")
            if size < 0:
                raise ValueError(f"block {name!r} has a negative size {size}")
            seen.add(name)
            made.append(Block(name, offset, size))
            offset += size
        return cls(tuple(made))

    if TYPE_CHECKING:
        # Blocks are instance attributes set in __init__; declared for type checkers only, since a real
        # __getattr__ on the class would slow every `layout.<block>` read in CPython's hot loops.
        def __getattr__(self, name: str) -> int: ...

    def block(self, name: str) -> Block:
        """The block called `name` (`KeyError` if there is none)."""
        for block in self._blocks:
            if block.name == name:
                return block
        raise KeyError(name)

    def blocks(self) -> Iterator[Block]:
        """The blocks in order."""
        return iter(self._blocks)

    def decode(self, action: int) -> tuple[str, int]:
        """(block name, index within the block) of `action`; `ValueError` outside `0 .. size - 1`."""
        if not 0 <= action < self.size:
            raise ValueError(f"{action} is outside the action space 0..{self.size - 1}")
        index = bisect_right(self._offsets, action) - 1
        while self._blocks[index].size == 0:
            index -= 1
        block = self._blocks[index]
        return block.name, action - block.offset

    def __repr__(self) -> str:
        inner = ", ".join(f"{b.name}={b.offset}+{b.size}" for b in self._blocks)
        return f"ActionLayout({inner})"
