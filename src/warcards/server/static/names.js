// Display names on the page (issue 33, "Names everywhere"): the name a player sits under (typed, or a guest
// name generated once and kept in this browser), and the names the server sends for every seat (`welcome`
// and `players`, `end`, the replay: docs/protocol.md "Players") shown on the panels, the turn banner, the
// log, the result and the replay. Every name is user text: it only ever reaches the page as textContent.

import { h } from "./boards/index.js";

const NAME_KEY = "warcards.name";         // the name this player typed last
const GUEST_KEY = "warcards.guestName";   // the guest name generated for this browser ("Guest 4821")
export const MAX_NAME = 24;               // warcards.server.names.MAX_NAME

/** This browser's guest name: generated once ("Guest 4821"), then kept. */
export function guestName() {
  let name = localStorage.getItem(GUEST_KEY);
  if (!name) {
    const digits = crypto.getRandomValues(new Uint16Array(1))[0] % 9000 + 1000;
    name = `Guest ${digits}`;
    localStorage.setItem(GUEST_KEY, name);
  }
  return name;
}

/** The name typed last in this browser ("" when none). */
export function typedName() { return localStorage.getItem(NAME_KEY) || ""; }

/** The name to join under: what the player typed in `input` (kept for next time), else the guest name. */
export function nameToJoin(input) {
  const typed = (input?.value || "").trim();
  if (typed) { localStorage.setItem(NAME_KEY, typed); return typed; }
  return guestName();
}

/** A name field: the name typed last, the guest name as its placeholder (used when left empty). */
export function nameInput(attrs = {}) {
  return h("input", { value: typedName(), placeholder: `${guestName()} (or type your name)`, maxlength: MAX_NAME,
                      autocomplete: "nickname", ...attrs });
}

const sideOf = (seatName) => (/^player \d+$/.test(seatName || "") ? null : (seatName || "").replace(/^./, (c) => c.toUpperCase()));

/** A seat's full label: "Alice (Axis)" when the game's seats are sides, "Alice", "Bot · hard", or the side
 * (or "an open seat") while nobody sits there. `player` is a protocol `players` entry. */
export function seatLabel(player, seatName) {
  const side = sideOf(seatName ?? player?.seat_name);
  const own = player?.name || null;
  if (!own) return side || "an open seat";
  return side ? `${own} (${side})` : own;
}

/** The short name the banner and the log use: the display name, else the side. */
export function shortName(player, seatName) { return player?.name || sideOf(seatName ?? player?.seat_name) || "an open seat"; }

/** Labels that tell seats apart: two seats under the same name ("Bot · random" twice) get "#1", "#2". */
export function distinct(labels) {
  return labels.map((label, i) => {
    const same = labels.filter((other) => other === label).length;
    return same > 1 ? `${label} #${labels.slice(0, i).filter((other) => other === label).length + 1}` : label;
  });
}

/** Every seat's full label (`seatLabel`) and short name (`shortName`), told apart (`distinct`). */
export function seatNames(players, sides) {
  return {
    labels: distinct(sides.map((side, i) => seatLabel(players[i], side))),
    short: distinct(sides.map((side, i) => shortName(players[i], side))),
  };
}

/** The turn banner while another seat is to move: "Bot · hard is thinking…" or "Alice's turn". */
export function othersTurn(player, name, watching) {
  const suffix = watching ? " (you are watching)" : "";
  if (player?.kind === "bot" || player?.stand_in) return `${name} is thinking…${suffix}`;
  return `${name}’s turn${suffix}`;
}

/** What the panel says of a seat beyond its name: a stand-in, a player away, an open seat (or null). */
export function seatNote(player, ended) {
  if (!player) return null;
  if (player.stand_in) return `Bot · ${player.stand_in} stands in`;
  if (!player.name) return "open seat";
  if (player.kind === "person" && !ended && player.connected === false) return "away";
  return null;
}

/** "2 watching" (or "" when nobody watches). */
export function watchingText(count) { return count ? `${count} watching` : ""; }

/** A log line's text with the seats' display names for the protocol words "player N" (seat names that are
 * sides, "Axis", stay as the engine wrote them: the actor's name goes beside the line, `logLine`). */
export function withNames(text, seatNames, names) {
  return text.replace(/\bplayer (\d+)\b/gi, (word, seat) => {
    const i = Number(seat);
    return seatNames[i] === word.toLowerCase() && names[i] ? names[i] : word;
  });
}

/** Fill a log entry's node: the actor's name chip when the line does not already name the actor, then
 * the line (text nodes only). */
export function logLine(node, text, actorName) {
  const chip = actorName && !text.includes(actorName) ? h("span", { class: "name-chip", text: actorName }) : null;
  node.replaceChildren(...(chip ? [chip, " "] : []), text);
}
