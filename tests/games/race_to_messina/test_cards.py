"""Card data: the printed card list as cards.toml, validated by its schema (card list; R12-R19)."""

from __future__ import annotations

from pathlib import Path

import pytest

from warcards.engine.errors import CardDataError
from warcards.games.race_to_messina.cards import (
    CARDS_FILE,
    DISCARD,
    GAIN_PT,
    ITALIAN_BIT,
    PROGRESS,
    RECON,
    SUPPLY,
    TRAIT_BIT,
    card_table,
    force_total,
    load_cards,
)

RULE_TEXT = Path("/work/shared/rules/sicily-1943.txt")


def by_name(name: str) -> int:
    return card_table().by_key[name.lower()]


def test_card_list_has_47_axis_and_47_ally_cards_with_stable_ids() -> None:
    table = card_table()
    assert table.size == 94
    assert table.ids[:47] == tuple(f"X{i:02d}" for i in range(1, 48))
    assert table.ids[47:] == tuple(f"A{i:02d}" for i in range(1, 48))
    assert len(set(table.names)) == 94


def test_card_list_forces_and_restrictions_match_the_printed_list() -> None:
    table = card_table()
    assert sum(table.force[:47]) == 247  # the printed Axis forces
    assert sum(table.force[47:]) == 270  # the printed Ally forces
    american = [table.names[c] for c in range(94) if table.restriction[c] == 1]
    british = [table.names[c] for c in range(94) if table.restriction[c] == 2]
    assert american == ["US Rangers", "Mobile Warfare", "2nd Armored Division", "General Keyes",
                        "General Patton", "Naval Bombardment", "American 7th Army"]
    assert british == ["Montgomery", "1st Canadian Division", "British Tankmen", "British 8th Army",
                       "Commando Forces", "Veteran Force"]


def test_card_list_every_printed_row_is_a_card() -> None:
    if not RULE_TEXT.exists():
        pytest.skip("the shared rule text is not on this machine")
    lines = RULE_TEXT.read_text().split("Name:", 1)[1].splitlines()[1:]
    printed = [line.split("\t")[0].strip() for line in lines if line.strip()]
    assert printed == list(card_table().names)


def test_r15_tank_and_tanks_are_one_trait() -> None:
    table = card_table()
    assert table.traits[by_name("Sherman Tanks")] & TRAIT_BIT["Tanks"]
    assert table.targets[by_name("Minefields")] == TRAIT_BIT["Infantry"] | TRAIT_BIT["Tanks"]


def test_r16_flanking_maneuver_discards_defense_or_terrain() -> None:
    table = card_table()
    card = by_name("Flanking Maneuver")
    assert table.ability[card] == DISCARD
    assert table.targets[card] == TRAIT_BIT["Defense"] | TRAIT_BIT["Terrain"]


def test_r17_also_naval_is_a_trait_of_the_supply_cards() -> None:
    table = card_table()
    for name in ("Operation Husky", "Harbor", "Beach Heads", "Supply Ships"):
        card = by_name(name)
        assert table.ability[card] == SUPPLY
        assert table.traits[card] & TRAIT_BIT["Naval"], name


def test_also_traits_are_second_traits() -> None:
    table = card_table()
    assert table.traits[by_name("15th Panzergrenadiers")] == TRAIT_BIT["Infantry"] | TRAIT_BIT["Tanks"]
    assert table.traits[by_name("Garrisons")] == TRAIT_BIT["Infantry"] | TRAIT_BIT["Defense"]
    assert table.traits[by_name("Etna Line")] == TRAIT_BIT["Terrain"] | TRAIT_BIT["Defense"]
    assert table.traits[by_name("Paratroop Drop")] == TRAIT_BIT["Infantry"] | TRAIT_BIT["Air"]
    assert table.traits[by_name("Mobile Warfare")] == TRAIT_BIT["Strategy"] | TRAIT_BIT["Tanks"]
    assert table.traits[by_name("Amphibious Landing")] == TRAIT_BIT["Strategy"] | TRAIT_BIT["Naval"]


def test_abilities_supply_recon_progress_and_hube() -> None:
    table = card_table()
    assert [table.names[c] for c in range(94) if table.ability[c] == RECON] == [
        "Reconnaissance", "Intelligence Report"]
    assert [table.names[c] for c in range(94) if table.ability[c] == GAIN_PT] == ["Hube"]
    assert [table.names[c] for c in range(94) if table.ability[c] == PROGRESS] == [
        "Evacuation", "Fighting Withdrawal", "German Ferry System", "Breakthrough", "Competition"]
    assert len(table.dt_cards) == 22


def test_r12_italian_cards_are_the_four_named_italian() -> None:
    table = card_table()
    italian = [table.names[c] for c in range(94) if table.traits[c] & ITALIAN_BIT]
    assert italian == ["Italian 6th Army", "Italian Tanks", "Italian Guns", "Italian Fleet"]


def test_r19_flavour_notes_have_no_effect() -> None:
    table = card_table()
    for name in ("Panzer Division", "Italian Tanks"):
        card = by_name(name)
        assert table.mod_bonus[card] == 0 and table.ability[card] == 0
    assert not table.traits[by_name("Panzer Division")] & ITALIAN_BIT


def test_modifier_table_matches_the_notes() -> None:
    table = card_table()
    expected = {
        "Kesserlring": (TRAIT_BIT["Defense"] | TRAIT_BIT["Terrain"], 2),
        "General Guzzoni": (ITALIAN_BIT, 1),
        "Montgomery": (TRAIT_BIT["Strategy"], 2),
        "Airfields": (TRAIT_BIT["Air"], 2),
        "General Patton": (TRAIT_BIT["Infantry"] | TRAIT_BIT["Tanks"], 1),
        "Tactical Air Support": (TRAIT_BIT["Infantry"], 2),
        "General Alexander": (TRAIT_BIT["Leader"], 1),
    }
    assert {table.names[c]: (table.mod_mask[c], table.mod_bonus[c]) for c in table.modifiers} == expected


def test_r13_a_card_with_two_matching_traits_gets_the_bonus_once() -> None:
    table = card_table()
    assert force_total(table, [by_name("Kesserlring"), by_name("Etna Line")]) == 10 + 9 + 2
    assert force_total(table, [by_name("General Patton"), by_name("Mobile Warfare")]) == 10 + 6 + 1


def test_schema_refuses_a_bad_card_naming_card_and_field(tmp_path: Path) -> None:
    text = CARDS_FILE.read_text().replace('force = 7\ntraits = ["Air"]', 'force = 12\ntraits = ["Air"]', 1)
    bad = tmp_path / "cards.toml"
    bad.write_text(text)
    with pytest.raises(CardDataError, match=r"card X05: field force"):
        load_cards(bad)


def test_schema_refuses_a_discard_ability_without_targets(tmp_path: Path) -> None:
    text = CARDS_FILE.read_text().replace('ability = "discard"\ntargets = ["Strategy"]\n', 'ability = "discard"\n', 1)
    bad = tmp_path / "cards.toml"
    bad.write_text(text)
    with pytest.raises(CardDataError, match="X01"):
        load_cards(bad)


def test_schema_refuses_a_duplicated_card(tmp_path: Path) -> None:
    text = CARDS_FILE.read_text().replace('id = "X02"', 'id = "X01"', 1)
    bad = tmp_path / "cards.toml"
    bad.write_text(text)
    with pytest.raises(CardDataError, match="used twice"):
        load_cards(bad)
