// Optional accounts in the browser (docs/server.md, "Players and accounts"): the header's account links, and
// the pages #/signin, #/signup, #/me (My games) and #/settings. A guest plays without any of this; signing
// up or in hands the seats this browser holds (their tokens, in localStorage) to the account.

import { h } from "./boards/index.js";

const SEATS_KEY = "warcards.seats";  // the guest seats app.js keeps: {tableId: {seat, token, name}}
const NAME_KEY = "warcards.name";

let account = null;  // the signed-in account ({name, email, notify_turns}), or null

async function call(method, path, body) {
  const answer = await fetch(path, {
    method, credentials: "same-origin",
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = answer.status === 204 ? {} : await answer.json().catch(() => ({}));
  if (!answer.ok) {
    const error = new Error(typeof data.detail === "string" ? data.detail : `the server answered ${answer.status}`);
    error.status = answer.status;
    throw error;
  }
  return data;
}

function heldSeats() {
  try {
    return Object.entries(JSON.parse(localStorage.getItem(SEATS_KEY)) || {})
      .filter(([, held]) => held && typeof held.token === "string")
      .map(([table, held]) => ({ table, token: held.token }))
      .slice(0, 200);
  } catch { return []; }
}

/** The signed-in account, read once from GET /me (null for a guest). */
export async function currentAccount(fresh = false) {
  if (account !== null && !fresh) return account;
  try { account = await call("GET", "/me"); } catch { account = null; }
  return account;
}

/** The header's account links: "Sign in" for a guest; "My games", the settings and "Sign out" when signed in. */
export async function accountNav() {
  const nav = document.getElementById("account");
  if (!nav) return;
  const me = await currentAccount(true);
  if (!me) {
    nav.replaceChildren(h("a", { href: "#/signin", text: "Sign in" }), h("a", { href: "#/signup", text: "Sign up" }));
    return;
  }
  nav.replaceChildren(
    h("a", { href: "#/me", id: "my-games-link", text: "My games" }),
    h("a", { href: "#/settings", id: "account-name", text: me.name, "aria-label": `Settings of ${me.name}` }),
    h("button", { type: "button", id: "sign-out", class: "link", onclick: signOut, text: "Sign out" }),
  );
}

async function signOut() {
  try { await call("DELETE", "/session"); } catch { /* signed out already */ }
  account = null;
  await accountNav();
  location.hash = "#/lobby";
}

function field(id, label, attrs) {
  return h("p", {}, h("label", { for: id, text: label }), h("br"), h("input", { id, name: id, ...attrs }));
}

function refusalBox() {
  return h("p", { class: "refusal", role: "alert", hidden: true });
}

function fail(box, error) { box.textContent = error.message; box.hidden = false; }

function signForm(main, signingUp) {
  document.title = signingUp ? "warcards — sign up" : "warcards — sign in";
  const error = refusalBox();
  const form = h("form", { class: "account-form", "aria-labelledby": "account-h" },
    field("account-user", "User name", { autocomplete: "username", required: true, maxlength: 40,
                                         value: signingUp ? localStorage.getItem(NAME_KEY) || "" : "" }),
    field("account-password", signingUp ? "Password (8 characters or more)" : "Password",
          { type: "password", autocomplete: signingUp ? "new-password" : "current-password", required: true,
            minlength: signingUp ? 8 : 1, maxlength: 1024 }),
    error,
    h("button", { class: "primary", type: "submit", id: "account-submit", text: signingUp ? "Create the account" : "Sign in" }));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = form.querySelector("#account-user").value.trim();
    const password = form.querySelector("#account-password").value;
    try {
      const answer = await call("POST", signingUp ? "/accounts" : "/session", { name, password, seats: heldSeats() });
      account = { name: answer.name, email: answer.email, notify_turns: answer.notify_turns };
      localStorage.setItem(NAME_KEY, answer.name);
      await accountNav();
      location.hash = "#/me";
    } catch (e) { fail(error, e); }
  });
  main.append(
    h("h1", { id: "account-h", text: signingUp ? "Sign up" : "Sign in" }),
    h("p", { class: "doc", text: signingUp
      ? "An account is optional: it keeps your games (from any browser you sign in on) and your ratings. The seats you hold in this browser become your account's."
      : "Signed in, the seats you hold in this browser become your account's." }),
    form,
    h("p", {}, signingUp ? "Have an account? " : "No account yet? ",
      h("a", { href: signingUp ? "#/signin" : "#/signup", text: signingUp ? "Sign in" : "Sign up" }),
      " — or just play as a guest from the ", h("a", { href: "#/lobby", text: "lobby" }), "."),
  );
}

function gameRow(game, finished) {
  const players = game.players.map((name, seat) => (seat === game.seat ? `${name || "you"} (you)` : name || "open")).join(", ");
  const where = finished
    ? `${game.won ? "Won" : "Lost"}${game.result && game.result.reason ? ` — ${game.result.reason}` : ""}`
    : game.your_turn ? "Your turn" : game.status === "open" ? "Waiting for players" : "Their turn";
  return h("tr", { class: game.your_turn ? "your-turn" : null },
    h("td", { text: game.game }),
    h("td", { text: players }),
    h("td", {}, game.your_turn ? h("strong", { text: where }) : where),
    h("td", {}, h("a", { href: game.link, text: finished ? "Replay" : "Open the table",
                         "aria-label": `${finished ? "Replay" : "Open"} ${game.game} (${where})`,
                         onclick: finished ? null : (event) => openTable(event, game) })));
}

/** Open a running game's table with a token for the account's seat in this browser (a browser signed in
 * elsewhere holds none, or one another browser replaced): the one held is kept while it still works. */
async function openTable(event, game) {
  event.preventDefault();
  let all = {};
  try { all = JSON.parse(localStorage.getItem(SEATS_KEY)) || {}; } catch { all = {}; }
  const held = all[game.table] && typeof all[game.table].token === "string" ? all[game.table].token : null;
  try {
    const answer = await call("POST", `/me/games/${encodeURIComponent(game.table)}/token`, { token: held });
    all[game.table] = { seat: answer.seat, token: answer.token, name: account ? account.name : "" };
    localStorage.setItem(SEATS_KEY, JSON.stringify(all));
  } catch { /* the table page then offers what a spectator sees */ }
  location.hash = game.link;
}

function gamesTable(caption, games, finished, empty) {
  if (!games.length) return h("p", { class: "empty", text: empty });
  return h("table", { class: "my-games" },
    h("caption", { class: "visually-hidden", text: caption }),
    h("thead", {}, h("tr", {}, h("th", { text: "game" }), h("th", { text: "players" }),
      h("th", { text: finished ? "result" : "whose turn" }), h("th", { text: "" }))),
    h("tbody", {}, ...games.map((g) => gameRow(g, finished))));
}

async function myGamesPage(main) {
  document.title = "warcards — my games";
  const error = refusalBox();
  main.append(h("h1", { text: "My games" }), error);
  try {
    const games = await call("GET", "/me/games");
    const turns = games.running.filter((g) => g.your_turn).length;
    if (turns) document.title = `(${turns}) warcards — my games`;
    main.append(
      h("section", { "aria-labelledby": "running-h" }, h("h2", { id: "running-h", text: "Running games" }),
        gamesTable("Running games, your turn first", games.running, false, "No running game: start one in the lobby.")),
      h("section", { "aria-labelledby": "finished-h" }, h("h2", { id: "finished-h", text: "Finished games" }),
        gamesTable("Finished games, newest first", games.finished, true, "No finished game yet.")),
    );
  } catch (e) {
    if (e.status === 401) { location.hash = "#/signin"; return; }
    fail(error, e);
  }
}

async function settingsPage(main) {
  document.title = "warcards — settings";
  const me = await currentAccount(true);
  if (!me) { location.hash = "#/signin"; return; }
  const saved = h("p", { role: "status", "aria-live": "polite" });
  const error = refusalBox();
  const email = h("input", { id: "settings-email", type: "email", autocomplete: "email", maxlength: 254, value: me.email || "" });
  const notify = h("input", { id: "settings-notify", type: "checkbox", checked: me.notify_turns });
  const settings = h("form", { "aria-labelledby": "notices-h" },
    h("p", {}, h("label", { for: "settings-email", text: "Email (for turn notices; leave empty for none)" }), h("br"), email),
    h("p", {}, notify, " ", h("label", { for: "settings-notify", text: "Email me when it becomes my turn in a correspondence game" })),
    h("button", { class: "primary", type: "submit", text: "Save" }));
  settings.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      account = await call("PATCH", "/me", { email: email.value.trim() || null, notify_turns: notify.checked });
      error.hidden = true;
      saved.textContent = "Saved.";
    } catch (e) { fail(error, e); }
  });
  const password = h("form", { "aria-labelledby": "password-h" },
    field("old-password", "Current password", { type: "password", autocomplete: "current-password", required: true }),
    field("new-password", "New password (8 characters or more; your other browsers are signed out)",
          { type: "password", autocomplete: "new-password", required: true, minlength: 8, maxlength: 1024 }),
    h("button", { type: "submit", text: "Change the password" }));
  password.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await call("POST", "/me/password", { old_password: password.querySelector("#old-password").value,
                                          new_password: password.querySelector("#new-password").value });
      password.reset();
      error.hidden = true;
      saved.textContent = "Password changed; your other browsers are signed out.";
    } catch (e) { fail(error, e); }
  });
  const removal = h("form", { "aria-labelledby": "delete-h" },
    h("p", { text: "Your games stay, shown under the name \u201cDeleted player\u201d. Your name, email and password are removed." }),
    field("delete-password", "Password", { type: "password", autocomplete: "current-password", required: true }),
    h("button", { type: "submit", class: "danger", text: "Delete my account" }));
  removal.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!confirm(`Delete the account ${me.name}? This cannot be undone.`)) return;
    try {
      await call("POST", "/me/delete", { password: removal.querySelector("#delete-password").value });
      account = null;
      await accountNav();
      location.hash = "#/lobby";
    } catch (e) { fail(error, e); }
  });
  main.append(
    h("h1", {}, "Settings of ", h("span", { text: me.name })),
    error, saved,
    h("section", {}, h("h2", { id: "notices-h", text: "Turn notices" }), settings),
    h("section", {}, h("h2", { id: "password-h", text: "Password" }), password),
    h("section", {}, h("h2", { id: "delete-h", text: "Delete the account" }), removal),
    h("p", {}, h("button", { type: "button", onclick: signOut, text: "Sign out" })),
  );
}

/** The account pages: true when `page` (the hash's first part) is one of them and it was shown. */
export function accountRoute(page, main) {
  if (page === "signin" || page === "signup") { signForm(main, page === "signup"); return true; }
  if (page === "me") { myGamesPage(main); return true; }
  if (page === "settings") { settingsPage(main); return true; }
  return false;
}
