// Cards of War's table (docs: src/warcards/games/cards_of_war/GUIDE.md): the round, the rounds won against
// what wins the game; the three battles, each with both seats' piles, their points against the 15 that win
// it, its theatre and winner; the draw and discard piles, RECON answers, the REINFORCE card; the hand.
import { cardRow, h, hand, panel, plural, scoreboard, seatWord, title, turnLine } from "./common.js";
import { backsRow } from "./face.js";
import { breakdownTable } from "./result.js";

const PHASES = {
  first_draw: "drawing for the first turn", deal: "dealing", deploy: "deploy", joint: "deploy the joint partner",
  reinforce_draw: "REINFORCE draw", reinforce: "REINFORCE: deploy again", refill: "refilling the hand", over: "game over",
};
const BATTLE_TARGET = 15;  // params.py BATTLE_TARGET: "The first player to reach a total of 15 points"
const GOAL = { short: "one round wins", normal: "2 of 3 rounds win", long: "a lead of 3 rounds wins" };

const badge = (facts) => `${facts.types}${facts.score}${facts.kill ? ` ×${facts.kill}` : ""}`;

const THEATRE_ICONS = { air: "✈", sea: "⚓", ground: "▲", intel: "◉" };

/** A card's face: its theatre's colour, its score top left (what it adds to a battle's 15), its type top
 * right, KILL bottom left, REINFORCE / RECON bottom right. */
export function face(facts) {
  const ability = facts.reinforce ? ["REINF.", "REINFORCE: draw a card, then deploy again"]
    : facts.recon ? ["RECON", "RECON: the opponent says how many cards of each theatre they hold"] : null;
  return {
    side: facts.theatre, sideText: title(facts.theatre), icon: [THEATRE_ICONS[facts.theatre] || "■", `${title(facts.theatre)} theatre`],
    typeText: facts.types === "*" ? "any type" : `type ${facts.types}`,
    tl: [String(facts.score), `score ${facts.score}`],
    tr: [facts.types, `type ${facts.types === "*" ? "any" : facts.types}: ${facts.type_words.join("; ")}`],
    bl: facts.kill ? [`KILL ${facts.kill}`, `KILL ${facts.kill}: kills an opposing top card of type ${facts.kill}`] : null,
    br: ability,
  };
}

function battle(view, entry, context) {
  const ctx = { ...context, playable: null };
  const seats = [0, 1];
  const head = `${title(entry.name)}${entry.theatre ? ` [${title(entry.theatre)}]` : ""}`
    + (entry.winner !== null && entry.winner !== undefined ? ` — won by ${seatWord(context, entry.winner)}` : "");
  return panel(head, { class: `zone${entry.winner !== null && entry.winner !== undefined ? " won" : ""}` },
    h("div", { class: "piles-2" }, seats.map((seat) => h("div", { class: "pile", "data-zone": `${entry.name}:${seat}` },
      h("h4", { text: `${seat === context.seat ? "You" : title(context.names[seat] || `player ${seat}`)}: ${entry.totals[seat]} of ${BATTLE_TARGET}` }),
      cardRow(entry.piles[seat], ctx, {}, `${context.names[seat]}'s cards in the ${entry.name} battle`)))));
}

/** The result: rounds won against what wins the game, each round's winner, the last round's battles. */
export function breakdown(view, context) {
  const rounds = view.round_results || [];
  const outcome = (winner, seat) => (winner === seat ? "won" : winner === null || winner === undefined || winner < 0 ? "drawn" : "lost");
  return breakdownTable(context, [0, 1], [
    ["rounds won", (i) => view.rounds_won[i]],
    ...rounds.map((winner, k) => [`round ${k + 1}`, (i) => outcome(winner, i)]),
    [`battles, round ${view.round}`, (i) => view.battles.map((b) => `${b.name} ${outcome(b.winner, i)}${b.totals[i] ? ` (${b.totals[i]})` : ""}`).join(", ")],
  ], `Cards of War, ${view.options.length} game: ${GOAL[view.options.length]}; a round is won with two of three battles, a battle by the first to ${BATTLE_TARGET} points.`);
}

export function renderTable(view, context) {
  const ctx = { ...context, badge, face };
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
    backsRow([
      ...view.draw_pile.map((n, k) => [view.draw_pile.length > 1 ? `Draw pile ${k + 1}` : "Draw pile", n]),
      ...seats.filter((i) => i !== ctx.seat).map((i) => [`${ctx.names[i] || `player ${i}`}'s hand`, view.hand_counts[i]]),
    ], "Face-down cards"),
    h("p", { class: "piles" }, piles),
    view.discard.some((d) => d.length) ? h("details", {}, h("summary", { text: "Discard pile" + (view.discard.length > 1 ? "s" : "") }),
      view.discard.map((d) => cardRow(d, { ...ctx, playable: null }))) : null,
    view.round_results && view.round_results.length ? h("p", { text: `Rounds so far: ${view.round_results.map((r, k) => `${k + 1}: ${r >= 0 ? seatWord(ctx, r) : "drawn"}`).join("; ")}` }) : null,
  );
}
