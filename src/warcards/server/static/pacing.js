// A bot's turn at its pace: the moves other seats make are shown one at a time, each for a moment (600 ms
// by default), with a "Skip" button; the player's next click or key skips too. None of it when the browser
// asks for reduced motion. The pace: `?pace=MS` in the page's address, else localStorage "warcards.pace"
// (tests set 0), else 600.

import { h } from "./boards/index.js";

export const PACE_KEY = "warcards.pace";
const DEFAULT_PACE_MS = 600;

/** The pace in milliseconds a move of another seat stays on screen before the next is shown (0: none). */
export function paceMs() {
  if (window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) return 0;
  const asked = new URLSearchParams(location.search).get("pace") ?? localStorage.getItem(PACE_KEY);
  const value = Number(asked ?? DEFAULT_PACE_MS);
  return Number.isFinite(value) && value >= 0 ? Math.min(value, 5000) : DEFAULT_PACE_MS;
}

/**
 * Messages through a pacer: `push(message)` applies it with `apply` at once, unless a move of another seat
 * was shown less than a pace ago (then it waits its turn: the order is kept). `seatOf()` is the reader's
 * seat; `describe(event)` the move in the page's words. `node` is the "just now" line with its Skip
 * button; `skip()` applies everything held at once.
 */
export function pacer(apply, seatOf, describe) {
  const queue = [];
  let timer = 0;
  let holdUntil = 0;
  const line = h("span", { id: "pace-line" });
  const skipButton = h("button", { type: "button", id: "pace-skip", text: "Skip", "aria-label": "Skip to the latest move" });
  const node = h("p", { class: "pace", id: "pace", hidden: true }, line, " ", skipButton);
  const othersMove = (m) => m.type === "event" && m.event.actor >= 0 && m.event.actor !== seatOf();
  function show() {
    node.hidden = queue.length === 0;
    document.body.dataset.paced = String(queue.length);
  }
  function take(message) {
    apply(message);
    const pace = paceMs();
    if (othersMove(message) && pace > 0) {
      holdUntil = performance.now() + pace;
      line.textContent = describe(message.event);
    }
  }
  function drain() {
    timer = 0;
    while (queue.length && performance.now() >= holdUntil) take(queue.shift());
    arm();
    show();
  }
  function arm() {
    if (!timer && queue.length) timer = setTimeout(drain, Math.max(0, holdUntil - performance.now()));
  }
  function skip() {
    clearTimeout(timer); timer = 0; holdUntil = 0;
    while (queue.length) apply(queue.shift());
    show();
  }
  const onInput = (event) => {
    if (!queue.length || event.target === skipButton) return;
    if (event.type === "keydown" && ["Shift", "Control", "Alt", "Meta", "Tab"].includes(event.key)) return;
    skip();
  };
  skipButton.addEventListener("click", skip);
  document.addEventListener("pointerdown", onInput, true);
  document.addEventListener("keydown", onInput, true);
  return {
    node,
    skip,
    push(message) {
      if (!queue.length && performance.now() >= holdUntil) take(message);
      else { queue.push(message); arm(); show(); }
    },
    stop() {
      clearTimeout(timer);
      document.removeEventListener("pointerdown", onInput, true);
      document.removeEventListener("keydown", onInput, true);
    },
  };
}
