// The browser client of `warcards serve`: the lobby and a table page for every game, using only the
// documented REST API and WebSocket protocol v1 (docs/protocol.md). No build step: a plain ES module.

import { cardPlaces, h, markMoved, renderTable, resultBreakdown } from "./boards/index.js";
import { clockBox } from "./clock.js";
import { correspondenceNote } from "./notices.js";
import { replayPage } from "./replay.js";
import { botLevelText, detailText, gamesSection, inviteBox } from "./lobby.js";
import { pacer } from "./pacing.js";
import { reconnectBox } from "./reconnect.js";
import { rulesHref, rulesPage, rulesShown, showAnchor } from "./rules.js";
import { leaderboardPage, playerPage, ratedChoice, ratingChanges } from "./ratings.js";
import { logLine, nameInput, nameToJoin, othersTurn, seatNames, seatNote, watchingText, withNames } from "./names.js";
import { accountNav, accountRoute } from "./account.js";  // optional accounts: #/signin, #/signup, #/me, #/settings
import { socialPanel } from "./social.js";

const SEATS_KEY = "warcards.seats";  // {tableId: {seat, token, name}} kept in this browser only
const main = document.getElementById("main");
const connection = document.getElementById("connection");

// ----- small helpers ------------------------------------------------------------------------------------
export async function api(method, path, body) {
  const answer = await fetch(path, {
    method, headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) throw new Error(detailText(data.detail, answer.status));
  return data;
}

function seats() { try { return JSON.parse(localStorage.getItem(SEATS_KEY)) || {}; } catch { return {}; } }
function keepSeat(table, seat) { const all = seats(); all[table] = seat; localStorage.setItem(SEATS_KEY, JSON.stringify(all)); }
function forgetSeat(table) { const all = seats(); delete all[table]; localStorage.setItem(SEATS_KEY, JSON.stringify(all)); }
function words(key) { return key.replace(/_/g, " "); }
function shown(value) { return value === null ? "—" : typeof value === "boolean" ? (value ? "yes" : "no") : String(value); }
function messageId() { return `m${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`; }

let stopPage = () => {};

// ----- routing: #/lobby, #/table/ID, #/replay/ID[/SEAT[/STEP]], #/rules/GAME[/ANCHOR] -------------------------
async function route(first) {
  const [, page, id, seat, step] = location.hash.split("/");
  if (page === "rules" && id && rulesShown(decodeURIComponent(id))) return showAnchor(seat && decodeURIComponent(seat));
  stopPage();
  stopPage = () => {};
  main.replaceChildren();
  main.classList.remove("table-page");
  setFavicon(false);
  connection.textContent = "";
  if (page === "table" && id) return tablePage(decodeURIComponent(id));
  if (page === "replay" && id) { stopPage = replayPage(decodeURIComponent(id), main, seat && decodeURIComponent(seat), step); return; }
  if (page === "rules" && id) { stopPage = rulesPage(decodeURIComponent(id), seat && decodeURIComponent(seat), main, api); return; }
  // ratings.js: #/players/NAME, #/leaderboard/GAME[/GROUP]
  if (page === "players" && id) { stopPage = playerPage(decodeURIComponent(id), main); return; }
  if (page === "leaderboard") { stopPage = leaderboardPage(id ? decodeURIComponent(id) : "cards-of-war", seat === undefined ? undefined : decodeURIComponent(seat), main); return; }
  if (accountRoute(page, main)) return;
  if (first && !page) {
    for (const table of Object.keys(seats())) {  // a returning player goes back to an unfinished table
      try {
        const info = await api("GET", `/tables/${encodeURIComponent(table)}`);
        if (info.status !== "finished") { location.hash = `#/table/${table}`; return; }
      } catch { forgetSeat(table); }
    }
  }
  return lobbyPage();
}

// ----- the lobby --------------------------------------------------------------------------------------------
async function lobbyPage() {
  document.title = "warcards — lobby";
  const error = h("p", { class: "refusal", role: "alert", hidden: true });
  const list = h("tbody");
  const name = nameInput({ id: "name", "aria-label": "Display name" });
  main.append(
    h("h1", { text: "Lobby" }),
    h("p", {}, h("label", { for: "name", text: "Display name " }), name),
    error,
    h("section", { "aria-labelledby": "open-h" },
      h("div", { class: "row" }, h("h2", { id: "open-h", text: "Public tables with an open seat" }),
        h("button", { onclick: () => refresh(), "aria-label": "Refresh the list of tables", text: "Refresh" })),
      h("table", { class: "tables" },
        h("thead", {}, h("tr", {}, h("th", { text: "game" }), h("th", { text: "seats" }), h("th", { text: "options" }), h("th", { text: "" }))),
        list)),
  );
  const playerName = () => nameToJoin(name);  // names.js: the name typed, else this browser's guest name
  const fail = (e) => { error.textContent = e.message; error.hidden = false; };
  async function join(table, seat) {
    try {
      const player = playerName();
      const joined = await api("POST", `/tables/${table}/seats/${seat}`, { name: player });
      keepSeat(table, { seat, token: joined.token, name: player });
      location.hash = `#/table/${table}`;
    } catch (e) { fail(e); }
  }
  async function refresh() {
    try {
      const tables = await api("GET", "/tables");
      list.replaceChildren(...(tables.length ? tables.map((t) => h("tr", {},
        h("td", {}, h("a", { href: `#/table/${t.id}`, text: t.game }), t.rated ? " · rated" : "", t.options.params ? " · house rules" : ""),
        h("td", { text: t.seats.map((s) => `${s.seat_name}: ${s.open ? "open" : s.player || s.level || "bot"}`).join(", ") }),
        h("td", { text: Object.entries(t.options).map(([k, v]) => k === "params"
          ? `house rules: ${Object.entries(v).map(([name, n]) => `${name}=${n}`).join(", ")}` : `${k}=${v}`).join(" ") }),
        h("td", {}, ...t.seats.filter((s) => s.open).map((s) => h("button", {
          onclick: () => join(t.id, s.seat), text: `Join as ${s.seat_name}`,
          "aria-label": `Join ${t.game} as ${s.seat_name}` })))))
        : [h("tr", {}, h("td", { colspan: 4, text: "No open public table: create one below." }))]));
    } catch (e) { fail(e); }
  }
  refresh();
  const timer = setInterval(refresh, 5000);
  stopPage = () => clearInterval(timer);

  const catalogue = await api("GET", "/games");
  if (!main.contains(list)) return;  // the player left the lobby while the games were read
  const form = h("form", { class: "create", "aria-labelledby": "create-h" });
  const gameSelect = h("select", { id: "game", "aria-label": "Game" },
    ...catalogue.games.map((g) => h("option", { value: g.id, text: g.title || g.id })));
  const optionsBox = h("div");
  const seatsBox = h("div");
  const timerSelect = h("select", { id: "timer", "aria-label": "Timer: a limit per move or a chess clock" },
    ...[["none", "no timer"], ["move:60", "60 s a move"], ["move:300", "5 min a move"], ["move:86400", "1 day a move"],
        ["move:259200", "3 days a move"],
        ["total:300:5", "chess clock: 5 min +5 s a move"], ["total:900:10", "chess clock: 15 min +10 s a move"],
        ["total:3600:0", "chess clock: 1 hour"]]
      .map(([v, t]) => h("option", { value: v, text: t })));
  const onTimeout = h("select", { id: "on-timeout", "aria-label": "When a seat runs out of time" },
    h("option", { value: "bot", text: "a bot stands in until its player is back" }),
    h("option", { value: "forfeit", text: "the seat forfeits" }));
  const chosenTimer = () => {  // "move:60" or "total:300:5" (a chess clock: the bank, the increment)
    const [kind, seconds, increment] = timerSelect.value.split(":");
    if (kind === "none") return { kind };
    return { kind, seconds: Number(seconds), ...(kind === "total" ? { increment: Number(increment) } : {}), on_timeout: onTimeout.value };
  };
  const publicBox = h("input", { type: "checkbox", checked: true, "aria-label": "Public table" });
  const rated = ratedChoice();  // ratings.js
  const game = () => catalogue.games.find((g) => g.id === gameSelect.value);
  // House rules (docs/tuning.md): the game's rule parameters for the options chosen, each a number in its range.
  const paramsBox = h("div", { class: "params" });
  const houseRules = h("details", { class: "house-rules" },
    h("summary", { text: "House rules: change a number of the rules (hand sizes, goals…)" }), paramsBox);
  const chosenParams = () => {
    const params = {};
    for (const input of paramsBox.querySelectorAll("input")) {
      if (input.value !== "" && Number(input.value) !== Number(input.dataset.default)) params[input.name] = Number(input.value);
    }
    return params;
  };
  const chosen = () => {
    const options = {};
    for (const select of optionsBox.querySelectorAll("select")) {
      const spec = game().options.find((o) => o.name === select.name);
      const value = spec.allowed[Number(select.value)];
      if (JSON.stringify(value) !== JSON.stringify(spec.default)) options[spec.name] = value;
    }
    const params = chosenParams();
    if (Object.keys(params).length) options.params = params;
    return options;
  };
  function showParams(parameters) {
    const kept = chosenParams();
    paramsBox.replaceChildren(...(parameters || []).map((spec) => h("label", {},
      `${words(spec.name)} `,
      h("input", { type: "number", name: spec.name, min: String(spec.low), max: String(spec.high), step: "1",
                   value: String(kept[spec.name] ?? spec.default), "data-default": String(spec.default),
                   "aria-label": `${words(spec.name)}: ${spec.meaning} (${spec.low} to ${spec.high}; the rules say ${spec.default})`,
                   onchange: updateSeats }),
      h("span", { class: "doc", text: `${spec.meaning}; ${spec.low}–${spec.high}, the rules say ${spec.default} (${spec.rule})` }))));
  }
  async function updateSeats() {
    try {
      const answer = await api("POST", `/games/${gameSelect.value}/seats`, { options: chosen() });
      error.hidden = true;
      showParams(answer.parameters);
      form.querySelector("button[type=submit]").disabled = false;
      const kept = Object.fromEntries([...seatsBox.querySelectorAll("select")].map((s) => [s.name, s.value]));
      seatsBox.replaceChildren(...answer.seat_names.map((seatName, seat) => h("label", {},
        `${seatName}: `,
        h("select", { name: `seat${seat}`, "aria-label": `Who plays ${seatName}` },
          h("option", { value: "person", text: "a person", selected: seat === 0 }),
          ...catalogue.levels.map((level) => h("option", { value: level, selected: seat > 0 && level === "heuristic",
            text: `bot: ${level}${answer.bot_ratings?.[level] ? ` (${answer.bot_ratings[level]})` : ""}` }))))));
      for (const select of seatsBox.querySelectorAll("select")) {  // an answer arriving late keeps what was chosen
        if (kept[select.name]) select.value = kept[select.name];
      }
    } catch (e) { fail(e); seatsBox.replaceChildren(); form.querySelector("button[type=submit]").disabled = true; }  // options the engine refuses: nothing to create
  }
  function showOptions() {
    optionsBox.replaceChildren(...game().options.filter((o) => o.allowed !== null).map((o) => {
      const select = h("select", { name: o.name, "aria-label": `${o.name}: ${o.doc}`, onchange: updateSeats },
        ...o.allowed.map((value, i) => h("option", { value: i, text: shown(value), selected: JSON.stringify(value) === JSON.stringify(o.default) })));
      return h("label", {}, `${words(o.name)} `, select, h("span", { class: "doc", text: o.doc }));
    }));
    updateSeats();
  }
  gameSelect.addEventListener("change", showOptions);
  const again = (() => { try { return JSON.parse(localStorage.getItem("warcards.again")); } catch { return null; } })();
  localStorage.removeItem("warcards.again");
  if (again && catalogue.games.some((g) => g.id === again.game)) gameSelect.value = again.game;
  async function create(allBots) {
    try {
      const player = playerName();
      const seatSpecs = allBots
        ? (await api("POST", `/games/${gameSelect.value}/seats`, { options: {} })).seat_names.map((_, i) =>
          i === 0 ? { kind: "person" } : { kind: "bot", level: "heuristic" })
        : [...seatsBox.querySelectorAll("select")].map((s) =>
          s.value === "person" ? { kind: "person" } : { kind: "bot", level: s.value });
      const timer = chosenTimer();
      const table = await api("POST", "/tables", { game: gameSelect.value, options: allBots ? {} : chosen(), seats: seatSpecs,
                                                   public: allBots ? false : publicBox.checked, timer: allBots ? { kind: "none" } : timer,
                                                   rated: allBots ? false : rated.checked() });
      const mine = seatSpecs.findIndex((s) => s.kind === "person");
      if (mine >= 0) {
        const joined = await api("POST", `/tables/${table.id}/seats/${mine}`, { name: player });
        keepSeat(table.id, { seat: mine, token: joined.token, name: player });
      }
      location.hash = `#/table/${table.id}`;
    } catch (e) { fail(e); }
  }
  form.addEventListener("submit", (event) => { event.preventDefault(); create(false); });
  main.append(
    h("section", {}, h("h2", { text: "Play against bots now" }),
      h("p", {}, h("label", { for: "quick-game", text: "Game " }),
        h("select", { id: "quick-game", "aria-label": "Game to play against bots",
                      onchange: (e) => { gameSelect.value = e.target.value; showOptions(); } },
          ...catalogue.games.map((g) => h("option", { value: g.id, text: g.title || g.id }))), " ",
        h("button", { class: "primary", id: "quick", type: "button", onclick: () => create(true), text: "Play against bots now" })),
      h("p", { class: "doc", id: "quick-level", text: botLevelText("heuristic", catalogue.levels) })),
    gamesSection(catalogue),
    h("section", {}, h("h2", { id: "create-h", text: "Create a table" }),
      form.appendChild(h("div", {},
        h("label", {}, "game ", gameSelect), optionsBox,
        h("h3", { text: "Seats" }), seatsBox,
        h("label", {}, "timer ", timerSelect, correspondenceNote(timerSelect)), h("label", {}, "out of time: ", onTimeout),
        h("label", {}, publicBox, " public (listed in the lobby)"), rated.label, houseRules,
        h("button", { class: "primary", type: "submit", text: "Create the table" }))) && form),
  );
  showOptions();
  if (again && again.game === gameSelect.value) {  // "Play again": the last game's options, chosen again
    for (const select of optionsBox.querySelectorAll("select")) {
      const spec = game().options.find((o) => o.name === select.name);
      const index = spec.allowed.findIndex((v) => JSON.stringify(v) === JSON.stringify(again.options[spec.name]));
      if (index >= 0) select.value = String(index);
    }
    updateSeats();
    form.scrollIntoView();
  }
}

// ----- a table ------------------------------------------------------------------------------------------
const ONE_CLICK_KEY = "warcards.oneClick";  // "1": a click on a card that takes part in one move plays it
const SOUND_KEY = "warcards.sound";          // "1": a short tone when the turn comes to this seat
const NOTIFY_KEY = "warcards.notify";        // "1": a browser notification when the turn comes and the tab is hidden
const GAME_TITLES = { "race-to-messina": "Race to Messina", "med-sirocco": "Med Sirocco", "naval-war": "Naval War", "cards-of-war": "Cards of War" };
const FAVICON = (dot) => `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect x="2" y="1" width="10" height="14" rx="2" fill="#1f2a36"/>${dot ? '<circle cx="12" cy="4" r="4" fill="#d22"/>' : ""}</svg>`)}`;

function gameTitle(game) { return GAME_TITLES[game] || game; }
function setFavicon(dot) {
  let link = document.querySelector("link[rel=icon]");
  if (!link) { link = h("link", { rel: "icon" }); document.head.append(link); }
  link.href = FAVICON(dot);
}
function beep() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator(); const gain = audio.createGain();
    tone.frequency.value = 660; gain.gain.value = 0.08;
    tone.connect(gain).connect(audio.destination); tone.start(); tone.stop(audio.currentTime + 0.18);
  } catch { /* no audio in this browser: the title and favicon still say it */ }
}


function tablePage(tableId) {
  document.title = "warcards — table";
  main.classList.add("table-page");
  const mine = seats()[tableId] || null;
  const state = { eventNo: null, seat: null, names: [], seatNames: [], players: [], watching: 0, info: null, game: "", view: null, toMove: null, legal: null,
                  ended: false, socket: null, retry: 0, closed: false, pending: null, facts: {}, selected: null, frame: 0,
                  myTurn: false, lastMoveLine: 0, lines: 0, focusMoves: false };
  const title = h("h1", { text: "Table" });
  const rulesLink = h("a", { class: "rules-link", id: "table-rules", href: "#/lobby", text: "How to play", hidden: true });
  const reconnect = reconnectBox();
  const watching = h("p", { class: "watching", id: "watching", hidden: true });
  const clock = clockBox((message) => state.socket?.send(JSON.stringify({ protocol: 1, ...message })), (seat) => seatName(seat));
  const refusal = h("p", { class: "refusal", id: "refusal", role: "alert", hidden: true });
  const joinBox = h("div", { id: "join" });
  const waiting = h("div", { id: "waiting", hidden: true }, h("p", { text: "Waiting for every seat to be taken." }), inviteBox(tableId));
  const result = h("section", { class: "result", id: "result", "aria-labelledby": "result-h", hidden: true });
  const banner = h("p", { class: "banner", id: "turn-banner", role: "status", "aria-live": "polite" });
  const moves = h("div", { class: "moves", id: "moves", role: "group", "aria-label": "Your legal moves" });
  const typed = h("input", { id: "typed", "aria-label": "Type a move in notation", placeholder: "or type a move" });
  const movesSection = h("section", { hidden: true, class: "your-move", id: "your-move", "aria-label": "Your move", tabindex: "-1" }, moves,
    h("form", { class: "row typed", onsubmit: (e) => {
      e.preventDefault();
      if (!typed.value.trim()) return;
      act(typed.value.trim());
      state.focusMoves = false;  // a typed move keeps the keyboard in the field: the answer's redraw does not move it to a button
    } },
      typed, h("button", { type: "submit", text: "Send" })));
  const handSlot = h("div", { class: "hand-slot" });
  const bar = h("section", { class: "action-bar", id: "action-bar", "aria-label": "Your turn, your hand and your moves" },
    banner, refusal, reconnect.node, handSlot, movesSection);
  const view = h("div", { class: "view", id: "view", "aria-label": "The table" });
  const log = h("ol", { class: "log", id: "log", "aria-label": "Game log", tabindex: "0" });
  const settings = h("details", { class: "settings" }, h("summary", { text: "Settings" }),
    ...[[ONE_CLICK_KEY, "One click on a card plays it when it takes part in one move"],
        [SOUND_KEY, "A sound when it is your turn"],
        [NOTIFY_KEY, "A browser notification when it is your turn and this tab is hidden"]].map(([key, text]) => h("label", { class: "setting" },
      h("input", { type: "checkbox", checked: localStorage.getItem(key) === "1", onchange: (e) => {
        localStorage.setItem(key, e.target.checked ? "1" : "0");
        if (key === NOTIFY_KEY && e.target.checked && "Notification" in window && Notification.permission === "default") Notification.requestPermission();
      } }), ` ${text}`)));
  const actions = h("div", { class: "row table-actions" });
  const social = socialPanel({  // the chat panel and the rematch flow (static/social.js)
    send: (message) => state.socket?.readyState === WebSocket.OPEN && state.socket.send(JSON.stringify({ protocol: 1, ...message })),
    page: () => ({ seat: state.seat, names: state.names, info: state.info, game: state.game }),
    seated: (table, seat, token) => { keepSeat(table, { seat, token, name: mine?.name || "" }); location.hash = `#/table/${table}`; },
  });
  const skip = h("a", { class: "skip", href: "#your-move", text: "Skip to your moves",
                        onclick: (e) => { e.preventDefault(); (moves.querySelector("button") || movesSection).focus(); } });
  main.append(skip, title, watching, waiting, joinBox, result,
    h("div", { class: "table-grid" },
      h("div", { class: "table-main" }, clock.node, view),
      h("section", { class: "log-box", "aria-labelledby": "log-h" }, h("h2", { id: "log-h", text: "What happened" }), log, social.node)),
    h("div", { class: "row below" }, actions, rulesLink, settings), bar);
  api("GET", `/tables/${encodeURIComponent(tableId)}/cards`).then((facts) => { state.facts = facts; schedule(); }, () => {});
  function readInfo() {
    return api("GET", `/tables/${encodeURIComponent(tableId)}`).then((info) => { state.info = info; social.draw(); schedule(); return info; });
  }

  function refuse(text) { refusal.textContent = text; refusal.hidden = false; }
  function nameSeats(players, count) {  // the players of a welcome, a players message or the end (names.js)
    if (players) state.players = players;
    if (count !== undefined) state.watching = count;
    ({ labels: state.names, short: state.shortNames } = seatNames(state.players, state.seatNames));
    watching.textContent = watchingText(state.watching);
    watching.hidden = !state.watching;
    for (const entry of entries) showEntry(entry);  // lines read before the names came
  }
  const shortNames = () => state.shortNames || [];
  function named(text) { return withNames(text, state.seatNames, shortNames()); }  // "player 1" → "Alice"
  const entries = [];  // the log: {raw, actor, count, node}, a run of the same line folded into one ("draws a card ×3")
  const entryText = (entry) => `${named(entry.raw)}${entry.count > 1 ? ` ×${entry.count}` : ""}`;
  const showEntry = (entry) => logLine(entry.node, entryText(entry),  // the actor's name chip: another seat's only
    entry.actor >= 0 && entry.actor !== state.seat ? shortNames()[entry.actor] : null);
  function addLines(event) {
    const lines = event.lines.length ? event.lines.map((l) => [l.text, l.actor]) : [[event.text, event.actor]];
    for (const [raw, actor] of lines) {
      const last = entries[entries.length - 1];
      const isNew = Boolean(state.lastMoveLine && state.seat !== null);
      if (last && last.raw === raw && last.node.classList.contains("new") === isNew) {
        last.count += 1;
        showEntry(last);
        last.node.classList.add("folded");
        continue;
      }
      const entry = { raw, actor: actor ?? null, count: 1, node: h("li", { class: isNew ? "new" : null }) };
      showEntry(entry);
      entries.push(entry);
      log.append(entry.node);
      state.lines += 1;
    }
    log.scrollTop = log.scrollHeight;
  }
  function seatName(seat) { return seat === null || seat === undefined ? "—" : seat < 0 ? "chance" : state.names[seat] || state.seatNames[seat] || "a player"; }
  function schedule() {  // at most one redraw per animation frame, however many messages arrive
    if (!state.frame && !state.closed) state.frame = requestAnimationFrame(() => { state.frame = 0; render(); });
  }
  const isDone = (choice) => ["done", "pass"].includes(choice.notation.split(" ")[0]);
  // The server lists the card ids each move names (docs/protocol.md, `cards`): the page reads no notation for them.
  function naming(choice, card) { return (choice.cards || []).includes(card); }
  function bannerText(legal) {
    if (state.ended) return "Game over";
    if (!state.view) return state.info?.status === "open" ? "Waiting for every seat to be taken" : "Connecting to the table…";
    if (legal.length) {
      const verbs = [...new Set(legal.map((c) => c.label.split(" ")[0].toLowerCase()).filter((w) => /^[a-z]{3,}$/.test(w)))];
      return `Your turn — ${verbs.length && verbs.length <= 4 ? verbs.join(", ") : `choose one of ${legal.length} moves`}`;
    }
    if (state.toMove === null || state.toMove === undefined || state.toMove < 0) return "Dealing…";
    return othersTurn(state.players[state.toMove], shortNames()[state.toMove], state.seat === null);
  }
  function turnArrived(now) {  // the turn comes to this seat: the tab, and the sound and notification if chosen
    document.title = now ? "● Your turn — warcards" : `${gameTitle(state.game)} — warcards`;
    setFavicon(now);
    if (!now || state.myTurn) return;
    if (localStorage.getItem(SOUND_KEY) === "1") beep();
    if (localStorage.getItem(NOTIFY_KEY) === "1" && document.hidden && "Notification" in window && Notification.permission === "granted") {
      try { new Notification("Your turn — warcards", { body: `${gameTitle(state.game)}: ${bannerText(state.legal || [])}` }); } catch { /* not allowed here */ }
    }
  }
  function focusedCard() {  // the card the keyboard is on (in the hand or on the table), by its id
    const node = document.activeElement?.closest?.(".card[data-card]");
    return node && (handSlot.contains(node) || view.contains(node)) ? node.dataset.card : null;
  }
  function refocusCard(cardId) {  // after a redraw took the focused card away: focus the same card, redrawn
    if (!cardId || (document.activeElement && document.activeElement !== document.body)) return;
    const again = [handSlot, view].map((place) => place.querySelector(`.card[data-card="${CSS.escape(cardId)}"]`)).find(Boolean);
    const target = again && (again.querySelector(".card-button") || (again.tabIndex >= 0 ? again : null));
    target?.focus({ preventScroll: true });
  }
  function render() {
    const legal = !state.ended && state.seat !== null && state.toMove === state.seat ? state.legal || [] : [];
    const now = legal.length > 0;
    if (state.game) turnArrived(now);
    state.myTurn = now;
    if (state.selected && !legal.some((choice) => naming(choice, state.selected))) state.selected = null;
    const hadFocus = state.focusMoves || moves.contains(document.activeElement);  // a focused move button is redrawn: focus its successor
    const cardFocus = focusedCard();  // a focused card is redrawn: the keyboard stays on it
    const context = {
      seat: state.seat, names: state.names, facts: state.facts, selected: state.selected, ended: state.ended,
      clockText: (seat) => clock.seatText(seat), seatNote: (seat) => seatNote(state.players[seat], state.ended),
      playable: legal.length ? { has: (card) => legal.some((choice) => naming(choice, card)) } : null,
      onCard: (card) => {
        const choices = legal.filter((choice) => naming(choice, card));
        if (choices.length === 1 && localStorage.getItem(ONE_CLICK_KEY) === "1") return act(choices[0].action);
        state.selected = state.selected === card ? null : card;
        state.focusMoves = true;
        render();
      },
    };
    const board = state.view ? renderTable(state.game, state.view, context)
      : h("p", { text: "The table is set when every seat is taken." });
    const handNode = board.querySelector ? board.querySelector("section.hand") : null;
    handSlot.replaceChildren(...(handNode ? [handNode] : []));
    view.replaceChildren(board);
    banner.textContent = bannerText(legal);
    banner.classList.toggle("mine", now);
    movesSection.hidden = legal.length === 0;
    const selectedChoices = state.selected ? legal.filter((choice) => naming(choice, state.selected)) : null;
    const shownMoves = selectedChoices || legal;
    const button = (choice) => h("button", {
      class: isDone(choice) ? "move done" : "move", "data-action": choice.action, "aria-label": `Move: ${named(choice.label)}`,
      onclick: () => act(choice.action), text: isDone(choice) ? `${named(choice.label)} ✔` : named(choice.label) });
    moves.replaceChildren(...[
      state.selected ? h("p", { class: "selected-note" }, `Moves with ${state.facts[state.selected]?.name || state.selected}: `,
        h("button", { type: "button", class: "all-moves", onclick: () => { state.selected = null; state.focusMoves = true; render(); }, text: "Show every move" })) : null,
      ...shownMoves.filter((choice) => !isDone(choice)).map(button),
      ...legal.filter(isDone).map(button)].filter(Boolean));
    if (selectedChoices && selectedChoices.length === 1) {  // Enter or a double-click on the chosen card plays its one move
      const chosen = handSlot.querySelector(".card.selected .card-button") || view.querySelector(".card.selected .card-button");
      chosen?.addEventListener("dblclick", () => act(selectedChoices[0].action));
    }
    if (state.ownMove) { state.seenAtMove = cardPlaces(view, handSlot); state.ownMove = false; }  // where this seat's move left the cards
    else if (state.seenAtMove) markMoved(state.seenAtMove, view, handSlot);  // the cards moved since this seat's last move
    reconnect.disable(movesSection);  // no move while the table is not connected
    refocusCard(cardFocus);
    const focusFree = document.activeElement === document.body || movesSection.contains(document.activeElement);
    if (hadFocus && now && (state.focusMoves !== "turn" || focusFree)) (moves.querySelector("button.move") || movesSection).focus({ preventScroll: true });
    state.focusMoves = hadFocus && !now && focusFree ? "turn" : false;  // the others' turn: the focus comes back to the moves with the turn
    document.body.dataset.eventNo = String(state.eventNo);
  }
  function act(action) {
    if (!state.socket || state.socket.readyState !== WebSocket.OPEN) return refuse("Not connected: the move was not sent; reconnecting…");
    refusal.hidden = true;
    for (const button of moves.querySelectorAll("button")) button.disabled = true;
    state.focusMoves = true;
    for (const node of log.querySelectorAll("li.new")) node.classList.remove("new");
    state.lastMoveLine = state.lines || 1;
    state.seenAtMove = cardPlaces(view, handSlot);
    state.selected = null;
    state.pending = messageId();
    state.socket.send(JSON.stringify({ protocol: 1, type: "act", id: state.pending, answers: state.eventNo ?? 0, action }));
  }
  function takeView(message) {
    state.eventNo = message.event_no ?? state.eventNo;
    state.view = message.view; state.toMove = message.to_move; state.legal = message.legal ?? null;
  }
  function showResult(r) {
    const names = r.scores.map((_, i) => seatName(i));
    const rank = ({ score, i }) => [r.winners.includes(i) ? 1 : 0, typeof score === "number" ? score : -Infinity];
    const order = r.scores.map((score, i) => ({ score, i })).sort((a, b) => {
      const [x, y] = [rank(a), rank(b)];
      return y[0] - x[0] || (y[1] > x[1] ? 1 : y[1] < x[1] ? -1 : 0);
    });
    const outcome = state.seat === null ? (r.winners.length ? `${r.winners.map(seatName).join(" and ")} won` : "A draw")
      : r.winners.includes(state.seat) ? (r.winners.length > 1 ? "You won (shared)" : "You won")
        : r.winners.length ? "You lost" : "A draw";
    result.replaceChildren(h("h2", { id: "result-h", text: "Game over" }),
      h("p", { id: "outcome", class: "outcome", text: outcome }),
      h("p", { id: "winners", text: r.winners.length ? `Winner: ${r.winners.map(seatName).join(", ")}` : "No winner" }),
      h("ol", { class: "ranking", "aria-label": "Ranking" }, order.map(({ score, i }) => h("li", { class: i === state.seat ? "mine" : null },
        `${names[i]}${i === state.seat ? " (you)" : ""}: `, h("b", { text: String(score) }), r.winners.includes(i) ? " — winner" : ""))),
      h("p", { id: "reason", text: `Reason: ${named(r.reason)}` }),
      ratingChanges(r),  // ratings.js
      social.playAgain(),  // above the breakdown, so that it is in view without scrolling
      resultBreakdown(state.game, state.view, { seat: state.seat, names, facts: state.facts, winners: r.winners, scores: r.scores, options: state.info?.options || {} }),
      h("p", { class: "row" },
        h("a", { class: "button", id: "replay-link", href: `#/replay/${tableId}${mine ? `/${mine.seat}` : ""}`, text: "Replay this game" }),
        h("a", { class: "button", href: "#/lobby", text: "Lobby" }),
        h("a", { href: `/tables/${tableId}/record`, text: "The whole record (for warcards replay)" })));
    result.hidden = false;
    bar.classList.add("ended");  // the hand stays below the result instead of covering it (style.css)
    actions.replaceChildren();
  }
  function receive(message) {
    clock.receive(message, state.seat);
    social.receive(message);
    switch (message.type) {
      case "welcome":
        state.seat = message.seat; state.seatNames = message.seat_names; state.game = message.game;
        rulesLink.href = rulesHref(message.game); rulesLink.textContent = `How to play ${gameTitle(message.game)}`; rulesLink.hidden = false;
        nameSeats(message.players, message.watching);
        title.textContent = `${gameTitle(message.game)}${state.seat === null ? " — you are watching"
          : /^player \d+$/.test(state.seatNames[state.seat]) ? "" : ` — you play ${state.seatNames[state.seat].replace(/^./, (c) => c.toUpperCase())}`}`;
        document.title = `${gameTitle(message.game)} — warcards`;
        waiting.hidden = message.status !== "open";
        readInfo().catch(() => {});
        break;
      case "view": takeView(message); break;
      case "players": nameSeats(message.players, message.watching); break;
      case "catchup":
        for (const event of message.events) addLines(event);
        takeView(message.view); break;
      case "event":
        addLines(message.event); state.eventNo = message.event.event_no;
        state.view = message.view; state.toMove = message.to_move; state.legal = message.legal ?? null;
        if (!waiting.hidden) { waiting.hidden = true; readInfo().catch(() => {}); }
        if (state.seat !== null && message.event.actor === state.seat) {  // drawn now: the cards as this seat's move left them
          state.ownMove = true; cancelAnimationFrame(state.frame); state.frame = 0; render();
        }
        break;
      case "refused":
        refuse(`Refused (${message.code}): ${message.message}`);
        if (message.code === "stale") state.socket.send(JSON.stringify({ protocol: 1, type: "sync", last_seen: state.eventNo }));
        break;
      case "end":
        state.ended = true; state.eventNo = message.event_no;
        if (message.players) nameSeats(message.players.map((p, i) => ({ ...state.players[i], ...p })));
        showResult(message.result);
        break;
      case "error": refuse(`Error (${message.code}): ${message.message}`); break;
      default: break;
    }
    schedule();
  }
  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/tables/${encodeURIComponent(tableId)}/ws`);
    state.socket = socket;
    connection.textContent = "connecting…";
    socket.addEventListener("open", () => {
      state.retry = 0;
      reconnect.up();
      connection.textContent = "connected";
      // first connection: every event from the start (the log); a reconnection: the events after the last seen
      socket.send(JSON.stringify({ protocol: 1, type: "hello", token: mine ? mine.token : null, last_seen: state.eventNo ?? 0, chat: true }));
    });
    socket.addEventListener("message", (e) => paced.push(JSON.parse(e.data)));
    socket.addEventListener("close", (e) => {
      if (state.socket !== socket || state.closed) return;
      if (e.code === 4001 || e.code === 4004) {
        connection.textContent = "not connected";
        if (e.code === 4001) forgetSeat(tableId);
        return;
      }
      paced.skip();  // what arrived is shown before the catch-up after the last event seen
      const wait = Math.min(10000, 500 * 2 ** state.retry++);
      connection.textContent = `disconnected — reconnecting in ${Math.round(wait / 1000)} s`;
      const again = setTimeout(() => { if (!state.closed) connect(); }, wait);
      reconnect.down(wait, () => { clearTimeout(again); if (!state.closed) connect(); });
    });
  }
  async function offerSeats() {
    if (mine) return;
    try {
      const info = await api("GET", `/tables/${encodeURIComponent(tableId)}`);
      const open = info.seats.filter((s) => s.open);
      if (!open.length) { joinBox.replaceChildren(h("p", { text: "You are watching (public view only)." })); return; }
      const name = nameInput({ "aria-label": "Display name" });
      joinBox.replaceChildren(h("p", {}, "Join this table: ", name, " ", ...open.map((s) => h("button", {
        onclick: async () => {
          try {
            const player = nameToJoin(name);
            const joined = await api("POST", `/tables/${tableId}/seats/${s.seat}`, { name: player });
            keepSeat(tableId, { seat: s.seat, token: joined.token, name: player });
            stopPage(); route(false);
          } catch (e) { refuse(e.message); }
        }, text: `Take ${s.seat_name}` }))));
    } catch (e) { refuse(e.message); }
  }
  if (mine) actions.append(h("button", { id: "resign", onclick: () => {
    if (confirm("Resign this game?")) state.socket?.send(JSON.stringify({ protocol: 1, type: "resign", id: messageId() }));
  }, text: "Resign" }));
  const paced = pacer(receive, () => state.seat, (event) => {  // the move as the log tells it, else who and its notation
    const lines = (event.lines || []).map((l) => named(l.text));
    return lines.length ? lines.join("; ") : `${seatName(event.actor)}: ${named(event.text)}`;
  });
  bar.insertBefore(paced.node, refusal);
  offerSeats();
  render();
  connect();
  window.warcards = { drop: () => state.socket?.close(), state };
  stopPage = () => { state.closed = true; cancelAnimationFrame(state.frame); clock.stop(); paced.stop(); reconnect.stop(); state.socket?.close(); };
}

window.addEventListener("hashchange", () => route(false));
accountNav();
route(true);
