"""The stand-in deck and its schema (2.0–2.4, deck facts), and a user's own deck file (`cards=path`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import warcards
from warcards.engine.errors import CardDataError
from warcards.games.med_sirocco.cards import (
    DEFAULT_CARDS,
    K_BONUS,
    K_FORCE,
    K_OPERATION,
    K_SPECIAL,
    K_STORM,
    K_SUPPLY,
    load_cards,
)

TABLE = load_cards()


def test_2_0_card_numbers_and_counts() -> None:
    ids = TABLE.ids
    assert len(ids) == 165
    assert ids[:59] == tuple(f"A{i:02d}" for i in range(1, 60))
    assert ids[59:114] == tuple(f"X{i:02d}" for i in range(1, 56))
    assert ids[114:121] == tuple(f"S{i:02d}" for i in range(1, 8))
    assert ids[121:] == tuple(f"O{i:02d}" for i in range(1, 45))
    kinds = [TABLE.kind[c] for c in range(165)]
    assert kinds.count(K_FORCE) == 87
    assert kinds.count(K_BONUS) == 19
    assert kinds.count(K_SUPPLY) == 2
    assert kinds.count(K_SPECIAL) == 6
    assert kinds.count(K_STORM) == 7
    assert kinds.count(K_OPERATION) == 44


def test_2_3_fixed_numbers_a53_x54_x55() -> None:
    i = TABLE.index
    assert TABLE.kind[i["A53"]] == K_BONUS and TABLE.kind[i["X54"]] == K_BONUS
    assert TABLE.nation[i["X55"]] == "romanian" and TABLE.names[i["X55"]] == "Romanian Fuel"
    names = {TABLE.names[i[f"S0{k}"]] for k in range(1, 8)}
    assert names == {"Sirocco", "Lost", "Explosion", "Fog", "Night action", "Bomb alley", "Shallows"}


def test_deck_is_marked_stand_in() -> None:
    assert TABLE.stand_in
    assert "STAND-IN" in DEFAULT_CARDS.read_text().splitlines()[0]


def test_2_1_operations_in_date_order_with_convoys_and_battles_every_year() -> None:
    years = [TABLE.op_year[c] for c in range(121, 165)]
    assert years == sorted(years)
    assert years.count(1940) == 8 and years.count(1941) == 14 and years.count(1942) == 16 and years.count(1943) == 6
    for year in (1940, 1941, 1942, 1943):
        kinds = {TABLE.op_battle[c] for c in range(121, 165) if TABLE.op_year[c] == year}
        assert kinds == {True, False}, year
    assert all(1 <= TABLE.vp[c] <= 7 for c in range(121, 165))
    assert [TABLE.ids[c] for c in range(121, 165) if TABLE.op_air_bonus[c]] == ["O32", "O34", "O36", "O38"]
    assert TABLE.op_battle[TABLE.index["O28"]] and TABLE.op_type[TABLE.index["O28"]] == 3


def test_every_year_side_and_type_has_playable_force_cards() -> None:
    for year in range(4):
        for side in (0, 1):
            for t in range(3):
                strong = [c for c in range(121) if TABLE.kind[c] == K_FORCE and TABLE.side[c] == side
                          and TABLE.years[c] >> year & 1 and (TABLE.fixed[c][t] >= 2 or TABLE.dice[c][t])]
                assert len(strong) >= 2, (1940 + year, side, t)


def test_3_3_ten_to_fifteen_destiny_pairs_some_naming_operations() -> None:
    pairs = [(TABLE.ids[c], TABLE.ids[TABLE.victim[c]]) for c in range(121) if TABLE.victim[c] >= 0]
    assert 10 <= len(pairs) <= 15
    assert sum(1 for _, v in pairs if v.startswith("O")) >= 2
    assert ("A29", "X05") in pairs  # Taranto's Swordfish -> Conte di Cavour
    assert ("X29", "A03") in pairs  # U-331 -> Barham
    assert ("A35", "O18") in pairs  # Force K -> the Duisburg convoy


def test_balance_summed_values_per_year_are_close() -> None:
    for year in range(4):
        sums = [sum(sum(TABLE.fixed[c]) + 3.5 * sum(TABLE.dice[c]) for c in range(121)
                    if TABLE.kind[c] == K_FORCE and TABLE.side[c] == side and TABLE.years[c] >> year & 1)
                for side in (0, 1)]
        assert 0.75 < sums[0] / sums[1] < 1.33, (1940 + year, sums)


def _broken_copy(tmp_path: Path, old: str, new: str) -> Path:
    text = DEFAULT_CARDS.read_text()
    assert old in text
    path = tmp_path / "deck.toml"
    path.write_text(text.replace(old, new, 1))
    return path


def test_schema_error_names_card_and_field(tmp_path: Path) -> None:
    path = _broken_copy(tmp_path, 'id = "A12", name = "HMS York", side = "allies", nation = "british", kind = "force", '
                        'frame = "surface", air = 1, surface = 3',
                        'id = "A12", name = "HMS York", side = "allies", nation = "british", kind = "force", '
                        'frame = "surface", air = 1, surface = 9')
    with pytest.raises(CardDataError, match=r"card A12: field surface"):
        load_cards(path)


def test_schema_refuses_a_missing_card(tmp_path: Path) -> None:
    text = DEFAULT_CARDS.read_text()
    line = next(x for x in text.splitlines() if 'id = "X20"' in x)
    path = tmp_path / "deck.toml"
    path.write_text(text.replace(line + "\n", ""))
    with pytest.raises(CardDataError, match="cards missing: X20"):
        load_cards(path)


def test_schema_refuses_a_wrong_fixed_number(tmp_path: Path) -> None:
    path = _broken_copy(tmp_path, 'plays_on = "axis"', 'plays_on = "side"')
    with pytest.raises(CardDataError, match="card A53: field plays_on"):
        load_cards(path)


def test_user_deck_file_is_used_by_load_game(tmp_path: Path) -> None:
    path = _broken_copy(tmp_path, 'name = "HMS Warspite"', 'name = "HMS Warspite (printed)"')
    game = warcards.load_game("med-sirocco", cards=str(path))
    assert game.table.names[0] == "HMS Warspite (printed)"  # type: ignore[attr-defined]
    with pytest.raises(CardDataError, match="does not exist"):
        warcards.load_game("med-sirocco", cards=str(tmp_path / "nope.toml"))


def test_deck_format_doc_lists_every_field() -> None:
    doc = (Path(__file__).parents[3] / "docs" / "cards" / "med-sirocco-deck-format.md").read_text()
    text = DEFAULT_CARDS.read_text()
    fields = set(re.findall(r"(\w+) = ", text)) - {"cards", "deck"}
    for field in fields:
        assert f"`{field}`" in doc, field


def test_every_ruling_names_an_existing_test() -> None:
    root = Path(__file__).parents[3]
    rulings = (root / "src" / "warcards" / "games" / "med_sirocco" / "RULES.md").read_text()
    named = set(re.findall(r"`(test_\w+)`", rulings)) | set(re.findall(r"`([\w-]+\.json)`", rulings))
    tests = "".join(p.read_text() for p in Path(__file__).parent.glob("test_*.py"))
    scenarios = {p.name for p in (root / "tests" / "scenarios" / "med-sirocco").glob("*.json")}
    missing = [n for n in named if (f"def {n}(" not in tests if n.startswith("test_") else n not in scenarios)]
    assert not missing, missing
    questions = (root.parent / "shared" / "reference" / "open-questions" / "med-sirocco.md")
    if questions.exists():
        count = len(re.findall(r"^\d+\. \*\*", questions.read_text(), flags=re.M))
        for item in range(1, count + 1):
            assert re.search(rf"^## R{item}\. ", rulings, flags=re.M), f"open question {item} has no ruling R{item}"


def test_every_ruling_cited_in_code_and_tests_exists() -> None:
    root = Path(__file__).parents[3]
    package = root / "src" / "warcards" / "games" / "med_sirocco"
    rulings = (package / "RULES.md").read_text()
    defined = set(re.findall(r"^## (R\d+)\. ", rulings, flags=re.M))
    sources = [*package.rglob("*.py"), *Path(__file__).parent.glob("*.py")]
    cited = {(p.name, r) for p in sources for r in re.findall(r"\b(R\d+)\b", p.read_text())}
    missing = sorted((name, r) for name, r in cited if r not in defined)
    assert not missing, missing
    assert defined, "RULES.md has no `## R<n>.` ruling"
