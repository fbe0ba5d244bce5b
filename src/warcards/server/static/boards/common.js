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

/**
 * One card: its name, its badge (the value a player reads first: "3F", "2/5/0", "×4"), its facts' line of
 * text and its id (what the notation reads). A card a legal move names is highlighted and is a button: a
 * click plays it (one move) or shows the moves that name it (context.onCard). `id` null: a face-down card.
 */
export function card(id, context, { badge = null, note = null, tag = "li", className = "" } = {}) {
  const facts = id ? context.facts[id] : null;
  const playable = Boolean(id && context.playable && context.playable.has(id));
  const name = id === null || id === undefined ? "face down" : facts ? facts.name : id;
  const shownBadge = badge ?? (facts && context.badge ? context.badge(facts) : null);
  const parts = [
    h("span", { class: "card-head" },
      h("b", { class: "card-name", text: name }),
      shownBadge ? h("span", { class: "badge", text: shownBadge }) : null),
    facts ? h("span", { class: "card-text", text: facts.text }) : null,
    note ? h("span", { class: "card-note", text: note }) : null,
    id ? h("span", { class: "card-id", text: id }) : null,
  ];
  const label = [name, shownBadge, facts ? facts.text : null, note, id ? `(${id})` : null].filter(Boolean).join(", ");
  const classes = ["card", className, playable ? "playable" : "", context.selected === id && id ? "selected" : "",
                   id ? "" : "down"].filter(Boolean).join(" ");
  if (playable && context.onCard) {
    return h(tag, { class: classes },
      h("button", { class: "card-button", type: "button", "aria-label": `${label}, playable now`,
                    "aria-pressed": context.selected === id ? "true" : "false", onclick: () => context.onCard(id) }, parts));
  }
  return h(tag, { class: classes, "aria-label": label }, parts);
}

/** A row of cards (or "none"). */
export function cardRow(ids, context, options = {}, label = null) {
  if (!ids || !ids.length) return h("p", { class: "empty", text: "none" });
  return h("ul", { class: "cards", "aria-label": label }, ids.map((id) => card(id, context, options)));
}

/** The reader's hand, as `#hand`, with a heading; nothing for a spectator (no hand in the view). */
export function hand(view, context, { note = () => null, heading = "Your hand" } = {}) {
  if (!Array.isArray(view.hand)) return null;
  return h("section", { class: "hand", "aria-labelledby": "hand-h" },
    h("h2", { id: "hand-h", text: `${heading} (${view.hand.length})` }),
    view.hand.length
      ? h("ul", { class: "cards", id: "hand", "aria-label": "Your hand", tabindex: "0" }, view.hand.map((id) => card(id, context, { note: note(id) })))
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

/** A titled panel of the table. */
export function panel(heading, attrs, ...children) {
  return h("section", { class: `panel ${attrs.class || ""}`.trim(), "aria-label": attrs.label || heading },
    h("h3", { text: heading }), ...children);
}

/** Collapsed public details (discard piles): shown on demand. */
export function details(summary, ...children) {
  return h("details", {}, h("summary", { text: summary }), ...children);
}
