// What every game's table page shares: building DOM nodes, a card with its facts, the hand, the scoreboard.
// A card's facts (GET /tables/{id}/cards) stay in memory: a card's facts reach the page only where the card
// itself is shown, so a spectator's page never names a card of a hand.

/** A DOM element: `h("p", {class: "x", text: "hi", onclick: f}, child, ...)`. */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

export function words(key) { return String(key).replace(/[_-]/g, " "); }
export function title(name) { return name ? name[0].toUpperCase() + name.slice(1) : ""; }
export function plural(n, noun) { return `${n} ${noun}${n === 1 ? "" : "s"}`; }

/** A seat as this reader reads it: "you" for the reader's own seat, else its name. */
export function seatWord(context, seat) {
  if (seat === null || seat === undefined || seat < 0) return "—";
  return seat === context.seat ? "you" : context.names[seat] || `player ${seat}`;
}

// A card as a card (its face, its back, its popover): face.js.
import { card, cardRow } from "./face.js";

export { card, cardRow };

/** The reader's hand, as `#hand`, with a heading; nothing for a spectator (no hand in the view). */
export function hand(view, context, { note = () => null, heading = "Your hand" } = {}) {
  if (!Array.isArray(view.hand)) return null;
  return h("section", { class: "hand", "aria-labelledby": "hand-h" },
    h("h2", { id: "hand-h", text: `${heading} (${view.hand.length})` }),
    view.hand.length
      ? h("ul", { class: "cards fan", id: "hand", "aria-label": "Your hand", style: `--n: ${view.hand.length}` }, view.hand.map((id) => card(id, context, { note: note(id) })))
      : h("p", { id: "hand", class: "empty", text: "empty" }));
}

/**
 * The players around the table: a panel per seat with its display name (context.names), "you" for the
 * reader, each of `columns` [[heading, (seat) => text]] (score against goal, hand size…), the clock when
 * context.clockText has one, the seat's note when context.seatNote has one ("away", a stand-in: names.js),
 * and the seat to move lit.
 */
export function scoreboard(context, seats, columns, moving) {
  const mover = context.ended ? null : moving;  // at the end no seat is to move, whatever the last view says
  return h("ul", { class: "players", id: "players", "aria-label": "Players" },
    seats.map((seat) => h("li", { class: ["player", seat === context.seat ? "mine" : "", seat === mover ? "mover" : ""].join(" ").trim(),
                                  "data-seat": String(seat), "aria-current": seat === mover ? "true" : null },
      h("b", { class: "player-name", text: `${seat === mover ? "▶ " : ""}${context.names[seat] || `player ${seat}`}${seat === context.seat ? " (you)" : ""}` }),
      context.seatNote?.(seat) ? h("span", { class: "seat-note", text: context.seatNote(seat) }) : null,
      h("span", { class: "player-facts" }, columns.map(([head, value]) => h("span", { class: "fact" }, `${head} `, h("b", { text: String(value(seat)) }))),
        context.clockText ? h("span", { class: "fact clock-fact", "data-seat": String(seat), text: context.clockText(seat) ?? "" }) : null),
      seat === mover ? h("span", { class: "to-move", text: seat === context.seat ? "your turn" : "to move" }) : null)));
}

/** The turn line: "Turn 3 · Action · you to act". */
export function turnLine(parts) {
  return h("p", { class: "turn", id: "turn" }, parts.filter(Boolean).join(" · "));
}

/** A titled panel of the table (`attrs.zone`: where its cards lie, for the cards moved since a move). */
export function panel(heading, attrs, ...children) {
  return h("section", { class: `panel ${attrs.class || ""}`.trim(), "aria-label": attrs.label || heading, "data-zone": attrs.zone },
    h("h3", { text: heading }), ...children);
}

/** Collapsed public details (discard piles): shown on demand. */
export function details(summary, ...children) {
  return h("details", {}, h("summary", { text: summary }), ...children);
}
