// "How to play" (#/rules/GAME, or #/rules/GAME/ANCHOR to open at a ruling or a section): the game's guide and
// its rulings as the server renders them (GET /games/{game}/guide: HTML built from escaped text, so it is
// shown as it comes), every rule citation a link to its ruling on the same page, and the game's keywords
// explained on hover, on a tap and on keyboard focus (the glossary at the top says the same in full).

import { h } from "./boards/index.js";

let shown = null;  // {game, root}: the rules page on screen, so a citation's link only moves within it

/** The rules page's address for `game`, at `anchor` (a ruling "R31" or a heading's id) if given. */
export function rulesHref(game, anchor) {
  return `#/rules/${encodeURIComponent(game)}${anchor ? `/${encodeURIComponent(anchor)}` : ""}`;
}

/** Whether the page on screen is `game`'s rules: then a new anchor only scrolls (see `showAnchor`). */
export function rulesShown(game) { return Boolean(shown && shown.game === game && shown.root.isConnected); }

/** Bring `anchor`'s heading into view and give it the focus (the reader's place for the keyboard too). */
export function showAnchor(anchor) {
  if (!shown) return;
  const target = anchor ? shown.root.querySelector(`[id="${CSS.escape(anchor)}"]`) : null;
  for (const node of shown.root.querySelectorAll(".target")) node.classList.remove("target");
  if (!target) { window.scrollTo(0, 0); return; }
  target.classList.add("target");
  target.focus({ preventScroll: true });
  target.scrollIntoView({ block: "start" });
}

/** The rules page of `game` into `main`; `api` reads the server (app.js's). Returns the page's stop. */
export function rulesPage(game, anchor, main, api) {
  const title = h("h1", { id: "rules-h", text: "How to play" });
  const error = h("p", { class: "refusal", role: "alert", hidden: true });
  const body = h("div", { class: "rules", id: "rules" });
  main.append(title, error, body);
  document.title = "How to play — warcards";
  shown = { game, root: body };
  let closed = false;
  const closeTips = () => { for (const term of body.querySelectorAll(".term.open")) term.classList.remove("open"); };
  const onClick = (event) => {  // a tap on a keyword opens its explanation; a tap elsewhere closes it
    const term = event.target.closest?.(".term");
    const open = term && !term.classList.contains("open");
    closeTips();
    if (open) term.classList.add("open");
  };
  const onKey = (event) => { if (event.key === "Escape") closeTips(); };
  document.addEventListener("click", onClick);
  document.addEventListener("keydown", onKey);
  api("GET", `/games/${encodeURIComponent(game)}/guide`).then((page) => {
    if (closed) return;
    title.textContent = `How to play ${page.title}`;
    document.title = `How to play ${page.title} — warcards`;
    const guide = h("section", { class: "guide", "aria-label": `The guide to ${page.title}` });
    guide.innerHTML = page.guide_html;  // the server's HTML: made from escaped text (warcards.server.guide)
    const rulings = h("section", { class: "rulings", "aria-label": `${page.title}: the rulings` });
    rulings.innerHTML = page.rulings_html;
    body.replaceChildren(
      h("p", { class: "lead", text: page.description }),
      h("nav", { "aria-label": "On this page" }, h("ul", { class: "row plain" },
        h("li", {}, h("a", { href: rulesHref(game, "glossary"), text: "Words used" })),
        h("li", {}, h("a", { href: rulesHref(game, guide.querySelector("h2")?.id), text: "The guide" })),
        h("li", {}, h("a", { href: rulesHref(game, rulings.querySelector("h2")?.id), text: "The rulings" })),
        h("li", {}, h("a", { href: "#/lobby", text: "Lobby" })))),
      h("section", { class: "glossary", "aria-labelledby": "glossary" },
        h("h2", { id: "glossary", tabindex: "-1", text: "Words used in this game" }),
        h("dl", {}, ...page.glossary.flatMap((entry) => [
          h("dt", { text: entry.term }), h("dd", { id: entry.anchor, text: entry.meaning })]))),
      guide, rulings);
    for (const wide of body.querySelectorAll("pre, table")) wide.tabIndex = 0;  // may scroll sideways: by keyboard too
    document.body.dataset.rules = game;
    showAnchor(anchor);
  }, (e) => { error.textContent = e.message; error.hidden = false; });
  return () => {
    closed = true; shown = null;
    document.removeEventListener("click", onClick);
    document.removeEventListener("keydown", onKey);
    delete document.body.dataset.rules;
  };
}
