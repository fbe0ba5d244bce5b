"""The browser client's files at `/` and the two game reads its create form uses (`GET /games`, `POST
/games/{game}/seats`)."""

from __future__ import annotations

import re
from pathlib import Path

from warcards.engine.registry import game_spec, games, load_game, option_specs

from .client import lobby


def test_the_page_its_module_and_each_games_board_are_served_from_the_package(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        page = client.get("/")
        assert page.status_code == 200 and '<script type="module" src="/app.js">' in page.text
        script = client.get("/app.js")
        assert script.status_code == 200 and "javascript" in script.headers["content-type"]
        assert client.get("/style.css").headers["content-type"].startswith("text/css")
        for board in ("index", "common", *games()):  # each game's table layout, beside the page's module
            answer = client.get(f"/boards/{board}.js")
            assert answer.status_code == 200 and "javascript" in answer.headers["content-type"], board
        assert client.get("/health").json()["status"] == "ok"  # the routes still come before the files


def test_games_lists_every_game_with_its_option_specs_and_the_bot_levels(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        answer = client.get("/games").json()
    assert [game["id"] for game in answer["games"]] == list(games())
    for game in answer["games"]:
        specs = option_specs(game["id"])
        assert [option["name"] for option in game["options"]] == [spec.name for spec in specs]
        assert [option["default"] for option in game["options"]] == [spec.default for spec in specs]
    assert "heuristic" in answer["levels"]


def test_seats_of_options_names_the_seats_or_says_what_is_wrong(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        sicily = client.post("/games/race-to-messina/seats", json={"options": {"variant": "sicily"}})
        assert sicily.json()["seat_names"] == ["british", "americans", "axis"]
        bad = client.post("/games/naval-war/seats", json={"options": {"players": 11}})
        assert bad.status_code == 422
        assert bad.json()["detail"] == "naval-war: option players=11 is not allowed; allowed values: 2, 3, 4, 5, 6, 7, 8, 9"
        unknown = client.post("/games/chess/seats", json={"options": {}})
        assert unknown.status_code == 422 and "chess" in unknown.json()["detail"]


def test_a_tables_cards_are_the_facts_of_its_games_deck_for_its_options(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        seats = [{"kind": "person"}, {"kind": "person"}]
        two_decks = client.post("/tables", json={"game": "cards-of-war", "options": {"decks": 2}, "seats": seats}).json()
        facts = client.get(f"/tables/{two_decks['id']}/cards").json()
        sicily = client.post("/tables", json={"game": "race-to-messina", "options": {"variant": "sicily"},
                                              "seats": [*seats, {"kind": "person"}]}).json()
        race = client.get(f"/tables/{sicily['id']}/cards").json()
        assert client.get("/tables/nosuch/cards").status_code == 404
    game = load_game("cards-of-war", decks=2)
    assert facts == game_spec("cards-of-war").card_facts(game)
    assert set(facts) == set(game.card_ids) and "G07/1" in facts
    assert all(entry["name"] and entry["text"] for entry in facts.values())
    assert race["X01"]["name"] == "Rubble" and race["X01"]["force"] == 3 and race["X01"]["traits"] == ["Terrain"]


def test_every_games_guide_is_served_as_html_with_its_rulings_citations_linked_and_keywords_explained(
    tmp_path: Path,
) -> None:
    with lobby(tmp_path) as client:
        for game_id in games():
            page = client.get(f"/games/{game_id}/guide").json()
            assert page["title"] and page["description"] and page["glossary"], game_id
            assert "<h2" in page["guide_html"] and "<script" not in page["guide_html"] + page["rulings_html"]
            assert '<h3 id="R1" tabindex="-1">R1.' in page["rulings_html"], game_id
            assert 'class="term"' in page["guide_html"], game_id
        sicily = client.get("/games/race-to-messina/guide").json()
        assert '<a class="cite" href="#/rules/race-to-messina/R31">R31</a>' in sicily["guide_html"]
        sirocco = client.get("/games/med-sirocco/guide").json()  # a printed rule's section: the ruling on it
        assert '<a class="cite" href="#/rules/med-sirocco/R3">2.44</a>' in sirocco["rulings_html"]
        shown = re.sub(r"<code>.*?</code>|<h\d[^>]*>.*?</h\d>|<a class=\"cite\"[^>]*>[^<]*</a>", "",
                       sirocco["guide_html"] + sirocco["rulings_html"], flags=re.DOTALL)
        assert not re.findall(r"\bR\d+\b|(?<![\d.])[1-9]\.\d{1,2}(?![\d.%])", re.sub(r"<[^>]+>", "", shown))  # every one linked
        naval = client.get("/games/naval-war/guide").json()  # no section cited: "gets 1.0" is a return
        assert "gets 1.0," in naval["rulings_html"]
        unknown = client.get("/games/chess/guide")
        assert unknown.status_code == 422 and "chess" in unknown.json()["detail"]


def test_a_guides_raw_html_links_and_images_arrive_as_text_not_markup() -> None:
    from warcards.server.guide import _Page, _render

    page = _Page("cards-of-war", "## R1. A ruling\n")
    shown = _render(
        "<script>alert(1)</script> [x](javascript:alert(1)) [y](docs/a.md) ![pic](../a.png) "
        "[z](https://example.org) R1 KILL\n",
        page, "guide",
    )
    assert "<script>" not in shown and "&lt;script&gt;" in shown
    assert 'href="javascript' not in shown and 'href="docs' not in shown and "<img" not in shown
    assert '<a href="https://example.org" rel="noopener noreferrer">z</a>' in shown
    assert '<a class="cite" href="#/rules/cards-of-war/R1">R1</a>' in shown
    assert 'class="term" data-tip="Deployed into a battle' in shown
