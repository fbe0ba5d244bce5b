// Table chat and "Play again" as a rematch (docs/protocol.md, "Chat" and "Rematch"): the chat panel beside the
// log (folded on phones), the mute buttons, and the rematch flow on the end screen. Everything a person typed
// is shown as text (textContent), never as HTML.

import { h } from "./boards/index.js";

const MAX_CHAT = 300;
let chatIds = 0;

/**
 * The chat panel and the rematch flow of one table page.
 * `send(message)` sends a protocol message; `page()` gives {seat, names, info} now (the reader's seat, each
 * seat's display name, the table's lobby record); `seated(tableId, seat, token)` keeps a new seat and opens
 * its table.
 */
export function socialPanel({ send, page, seated }) {
  const state = { asked: false, name: "", enabled: null, messages: new Map(), muted: new Set(), rematch: null, ended: false, pending: null };
  const list = h("ol", { class: "chat-log", id: "chat-log", "aria-label": "Chat messages", tabindex: "0" });
  const input = h("input", { id: "chat-input", maxlength: MAX_CHAT, autocomplete: "off", "aria-label": "Chat message" });
  const said = h("p", { class: "chat-said", id: "chat-said", role: "status", "aria-live": "polite" });
  const form = h("form", { class: "row chat-form", onsubmit: (e) => { e.preventDefault(); say(); } },
    input, h("button", { type: "submit", text: "Send" }));
  const mutes = h("div", { class: "row chat-mutes", id: "chat-mutes" });
  const note = h("p", { class: "empty chat-note", id: "chat-note" });
  const phone = window.matchMedia("(max-width: 50rem)").matches;
  const node = h("details", { class: "chat-box", id: "chat", open: !phone },
    h("summary", {}, h("h2", { id: "chat-h", text: "Chat" })), note, list, form, said, mutes);
  node.hidden = true;

  function say() {
    const text = input.value.trim();
    if (!text) return;
    state.pending = `chat${Date.now().toString(36)}${(chatIds += 1)}`;
    send({ type: "chat", id: state.pending, text });
  }
  function who(message) {
    const { seat } = page();
    if (message.from === null) return seat === null && message.name === state.name ? "You" : `${message.name} (watching)`;
    return message.from === seat ? "You" : page().names[message.from] || message.name;
  }
  function draw() {
    const { seat } = page();
    node.hidden = state.enabled === null;
    form.hidden = state.enabled === false;
    if (state.enabled === false) {
      note.textContent = "Chat is off at this table.";
    } else {
      note.textContent = seat === null
        ? "You are watching: you chat with the other spectators; the players' chat is hidden from you while they play."
        : "Players and spectators read what you write here; bots never do.";
    }
    input.placeholder = seat === null ? "Say something to the spectators" : "Say something to the table";
    const shown = [...state.messages.values()].filter((m) => !(m.from !== null && state.muted.has(m.from)))
      .sort((a, b) => a.number - b.number);
    list.replaceChildren(...shown.map((m) => h("li", { class: m.channel === "spectators" ? "from-spectator" : null },
      h("b", { text: `${who(m)}: ` }), h("span", { class: "chat-text", text: m.text }))));
    list.scrollTop = list.scrollHeight;
    const seats = page().info?.seats || [];
    mutes.replaceChildren(...(seat === null || state.enabled !== true ? [] : seats
      .filter((s) => s.kind === "person" && s.seat !== seat)
      .map((s) => {
        const muted = state.muted.has(s.seat);
        const name = page().names[s.seat] || s.player || s.seat_name;
        return h("button", { type: "button", class: "mute", "aria-pressed": muted ? "true" : "false",
          onclick: () => send({ type: "mute", id: `mute${Date.now().toString(36)}`, seat: s.seat, muted: !muted }),
          text: muted ? `Unmute ${name}` : `Mute ${name}` });
      })));
    drawRematch();
  }

  // ----- rematch ----------------------------------------------------------------------------------------------
  const rematchStatus = h("p", { class: "rematch-status", id: "rematch-status", role: "status", "aria-live": "polite" });
  const rematchButtons = h("span", { class: "row" });
  const rematchBox = h("div", { class: "rematch", id: "rematch" }, rematchStatus, rematchButtons);
  function answer(accept) { state.asked = accept; send({ type: "rematch", id: `rematch${Date.now().toString(36)}`, accept }); }
  function drawRematch() {
    const { seat } = page();
    const r = state.rematch;
    const name = (s) => page().names[s] || `seat ${s}`;
    const buttons = [];
    if (seat === null) {
      rematchStatus.textContent = r?.status === "proposed" ? `A rematch is proposed: waiting for ${r.waiting.map(name).join(", ")}.`
        : r?.status === "declined" ? `${name(r.by)} declined the rematch.` : "";
      if (r?.status === "ready") {
        rematchStatus.textContent = "The rematch has started.";
        buttons.push(h("a", { class: "button primary", id: "watch-rematch", href: `#/table/${r.table}`, text: "Watch the rematch" }));
      }
      buttons.push(h("a", { class: "button", id: "play-this", href: "#/lobby", text: "Play this game",  // the lobby, this game's options chosen
        onclick: () => localStorage.setItem("warcards.again", JSON.stringify({ game: page().game, options: page().info?.options || {} })) }));
    } else if (!r || r.status === "declined" || r.status === "failed") {
      rematchStatus.textContent = r?.status === "declined" ? `${r.by === seat ? "You" : name(r.by)} declined the rematch.`
        : r?.status === "failed" ? r.message : "";
      buttons.push(h("button", { type: "button", class: "primary", id: "play-again", onclick: () => answer(true),
                                 text: "Play again (same seats)" }));
    } else if (r.status === "proposed") {
      const mine = r.accepted.includes(seat);
      const others = r.accepted.filter((s) => s !== seat && page().info?.seats?.[s]?.kind === "person").map(name);
      rematchStatus.textContent = `${mine ? "You accepted the rematch" : "A rematch is proposed"}`
        + `${others.length ? `; ${others.join(", ")} accepted` : ""}: waiting for ${r.waiting.map((s) => s === seat ? "you" : name(s)).join(", ")}.`;
      if (!mine) {
        buttons.push(h("button", { type: "button", class: "primary", id: "accept-rematch", onclick: () => answer(true), text: "Accept the rematch" }));
      }
      buttons.push(h("button", { type: "button", id: "decline-rematch", onclick: () => answer(false), text: mine ? "Cancel the rematch" : "Decline" }));
    } else if (r.status === "ready") {
      rematchStatus.textContent = "Everyone accepted: the rematch is ready.";
      buttons.push(h("a", { class: "button primary", id: "go-rematch", href: `#/table/${r.table}`, text: "Go to the rematch",
                            onclick: (e) => { e.preventDefault(); seated(r.table, r.seat, r.token); } }));
    }
    rematchButtons.replaceChildren(...buttons);
  }

  function receive(message) {
    switch (message.type) {
      case "chat_log":
        state.enabled = message.enabled; state.name = message.name;
        state.messages = new Map(message.messages.map((m) => [m.number, m]));
        state.muted = new Set(message.muted);
        break;
      case "chat":
        state.messages.set(message.number, message);
        break;
      case "ack":
        if (message.id === state.pending) { input.value = ""; said.textContent = ""; state.pending = null; }
        return;
      case "refused":
        if (message.id === state.pending || /^(mute|rematch)/.test(message.id || "")) said.textContent = message.message;
        if (/^rematch/.test(message.id || "")) rematchStatus.textContent = message.message;
        return;
      case "rematch": {
        const before = state.rematch?.status;
        state.rematch = message;
        // everyone accepted while this page watched, or at this page's own accept (bots accept at once): the seat goes
        // to its new table (a page opened later shows the button)
        if (message.status === "ready" && before !== "ready" && (before === "proposed" || state.asked) && message.token) {
          seated(message.table, message.seat, message.token);
        }
        break;
      }
      default: return;
    }
    draw();
  }
  /** The end screen's "Play again": the rematch flow for a seat, who is playing again for a spectator. */
  function playAgain() { state.ended = true; drawRematch(); return rematchBox; }
  return { node, receive, playAgain, draw };
}
