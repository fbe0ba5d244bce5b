// Cards drawn as cards: a face with its side's colour and name, a type icon (a symbol with an accessible
// name), the values a player decides on in its corners, its facts' text in a popover reached by hover,
// keyboard focus or a long press; face-down cards drawn as backs with their count; what came onto the table
// since the reader's last move marked. Each game module gives `face(facts)` (its corners, icon and side);
// common.js's `card` and `cardRow` are the ones here.
import { h } from "./common.js";

// A game's face of one card (its module's `face(facts)`): `{side, sideText, icon: [symbol, name], typeText,
// tl, tr, bl, br}` where `side` names a colour (cards.css `.side-…`), `sideText` says it in words, and each
// corner is `[text, words]` (what is printed, what a screen reader and the corner's title say) or null.

/** A corner of a face: top left/right in the coloured band, bottom left/right beside the id. */
function corner(where, value) {
  if (!value) return null;
  const [text, label] = Array.isArray(value) ? value : [value, value];
  return h("span", { class: `corner ${where}`, title: label, "aria-hidden": "true", text });
}

/** The popover's lines: the name, the side and type, the facts' text, the printed text, the note. */
function tipText(name, face, facts, note) {
  return [name, face ? [face.sideText, face.typeText].filter(Boolean).join(" · ") : null, facts ? facts.text : null, facts && facts.printed && facts.printed !== "-" ? `Printed: ${facts.printed}` : null, note]
    .filter(Boolean).join("\n");
}

/**
 * One card: its face (context.face(facts)) or, without one, its name and badge; its facts' text, the note
 * (damage, "face down", the round), its id (what a legal move's `cards` lists). A card a legal move names is a
 * button: a click plays it or shows its moves (context.onCard). `id` null: a face-down card, drawn as a back.
 */
export function card(id, context, { badge = null, note = null, tag = "li", className = "" } = {}) {
  if (id === null || id === undefined) return back(note, tag, className);
  const facts = context.facts[id] || null;
  const playable = Boolean(context.playable && context.playable.has(id));
  const name = facts ? facts.name : id;
  const face = facts && context.face ? context.face(facts) : null;
  const shownBadge = badge ?? (facts && context.badge ? context.badge(facts) : null);
  const icon = face && face.icon ? h("span", { class: "card-icon", role: "img", "aria-label": face.icon[1], title: face.icon[1], text: face.icon[0] }) : null;
  const parts = face ? [
    h("span", { class: "card-band" }, corner("tl", face.tl), h("span", { class: "band-gap" }), corner("tr", face.tr)),
    face.sideText ? h("span", { class: "side-name", text: face.sideText }) : null,
    h("b", { class: "card-name", text: name }),
    h("span", { class: "card-mid" }, icon, face.typeText ? h("span", { class: "type-name", text: face.typeText }) : null),
    facts ? h("span", { class: "card-text", text: facts.text }) : null,
    note ? h("span", { class: "card-note", text: note }) : null,
    h("span", { class: "card-foot" }, corner("bl", face.bl), h("span", { class: "card-id", text: id }), corner("br", face.br)),
  ] : [
    h("span", { class: "card-head" }, h("b", { class: "card-name", text: name }), shownBadge ? h("span", { class: "badge", text: shownBadge }) : null),
    facts ? h("span", { class: "card-text", text: facts.text }) : null,
    note ? h("span", { class: "card-note", text: note }) : null,
    h("span", { class: "card-id", text: id }),
  ];
  const cornerWords = face ? ["tl", "tr", "bl", "br"].map((k) => face[k]).filter(Boolean)
    .map((v) => (Array.isArray(v) ? v[1] : v)) : [];
  const label = [name, face ? face.sideText : null, face && face.icon ? face.icon[1] : null, ...cornerWords,
                 face ? null : shownBadge, facts ? facts.text : null, note, `(${id})`].filter(Boolean).join(", ");
  const classes = ["card", face ? `face side-${face.side || "none"}` : "", className, playable ? "playable" : "",
                   context.selected === id ? "selected" : ""].filter(Boolean).join(" ");
  const tip = tipText(name, face, facts, note);
  if (playable && context.onCard) {
    return h(tag, { class: classes, "data-card": id, "data-tip": tip },
      h("button", { class: "card-button", type: "button", "aria-label": `${label}, playable now`,
                    "aria-pressed": context.selected === id ? "true" : "false", onclick: () => context.onCard(id) }, parts));
  }
  return h(tag, { class: classes, "data-card": id, "data-tip": tip, tabindex: "0", role: tag === "li" ? null : "group", "aria-label": label }, parts);
}

/** A face-down card: its back (a note such as "round 2" under it). */
function back(note, tag = "li", className = "") {
  return h(tag, { class: ["card", "down", "back", className].filter(Boolean).join(" "), "aria-label": `a face-down card${note ? `, ${note}` : ""}` },
    h("span", { class: "back-pattern", "aria-hidden": "true" }),
    h("span", { class: "card-name", text: "face down" }),
    note ? h("span", { class: "card-note", text: note }) : null);
}

/** A pile or a hand seen from behind: a stack of backs and its count, "7 cards" (`label` names whose). */
export function backs(count, label, { className = "" } = {}) {
  const shown = Math.min(count, 3);
  return h("div", { class: `backs ${className}`.trim(), role: "img", "aria-label": `${label}: ${count} ${count === 1 ? "card" : "cards"}${count ? ", face down" : ""}` },
    h("span", { class: `stack${count ? "" : " empty-stack"}`, "aria-hidden": "true" },
      Array.from({ length: Math.max(shown, 1) }, (_, i) => h("span", { class: "back-pattern", style: `--k:${i}` }))),
    h("span", { class: "backs-text", "aria-hidden": "true" },
      h("span", { class: "backs-label", text: label }), h("b", { class: "backs-count", text: `${count} ${count === 1 ? "card" : "cards"}` })));
}

/** A row of stacks: [[label, count], …]. */
export function backsRow(entries, label) {
  return h("div", { class: "backs-row", role: "group", "aria-label": label }, entries.map(([name, count]) => backs(count, name)));
}

/** A row of cards (or "none"). */
export function cardRow(ids, context, options = {}, label = null) {
  if (!ids || !ids.length) return h("p", { class: "empty", text: "none" });
  return h("ul", { class: "cards", "aria-label": label }, ids.map((id) => card(id, context, options)));
}

// ----- what just happened: the cards that moved since the reader's last move ----------------------------
/** Where each shown card lies now: "zone|id" for every card face under `roots` (its zone: the nearest
 * `[data-zone]`, else the nearest panel's first heading word). */
export function cardPlaces(...roots) {
  const places = new Set();
  for (const root of roots) for (const node of root.querySelectorAll(".card[data-card]")) places.add(placeOf(node));
  return places;
}

function placeOf(node) {
  const zone = node.closest("[data-zone]")?.dataset.zone || (node.closest("#hand") ? "hand" : node.closest(".panel, section, details")?.getAttribute("aria-label") || "");
  return `${zone}|${node.dataset.card}`;
}

/** Marks the cards not where they were at the reader's last move (`seen`, from cardPlaces): a visible
 * "new" tag and words for a screen reader. Returns how many were marked. */
export function markMoved(seen, ...roots) {
  let marked = 0;
  for (const root of roots) {
    for (const node of root.querySelectorAll(".card[data-card]")) {
      if (seen.has(placeOf(node))) continue;
      node.classList.add("fresh");
      const inside = node.querySelector(".card-button") || node;
      inside.append(h("span", { class: "fresh-tag", "aria-hidden": "true", text: "new" }),
        h("span", { class: "sr-only", text: " (moved since your last move)" }));
      if (node.hasAttribute("aria-label")) node.setAttribute("aria-label", `${node.getAttribute("aria-label")}, moved since your last move`);
      const button = node.querySelector(".card-button");
      if (button) button.setAttribute("aria-label", `${button.getAttribute("aria-label")}, moved since your last move`);
      marked += 1;
    }
  }
  return marked;
}

// ----- the popover: a card's whole text on hover, keyboard focus or a long press ------------------------
const LONG_PRESS_MS = 450;
let tip = null;
let pressTimer = 0;
let pressed = null;
let swallowClick = false;
let shownFor = null;  // the card whose text the popover shows: a redraw that removes it closes the popover

function tipNode() {
  if (!tip || !tip.isConnected) {
    tip = h("div", { id: "card-tip", class: "card-tip", role: "tooltip", hidden: true });
    document.body.append(tip);
  }
  return tip;
}

function showTip(node) {
  const text = node.dataset.tip;
  if (!text) return;
  const box = tipNode();
  box.replaceChildren(...text.split("\n").map((line, i) => h(i ? "span" : "b", { text: line })));
  box.hidden = false;
  const r = node.getBoundingClientRect();
  const width = Math.min(box.offsetWidth, innerWidth - 8);
  const left = Math.max(4, Math.min(r.left, innerWidth - width - 4));
  const below = r.bottom + 4;
  const top = below + box.offsetHeight <= innerHeight ? below : Math.max(4, r.top - box.offsetHeight - 4);
  box.style.left = `${left}px`;
  box.style.top = `${top}px`;
  node.setAttribute("aria-describedby", "card-tip");
  shownFor = node;
}

function hideTip() {
  if (tip) tip.hidden = true;
  shownFor = null;
}

function redrawn(node) {  // the same card after a redraw replaced its node (a frame arrived), or null
  if (node.isConnected) return node;
  const id = node.dataset.card;
  return id ? document.querySelector(`.card[data-card="${CSS.escape(id)}"][data-tip]`) : null;
}

function tipped(event) { return event.target instanceof Element ? event.target.closest(".card[data-tip]") : null; }

document.addEventListener("pointerover", (e) => { const node = tipped(e); if (node && e.pointerType === "mouse") showTip(node); });
document.addEventListener("pointerout", (e) => { const node = tipped(e); if (node && e.pointerType === "mouse" && !node.contains(e.relatedTarget)) hideTip(); });
document.addEventListener("focusin", (e) => { const node = tipped(e); if (node) showTip(node); else hideTip(); });
document.addEventListener("focusout", (e) => { if (tipped(e) && !tipped({ target: e.relatedTarget })) hideTip(); });
new MutationObserver(() => {  // a redraw keeps the popover on the same card; it closes when the card left the table
  if (!shownFor || shownFor.isConnected) return;
  const again = redrawn(shownFor);
  if (again) showTip(again); else hideTip();
}).observe(document.body, { childList: true, subtree: true });
document.addEventListener("keydown", (e) => { if (e.key === "Escape") hideTip(); });
document.addEventListener("scroll", hideTip, true);
document.addEventListener("pointerdown", (e) => {  // a long press (touch, pen) shows the text; the click it makes is swallowed
  clearTimeout(pressTimer);
  const node = tipped(e);
  if (!node) { hideTip(); return; }
  if (e.pointerType === "mouse") return;
  pressed = node;
  pressTimer = setTimeout(() => { const held = redrawn(node); if (held) { showTip(held); swallowClick = true; } }, LONG_PRESS_MS);
});
for (const type of ["pointerup", "pointercancel"]) document.addEventListener(type, () => clearTimeout(pressTimer));
document.addEventListener("pointermove", (e) => { if (pressed && e.pointerType !== "mouse" && !pressed.contains(e.target)) clearTimeout(pressTimer); });
document.addEventListener("contextmenu", (e) => { if (tipped(e)) e.preventDefault(); });
document.addEventListener("click", (e) => {
  if (swallowClick) { swallowClick = false; if (tipped(e)) { e.stopPropagation(); e.preventDefault(); } }
}, true);
