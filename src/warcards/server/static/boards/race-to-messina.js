// Race to Messina's table (docs: src/warcards/games/race_to_messina/GUIDE.md): the turn and phase, PT against
// each seat's goal, the battles — each table facing the one it fights, with its total, its cards and who is
// to act — the own face-down deployment, Recon knowledge, the decks and discards, the hand.
import { card, cardRow, details, h, hand, panel, plural, scoreboard, title, turnLine } from "./common.js";
import { backsRow } from "./face.js";
import { breakdownTable } from "./result.js";

// Each variant's PT goal per seat, as params.py VARIANT_TABLE sets them (pt_goal).
const GOALS = {
  invasion: { allies: 10, axis: 20 },
  race: { british: 10, americans: 10 },
  sicily: { british: 10, americans: 10, axis: 16 },
};
const PHASES = { logistics: "Logistics", strategy: "Strategy", deployment: "Deployment", action: "Action",
                 recovery: "Recovery", over: "game over" };

const badge = (facts) => `${facts.force}F`;

// A trait's icon (a symbol and its name): the first trait of a card is its type.
const TRAIT_ICONS = {
  Infantry: "⚔", Tanks: "⚙", Artillery: "✴", Air: "✈", Naval: "⚓", Strategy: "♜", Leader: "★", Defense: "♖",
  Terrain: "▲", Weather: "☀", Intelligence: "◉", Base: "⌂", Blunder: "☠",
};
const ONLY = { AA: "only the American player deploys it", AB: "only the British player deploys it" };

/** A card's face: its side's colour, Force top left (the strength a battle adds), AA/AB top right, its
 * ability bottom left (DT, Supply, Recon, Progress, PT). */
export function face(facts) {
  const trait = facts.traits[0] || "";
  return {
    side: facts.faction, sideText: `${title(facts.faction)}${facts.italian ? " · Italian" : ""}`,
    icon: [TRAIT_ICONS[trait] || "■", trait || "card"], typeText: facts.traits.join(" / "),
    tl: [`${facts.force}F`, `Force ${facts.force}`],
    tr: facts.restriction ? [facts.restriction, `${facts.restriction}: ${ONLY[facts.restriction] || facts.restriction}`] : null,
    bl: facts.ability ? [facts.ability.replace(/^gain (\d+) PT$/, "+$1 PT"), `ability: ${facts.ability}`] : null,
  };
}

/** `table:axis:british` -> "Axis set against the British"; `table:allies` -> "Allies". */
export function zoneName(zone) {
  const [, owner, facing] = zone.split(":");
  return facing ? `${title(owner)} set against the ${title(facing)}` : title(owner);
}

function totalText(view, zone) {
  const total = view.totals[zone];
  return "total" in total ? `${total.total}F` : `attack ${total.ally}F, defence ${total.axis}F`;
}

function zonePanel(view, zone, context) {
  const marks = [];
  if (view.slot === zone) marks.push("to act");
  if ((view.passed || []).includes(zone)) marks.push("passed");
  if (view.progress && view.progress[zone]) marks.push(`Progress ${view.progress[zone]}`);
  const cards = view.table[zone].map((entry) => card(entry.id, { ...context, playable: null },
    { note: entry.activated ? "activated" : null }));
  return panel(`${zoneName(zone)} — ${totalText(view, zone)}${marks.length ? ` (${marks.join(", ")})` : ""}`,
    { class: view.slot === zone ? "zone acting" : "zone", zone },
    cards.length ? h("ul", { class: "cards" }, cards) : h("p", { class: "empty", text: "no card" }));
}

/** The battles: each table beside the one it faces (the reader's own first). */
function battles(view, context) {
  const mine = context.seat === null ? null : view.seats[context.seat];
  const zones = Object.keys(view.groups).sort((a, b) =>
    (view.groups[b].owner === mine) - (view.groups[a].owner === mine));
  const seen = new Set();
  const rows = [];
  for (const zone of zones) {
    if (seen.has(zone)) continue;
    const facing = view.groups[zone].faces;
    seen.add(zone); seen.add(facing);
    rows.push(h("div", { class: "battle" }, zonePanel(view, zone, context),
      facing && facing !== zone && view.table[facing] ? zonePanel(view, facing, context) : null));
  }
  return h("section", { class: "battles", "aria-label": "The battles" }, h("h2", { text: "The battles" }), rows);
}

function counts(sizes) {
  return Object.entries(sizes).map(([zone, n]) => {
    const [, side] = zone.split(":");
    const size = Array.isArray(n) ? n.length : n;
    return side ? `${title(side)} ${size}` : String(size);  // the Race's one mixed deck and pile
  }).join(", ");
}

/** The result: each seat's PT against its goal (the first to reach its goal wins). */
export function breakdown(view, context) {
  const goals = GOALS[view.variant] || {};
  return breakdownTable(context, view.seats.map((_, i) => i), [
    ["side", (i) => title(view.seats[i])],
    ["PT", (i) => view.pt[view.seats[i]]],
    ["goal", (i) => goals[view.seats[i]] ?? "?"],
    ["goal reached", (i) => (goals[view.seats[i]] !== undefined && view.pt[view.seats[i]] >= goals[view.seats[i]] ? "yes" : "no")],
  ], `Race to Messina, ${title(view.variant)}: the first side to reach its PT goal wins; turn ${view.turn} was the last.`);
}

export function renderTable(view, context) {
  const ctx = { ...context, badge, face };
  const seats = view.seats;
  const goals = GOALS[view.variant] || {};
  const who = view.current_player;
  const mover = seats.indexOf(who);
  const acting = who === "chance" ? "drawing" : mover >= 0 ? `${mover === ctx.seat ? "you" : title(who)} to act` : null;
  const supply = view.supply && view.supply.card;
  const deploying = Object.entries(view.deploying || {}).filter(([, cards]) => cards.length);
  const known = Object.entries(view.known_hands || {});
  return h("div", { class: "layout race-to-messina" },
    turnLine([`Race to Messina, ${title(view.variant)}`, `Turn ${view.turn}`, PHASES[view.phase] || view.phase, acting]),
    scoreboard(ctx, seats.map((_, i) => i), [
      ["PT / goal", (i) => `${view.pt[seats[i]]} / ${goals[seats[i]] ?? "?"}`],
      ["hand", (i) => plural(view.hand_sizes[seats[i]], "card")],
    ], mover),
    battles(view, ctx),
    deploying.length ? h("section", { "aria-label": "Your face-down deployment" },
      h("h2", { text: "Deploying face down" }),
      deploying.map(([zone, cards]) => panel(`to the ${zoneName(zone.replace("deploying:", "table:"))}`, {},
        cardRow(cards, { ...ctx, playable: null })))) : null,
    known.length ? h("section", { "aria-label": "Recon" }, h("h2", { text: "Recon: what you saw" }),
      known.map(([name, cards]) => panel(`${title(name)}'s hand`, {}, cardRow(cards, { ...ctx, playable: null })))) : null,
    hand(view, ctx, { note: (id) => (id === supply ? "Supply card: keep or reveal" : null) }),
    backsRow([
      ...Object.entries(view.decks).map(([zone, n]) => [zone.split(":")[1] ? `${title(zone.split(":")[1])} deck` : "Deck", n]),
      ...seats.filter((_, i) => i !== ctx.seat).map((name, i) => [`${ctx.names[seats.indexOf(name)] || title(name)}'s hand`, view.hand_sizes[name]]),
    ], "Face-down cards"),
    h("p", { class: "piles" }, `Discards: ${counts(view.discards)}`),
    details("Discard piles", Object.entries(view.discards).map(([zone, cards]) =>
      panel(zone.split(":")[1] ? `${title(zone.split(":")[1])} discards` : "Discards", {}, cardRow(cards, { ...ctx, playable: null })))),
  );
}
