"""The shared fixed-action-space helper: blocks laid end to end, offsets as attributes, decoding."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from warcards.engine.actions import ActionLayout


def test_blocks_are_laid_end_to_end_and_offsets_are_attributes() -> None:
    layout = ActionLayout.build(("draw", 1), ("play", 5), ("target", 10), ("done", 1))
    assert (layout.draw, layout.play, layout.target, layout.done, layout.size) == (0, 1, 6, 16, 17)
    assert layout.decode(0) == ("draw", 0)
    assert layout.decode(3) == ("play", 2)
    assert layout.decode(15) == ("target", 9)
    assert layout.decode(16) == ("done", 0)
    assert 3 in layout.block("play") and 6 not in layout.block("play")


def test_an_empty_block_keeps_its_offset_and_decodes_nothing() -> None:
    layout = ActionLayout.build(("a", 2), ("none", 0), ("b", 2))
    assert layout.none == 2 == layout.b
    assert [layout.decode(a)[0] for a in range(4)] == ["a", "a", "b", "b"]


@pytest.mark.parametrize("action", [-1, 17, 10**30])
def test_decode_refuses_an_action_outside_the_space(action: int) -> None:
    with pytest.raises(ValueError, match="outside the action space"):
        ActionLayout.build(("play", 17)).decode(action)


@pytest.mark.parametrize("blocks", [(("a", 1), ("a", 1)), (("size", 1),), (("_hidden", 1),), (("x", -1),)])
def test_bad_block_names_and_sizes_are_refused(blocks: tuple[tuple[str, int], ...]) -> None:
    with pytest.raises(ValueError):
        ActionLayout.build(*blocks)


def test_an_unknown_block_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="missing"):
        _ = ActionLayout.build(("a", 1)).missing


@given(st.lists(st.integers(0, 6), min_size=1, max_size=8))
def test_decode_inverts_the_offsets(sizes: list[int]) -> None:
    layout = ActionLayout.build(*((f"b{i}", size) for i, size in enumerate(sizes)))
    assert layout.size == sum(sizes)
    for index, size in enumerate(sizes):
        for k in range(size):
            assert layout.decode(getattr(layout, f"b{index}") + k) == (f"b{index}", k)
