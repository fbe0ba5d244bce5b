// One entry for every game's table: `renderTable(game, view, context)` draws a seat's view (or a spectator's
// public view) as the game lays it out; the table page (app.js) and the replay viewer share it.
//
// context: { seat (the reader's seat, null a spectator), names (seat names), facts ({card id: facts} from
// GET /tables/{id}/cards), playable ({has(id)}: the cards a legal move names, or null), selected (the card
// picked), onCard(id) (a click on a playable card) }.
import { h } from "./common.js";
import * as cardsOfWar from "./cards-of-war.js";
import * as medSirocco from "./med-sirocco.js";
import * as navalWar from "./naval-war.js";
import * as raceToMessina from "./race-to-messina.js";

const GAMES = { "race-to-messina": raceToMessina, "med-sirocco": medSirocco, "naval-war": navalWar, "cards-of-war": cardsOfWar };

export function renderTable(game, view, context) {
  const module = GAMES[game];
  if (!module) return h("pre", { class: "view", text: JSON.stringify(view, null, 1) });
  return module.renderTable(view, { facts: {}, playable: null, selected: null, onCard: null, ...context });
}

/** The result's breakdown for `game` from its last view: each seat's score and what decided it (the
 * game module's `breakdown`), or null. */
export function resultBreakdown(game, view, context) {
  const module = GAMES[game];
  if (!module || !module.breakdown || !view) return null;
  return module.breakdown(view, { facts: {}, ...context });
}

export { h };
export { cardPlaces, markMoved } from "./face.js";
