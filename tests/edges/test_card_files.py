"""Card files at the edge (issue 21, section 4): every game that takes a `cards` option reads its file through
one checked path. Whatever the file holds — random bytes, random TOML, a mutated copy of the shipped deck,
a folder, a named pipe, a device, a NUL byte, non-UTF-8 text, 1 MiB and more, nothing — only a `CardDataError`
(or, for an option, an `OptionError`) escapes, its message names the file and is short, and a deck that
loads plays a seeded random game to the end with every card conserved."""

from __future__ import annotations

import copy
import json
import math
import os
import threading
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import warcards
from tests.edges.scale import examples
from warcards.engine.api import CHANCE, Game
from warcards.engine.cards import MAX_CARD_FILE_BYTES, MAX_MESSAGE
from warcards.engine.errors import CardDataError, InvalidActionError, OptionError
from warcards.engine.registry import game_module, game_spec, option_specs
from warcards.testing.battery import Tally, play_checked

CARD_GAMES = [game_id for game_id in warcards.games() if any(s.name == "cards" for s in option_specs(game_id))]
SHIPPED = {game_id: Path(str(game_module(game_id).__file__)).with_name("cards.toml") for game_id in CARD_GAMES}
SHORT_GAME: dict[str, dict[str, Any]] = {"naval-war": {"players": 2, "target": 20}, "cards-of-war": {"length": "short"},
              "med-sirocco": {"players": 2, "operations": 10}, "race-to-messina": {"variant": "sicily"}}
"""Options that make a playability check quick; the deck is the one under test."""
ROWS = {"naval-war": ("ship", "play"), "cards-of-war": ("card", "pair"), "med-sirocco": ("cards",),
        "race-to-messina": ("card",)}
FIELDS = ["id", "name", "code", "copies", "hits", "gun", "score", "types", "kill", "kind", "side", "theatre",
          "category", "value", "red", "nation", "years", "vp", "cards", "stand_in", "faction", "restriction",
          "force", "traits", "ability", "targets", "modifier_traits", "modifier_bonus", "immune_to", "italian"]
HYPOTHESIS = settings(max_examples=examples(40), deadline=None, derandomize=True,
                      suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                             HealthCheck.filter_too_much])


# ----- helpers ----------------------------------------------------------------------------------------------
def toml_value(value: Any) -> str:
    """`value` as TOML (inline tables and arrays; enough for any document the strategies make)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


def toml_document(data: dict[str, Any]) -> str:
    return "".join(f"{json.dumps(key)} = {toml_value(value)}\n" for key, value in data.items())


def load(game_id: str, path: str | Path, **options: Any) -> Game | None:
    """The game with this card file, or None when the file is refused the documented way (checked here)."""
    try:
        return warcards.load_game(game_id, cards=str(path), **options)
    except CardDataError as error:
        message = str(error)
        assert len(message) <= MAX_MESSAGE, message
        assert Path(path).name in message, message
        return None
    except OptionError as error:
        assert len(str(error)) <= MAX_MESSAGE, str(error)
        assert game_id in str(error)
        return None


def plays_to_the_end(game: Game, seed: int = 7) -> None:
    """A seeded random game ends, cards conserved at every tenth state; every move reads back from its text."""
    history = play_checked(game, seed, 0.0, Tally(), replay=False, playout_from_determinization=False,
                           conservation_every_state=False)
    state = game.new_initial_state()
    for action in history[:300]:
        if state.current_player() != CHANCE:
            assert state.parse_action(state.action_to_string(action)) == action
        state.apply_action(action)


def shipped(game_id: str) -> dict[str, Any]:
    return tomllib.loads(SHIPPED[game_id].read_text())


def write(path: Path, data: bytes | str) -> Path:
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return path


def refused(call: Callable[[], object], kind: type[Exception] = CardDataError) -> str:
    with pytest.raises(kind) as info:
        call()
    message = str(info.value)
    assert len(message) <= MAX_MESSAGE, message
    return message


def test_the_games_with_a_card_file_option() -> None:
    assert sorted(CARD_GAMES) == ["cards-of-war", "med-sirocco", "naval-war", "race-to-messina"]
    assert sorted(SHORT_GAME) == sorted(ROWS) == sorted(CARD_GAMES)


# ----- property tests ---------------------------------------------------------------------------------------
scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=True),
                    st.text(max_size=12))
toml_values = st.recursive(
    scalars.filter(lambda v: v is not None),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=6), inner, max_size=5)),
    max_leaves=20,
)
documents = st.dictionaries(st.sampled_from(["card", "cards", "ship", "play", "pair", "deck", "types"])
                            | st.text(max_size=6), toml_values, max_size=5)


@HYPOTHESIS
@given(data=st.binary(max_size=600))
def test_random_bytes_are_refused_with_a_card_data_error(tmp_path: Path, data: bytes) -> None:
    path = write(tmp_path / "random.toml", data)
    for game_id in CARD_GAMES:
        assert load(game_id, path) is None


@HYPOTHESIS
@given(document=documents)
def test_random_toml_documents_are_refused_with_a_card_data_error(tmp_path: Path, document: dict[str, Any]) -> None:
    path = write(tmp_path / "random.toml", toml_document(document))
    for game_id in CARD_GAMES:
        game = load(game_id, path)
        if game is not None:
            plays_to_the_end(game)


MUTATIONS = ("drop_field", "duplicate_row", "retype_field", "scalar_row", "scalar_table", "drop_row",
             "drop_table", "replace_value")


@settings(max_examples=examples(60), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(game_id=st.sampled_from(sorted(SHORT_GAME)), mutation=st.sampled_from(MUTATIONS),
       pick=st.integers(0, 10**6), value=toml_values)
def test_mutated_shipped_decks_load_playable_or_are_refused(
    tmp_path: Path, game_id: str, mutation: str, pick: int, value: Any
) -> None:
    data = shipped(game_id)
    table = ROWS[game_id][pick % len(ROWS[game_id])]
    rows = data[table]
    index = pick % len(rows)
    row = rows[index]
    field = sorted(row)[pick % len(row)]
    if mutation == "drop_field":
        del row[field]
    elif mutation == "duplicate_row":
        rows.insert(index, copy.deepcopy(row))
    elif mutation == "retype_field":
        row[field] = value
    elif mutation == "scalar_row":
        rows[index] = value
    elif mutation == "scalar_table":
        data[table] = value if not isinstance(value, list) else 5
    elif mutation == "drop_row":
        del rows[index]
    elif mutation == "drop_table":
        del data[table]
    else:
        row[field] = {"str": "X", "int": pick % 12, "bool": not row[field]}.get(type(row[field]).__name__, value)
    path = write(tmp_path / "mutated.toml", toml_document(data))
    game = load(game_id, path, **SHORT_GAME[game_id])
    if game is not None:
        plays_to_the_end(game, seed=pick)


@pytest.mark.parametrize("game_id", sorted(SHORT_GAME))
def test_shipped_decks_written_back_load_and_play(tmp_path: Path, game_id: str) -> None:
    game = load(game_id, write(tmp_path / "copy.toml", toml_document(shipped(game_id))), **SHORT_GAME[game_id])
    assert game is not None
    plays_to_the_end(game)


# ----- one test per failure class of section 4 ---------------------------------------------------------------
@pytest.mark.parametrize("game_id", sorted(SHORT_GAME))
def test_directory_is_refused(tmp_path: Path, game_id: str) -> None:
    assert "is a folder" in refused(lambda: warcards.load_game(game_id, cards=str(tmp_path)))


@pytest.mark.parametrize("game_id", sorted(SHORT_GAME))
def test_named_pipe_is_refused_without_hanging(tmp_path: Path, game_id: str) -> None:
    pipe = tmp_path / "deck.toml"
    os.mkfifo(pipe)
    outcome: list[BaseException] = []

    def attempt() -> None:
        try:
            warcards.load_game(game_id, cards=str(pipe))
        except BaseException as error:
            outcome.append(error)

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(timeout=10)
    assert not worker.is_alive(), "loading a named pipe hangs"
    assert isinstance(outcome[0], CardDataError) and "named pipe" in str(outcome[0])


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="no /dev/null on this machine")
@pytest.mark.parametrize("game_id", sorted(SHORT_GAME))
def test_device_is_refused(game_id: str) -> None:
    assert "device" in refused(lambda: warcards.load_game(game_id, cards="/dev/null"))


@pytest.mark.parametrize("game_id", sorted(SHORT_GAME))
def test_nul_byte_in_the_path_is_refused(tmp_path: Path, game_id: str) -> None:
    assert "NUL" in refused(lambda: warcards.load_game(game_id, cards=f"{tmp_path}/deck\0.toml"))


@pytest.mark.parametrize("game_id", sorted(SHORT_GAME))
def test_path_too_long_is_refused_and_quoted_short(game_id: str) -> None:
    message = refused(lambda: warcards.load_game(game_id, cards="deck" * 5000 + ".toml"))
    assert "'…" in message and "deckdeck.toml'" in message and len(message) <= 300


@pytest.mark.parametrize("game_id", sorted(SHORT_GAME))
def test_non_utf8_file_is_refused(tmp_path: Path, game_id: str) -> None:
    text = SHIPPED[game_id].read_bytes().replace(b'name = "', b'name = "\xe9', 1)
    message = refused(lambda: warcards.load_game(game_id, cards=str(write(tmp_path / "latin1.toml", text))))
    assert "not UTF-8" in message and "latin1.toml" in message


@pytest.mark.parametrize("game_id", sorted(SHORT_GAME))
def test_oversized_file_is_refused(tmp_path: Path, game_id: str) -> None:
    text = SHIPPED[game_id].read_bytes() + b"#" * MAX_CARD_FILE_BYTES
    message = refused(lambda: warcards.load_game(game_id, cards=str(write(tmp_path / "big.toml", text))))
    assert "at most 1048576 bytes" in message


@pytest.mark.parametrize("game_id", sorted(SHORT_GAME))
def test_empty_file_is_refused(tmp_path: Path, game_id: str) -> None:
    refused(lambda: warcards.load_game(game_id, cards=str(write(tmp_path / "empty.toml", b""))))


@pytest.mark.parametrize("game_id", sorted(SHORT_GAME))
@pytest.mark.parametrize("value", ["", "   "])
def test_empty_card_file_option_is_an_option_error(game_id: str, value: str) -> None:
    assert "empty" in refused(lambda: warcards.load_game(game_id, cards=value), OptionError)


@pytest.mark.parametrize("game_id", sorted(SHORT_GAME))
def test_card_file_option_of_the_wrong_type_is_an_option_error(game_id: str) -> None:
    refused(lambda: warcards.load_game(game_id, cards=5), OptionError)


@pytest.mark.parametrize(("game_id", "table"), [(g, t) for g in sorted(ROWS) for t in ROWS[g]]
                         + [("cards-of-war", "deck"), ("cards-of-war", "types")])
def test_scalar_in_place_of_a_table_array_is_a_card_data_error(tmp_path: Path, game_id: str, table: str) -> None:
    data = shipped(game_id)
    data[table] = 5
    message = refused(lambda: warcards.load_game(game_id, cards=str(write(tmp_path / "shape.toml",
                                                                           toml_document(data)))))
    assert "shape.toml" in message


def test_wrong_field_is_named_with_the_card_and_the_file(tmp_path: Path) -> None:
    text = SHIPPED["naval-war"].read_text().replace("hits = 9", 'hits = "nine"', 1)
    message = refused(lambda: warcards.load_game("naval-war", cards=str(write(tmp_path / "fields.toml", text))))
    assert "fields.toml" in message and "card NELSON: field hits" in message


@pytest.mark.parametrize("game_id", CARD_GAMES)
def test_an_unknown_top_level_table_is_refused_naming_the_file(tmp_path: Path, game_id: str) -> None:
    data = shipped(game_id)
    data["extra_rules"] = {"cheat": 1}
    message = refused(lambda: warcards.load_game(game_id, cards=str(write(tmp_path / "extra.toml",
                                                                           toml_document(data)))))
    assert "extra.toml" in message and "unknown table(s) extra_rules" in message


@pytest.mark.parametrize(
    ("game_id", "before", "after", "field"),
    [
        ("cards-of-war", "reinforce = true", "reinforce = 'yes'", "reinforce"),
        ("cards-of-war", "score = 4", 'score = "4"', "score"),
        ("naval-war", "red = true", "red = 1", "red"),
        ("med-sirocco", "vp = 2", "vp = 2.0", "vp"),
        ("race-to-messina", "force = 9", 'force = "9"', "force"),
        ("race-to-messina", "italian = true", "italian = 1", "italian"),
    ],
)
def test_a_value_of_the_wrong_type_is_refused_not_converted(
    tmp_path: Path, game_id: str, before: str, after: str, field: str
) -> None:
    text = SHIPPED[game_id].read_text()
    assert before in text, before
    message = refused(lambda: warcards.load_game(game_id, cards=str(write(tmp_path / "typed.toml",
                                                                           text.replace(before, after, 1)))))
    assert "typed.toml" in message and f"field {field}" in message and "card " in message


def test_many_errors_give_a_bounded_message(tmp_path: Path) -> None:
    data = shipped("med-sirocco")
    for row in data["cards"]:
        row["id"] = "Z" * 500
    message = refused(lambda: warcards.load_game("med-sirocco", cards=str(write(tmp_path / "ids.toml",
                                                                                 toml_document(data)))))
    assert "more)" in message and "ids are A01–A59" in message


def test_naval_war_deck_without_play_cards_is_refused_at_load(tmp_path: Path) -> None:
    data = shipped("naval-war")
    del data["play"]
    message = refused(lambda: warcards.load_game("naval-war", cards=str(write(tmp_path / "noplay.toml",
                                                                               toml_document(data)))))
    assert "0 play card kinds" in message


def test_naval_war_deck_too_small_for_the_deal_is_refused(tmp_path: Path) -> None:
    data = shipped("naval-war")
    data["play"] = [{"code": "SALVO16x1", "category": "salvo", "gun": "16", "value": 1, "copies": 12,
                     "red": False}]
    path = str(write(tmp_path / "twelve.toml", toml_document(data)))
    plays_to_the_end(warcards.load_game("naval-war", cards=path, players=2))
    assert "play deck holds only 12" in refused(lambda: warcards.load_game("naval-war", cards=path, players=3),
                                                OptionError)


def test_naval_war_deck_of_more_ships_than_position_codes_is_refused_at_load(tmp_path: Path) -> None:
    data = shipped("naval-war")
    data["ship"] = [{"id": f"SHIP_{chr(65 + i // 26 // 26)}{chr(65 + i // 26 % 26)}{chr(65 + i % 26)}",
                     "name": f"Ship {i}", "nation": "Japan", "gun": "14", "hits": 5} for i in range(901)]
    path = write(tmp_path / "armada.toml", toml_document(data))
    assert "901 ships" in refused(lambda: warcards.load_game("naval-war", cards=str(path)))
    data["ship"] = data["ship"][:900]
    game = warcards.load_game("naval-war", cards=str(write(path, toml_document(data))), players=2, target=20)
    plays_to_the_end(game)


def test_naval_war_more_additional_ships_than_night_slots_is_refused(tmp_path: Path) -> None:
    data = shipped("naval-war")
    next(kind for kind in data["play"] if kind["code"] == "ADDSHIP")["copies"] = 10
    message = refused(lambda: warcards.load_game("naval-war", cards=str(write(tmp_path / "adds.toml",
                                                                               toml_document(data)))))
    assert "10 Additional Ship cards" in message


def test_naval_war_ids_that_read_alike_in_the_notation_are_refused(tmp_path: Path) -> None:
    data = shipped("naval-war")
    data["ship"][0]["id"] = "DD_3"
    message = refused(lambda: warcards.load_game("naval-war", cards=str(write(tmp_path / "dd.toml",
                                                                               toml_document(data)))))
    assert "at dd 3" in message
    data = shipped("naval-war")
    data["play"][1]["code"] = data["play"][0]["code"].upper()
    refused(lambda: warcards.load_game("naval-war", cards=str(write(tmp_path / "case.toml", toml_document(data)))))


def test_cards_of_war_deck_below_the_deal_or_over_the_cap_is_refused(tmp_path: Path) -> None:
    data = shipped("cards-of-war")
    data["card"] = data["card"][:23]
    data.pop("pair")
    assert "23 cards" in refused(lambda: warcards.load_game("cards-of-war", cards=str(
        write(tmp_path / "small.toml", toml_document(data)))))
    base = shipped("cards-of-war")["card"]
    data["card"] = [dict(base[i % 52], id=f"K{i}", name=f"Card {i}") for i in range(501)]
    assert "501 cards" in refused(lambda: warcards.load_game("cards-of-war", cards=str(
        write(tmp_path / "large.toml", toml_document(data)))))
    data["card"] = data["card"][:500]
    plays_to_the_end(warcards.load_game("cards-of-war", cards=str(write(tmp_path / "large.toml",
                                                                          toml_document(data))), decks=2))


@pytest.mark.parametrize(("ident", "why"), [("g01", "duplicate id"), ("discard", "word of the notation"),
                                            ("12", "a number")])
def test_cards_of_war_ids_that_break_the_notation_are_refused(tmp_path: Path, ident: str, why: str) -> None:
    data = shipped("cards-of-war")
    data["card"][1]["id"] = ident
    message = refused(lambda: warcards.load_game("cards-of-war", cards=str(write(tmp_path / "ids.toml",
                                                                                  toml_document(data)))))
    assert why.split()[-1] in message


def test_cards_of_war_names_with_parentheses_are_refused(tmp_path: Path) -> None:
    data = shipped("cards-of-war")
    data["card"][0]["name"] = "Pillbox (old)"
    message = refused(lambda: warcards.load_game("cards-of-war", cards=str(write(tmp_path / "names.toml",
                                                                                  toml_document(data)))))
    assert "parentheses" in message


def test_cards_of_war_deck_loads_in_linear_time(tmp_path: Path) -> None:
    """The largest deck and a pair list filling 1 MiB load (the partner tables are built per pair, not per
    card × card), and a 10 MiB file is refused by its size before it is read. Times are measured by
    `scripts/card_file_times.py`, not asserted here."""
    data = shipped("cards-of-war")
    base = data["card"]
    data["card"] = [dict(base[i % 52], id=f"K{i}", name=f"Card {i}") for i in range(500)]
    data["pair"] = [{"cards": [f"Card {i}", f"Card {i + 52}"]} for i in range(0, 448, 8)] * 440
    text = toml_document(data)
    assert len(text) < MAX_CARD_FILE_BYTES
    game = warcards.load_game("cards-of-war", cards=str(write(tmp_path / "pairs.toml", text)))
    assert game.table.partners[0] == 1 << 52
    huge = b"[[card]]\n" + b"#" * (10 * MAX_CARD_FILE_BYTES)
    assert "MiB" in refused(lambda: warcards.load_game("cards-of-war", cards=str(write(tmp_path / "huge.toml", huge))))


def test_long_dotted_keys_are_refused_fast(tmp_path: Path) -> None:
    path = write(tmp_path / "dots.toml", "a." * 50_000 + "b = 1\n")
    assert "dotted key of more than 8 parts" in refused(lambda: warcards.load_game("naval-war", cards=str(path)))


@pytest.mark.parametrize("game_id", sorted(SHORT_GAME))
def test_edited_deck_file_is_reloaded(tmp_path: Path, game_id: str) -> None:
    path = write(tmp_path / "deck.toml", SHIPPED[game_id].read_bytes())
    before = warcards.load_game(game_id, cards=str(path))
    text = path.read_text()
    edits = {"naval-war": ("hits = 9", "hits = 8"), "cards-of-war": ("score = 2", "score = 3"),
             "med-sirocco": ('name = "HMS Warspite"', 'name = "HMS Warspite II"'),
             "race-to-messina": ("force = 9", "force = 8")}
    old, new = edits[game_id]
    write(path, text.replace(old, new, 1))
    after = warcards.load_game(game_id, cards=str(path))
    facts = {"naval-war": lambda g: g.table.ship_hits, "cards-of-war": lambda g: g.table.score,
             "med-sirocco": lambda g: g.table.names, "race-to-messina": lambda g: g.table.force}
    assert facts[game_id](before) != facts[game_id](after)
    write(path, text)
    assert facts[game_id](warcards.load_game(game_id, cards=str(path))) == facts[game_id](before)


def test_cards_of_war_view_names_no_machine_path(tmp_path: Path) -> None:
    path = write(tmp_path / "my-deck.toml", SHIPPED["cards-of-war"].read_bytes())
    for cards in (None, str(path)):
        game = warcards.load_game("cards-of-war", cards=cards)
        state = game.new_initial_state()
        while state.current_player() == CHANCE:
            state.apply_action(state.legal_actions()[0])
        for seat in (0, 1):
            shown = json.dumps(state.observe(seat))
            assert str(tmp_path) not in shown and "my-deck" not in shown
            assert str(SHIPPED["cards-of-war"].parent) not in shown and "cards.toml" not in shown
            spec_render = game_spec("cards-of-war").render
            assert spec_render is not None
            render = spec_render.load()(state.observe(seat), seat)
            assert "Cards of War stand-in deck" in render and str(tmp_path) not in render


@pytest.mark.parametrize("game_id", sorted(SHORT_GAME))
def test_no_view_of_any_game_names_the_card_file(tmp_path: Path, game_id: str) -> None:
    path = write(tmp_path / "my-deck.toml", SHIPPED[game_id].read_bytes())
    game = warcards.load_game(game_id, cards=str(path))
    state = game.new_initial_state()
    for step in range(60):
        for seat in range(game.num_players):
            shown = json.dumps(state.observe(seat)) + json.dumps(state.position())
            assert str(tmp_path) not in shown and "my-deck" not in shown, (step, seat)
        if state.is_terminal():
            break
        state.apply_action(state.legal_actions()[0])


def test_race_to_messina_card_tables_use_the_same_path(tmp_path: Path) -> None:
    from warcards.games.race_to_messina.cards import load_cards

    pipe = tmp_path / "pipe.toml"
    os.mkfifo(pipe)
    assert "named pipe" in refused(lambda: load_cards(pipe))
    assert "card = " not in refused(lambda: load_cards(write(tmp_path / "card.toml", "card = 5\n")))


# ----- Race to Messina: the game's own cards everywhere ------------------------------------------------------------
def race_cards(tmp_path: Path, name: str, **changes: dict[str, Any]) -> str:
    """A Race to Messina card file: the shipped one with these fields changed, by card id."""
    data = shipped("race-to-messina")
    for row in data["card"]:
        row.update(changes.get(row["id"], {}))
    return str(write(tmp_path / name, toml_document(data)))


def test_a_changed_race_to_messina_force_changes_play_rules_notation_heuristic_encoding_and_evaluate(
    tmp_path: Path,
) -> None:
    from warcards.games.race_to_messina.encoding import encode_observation
    from warcards.games.race_to_messina.evaluate import evaluate
    from warcards.games.race_to_messina.heuristic import RaceToMessinaHeuristic
    from warcards.match import play_match

    assert next(row for row in shipped("race-to-messina")["card"] if row["id"] == "X35")["force"] == 9
    path = race_cards(tmp_path, "tigers.toml", X35={"force": 1})
    printed = warcards.load_game("race-to-messina")
    changed = warcards.load_game("race-to-messina", cards=path)
    heuristics = ["heuristic", "heuristic"]
    assert play_match(printed, heuristics, 5).actions != play_match(changed, heuristics, 5).actions
    assert play_match(changed, heuristics, 5).actions == play_match(changed, heuristics, 5).actions

    def position(game: Game) -> Any:
        return game.state_from_setup({"zones": {"table:axis": ["X35", "X19"], "table:allies": ["A17", "A40"],
                                                "hand:allies": ["A02"]}, "position": {"phase": "action"}})

    before, after = position(printed), position(changed)
    assert before.observe(0)["totals"]["table:axis"]["total"] - after.observe(0)["totals"]["table:axis"]["total"] == 8
    assert before.returns() == after.returns() == [0.0, 0.0]
    assert evaluate(before) != evaluate(after)  # the Axis holds with less force
    assert not np.array_equal(encode_observation(before.observe(0), printed),
                              encode_observation(after.observe(0), changed))
    render = game_spec("race-to-messina").render
    assert render is not None
    assert "deck_digest" not in before.observe(0) and "deck_digest" not in before.public_view()
    assert after.observe(1)["deck_digest"] == after.public_view()["deck_digest"] == changed.table.digest
    assert "X35 Company of Tigers 9F" in render.load()(before.observe(0), 0)
    assert "X35 Company of Tigers 1F" in render.load()(after.observe(0), 0)
    assert "X35 Company of Tigers 1F" in render.load()(after.public_view(), -1)
    tigers = changed.table.by_key["x35"]
    assert RaceToMessinaHeuristic(printed, 1, 0).values[tigers] - RaceToMessinaHeuristic(changed, 1, 0).values[tigers] == 8
    assert "(1F" in changed.state_from_setup({"zones": {"hand:axis": ["X35"]}, "position": {
        "phase": "deployment", "seat": "axis"}}).action_label(changed.layout.deploy + tigers)


def test_a_renamed_race_to_messina_card_is_written_and_read_by_its_new_name(tmp_path: Path) -> None:
    game = warcards.load_game("race-to-messina", cards=race_cards(tmp_path, "stukas.toml", X05={"name": "Stuka Wing"}))
    state = game.state_from_setup({"zones": {"hand:axis": ["X05"]}, "position": {"phase": "deployment", "seat": "axis"}})
    action = state.parse_action("deploy stuka wing")
    assert state.action_to_string(action) == "deploy X05 Stuka Wing"
    assert "unknown card 'Luftwaffe'" in refused(lambda: state.parse_action("deploy Luftwaffe"), InvalidActionError)
    assert warcards.load_game("race-to-messina").new_initial_state().parse_action("draw Luftwaffe") == 4


def test_a_race_to_messina_card_file_with_another_card_count_plays_with_its_own_layout(tmp_path: Path) -> None:
    from warcards.games.race_to_messina.encoding import encode_observation, observation_shape

    data = shipped("race-to-messina")
    extra = dict(data["card"][0], id="X48", name="Second Rubble")
    data["card"] = [row for row in data["card"] if row["id"] != "A47"] + [extra]
    game = warcards.load_game("race-to-messina", cards=str(write(tmp_path / "more.toml", toml_document(data))))
    printed = warcards.load_game("race-to-messina")
    assert game.table.size == 94 and game.table.ids[47] == "X48" and "A47" not in game.table.by_key
    assert len(game.table.dt_cards) == len(printed.table.dt_cards) + 1
    assert game.num_distinct_actions == printed.num_distinct_actions + 94
    plays_to_the_end(game)
    state = game.new_initial_state()
    assert encode_observation(state.observe(0), game).shape == observation_shape(game) == (881,)
    data["card"] = [row for row in data["card"] if row["faction"] == "axis" or row["id"] < "A10"]
    small = warcards.load_game("race-to-messina", variant="race",
                               cards=str(write(tmp_path / "small.toml", toml_document(data))))
    assert small.table.size == 48 + 9 and observation_shape(small) == (9 * 57 + 35,)
    plays_to_the_end(small)


@pytest.mark.parametrize(("changes", "words"), [
    ({"X05": {"name": "Strike on Palermo"}}, "card X05: field name: Value error, a name may not hold the word 'on'"),
    ({"X05": {"name": "Retreat to British"}}, "card X05: field name: Value error, a name may not end with 'to british'"),
    ({"X05": {"name": "Luftwaffe  Wing"}}, "card X05: field name: a name is words separated by single spaces"),
    ({"X05": {"name": "Luftwaffe (old)"}}, "without parentheses"),
    ({"X05": {"name": "X06"}}, "card X06: 'x06' is used twice"),
    ({"X05": {"force": 11}}, "card X05: field force: Input should be less than or equal to 10"),
    ({"X05": {"traits": ["Cavalry"]}}, "card X05: field traits.0: Input should be 'Tanks'"),
    ({"X05": {"faction": "ally"}}, "X ids are Axis cards and A ids are Ally cards"),
    ({"X05": {"id": "X5"}}, "card X5: field id: ids are X00–X99 (Axis) and A00–A99 (Allies)"),
])
def test_a_broken_race_to_messina_card_is_refused_naming_the_file_the_card_and_the_field(
    tmp_path: Path, changes: dict[str, dict[str, Any]], words: str
) -> None:
    message = refused(lambda: warcards.load_game("race-to-messina", cards=race_cards(tmp_path, "mine.toml", **changes)))
    assert message.startswith("card file '") and "mine.toml" in message and words in message, message


def test_a_race_to_messina_file_without_the_cards_of_a_side_is_refused(tmp_path: Path) -> None:
    data = shipped("race-to-messina")
    data["card"] = [row for row in data["card"] if row["faction"] == "axis"]
    message = refused(lambda: warcards.load_game("race-to-messina", cards=str(
        write(tmp_path / "axis-only.toml", toml_document(data)))))
    assert "the deck holds 0 ally cards; a playable deck holds 1 to 100" in message
