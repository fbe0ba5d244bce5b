"""Ratings (docs/server.md, "Ratings"): known results move the accounts' ratings exactly as openskill's own API
computes them (here, independently of the server's code), per game and player-count group, with ties; a game
a stand-in played in is not rated; the update is applied once, in the transaction that records the result,
across `kill -9` on either side of it; the profile and leaderboard routes show it and nothing private."""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce
from sqlalchemy import func, select

from warcards.bots.ratings import published_rating
from warcards.server.db import AccountRow, EventInfo, RatingChangeRow, RatingRow, Store, now
from warcards.server.hub import DIE_BEFORE_FINISH
from warcards.server.ratings import (
    GROUPS,
    UNRATED_STAND_IN,
    group_of,
    name_key,
    places,
)
from warcards.skill import POINTS_PER_MU

from .client import hub, lobby, peer
from .conftest import ServerProcess

OPENSKILL = PlackettLuce()
"""openskill's own model with its defaults (mu 25, sigma 25/3): the numbers the server must reach."""


def add_account(store: Store, name: str, email: str | None = None) -> str:
    """An account row as the accounts branch makes one (sign-up is not this branch's)."""
    account_id = secrets.token_hex(8)
    with store.session() as session:
        session.add(AccountRow(
            id=account_id, name=name, name_key=name_key(name), password_hash="$argon2id$not-a-real-hash",
            email=email, created_at=now(),
        ))
    return account_id


def rated_table(
    store: Store, game: str, options: dict[str, Any], seats: list[str | None], **table: Any
) -> tuple[str, dict[int, str]]:
    """A rated table whose person seats are held by the given accounts (None: a bot seat, `random`), as a
    signed-in join leaves them; its id and the person seats' tokens."""
    kinds: list[tuple[str, str | None]] = [("person", None) if a is not None else ("bot", "random") for a in seats]
    table_id, _ = store.create_table(game, options, 7, True, table.get("timer"), kinds, rated=True)
    tokens = {}
    for seat, account in enumerate(seats):
        if account is not None:
            token = store.take_seat(table_id, seat, f"player {seat}", account)
            assert token is not None
            tokens[seat] = token
    return table_id, tokens


def rating_of(store: Store, account: str, game: str, group: str = "") -> RatingRow | None:
    with store.session() as session:
        return session.get(RatingRow, (account, game, group))


def changes_of(store: Store, table: str) -> int:
    with store.session() as session:
        return int(session.scalar(select(func.count()).where(RatingChangeRow.table_id == table)) or 0)


def result(winners: list[int], scores: list[str]) -> dict[str, Any]:
    return {"winners": winners, "scores": scores, "reason": "test"}


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    """A migrated store on SQLite, and on a real PostgreSQL server."""
    store = Store(database_url)
    store.migrate()
    try:
        yield store
    finally:
        store.close()


def test_known_results_give_openskills_own_numbers_game_after_game(store: Store) -> None:
    ann, bob = add_account(store, "Ann"), add_account(store, "Bob")
    expected = [[OPENSKILL.rating()], [OPENSKILL.rating()]]
    for winner in (0, 0, 1):
        table, _ = rated_table(store, "cards-of-war", {}, [ann, bob])
        stored = store.finish_table(table, result([winner], ["won", "lost"] if winner == 0 else ["lost", "won"]))
        expected = OPENSKILL.rate(expected, ranks=[1, 2] if winner == 0 else [2, 1])
        assert stored["rated"] and stored["unrated"] is None
        assert [change["player"] for change in stored["ratings"]] == ["Ann", "Bob"]
    for account, (rating,) in zip((ann, bob), expected, strict=True):
        row = rating_of(store, account, "cards-of-war")
        assert row is not None
        assert row.mu == pytest.approx(rating.mu) and row.sigma == pytest.approx(rating.sigma)
        assert row.games == 3
    row = rating_of(store, ann, "cards-of-war")
    assert row is not None and row.wins == 2


def test_a_second_finish_applies_nothing_and_returns_the_first_result(store: Store) -> None:
    ann, bob = add_account(store, "Ann"), add_account(store, "Bob")
    table, _ = rated_table(store, "cards-of-war", {}, [ann, bob])
    first = store.finish_table(table, result([1], ["-", "-"]))
    row = rating_of(store, bob, "cards-of-war")
    assert row is not None
    again = store.finish_table(table, result([0], ["-", "-"]))  # a late copy of the hub, another process
    assert again == first and changes_of(store, table) == 2
    after = rating_of(store, bob, "cards-of-war")
    assert after is not None and (after.mu, after.sigma, after.games) == (row.mu, row.sigma, 1)


def test_two_processes_finishing_the_same_table_at_once_rate_it_once(store: Store) -> None:
    """Two server processes that both saw the end (one caught up with the other's last event) record it at
    the same moment, each through its own connection: the row lock lets one in, the other gets its result."""
    ann, bob = add_account(store, "Ann"), add_account(store, "Bob")
    table, _ = rated_table(store, "cards-of-war", {}, [ann, bob])
    other = Store(store.url)
    try:
        with ThreadPoolExecutor(2) as pool:
            answers = list(pool.map(
                lambda pair: pair[0].finish_table(table, result([pair[1]], ["-", "-"])), [(store, 0), (other, 0)]
            ))
    finally:
        other.close()
    assert answers[0] == answers[1] and changes_of(store, table) == 2
    row = rating_of(store, ann, "cards-of-war")
    assert row is not None and row.games == 1


def test_ties_share_a_place_and_scores_order_the_rest_where_the_game_ranks(store: Store) -> None:
    assert places("med-sirocco", result([0, 2], ["9 VP", "3 VP", "9 VP", "5 VP"]), 4) == [1, 3, 1, 2]
    assert places("naval-war", result([1], ["-4 points", "30 points", "12 points"]), 3) == [3, 1, 2]
    fleets = ["10 points (fleet A: 25)", "15 points (fleet A: 25)", "30 points (fleet B: 12)", "0 points (fleet C: 20)"]
    assert places("naval-war", result([0, 1], fleets), 4) == [1, 1, 3, 2]
    assert places("cards-of-war", result([], ["draw", "draw"]), 2) == [1, 1]
    assert places("race-to-messina", result([0], ["3 PT", "5 PT"]), 2) == [1, 2]  # the winner by the rules
    accounts = [add_account(store, name) for name in ("Ann", "Bob", "Cy", "Di")]
    table, _ = rated_table(store, "med-sirocco", {"players": 4}, list(accounts))
    store.finish_table(table, result([0, 2], ["9 VP", "3 VP", "9 VP", "5 VP"]))
    expected = OPENSKILL.rate([[OPENSKILL.rating()] for _ in range(4)], ranks=[1, 3, 1, 2])
    for account, (rating,) in zip(accounts, expected, strict=True):
        row = rating_of(store, account, "med-sirocco", "3-6p")
        assert row is not None and row.mu == pytest.approx(rating.mu) and row.sigma == pytest.approx(rating.sigma)


def test_each_game_rates_per_player_count_group_where_the_game_changes_with_it(store: Store) -> None:
    assert group_of("cards-of-war", {}) == ""
    assert group_of("race-to-messina", {"variant": "sicily"}) == ""
    assert [group_of("med-sirocco", {"players": n}) for n in (2, 3, 6)] == ["2p", "3-6p", "3-6p"]
    assert [group_of("naval-war", {"players": n}) for n in (2, 3, 9)] == ["2p", "3-9p", "3-9p"]
    assert group_of("naval-war", {"players": 4, "fleets": "2x2"}) == "fleets"
    for game, groups in GROUPS.items():
        assert groups[0] == group_of(game, {})  # the leaderboard's default group is the default game's
    ann, bob = add_account(store, "Ann"), add_account(store, "Bob")
    two, _ = rated_table(store, "med-sirocco", {"players": 2}, [ann, bob])
    store.finish_table(two, result([0], ["5 VP", "2 VP"]))
    assert rating_of(store, ann, "med-sirocco", "2p") is not None
    assert rating_of(store, ann, "med-sirocco", "3-6p") is None


def test_a_bot_seat_plays_at_its_published_rating_and_only_the_account_moves(store: Store) -> None:
    ann = add_account(store, "Ann")
    table, _ = rated_table(store, "cards-of-war", {}, [ann, None])
    stored = store.finish_table(table, result([1], ["-", "-"]))
    bot = OPENSKILL.rating(mu=25 + (published_rating("cards-of-war", "random", 2) - 1500) / POINTS_PER_MU, sigma=1.0)
    (rating,), _ = OPENSKILL.rate([[OPENSKILL.rating()], [bot]], ranks=[2, 1])
    row = rating_of(store, ann, "cards-of-war")
    assert row is not None and row.mu == pytest.approx(rating.mu) and row.sigma == pytest.approx(rating.sigma)
    assert [change["seat"] for change in stored["ratings"]] == [0] and changes_of(store, table) == 1


def test_a_game_a_stand_in_played_a_move_in_is_not_rated(store: Store) -> None:
    ann, bob = add_account(store, "Ann"), add_account(store, "Bob")
    table, _ = rated_table(store, "cards-of-war", {}, [ann, bob])
    store.append_events(table, [EventInfo(1, "chance", None, 3, None), EventInfo(2, "action", 0, 1, "s", stand_in=True)])
    assert store.events(table)[1].stand_in and not store.events(table)[0].stand_in
    stored = store.finish_table(table, result([0], ["-", "-"]))
    assert stored["rated"] and stored["unrated"] == UNRATED_STAND_IN and stored["ratings"] == []
    assert rating_of(store, ann, "cards-of-war") is None and changes_of(store, table) == 0


def test_an_unrated_table_changes_no_rating(store: Store) -> None:
    ann, bob = add_account(store, "Ann"), add_account(store, "Bob")
    table, _ = store.create_table("cards-of-war", {}, 1, True, None, [("person", None), ("person", None)])
    store.take_seat(table, 0, "Ann", ann)
    store.take_seat(table, 1, "Bob", bob)
    assert store.finish_table(table, result([0], ["-", "-"])) == {**result([0], ["-", "-"]), "rated": False}
    assert rating_of(store, ann, "cards-of-war") is None


# ----- the routes, in process ----------------------------------------------------------------------------------
def finish_by_resigning(client: TestClient, table: str, tokens: dict[int, str], seat: int) -> None:
    """Start the table (its seats were taken in the store) and have `seat` leave, which resigns it."""
    found = hub(client, table)
    assert client.portal is not None
    client.portal.call(found.resume)
    left = client.post(f"/tables/{table}/leave", headers={"Authorization": f"Bearer {tokens[seat]}"})
    assert left.status_code == 200, left.text


def test_the_end_message_and_the_table_carry_each_accounts_rating_change(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        store: Store = client.app.state.server.store  # type: ignore[attr-defined]
        ann, bob = add_account(store, "Ann"), add_account(store, "Bob")
        table, tokens = rated_table(store, "cards-of-war", {}, [ann, bob])
        finish_by_resigning(client, table, tokens, 1)
        with peer(client, table, tokens[0]) as connection:
            end = connection.until("end")["result"]
        (won,), (lost,) = OPENSKILL.rate([[OPENSKILL.rating()], [OPENSKILL.rating()]], ranks=[1, 2])
        assert end["rated"] and end["unrated"] is None
        assert [(c["player"], c["before"], c["after"]) for c in end["ratings"]] == [
            ("Ann", 1500, round(1500 + POINTS_PER_MU * (won.mu - 25))),
            ("Bob", 1500, round(1500 + POINTS_PER_MU * (lost.mu - 25))),
        ]
        assert all(c["provisional"] for c in end["ratings"])
        shown = client.get(f"/tables/{table}").json()
        assert shown["rated"] and shown["result"]["ratings"] == end["ratings"]


def test_joining_a_rated_table_without_signing_in_is_refused_with_a_reason(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        table = client.post("/tables", json={"game": "cards-of-war", "rated": True, "seats": [{"kind": "person"}] * 2})
        assert table.status_code == 201 and table.json()["rated"]
        joined = client.post(f"/tables/{table.json()['id']}/seats/0", json={"name": "guest"})
        assert joined.status_code == 403 and "sign in" in joined.json()["detail"]
        bots = client.post(
            "/tables", json={"game": "cards-of-war", "rated": True, "seats": [{"kind": "bot", "level": "random"}] * 2}
        )
        assert bots.status_code == 422 and "person seat" in bots.json()["detail"]


def test_the_profile_shows_ratings_games_and_win_rate_and_nothing_private(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        store: Store = client.app.state.server.store  # type: ignore[attr-defined]
        ann = add_account(store, "Ann", email="ann@example.org")
        bob = add_account(store, "Bob")
        public, tokens = rated_table(store, "cards-of-war", {}, [ann, bob])
        finish_by_resigning(client, public, tokens, 1)
        private, _ = store.create_table("cards-of-war", {}, 3, False, None, [("person", None), ("bot", "random")])
        store.take_seat(private, 0, "Ann", ann)
        store.finish_table(private, result([1], ["-", "-"]))
        answer = client.get("/players/ann")  # names are found whatever their case
        assert answer.status_code == 200
        profile = answer.json()
        assert profile["name"] == "Ann" and profile["games"] == 2 and profile["wins"] == 1 and profile["win_rate"] == 0.5
        (rating,) = profile["ratings"]
        assert rating["game"] == "cards-of-war" and rating["provisional"] and rating["rating"] > 1500
        recent = {game["table"]: game for game in profile["recent"]}
        assert set(recent) == {public, None}  # the private table's id (its invite) is not given away
        assert recent[public]["replay"] == f"/#/replay/{public}/0" and recent[public]["change"] > 0
        assert recent[None]["replay"] is None and recent[None]["outcome"] == "lost" and not recent[None]["rated"]
        text = answer.text
        assert ann not in text and "example.org" not in text and "argon2" not in text
        assert client.get("/players/nobody").status_code == 404


def test_the_leaderboard_orders_by_the_conservative_rating_page_by_page(tmp_path: Path) -> None:
    with lobby(tmp_path) as client:
        store: Store = client.app.state.server.store  # type: ignore[attr-defined]
        accounts = [add_account(store, name) for name in ("Ann", "Bob", "Cy")]
        for winner, loser in ((0, 1), (0, 2), (1, 2)):
            table, _ = rated_table(store, "cards-of-war", {}, [accounts[winner], accounts[loser]])
            store.finish_table(table, result([0], ["-", "-"]))
        first = client.get("/leaderboard/cards-of-war?limit=2")
        assert first.status_code == 200
        board = first.json()
        assert board["total"] == 3 and board["groups"] == [""]
        assert [(s["rank"], s["player"]) for s in board["standings"]] == [(1, "Ann"), (2, "Bob")]
        assert first.headers["X-Next-Offset"] == "2"
        rest = client.get("/leaderboard/cards-of-war?limit=2&offset=2").json()
        assert [(s["rank"], s["player"]) for s in rest["standings"]] == [(3, "Cy")]
        conservative = [s["conservative"] for s in board["standings"] + rest["standings"]]
        assert conservative == sorted(conservative, reverse=True)
        assert accounts[0] not in first.text
        assert client.get("/leaderboard/naval-war").json()["group"] == "3-9p"
        wrong = client.get("/leaderboard/naval-war?group=7p")
        assert wrong.status_code == 422 and "'fleets'" in wrong.json()["detail"]
        assert client.get("/leaderboard/chess").status_code == 404


IDENTITIES = ["no session", "guest seat token", "bot token", "spectator", "forged session cookie"]
"""Who asks (another signed-in account's rows, on a real server: test_another_account.py)."""


@pytest.mark.parametrize("who", IDENTITIES)
def test_authorization_matrix_of_the_ratings_routes(tmp_path: Path, who: str) -> None:
    """Profiles and leaderboards are public and read-only: every identity gets the same answer, with nothing
    private in it; nobody takes a rated table's seat without signing in."""
    with lobby(tmp_path) as client:
        store: Store = client.app.state.server.store  # type: ignore[attr-defined]
        ann, bob = add_account(store, "Ann", email="ann@example.org"), add_account(store, "Bob")
        table, _ = rated_table(store, "cards-of-war", {}, [ann, bob])
        store.finish_table(table, result([0], ["-", "-"]))
        unrated, bots = store.create_table("cards-of-war", {}, 1, True, None, [("person", None), ("bot", "random")])
        guest = store.take_seat(unrated, 0, "guest")
        assert guest is not None
        headers = {
            "no session": {}, "spectator": {}, "guest seat token": {"Authorization": f"Bearer {guest}"},
            "bot token": {"Authorization": f"Bearer {bots[1]}"}, "forged session cookie": {"Cookie": "session=forged"},
        }[who]
        for path in ("/players/Ann", "/leaderboard/cards-of-war"):
            answer = client.get(path, headers=headers)
            assert answer.status_code == 200 and answer.json() == client.get(path).json()
            assert ann not in answer.text and bob not in answer.text and "example.org" not in answer.text
        open_rated = client.post("/tables", json={"game": "cards-of-war", "rated": True, "seats": [{"kind": "person"}] * 2})
        rated_id = open_rated.json()["id"]
        joined = client.post(f"/tables/{rated_id}/seats/0", json={"name": "x"}, headers=headers)
        assert joined.status_code == 403
        assert client.get(f"/tables/{rated_id}").json()["seats"][0]["open"]


# ----- a real server, kill -9 on either side of the finishing transaction ---------------------------------------
def wait_for(what: Callable[[], bool], server: ServerProcess, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < deadline, server.log()[-2000:]
        time.sleep(0.05)


def status_of(store: Store, table: str) -> str:
    info = store.table(table)
    assert info is not None
    return info.status


def leave(server: ServerProcess, table: str, token: str) -> None:
    """The seat resigns (the server may die answering: the test hook)."""
    with contextlib.suppress(httpx.HTTPError):
        httpx.post(f"{server.http}/tables/{table}/leave", headers={"Authorization": f"Bearer {token}"}, timeout=30)


@pytest.fixture
def rated_server(
    database_url: str, tmp_path: Path
) -> Iterator[tuple[ServerProcess, Store, str, dict[int, str], list[str]]]:
    """A real server on its own database (SQLite, and PostgreSQL) and a rated Cards of War table of two
    accounts (its seats taken in the store, as signed-in joins take them; the server starts the game when it
    starts)."""
    database = database_url
    store = Store(database)
    store.migrate()
    accounts = [add_account(store, "Ann"), add_account(store, "Bob")]
    table, tokens = rated_table(store, "cards-of-war", {}, list(accounts))
    server = ServerProcess(database, tmp_path)
    try:
        yield server, store, table, tokens, accounts
    finally:
        store.close()
        server.stop()


def expected_after_one_game() -> list[tuple[float, float]]:
    (won,), (lost,) = OPENSKILL.rate([[OPENSKILL.rating()], [OPENSKILL.rating()]], ranks=[2, 1])
    return [(won.mu, won.sigma), (lost.mu, lost.sigma)]


def assert_rated_once(store: Store, table: str, accounts: list[str]) -> None:
    assert changes_of(store, table) == 2
    for account, (mu, sigma) in zip(accounts, expected_after_one_game(), strict=True):
        row = rating_of(store, account, "cards-of-war")
        assert row is not None and row.games == 1
        assert row.mu == pytest.approx(mu) and row.sigma == pytest.approx(sigma)


def test_killed_before_the_finish_commit_the_restart_applies_the_ratings_once(
    rated_server: tuple[ServerProcess, Store, str, dict[int, str], list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    server, store, table, tokens, accounts = rated_server
    monkeypatch.setenv(DIE_BEFORE_FINISH, "1")
    server.start()
    wait_for(lambda: status_of(store, table) == "playing", server)
    leave(server, table, tokens[0])  # seat 0 resigns: the game is over, and the process dies before recording it
    assert server.process is not None
    server.process.wait(60)
    assert server.process.returncode == -signal.SIGKILL
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.process.pid, signal.SIGKILL)  # its bot process, as a kill -9 of the service would
    assert store.events(table)[-1].kind == "resign"  # the last event is committed ...
    assert status_of(store, table) == "playing" and changes_of(store, table) == 0  # ... the end is not
    monkeypatch.delenv(DIE_BEFORE_FINISH)
    server.start()  # the restart rebuilds the table from its log, sees the end and records it
    wait_for(lambda: status_of(store, table) == "finished", server)
    assert_rated_once(store, table, accounts)
    info = store.table(table)
    assert info is not None and info.result is not None and info.result["winners"] == [1]
    assert [c["change"] > 0 for c in info.result["ratings"]] == [False, True]


def test_killed_after_the_finish_commit_the_restart_applies_nothing_again(
    rated_server: tuple[ServerProcess, Store, str, dict[int, str], list[str]],
) -> None:
    server, store, table, tokens, accounts = rated_server
    server.start()
    wait_for(lambda: status_of(store, table) == "playing", server)
    leave(server, table, tokens[0])
    wait_for(lambda: status_of(store, table) == "finished", server)
    server.kill()
    server.start()
    end = httpx.get(f"{server.http}/tables/{table}", timeout=30).json()["result"]
    assert end["rated"] and len(end["ratings"]) == 2
    server.kill()
    server.start()
    assert_rated_once(store, table, accounts)
    profile = httpx.get(f"{server.http}/players/Bob", timeout=30).json()
    assert profile["games"] == 1 and profile["wins"] == 1 and profile["ratings"][0]["games"] == 1


def test_a_rated_game_a_stand_in_moved_in_ends_unrated_and_says_so(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'stand-in.sqlite3'}"
    store = Store(database)
    store.migrate()
    ann = add_account(store, "Ann")
    timer = {"kind": "move", "seconds": 1, "on_timeout": "bot", "level": "random"}
    table, tokens = rated_table(store, "cards-of-war", {}, [ann, None], timer=timer)
    server = ServerProcess(database, tmp_path)
    try:
        server.start()
        # Ann is away: her move time runs out, and a stand-in bot plays for her (its acts are marked).
        wait_for(lambda: any(item.stand_in and item.seat == 0 for item in store.events(table)), server)
        leave(server, table, tokens[0])
        wait_for(lambda: status_of(store, table) == "finished", server)
        info = store.table(table)
        assert info is not None and info.result is not None
        assert info.result["rated"] and info.result["unrated"] == UNRATED_STAND_IN and info.result["ratings"] == []
        assert rating_of(store, ann, "cards-of-war") is None and changes_of(store, table) == 0
        assert all(not item.stand_in for item in store.events(table) if item.seat == 1)  # the bot seat's own bot
    finally:
        store.close()
        server.stop()
