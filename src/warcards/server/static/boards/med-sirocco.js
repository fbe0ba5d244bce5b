// Med Sirocco's table (docs: src/warcards/games/med_sirocco/GUIDE.md): the Operation with its facts, its
// engagement type and round; what is in force (restrictions, Admiral, Bomb alley, Shallows, the Sirocco);
// each player's side, cards in play (face-down ones counted), Operations won and their VP, captured cards and
// hand; the cards under the Operation, the prizes to share, the reader's VP and hand.
import { card, cardRow, details, h, hand, panel, plural, scoreboard, seatWord, title, turnLine } from "./common.js";
import { backsRow } from "./face.js";
import { breakdownTable } from "./result.js";

const PHASES = {
  chance: "a draw or a die roll", "choose-operation": "keep one of two Operations (5.0)",
  "declare-type": "declare the engagement type", turn: "play, discard or pass", play: "add a card or end the play",
  admiral: "choose the Admiral's option (2.46)", target: "choose the target", "sirocco-target": "choose whom the Sirocco cancels (2.44)",
  "held-sirocco": "use or discard the Sirocco passed on (2.44)", "lost-card": "choose cards to exchange (R1)",
  "lost-seat": "choose whom to exchange with (R1)", supply: "pick up a ship with Supply (2.41)",
  share: "share out the prizes (5.0)", end: "game over",
};
const SERIES_TARGET = 75;  // params.py SERIES_TARGET: series play ends at 75 VP

function badge(facts) {
  if (facts.kind === "force") return `${facts.values.air}/${facts.values.surface}/${facts.values.sub}`;
  if (facts.kind === "bonus") return `+${facts.values.air}/${facts.values.surface}/${facts.values.sub}`;
  if (facts.kind === "operation") return `${facts.vp} VP`;
  return title(facts.kind);
}

const FRAMES = { air: ["✈", "air"], surface: ["⚓", "surface"], sub: ["▼", "submarine"], combined: ["⚔", "combined"] };
const KINDS = { bonus: ["✚", "Bonus"], supply: ["⚐", "Supply"], special: ["★", "Special"], storm: ["☁", "Storm"], operation: ["⚑", "Operation"] };
const shortYears = (years) => (years.length ? `${String(years[0]).slice(2)}–${String(years[years.length - 1]).slice(2)}` : "");

/** A card's face: its side's colour and flag; a Force card's air/surface/sub values top left, its VP top
 * right, the years it may be played bottom left; a Bonus's values; an Operation's VP, year, load. */
export function face(facts) {
  const side = facts.side || (facts.kind === "operation" ? "operation" : "none");
  const sideText = facts.side ? `${title(facts.side)}${facts.nation ? ` · ${title(facts.nation)}` : ""}` : facts.kind === "operation" ? "Operation" : "Neutral";
  const v = facts.values;
  if (facts.kind === "force") {
    const [symbol, frame] = FRAMES[facts.frame] || ["■", facts.frame];
    return { side, sideText, icon: [symbol, `${frame} Force card`], typeText: frame,
             tl: [`${v.air}/${v.surface}/${v.sub}`, `air ${v.air}, surface ${v.surface}, submarine ${v.sub}`],
             tr: [`${facts.vp} VP`, `${facts.vp} victory points`],
             bl: [shortYears(facts.years), `played in ${facts.years.join(", ")}`] };
  }
  const [symbol, kind] = KINDS[facts.kind] || ["■", title(facts.kind)];
  if (facts.kind === "bonus") {
    return { side, sideText, icon: [symbol, kind], typeText: "Bonus",
             tl: [`+${v.air}/${v.surface}/${v.sub}`, `plus air ${v.air}, surface ${v.surface}, submarine ${v.sub}`] };
  }
  if (facts.kind === "operation") {
    return { side, sideText, icon: [symbol, `${title(facts.operation)} Operation`],
             typeText: `${title(facts.operation)}${facts.battle_type ? ` · ${facts.battle_type}` : ""}`,
             tl: [`${facts.vp} VP`, `${facts.vp} victory points`], tr: [String(facts.year), `year ${facts.year}`],
             bl: facts.load ? [`${facts.load} load`, `${facts.load} load`] : null };
  }
  return { side, sideText, icon: [symbol, kind], typeText: kind };
}

function inForce(view, context) {
  const notes = [];
  if (view.restriction) notes.push(`only ${title(view.restriction)} cards may be played (2.42, 2.43)`);
  if (view.admiral_combined) notes.push("an Admiral made the engagement combined (2.46)");
  if (view.bomb_alley_on) notes.push(`Bomb alley doubles ${context.facts[view.bomb_alley_on]?.name || view.bomb_alley_on} (2.48)`);
  if (view.shallows) notes.push("Shallows: no submarines this round (R10)");
  if (view.sirocco_holder !== null && view.sirocco_holder !== undefined) notes.push(`the Sirocco is passed to ${seatWord(context, view.sirocco_holder)} (2.44)`);
  return notes;
}

function operation(view, context) {
  const ctx = { ...context, playable: null };
  const head = `Operation ${Math.min(view.operations_done + 1, view.operations_total)} of ${view.operations_total}`
    + (view.series_vp ? ` · game ${view.game_number} of the series` : "");
  const body = [];
  if (view.operation) {
    body.push(h("ul", { class: "cards" }, card(view.operation, ctx, { className: "operation" })),
      h("p", { text: `${title(view.kind || "")} · ${view.engagement_type ? `${view.engagement_type} engagement` : "type not declared yet"} · round ${view.round} of ${view.rounds}` }));
  } else if (Array.isArray(view.operation_choice) && view.operation_choice.length) {
    body.push(h("p", { text: "Keep one of these Operations (5.0):" }), cardRow(view.operation_choice, context));
  } else {
    body.push(h("p", { text: view.phase === "end" ? `Game over after ${view.operations_total} Operations` : "No Operation turned over yet" }));
  }
  const notes = inForce(view, context);
  if (notes.length) body.push(h("ul", { class: "notes" }, notes.map((n) => h("li", { text: n }))));
  if (view.under_operation.length) body.push(h("h4", { text: "Under the Operation (a tie, 3.4)" }), cardRow(view.under_operation, ctx));
  if (view.share_pool.length) body.push(h("h4", { text: "Prizes to share (5.0)" }), cardRow(view.share_pool, ctx));
  return panel(head, { class: "operation-panel", zone: "operation" }, ...body);
}

function inPlay(view, seat, context) {
  const ctx = { ...context, playable: null };
  const mine = view.plays.filter((play) => play.seat === seat);
  const shown = mine.filter((play) => play.card !== null);
  const hidden = mine.length - shown.length;
  const flags = view.cancelled[seat] ? " — cancelled (2.44)" : view.sat_out[seat] ? " — sits out" : "";
  const side = view.sides[seat] ? title(view.sides[seat]) : "no side yet";
  return panel(`${seatWord(context, seat) === "you" ? "You" : title(context.names[seat] || `player ${seat}`)} · ${side}${flags}`,
    { class: `zone${view.current_player === seat ? " acting" : ""}`, zone: `play:${seat}` },
    shown.length || hidden ? h("ul", { class: "cards" },
      shown.map((play) => card(play.card, ctx, { note: [play.face_down ? "face down" : null, play.on ? `on ${context.facts[play.on]?.name || play.on}` : null,
        view.rounds > 1 ? `round ${play.round}` : null].filter(Boolean).join(", ") || null })),
      Array.from({ length: hidden }, () => card(null, ctx))) : h("p", { class: "empty", text: "no card in play" }));
}

/** The result: each seat's VP columns — the Operations won and their VP, the captured cards, the final VP
 * (and the series VP in series play). */
export function breakdown(view, context) {
  const seats = Array.from({ length: view.players }, (_, i) => i);
  const columns = [
    ["Operations won", (i) => (view.won[i].length ? view.won[i].map((id) => `${context.facts[id]?.name || id} (${context.facts[id]?.vp ?? "?"})`).join(", ") : "none")],
    ["Operations VP", (i) => view.won_vp[i]],
    ["captured cards", (i) => view.captured_counts[i]],
  ];
  if (view.final_vp) columns.push(["captured VP", (i) => view.final_vp[i] - view.won_vp[i]], ["final VP", (i) => view.final_vp[i]]);
  if (view.series_vp) columns.push([`series VP (to ${SERIES_TARGET})`, (i) => view.series_vp[i]]);
  return breakdownTable(context, seats, columns,
    `Med Sirocco after ${view.operations_done} Operations: VP are the Operations won and the captured ships (1.1); most VP wins (1.2).`);
}

export function renderTable(view, context) {
  const ctx = { ...context, badge, face };
  const seats = Array.from({ length: view.players }, (_, i) => i);
  const who = view.current_player;
  const doing = who === null || who === undefined ? PHASES[view.phase] || view.phase
    : `${seatWord(ctx, who)} to ${PHASES[view.phase] || view.phase}`;
  const columns = [
    ["Operations won (VP)", (i) => `${view.won[i].length} (${view.won_vp[i]} VP)`],
    ["captured", (i) => view.captured_counts[i]],
    ["hand / limit", (i) => `${view.hand_sizes[i]} / ${view.hand_limits[i]}`],
  ];
  if (view.final_vp) columns.unshift(["final VP", (i) => view.final_vp[i]]);
  if (view.series_vp) columns.push([`series VP (to ${SERIES_TARGET})`, (i) => view.series_vp[i]]);
  return h("div", { class: "layout med-sirocco" },
    turnLine([`Med Sirocco, ${plural(view.players, "player")}`, `first player: ${seatWord(ctx, view.first_player)}`, doing]),
    scoreboard(ctx, seats, columns, who),
    view.my_vp !== undefined ? h("p", { class: "vp", text: `Your VP: ${view.my_vp} in all (Operations won and captured cards, 1.1); most VP after the last Operation wins (1.2)` }) : null,
    operation(view, ctx),
    h("section", { class: "battles", "aria-label": "Cards in play" }, h("h2", { text: "In play" }),
      h("div", { class: "battle" }, seats.map((seat) => inPlay(view, seat, ctx)))),
    Array.isArray(view.captured) && view.captured.length ? panel("Your captured cards", {}, cardRow(view.captured, { ...ctx, playable: null })) : null,
    (view.known_in_hands || []).some((cards, i) => i !== ctx.seat && cards.length) ? h("section", { "aria-label": "Cards you know in other hands" },
      h("h2", { text: "Cards you know in other hands" }),
      seats.filter((i) => i !== ctx.seat && view.known_in_hands[i].length).map((i) =>
        panel(`${title(ctx.names[i] || `player ${i}`)} holds`, {}, cardRow(view.known_in_hands[i], { ...ctx, playable: null })))) : null,
    hand(view, ctx),
    backsRow([["Force pile", view.pile_size], ["Operations left", view.operations_left],
      ...seats.filter((i) => i !== ctx.seat).map((i) => [`${ctx.names[i] || `player ${i}`}'s hand`, view.hand_sizes[i]])], "Face-down cards"),
    h("p", { class: "piles" }, `Force pile ${view.pile_size} · Operations left ${view.operations_left} · discards ${view.discard.length}`),
    details("Discard pile and Operations won", cardRow(view.discard, { ...ctx, playable: null }, {}, "Discard pile"),
      seats.filter((i) => view.won[i].length).map((i) => panel(`won by ${seatWord(ctx, i)}`, {}, cardRow(view.won[i], { ...ctx, playable: null })))),
  );
}
