"""The browser client's files at `/` and the two game reads its create form uses (`GET /games`, `POST
/games/{game}/seats`)."""

from __future__ import annotations

from pathlib import Path

from warcards.engine.registry import games, option_specs

from .client import lobby


def test_the_page_and_its_module_are_served_from_the_package(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        page = client.get("/")
        assert page.status_code == 200 and '<script type="module" src="/app.js">' in page.text
        script = client.get("/app.js")
        assert script.status_code == 200 and "javascript" in script.headers["content-type"]
        assert client.get("/style.css").headers["content-type"].startswith("text/css")
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
