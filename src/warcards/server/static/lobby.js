// What the lobby says of the games and of a table being set: each game by name with its one-line
// description, player counts, typical length and a link to how to play it (GET /games); the server's
// refusals as sentences (a 422's list of problems never reaches the page as JSON); and the invite link of a
// table waiting for its players, with a copy button.

import { h } from "./boards/index.js";
import { rulesHref } from "./rules.js";

/** A refusal's `detail` as a sentence: a string as it is, FastAPI's list of problems as "where: what". */
export function detailText(detail, status) {
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail) && detail.length) {
    return detail.map((problem) => {
      const where = (problem.loc || []).filter((part) => part !== "body").join(" ");
      return `${where ? `${String(where).replace(/_/g, " ")}: ` : ""}${problem.msg || "not accepted"}`;
    }).join("; ");
  }
  return `The server refused the request (HTTP ${status}).`;
}

/** The games, one entry each: name, description, players, typical length and "How to play". */
export function gamesSection(catalogue) {
  return h("section", { class: "games", "aria-labelledby": "games-h" },
    h("h2", { id: "games-h", text: "The games" }),
    h("ul", { class: "game-list" }, ...catalogue.games.map((game) => h("li", { class: "game-entry", "data-game": game.id },
      h("h3", { text: game.title || game.id }),
      game.description ? h("p", { class: "description", text: game.description }) : null,
      h("p", { class: "facts" },
        [game.players, game.typical_length ? `a game: ${game.typical_length}` : null].filter(Boolean).join(" · ")),
      h("a", { href: rulesHref(game.id), class: "rules-link", text: `How to play ${game.title || game.id}` })))));
}

/** What the quick game's bots are: "Bots at level heuristic, the strongest there is." */
export function botLevelText(level, levels) {
  const strongest = levels[levels.length - 1] === level ? ", the strongest here" : "";
  return `The other seats are bots at level "${level}"${strongest}; no timer; a private table.`;
}

async function copyText(text, field) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {  // no clipboard API here (or not allowed): select the field and copy the selection
    field.focus();
    field.select();
    try { return document.execCommand("copy"); } catch { return false; }
  }
}

/** The invite link of table `tableId` in a field, a "Copy the link" button and a visible "Copied". */
export function inviteBox(tableId) {
  const link = `${location.origin}${location.pathname}#/table/${encodeURIComponent(tableId)}`;
  const field = h("input", { id: "invite-link", value: link, readonly: true, "aria-label": "Invite link to this table" });
  const said = h("span", { id: "invite-copied", class: "copied", role: "status", "aria-live": "polite" });
  const button = h("button", { type: "button", id: "invite-copy", text: "Copy the link", onclick: async () => {
    const done = await copyText(link, field);
    said.textContent = done ? "Copied" : "Select the link and copy it (Ctrl+C)";
  } });
  return h("div", { class: "invite", id: "invite" },
    h("p", { text: "Send this link to the players you want at the table; it opens the table with its open seats:" }),
    h("p", { class: "row" }, field, button, said));
}
