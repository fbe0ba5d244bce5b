// Cards of War's table (docs: src/warcards/games/cards_of_war/GUIDE.md): the round, the rounds won against
// what wins the game; the three battles, each with both seats' piles, their points against the 15 that win
// it, its theatre and winner; the draw and discard piles, RECON answers, the REINFORCE card; the hand.
import { cardRow, h, hand, panel, plural, scoreboard, seatWord, title, turnLine } from "./common.js";

const PHASES = {
  first_draw: "drawing for the first turn", deal: "dealing", deploy: "deploy", joint: "deploy the joint partner",
  reinforce_draw: "REINFORCE draw", reinforce: "REINFORCE: deploy again", refill: "refilling the hand", over: "game over",
};
const BATTLE_TARGET = 15;  // params.py BATTLE_TARGET: "The first player to reach a total of 15 points"
const GOAL = { short: "one round wins", normal: "2 of 3 rounds win", long: "a lead of 3 rounds wins" };

const badge = (facts) => `${facts.types}${facts.score}${facts.kill ? ` ×${facts.kill}` : ""}`;

function battle(view, entry, context) {
  const ctx = { ...context, playable: null };
  const seats = [0, 1];
  const head = `${title(entry.name)}${entry.theatre ? ` [${title(entry.theatre)}]` : ""}`
    + (entry.winner !== null && entry.winner !== undefined ? ` — won by ${seatWord(context, entry.winner)}` : "");
  return panel(head, { class: `zone${entry.winner !== null && entry.winner !== undefined ? " won" : ""}` },
    h("div", { class: "piles-2" }, seats.map((seat) => h("div", { class: "pile" },
      h("h4", { text: `${seat === context.seat ? "You" : title(context.names[seat] || `player ${seat}`)}: ${entry.totals[seat]} of ${BATTLE_TARGET}` }),
      cardRow(entry.piles[seat], ctx, {}, `${context.names[seat]}'s cards in the ${entry.name} battle`)))));
}

export function renderTable(view, context) {
  const ctx = { ...context, badge };
  const seats = [0, 1];
  const mover = view.to_move === "chance" ? null : view.player;
  const doing = view.phase === "over" ? "game over"
    : mover === null ? PHASES[view.phase] : `${seatWord(ctx, mover)} to ${PHASES[view.phase] || view.phase}`;
  const length = view.options.length;
  const piles = view.draw_pile.length > 1
    ? `Draw piles ${view.draw_pile.join(" and ")} · discards ${view.discard.map((d) => d.length).join(" and ")}`
    : `Draw pile ${view.draw_pile[0]} · discards ${view.discard[0].length}`;
  const recon = (view.recon || []).filter((r) => r.round === view.round);
  return h("div", { class: "layout cards-of-war" },
    turnLine([`Cards of War, ${length} game (${GOAL[length]})`, `round ${view.round}`, doing]),
    scoreboard(ctx, seats, [
      ["rounds won", (i) => view.rounds_won[i]],
      ["hand / limit", (i) => `${view.hand_counts[i]} / ${view.hand_limits[i]}`],
    ], mover),
    h("section", { class: "battles", "aria-label": "The three battles" }, h("h2", { text: "The battles" }),
      h("div", { class: "battle three" }, view.battles.map((entry) => battle(view, entry, ctx)))),
    view.reinforce_card ? panel("REINFORCE card", {}, cardRow([view.reinforce_card], ctx)) : null,
    recon.length ? h("ul", { class: "notes", "aria-label": "RECON" }, recon.map((r) => h("li", {
      text: `RECON by ${seatWord(ctx, r.by)}: ${seatWord(ctx, r.of)} ${r.of === ctx.seat ? "hold" : "holds"} ${Object.entries(r.counts).map(([t, n]) => `${title(t)} ${n}`).join(", ")}` }))) : null,
    hand(view, ctx),
    h("p", { class: "piles" }, piles),
    view.discard.some((d) => d.length) ? h("details", {}, h("summary", { text: "Discard pile" + (view.discard.length > 1 ? "s" : "") }),
      view.discard.map((d) => cardRow(d, { ...ctx, playable: null }))) : null,
    view.round_results && view.round_results.length ? h("p", { text: `Rounds so far: ${view.round_results.map((r, k) => `${k + 1}: ${r >= 0 ? seatWord(ctx, r) : "drawn"}`).join("; ")}` }) : null,
  );
}
