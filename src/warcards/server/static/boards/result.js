// The result's breakdown: a table of each seat's score and what decided it, one row a seat (the reader's
// own marked), drawn by each game module's `breakdown(view, context)` under the result (app.js).
import { h } from "./common.js";

/** `columns`: [[heading, (seat) => text]]; `note`: one line under the table (how the score is made). */
export function breakdownTable(context, seats, columns, note) {
  const winners = context.winners || [];
  return h("div", { class: "breakdown-box", id: "breakdown" },
    h("h3", { text: "How the score was made" }),
    h("table", { class: "breakdown" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "Player" }), columns.map(([heading]) => h("th", { scope: "col", text: heading })))),
      h("tbody", {}, seats.map((seat) => h("tr", { class: seat === context.seat ? "mine" : null, "data-seat": String(seat) },
        h("th", { scope: "row", text: `${context.names[seat] || `player ${seat}`}${seat === context.seat ? " (you)" : ""}${winners.includes(seat) ? " — winner" : ""}` }),
        columns.map(([, value]) => h("td", { text: String(value(seat)) })))))),
    note ? h("p", { class: "breakdown-note", text: note }) : null);
}
