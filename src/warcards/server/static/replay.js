// The replay viewer (#/replay/ID, #/replay/ID/SEAT or #/replay/ID/SEAT/STEP: the address follows the seat and
// the step, so a moment can be linked and survives a reload): a finished game step by step, as one seat saw it
// (its log lines and its view) or as all (every move in full and every seat's view), from the server's
// GET /tables/{id}/replay (the steps) and /replay/{step} (the views after a step; docs/server.md "Replays").
// First / back / forward / last buttons, and the arrow keys, Home and End.

import { api } from "./app.js";
import { h, renderTable } from "./boards/index.js";
import { logLine, seatNames, withNames } from "./names.js";

// The one place the replay draws a view: the game's table layout, as the table page draws it (nothing in
// it is playable: a replay only shows).
function drawView(game, view, context) {
  return renderTable(game, view, { ...context, playable: null, selected: null, onCard: null });
}

export function replayPage(tableId, main, firstSeat, firstStep) {
  document.title = "warcards — replay";
  const askedStep = Number.parseInt(firstStep ?? "0", 10);
  const state = { seat: firstSeat ?? "all", replay: null, step: Number.isFinite(askedStep) && askedStep > 0 ? askedStep : 0, views: new Map(), asked: 0, closed: false, facts: {} };
  const title = h("h1", { text: "Replay" });
  const error = h("p", { class: "refusal", role: "alert", hidden: true });
  const seatSelect = h("select", { id: "replay-seat", "aria-label": "Whose view to replay", disabled: true });
  const button = (id, text, label, to) => h("button", { id, type: "button", "aria-label": label, text,
    onclick: () => go(to()) });
  const nav = h("div", { class: "row", role: "group", "aria-label": "Step through the game" },
    button("replay-first", "« First", "First step: the start", () => 0),
    button("replay-back", "◀ Back", "Back one step", () => state.step - 1),
    button("replay-forward", "Forward ▶", "Forward one step", () => state.step + 1),
    button("replay-last", "Last »", "Last step: the end", () => lastStep()));
  const position = h("p", { id: "replay-position", role: "status", "aria-live": "polite" });
  const moved = h("p", { id: "replay-moved" });
  const stepLines = h("ul", { class: "log step-lines", id: "replay-lines", "aria-label": "This step's log lines" });
  const log = h("ol", { class: "log", id: "replay-log", "aria-label": "The game log up to this step" });
  const views = h("div", { class: "view", id: "replay-view", "aria-label": "The table after this step" });
  const result = h("div", { class: "result", id: "replay-result", role: "status", hidden: true });
  main.append(title, error,
    h("p", { class: "row" }, h("label", { for: "replay-seat", text: "As " }), seatSelect,
      h("span", { class: "doc", text: "Keys: ← → step, Home / End the first and last step." })),
    nav, position, moved, h("section", {}, h("h2", { text: "This step" }), stepLines), result,
    h("section", {}, h("h2", { text: "Table" }), views),
    h("section", {}, h("h2", { text: "Game log so far" }), log),
    h("p", {}, h("a", { href: `#/table/${encodeURIComponent(tableId)}`, text: "The table page" }), " · ",
      h("a", { href: "#/lobby", text: "Back to the lobby" })));

  const fail = (e) => { error.textContent = e.message; error.hidden = false; };
  const lastStep = () => (state.replay ? state.replay.steps.length - 1 : 0);
  const names = () => seatNames(state.replay.players || [], state.replay.seat_names).labels;
  const shortNames = () => seatNames(state.replay.players || [], state.replay.seat_names).short;
  const named = (text) => withNames(text, state.replay.seat_names, shortNames());
  const name = (seat) => seat === null || seat === undefined ? "—" : seat < 0 ? "chance" : names()[seat] || "a player";
  // A panel's seat, told apart from the others: "Bot · random (player 1)" where two seats read alike.
  const panelName = (seat) => {
    const players = state.replay.players || [];
    const raw = state.replay.seat_names.map((side, i) => players[i]?.name || side);
    return raw.filter((n) => n === raw[seat]).length > 1 ? `${raw[seat]} (${state.replay.seat_names[seat]})` : name(seat);
  };
  const base = () => `/tables/${encodeURIComponent(tableId)}/replay`;
  // The address says the seat and the step shown (replaced, not pushed: Back leaves the replay).
  const keepAddress = () => {
    const address = `#/replay/${encodeURIComponent(tableId)}/${encodeURIComponent(state.seat)}/${state.step}`;
    if (location.hash !== address) history.replaceState(null, "", address);
  };
  // The reader of a replay is nobody's seat: a board's "(you)" (the seat whose view it draws) is dropped, the
  // panel's heading already says whose view it is.
  const unclaimed = (board) => {
    for (const node of board.querySelectorAll?.(".player-name") ?? []) node.textContent = node.textContent.replace(/ \(you\)$/, "");
    return board;
  };

  async function load() {
    try {
      const replay = await api("GET", `${base()}?seat=${encodeURIComponent(state.seat)}`);
      if (state.closed) return;
      state.replay = replay; state.views = new Map();
      title.textContent = `Replay — ${replay.game}`;
      seatSelect.replaceChildren(h("option", { value: "all", text: "all seats (every move in full)" }),
        ...names().map((seatName, seat) => h("option", { value: String(seat), text: `as ${seatName}` })));
      seatSelect.value = String(state.seat);
      seatSelect.disabled = false;
      error.hidden = true;
      await go(Math.min(state.step, lastStep()));
    } catch (e) { fail(e); }
  }
  async function viewsAt(step) {
    if (!state.views.has(step)) {
      const seat = state.seat;
      const answer = api("GET", `${base()}/${step}?seat=${encodeURIComponent(seat)}`);
      state.views.set(step, answer);
      answer.catch(() => state.views.delete(step));
    }
    return state.views.get(step);
  }
  async function go(target) {
    if (!state.replay) return;
    const step = Math.max(0, Math.min(lastStep(), target));
    const asked = ++state.asked;
    state.step = step;
    showLines(step);
    try {
      const answer = await viewsAt(step);
      if (asked !== state.asked || state.closed) return;  // a newer step was asked for meanwhile
      views.replaceChildren(...answer.views.map((entry) => h("section", { class: "seat-view", "aria-label": `${panelName(entry.seat)}'s view` },
        h("h3", { text: state.seat === "all" ? `${panelName(entry.seat)} sees` : `What ${panelName(entry.seat)} saw` }),
        unclaimed(drawView(state.replay.game, entry.view, { seat: entry.seat, names: names(), facts: state.facts })))));
      keepAddress();
      document.body.dataset.replayStep = String(step);
      if (step < lastStep()) viewsAt(step + 1).catch(() => {});  // the next step, ahead of the reader
    } catch (e) { fail(e); }
  }
  function showLines(step) {
    const steps = state.replay.steps;
    const current = steps[step];
    position.textContent = `Step ${step} of ${lastStep()}`;
    moved.textContent = step === 0 ? "The start: no move yet." : `Moved: ${name(current.actor)}`;
    const item = (line) => {  // the line with names for "player N", the actor's name beside it (names.js)
      const node = h("li", { class: line.kind });
      logLine(node, named(line.text), line.actor >= 0 && line.actor !== state.replay.seat ? shortNames()[line.actor] : null);
      return node;
    };
    stepLines.replaceChildren(...(current.lines.length ? current.lines.map(item) : [h("li", { text: step === 0 ? "—" : "nothing this seat could see" })]));
    const earlier = steps.slice(Math.max(1, step - 299), step + 1).flatMap((s) => s.lines);
    log.replaceChildren(...earlier.map(item));
    log.scrollTop = log.scrollHeight;
    for (const id of ["replay-first", "replay-back"]) document.getElementById(id).disabled = step === 0;
    for (const id of ["replay-forward", "replay-last"]) document.getElementById(id).disabled = step === lastStep();
    const r = state.replay.result;
    result.hidden = !(r && step === lastStep());
    if (r) result.replaceChildren(h("h2", { text: "The end" }),
      h("p", { id: "replay-winners", text: r.winners.length ? `Winner: ${r.winners.map(name).join(", ")}` : "No winner" }),
      h("p", { text: `Scores: ${r.scores.map((s, i) => `${name(i)} ${s}`).join("; ")}` }),
      h("p", { id: "replay-reason", text: `Reason: ${named(r.reason)}` }));
  }
  function key(event) {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement || event.altKey || event.ctrlKey || event.metaKey) return;
    const to = { ArrowLeft: state.step - 1, ArrowRight: state.step + 1, Home: 0, End: lastStep() }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    go(to);
  }
  seatSelect.addEventListener("change", () => { state.seat = seatSelect.value; load(); });
  document.addEventListener("keydown", key);
  api("GET", `/tables/${encodeURIComponent(tableId)}/cards`).then((facts) => { state.facts = facts; if (state.replay) go(state.step); }, () => {});
  load();
  return () => { state.closed = true; document.removeEventListener("keydown", key); delete document.body.dataset.replayStep; };
}
