// Ratings in the browser (docs/server.md, "Ratings"): a player's profile (#/players/NAME), a game's
// leaderboard (#/leaderboard/GAME[/GROUP]), the rating changes on the end screen, and the "rated" choice
// when a table is made. Reads GET /players/{name} and GET /leaderboard/{game}; every name is text, never HTML.

import { api } from "./app.js";
import { h } from "./boards/index.js";

const PAGE = 50;
const number = (value) => value.toLocaleString("en");
const signed = (value) => (value > 0 ? `+${value}` : value < 0 ? `−${-value}` : "±0");
const groupName = (group) => (group ? group.replace("p", " players") : "all");
const profileLink = (name) => h("a", { href: `#/players/${encodeURIComponent(name)}`, text: name });
const rating = (standing) => `${number(standing.rating)}${standing.provisional ? "?" : ""}`;

/** The end screen's ratings part: each account's change ("+12 → 1,512"), or why a rated game did not count. */
export function ratingChanges(result) {
  if (!result || !result.rated) return null;
  if (result.unrated) return h("p", { id: "rating-changes", class: "doc", text: `This rated game was ${result.unrated}.` });
  return h("section", { id: "rating-changes", "aria-labelledby": "rating-changes-h" },
    h("h3", { id: "rating-changes-h", text: "Ratings" }),
    h("ul", { class: "rating-changes" }, result.ratings.map((change) => h("li", {},
      profileLink(change.player), ": ",
      h("b", { class: change.change >= 0 ? "gain" : "loss", text: signed(change.change) }),
      ` → ${number(change.after)}${change.provisional ? " (provisional)" : ""}`))));
}

/** The create form's "rated" box: its label (to place in the form) and whether it is ticked. */
export function ratedChoice() {
  const box = h("input", { type: "checkbox", id: "rated", "aria-describedby": "rated-doc" });
  const label = h("label", {}, box, " rated (every person seat needs an account; bots play at their published rating) ",
    h("span", { id: "rated-doc", class: "doc", text: "a stand-in bot's move makes the game unrated" }));
  return { label, checked: () => box.checked };
}

function failure(main, error) {
  main.append(h("p", { class: "refusal", role: "alert", text: error.message }));
}

/** #/players/NAME: ratings per game and group, games played and win rate, the newest games with replays. */
export function playerPage(name, main) {
  document.title = `warcards — ${name}`;
  let closed = false;
  (async () => {
    try {
      const p = await api("GET", `/players/${encodeURIComponent(name)}`);
      if (closed) return;
      document.title = `warcards — ${p.name}`;
      main.append(
        h("h1", { text: p.name }),
        h("p", { id: "player-summary", text: `${p.games} finished game${p.games === 1 ? "" : "s"}` +
          (p.win_rate === null ? "" : `, ${p.wins} won (${Math.round(p.win_rate * 100)}%)`) }),
        h("section", { "aria-labelledby": "ratings-h" }, h("h2", { id: "ratings-h", text: "Ratings" }),
          p.ratings.length ? h("table", { class: "standings", id: "player-ratings" },
            h("thead", {}, h("tr", {}, ...["game", "players", "rating", "games", "won"].map((t) => h("th", { scope: "col", text: t })))),
            h("tbody", {}, p.ratings.map((r) => h("tr", {},
              h("td", {}, h("a", { href: `#/leaderboard/${r.game}/${encodeURIComponent(r.group)}`, text: r.game })),
              h("td", { text: groupName(r.group) }),
              h("td", { text: rating(r), title: r.provisional ? "provisional: a few more games make it sure" : null }),
              h("td", { text: String(r.games) }), h("td", { text: String(r.wins) })))))
            : h("p", { text: "No rated game yet." })),
        h("section", { "aria-labelledby": "recent-h" }, h("h2", { id: "recent-h", text: "Recent games" }),
          p.recent.length ? h("ul", { id: "player-games", class: "log" }, p.recent.map((g) => h("li", {},
            `${new Date(g.at * 1000).toLocaleDateString("en")} · ${g.game} · ${g.outcome}`,
            g.change === null ? (g.rated ? " · rated" : "") : ` · ${signed(g.change)}`,
            g.replay ? [" · ", h("a", { href: g.replay.slice(1), text: "replay" })] : " · private table")))
            : h("p", { text: "No finished game yet." })));
    } catch (e) { if (!closed) failure(main, e); }
  })();
  return () => { closed = true; };
}

/** #/leaderboard/GAME[/GROUP]: the standings, best first by the conservative rating, a page at a time. */
export function leaderboardPage(game, group, main) {
  document.title = `warcards — leaderboard ${game}`;
  let closed = false;
  let offset = 0;
  const body = h("tbody");
  const status = h("p", { id: "leaderboard-status", role: "status" });
  const pager = h("p", { class: "row" });
  const groupSelect = h("select", { id: "leaderboard-group", "aria-label": "Player-count group" });
  const gameSelect = h("select", { id: "leaderboard-game", "aria-label": "Game" });
  main.append(h("h1", { text: `Leaderboard: ${game}` }),
    h("p", { class: "row" }, h("label", {}, "game ", gameSelect), h("label", {}, "players ", groupSelect)),
    status,
    h("table", { class: "standings", id: "leaderboard" },
      h("thead", {}, h("tr", {}, ...["#", "player", "rating", "games", "won"].map((t) => h("th", { scope: "col", text: t })))),
      body),
    pager,
    h("p", { class: "doc", text: "Ordered by the rating minus three deviations, so a few lucky games do not top the board; " +
      "a rating with ? is provisional." }));
  gameSelect.addEventListener("change", () => { location.hash = `#/leaderboard/${gameSelect.value}`; });
  groupSelect.addEventListener("change", () => { location.hash = `#/leaderboard/${game}/${encodeURIComponent(groupSelect.value)}`; });
  async function load() {
    try {
      const query = `limit=${PAGE}&offset=${offset}${group === undefined ? "" : `&group=${encodeURIComponent(group)}`}`;
      const board = await api("GET", `/leaderboard/${encodeURIComponent(game)}?${query}`);
      if (closed) return;
      groupSelect.replaceChildren(...board.groups.map((g) => h("option", { value: g, text: groupName(g), selected: g === board.group })));
      status.textContent = board.total ? `${board.total} rated player${board.total === 1 ? "" : "s"}` : "No rated game yet.";
      body.replaceChildren(...board.standings.map((s) => h("tr", {},
        h("td", { text: String(s.rank) }), h("td", {}, profileLink(s.player)), h("td", { text: rating(s) }),
        h("td", { text: String(s.games) }), h("td", { text: String(s.wins) }))));
      pager.replaceChildren(
        offset > 0 ? h("button", { type: "button", text: "◀ Better ranks", onclick: () => { offset = Math.max(0, offset - PAGE); load(); } }) : "",
        offset + PAGE < board.total ? h("button", { type: "button", text: "More ranks ▶", onclick: () => { offset += PAGE; load(); } }) : "");
    } catch (e) { if (!closed) failure(main, e); }
  }
  (async () => {
    try {
      const catalogue = await api("GET", "/games");
      if (closed) return;
      gameSelect.replaceChildren(...catalogue.games.map((g) => h("option", { value: g.id, text: g.id, selected: g.id === game })));
    } catch { /* the selector stays empty: the board itself still loads */ }
  })();
  load();
  return () => { closed = true; };
}
