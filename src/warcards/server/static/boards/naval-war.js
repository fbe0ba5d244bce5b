// Naval War's table (docs: src/warcards/games/naval_war/GUIDE.md): the round, the target and the piles; each
// task force with its ships — name, gun, damage against the Hit Number, the salvos under each, face-down
// ships at night — its Smoke, Destroyer Squadron, minefields, points and Deep Six; fleets at fleet play; what
// the phase is resolving; the hand.
import { card, cardRow, h, hand, panel, plural, scoreboard, seatWord, turnLine } from "./common.js";
import { backs, backsRow } from "./face.js";
import { breakdownTable } from "./result.js";

const PHASES = {
  "deal-ships": "dealing ships", "deal-cards": "dealing play cards", refill: "refilling a hand",
  opening: "Opening: play a red card", choice: "draw, or launch air strikes", draw: "drawing a card",
  play: "play or discard a card", red: "name the red card's target", roll: "the die is rolled",
  "additional-ship": "an Additional Ship arrives", "air-strike": "name the next air strike",
  "dd-target": "Destroyer Squadron: pick a task force", "dd-sink": "Destroyer Squadron: pick a ship",
  give: "give a salvo back", end: "game over", aim: "aim the salvo",
};
const FLEETS = "ABCD";

function badge(facts) {
  if (facts.kind === "ship") return facts.gun === "carrier" ? `CV ${facts.hits}` : `${facts.gun}" ${facts.hits}`;
  if (facts.kind === "salvo") return `×${facts.value}`;
  return facts.red ? "red" : null;
}

const NATIONS = { "Great Britain": "gb", "United States": "us", Japan: "jp", Italy: "it", Germany: "de" };
const KINDS = {
  ship: ["⚓", "Ship"], salvo: ["✴", "Salvo"], additional_damage: ["✚", "Additional Damage"], additional_ship: ["⚓", "Additional Ship"],
  minefield: ["✺", "Minefield"], submarine: ["▼", "Submarine"], torpedo_boat: ["➤", "Torpedo Boat"],
  destroyer_squadron: ["⚔", "Destroyer Squadron"], smoke: ["☁", "Smoke"], repair: ["⚒", "Repair"], minesweeper: ["⚓", "Minesweeper"],
};

/** A card's face: a ship in its nation's colour, its gun top left and its Hit Number top right (the hits
 * that sink it, the points it scores); a salvo's hits top left and the gun that fires it top right; red
 * cards marked "Red card". */
export function face(facts) {
  const [symbol, kind] = KINDS[facts.kind] || ["■", facts.kind];
  if (facts.kind === "ship") {
    const carrier = facts.gun === "carrier";
    return {
      side: NATIONS[facts.nation] || "none", sideText: facts.nation, icon: carrier ? ["✈", "Carrier"] : [symbol, "Ship"],
      typeText: carrier ? "carrier" : `${facts.gun}-inch guns`,
      tl: carrier ? ["CV", "carrier: launches air strikes"] : [`${facts.gun}″`, `${facts.gun}-inch guns`],
      tr: [String(facts.hits), `Hit Number ${facts.hits}: hits that sink it, points for sinking it`],
    };
  }
  const red = facts.red ? { side: "red", sideText: "Red card" } : { side: "play", sideText: "Play card" };
  if (facts.kind === "salvo") {
    return { ...red, icon: [symbol, kind], typeText: `${facts.gun}-inch salvo`,
             tl: [`×${facts.value}`, plural(facts.value, "hit")], tr: [`${facts.gun}″`, `fired by a ${facts.gun}-inch ship`] };
  }
  const value = facts.value ? (facts.kind === "additional_damage" ? [`+${facts.value}`, `+${plural(facts.value, "hit")}`]
    : [String(facts.value), facts.kind === "destroyer_squadron" ? "4 hits destroy it" : plural(facts.value, "hit")]) : null;
  return { ...red, icon: [symbol, kind], typeText: kind, tl: value, tr: facts.red ? ["red", "a red card"] : null };
}

function ship(entry, context) {
  const ctx = entry.id ? context : { ...context, playable: null };
  const salvos = entry.salvos.map((s) => [s.card, ...s.additional].map((c) => context.facts[c]?.name || c).join(" + "));
  const note = [
    entry.id ? `damage ${entry.damage} of ${entry.hits}` : `damage ${entry.damage}`,
    entry.face_down ? "face down (night)" : null,
    entry.resting ? `rests ${entry.resting}` : null,
    salvos.length ? `salvos: ${salvos.join(", ")}` : null,
  ].filter(Boolean).join(" · ");
  return card(entry.id, ctx, { note, className: entry.hits && entry.damage * 2 >= entry.hits ? "damaged ship" : "ship" });
}

function taskForce(view, force, context) {
  const i = force.seat;
  const team = view.teams[i];
  const flags = [
    `${view.scores[i]} points`, plural(force.hand_count, "card"),
    team >= 0 ? `fleet ${FLEETS[team]}` : null,
    force.smoke ? "Smoke" : null,
    force.destroyer_squadron ? `Destroyer Squadron ${force.destroyer_squadron.hits}/4 hits` : null,
    force.mine_hits ? `minefields ${plural(force.mine_hits, "hit")} (by ${seatWord(context, force.last_minefield)})` : null,
    force.alive ? null : "out for the round",
  ].filter(Boolean);
  const sunk = force.deep_six.map((id) => context.facts[id]);
  const who = i === context.seat ? "Your task force" : `${context.names[i] || `player ${i}`}'s task force`;
  return panel(`${who} · ${flags.join(" · ")}`, { class: `zone${view.current_player === i ? " acting" : ""}`, zone: `force:${i}` },
    i !== context.seat ? backs(force.hand_count, `${context.names[i] || `player ${i}`}'s hand`, { className: "force-hand" }) : null,
    force.ships.length ? h("ul", { class: "cards" }, force.ships.map((entry) => ship(entry, context)))
      : h("p", { class: "empty", text: "no ships" }),
    force.mines.length ? h("p", { text: `Minefields before it: ${force.mines.map((c) => context.facts[c]?.name || c).join(", ")}` }) : null,
    force.known_in_hand.length && i !== context.seat ? h("p", { text: `Known in its hand: ${force.known_in_hand.map((c) => context.facts[c]?.name || c).join(", ")}` }) : null,
    force.deep_six.length ? h("p", { text: `Deep Six (ships it sank): ${force.deep_six.map((id, k) => sunk[k] ? `${sunk[k].name} (${sunk[k].hits})` : id).join(", ")}` }) : null);
}

function resolving(view, context) {
  const name = (id) => context.facts[id]?.name || id;
  if (view.phase === "red" && view.pending) return `${PHASES.red}: ${name(view.pending)}`;
  if (view.phase === "aim" && view.aiming) return `aim the ${name(view.aiming)}`;
  if (view.phase === "give" && view.swap_card) return `give a salvo back for the ${name(view.swap_card)}`;
  if (view.strikes && view.strikes.length) {
    const named = view.strikes.filter((s) => !s.rolled).map((s) => `${name(s.carrier)} at ${name(s.target)}`);
    if (named.length) return `air strikes: ${named.join(", ")}`;
  }
  return PHASES[view.phase] || view.phase;
}

/** The result: each seat's points against the target; the last round's points, made of its Deep Six (the
 * Hit Numbers of the ships it sank) and the bonus or penalty (out of the round, sole survivor). */
export function breakdown(view, context) {
  const forces = view.task_forces;
  const deepSix = (i) => forces[i].deep_six.reduce((sum, id) => sum + (context.facts[id]?.hits || 0), 0);
  const known = forces.every((force) => force.deep_six.every((id) => context.facts[id]));
  const signed = (n) => (n > 0 ? `+${n}` : String(n));
  const columns = [
    ["points", (i) => `${view.scores[i]} / ${view.target}`],
    ["last round", (i) => signed(view.last_round[i])],
    ["Deep Six (ships sunk)", (i) => (forces[i].deep_six.length ? `${deepSix(i)}: ${forces[i].deep_six.map((id) => `${context.facts[id]?.name || id} ${context.facts[id]?.hits ?? ""}`.trim()).join(", ")}` : "0")],
  ];
  if (known) columns.push(["out / survivor", (i) => { const rest = view.last_round[i] - deepSix(i); return rest ? signed(rest) : "0"; }]);
  if (view.teams[0] >= 0) columns.push(["fleet", (i) => FLEETS[view.teams[i]]]);
  return breakdownTable(context, forces.map((force) => force.seat), columns,
    `Naval War to ${view.target} points: a round scores the Hit Numbers of the ships a seat sank, -10 out of the round, +10 the sole survivor; most points at or over the target wins.`);
}

export function renderTable(view, context) {
  const ctx = { ...context, badge, face };
  const seats = view.task_forces.map((force) => force.seat);
  const mover = view.current_player >= 0 ? view.current_player : null;
  const actor = mover !== null ? `${seatWord(ctx, mover)} to act` : `${seatWord(ctx, view.turn)}'s turn`;
  const columns = [["points", (i) => `${view.scores[i]} / ${view.target}`], ["last round", (i) => view.last_round[i]],
                   ["hand", (i) => view.task_forces[i].hand_count]];
  if (view.teams[0] >= 0) columns.push(["fleet", (i) => FLEETS[view.teams[i]]]);
  return h("div", { class: "layout naval-war" },
    turnLine([`Naval War, ${plural(view.players, "player")}`, `round ${view.round}`, `target ${view.target} points`,
      `dealer ${seatWord(ctx, view.dealer)}`, view.phase === "end" ? "game over" : `${actor}: ${resolving(view, ctx)}`]),
    scoreboard(ctx, seats, columns, mover),
    h("section", { class: "battles", "aria-label": "The task forces" }, h("h2", { text: "Task forces" }),
      h("div", { class: "forces" }, view.task_forces.map((force) => taskForce(view, force, ctx)))),
    hand(view, ctx),
    backsRow([["Draw pile", view.deck_size], ["Harbor (ships)", view.harbor_size]], "Face-down cards"),
    h("p", { class: "piles" }, `Draw pile ${view.deck_size} · harbor ${view.harbor_size} · discards ${view.discard.length}`
      + (view.unseen_discards ? ` (+${view.unseen_discards} unseen)` : "")),
    view.discard.length ? h("details", {}, h("summary", { text: "Discard pile" }), cardRow(view.discard, { ...ctx, playable: null })) : null,
  );
}
