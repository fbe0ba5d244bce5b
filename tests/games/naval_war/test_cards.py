"""The card data file matches the reference (shared reference naval-war.md) exactly, and a broken file is
refused with an error naming the card and the field."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from tests.games.naval_war.helpers import game

from warcards.engine.errors import CardDataError
from warcards.games.naval_war.cards import CARD_FILE, GUNS, SALVO, load_cards


def test_ship_deck_has_the_54_ships_of_the_reference() -> None:
    t = load_cards()
    assert t.num_ships == 54
    assert len(set(t.ship_ids)) == 54
    assert Counter(t.ship_nation) == {"United States": 14, "Great Britain": 13, "Japan": 13, "Italy": 7,
                                      "Germany": 7}
    guns = Counter("carrier" if g < 0 else GUNS[g] for g in t.ship_gun)
    assert guns == {"11": 5, "12.6": 4, "14": 15, "15": 12, "16": 12, "18": 2, "carrier": 4}
    assert Counter(t.ship_hits) == {3: 7, 4: 9, 5: 18, 6: 1, 7: 3, 8: 2, 9: 14}
    assert sum(t.ship_hits) == 316


def test_ship_cards_spot_checked_against_the_scans() -> None:
    t = load_cards()
    row = {sid: i for i, sid in enumerate(t.ship_ids)}
    nelson, maryland, shokaku = row["NELSON"], row["MARYLAND"], row["SHOKAKU"]
    assert (t.ship_nation[nelson], GUNS[t.ship_gun[nelson]], t.ship_hits[nelson]) == ("Great Britain", "16", 9)
    assert (t.ship_nation[maryland], GUNS[t.ship_gun[maryland]], t.ship_hits[maryland]) == ("United States", "16", 5)
    assert t.ship_carrier[shokaku] and t.ship_japan[shokaku] and t.ship_hits[shokaku] == 3
    carriers = {t.ship_ids[s] for s in range(54) if t.ship_carrier[s]}
    assert carriers == {"SHOKAKU", "ENTERPRISE", "ARK_ROYAL", "AKAGI"}


def test_play_deck_has_the_108_cards_of_the_reference() -> None:
    t = load_cards()
    assert t.num_cards == 108
    per_kind = {code: len(cards) for code, cards in zip(t.kind_codes, t.kind_cards, strict=True)}
    assert per_kind == {
        "SALVO11x1": 8, "SALVO11x2": 2, "SALVO12.6x1": 4, "SALVO12.6x2": 5,
        "SALVO14x1": 10, "SALVO14x2": 9, "SALVO14x3": 2, "SALVO15x1": 2, "SALVO15x2": 5, "SALVO15x3": 4,
        "SALVO16x1": 4, "SALVO16x2": 4, "SALVO16x3": 4, "SALVO16x4": 3,
        "SALVO18x2": 3, "SALVO18x3": 2, "SALVO18x4": 2,
        "ADDSHIP": 8, "ADDDMG1": 4, "ADDDMG2": 2, "MINE1": 2, "MINE2": 2, "SUB": 2, "TORPEDO": 1,
        "DD": 2, "SMOKE": 6, "REPAIR": 4, "SWEEP": 2,
    }
    assert sum(1 for c in range(108) if t.kind_cat[t.card_kind[c]] == SALVO) == 73
    assert sum(1 for c in range(108) if t.kind_red[t.card_kind[c]]) == 21
    assert {t.kind_codes[k] for k in range(t.num_kinds) if t.kind_red[k]} == {
        "ADDSHIP", "ADDDMG1", "ADDDMG2", "MINE1", "MINE2", "SUB", "TORPEDO"}


def test_every_physical_card_has_its_own_id_162_in_all() -> None:
    state = game(4).new_initial_state()
    ids = [card for cards in state.zones().values() for card in cards]
    assert len(ids) == 162 and len(set(ids)) == 162
    assert "SALVO16x4-3" in ids and "NELSON" in ids


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cards.toml"
    path.write_text(text)
    return path


def test_a_bad_card_file_names_the_card_and_the_field(tmp_path: Path) -> None:
    text = CARD_FILE.read_text().replace('hits = 9', 'hits = 12', 1)
    with pytest.raises(CardDataError, match=r"card NELSON: field hits"):
        load_cards(_write(tmp_path, text))


def test_a_salvo_without_gun_size_is_refused(tmp_path: Path) -> None:
    text = CARD_FILE.read_text().replace('gun = "11"\nvalue = 1', 'value = 1', 1)
    with pytest.raises(CardDataError, match=r"SALVO11x1: field gun"):
        load_cards(_write(tmp_path, text))


def test_a_duplicate_ship_is_refused(tmp_path: Path) -> None:
    text = CARD_FILE.read_text().replace('id = "SHOKAKU"', 'id = "NELSON"', 1)
    with pytest.raises(CardDataError, match=r"NELSON appears twice"):
        load_cards(_write(tmp_path, text))


def test_a_card_file_of_your_own_is_an_option(tmp_path: Path) -> None:
    text = CARD_FILE.read_text().replace('hits = 9', 'hits = 8', 1)
    g = game(3, cards=str(_write(tmp_path, text)))
    assert g.table.ship_hits[0] == 8
    with pytest.raises(CardDataError, match="does not exist"):
        game(3, cards=str(tmp_path / "missing.toml"))


def test_a_second_kind_of_a_special_category_is_refused(tmp_path: Path) -> None:
    """Smoke, Repair, Minesweeper, Destroyer Squadron (and the red specials) are played by one action whatever
    the copy, so a card file may hold one kind of each: a second kind is refused, naming it and the fix."""
    block = 'code = "REPAIR"\ncategory = "repair"\nvalue = 0\ncopies = 4\nred = false\n'
    text = CARD_FILE.read_text()
    assert block in text
    text = text.replace(block, block.replace("copies = 4", "copies = 2")
                        + '\n[[play]]\ncode = "REPAIR2"\ncategory = "repair"\nvalue = 0\ncopies = 2\nred = false\n')
    with pytest.raises(CardDataError, match=r"card REPAIR2: field category: one kind of repair card only.*"
                                            r"give REPAIR more copies"):
        load_cards(_write(tmp_path, text))
