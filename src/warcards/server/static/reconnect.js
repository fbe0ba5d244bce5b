// Reconnect feedback beside the moves: while the table's socket is down the moves are disabled, a countdown
// says when the next try is, and "Retry now" tries at once; all of it is cleared when the socket is back.

import { h } from "./boards/index.js";

/**
 * The box, and what the table page calls: `down(waitMs, retry)` when the socket closed and a try is set for
 * `waitMs` from now (`retry()` tries at once), `up()` when a socket opened, `isDown()`, and `disable(root)`
 * (the moves under `root` are disabled while down; the page calls it after each redraw).
 */
export function reconnectBox() {
  const text = h("span", { id: "reconnect-text" });
  const retryButton = h("button", { type: "button", id: "reconnect-retry", text: "Retry now" });
  const node = h("div", { class: "reconnect", id: "reconnect", role: "status", hidden: true }, text, " ", retryButton);
  let timer = 0;
  let due = 0;
  let retry = null;
  let root = null;
  let focused = null;  // a control that had the focus when it was disabled: it gets it back
  const tick = () => {
    const seconds = Math.max(0, Math.ceil((due - Date.now()) / 1000));
    text.textContent = seconds > 0
      ? `Disconnected from the table: moves are off until it is back. Reconnecting in ${seconds} s.`
      : "Disconnected from the table: reconnecting…";
  };
  retryButton.addEventListener("click", () => { if (retry) { const again = retry; retry = null; again(); } });
  const box = {
    node,
    isDown: () => !node.hidden,
    down(waitMs, retryNow) {
      retry = retryNow;
      due = Date.now() + waitMs;
      node.hidden = false;
      tick();
      clearInterval(timer);
      timer = setInterval(tick, 250);
      box.disable(root);
    },
    up() {
      clearInterval(timer); timer = 0; retry = null;
      node.hidden = true;
      text.textContent = "";
      if (root) for (const control of root.querySelectorAll("[data-reconnect-off]")) {
        control.disabled = false; delete control.dataset.reconnectOff;
      }
      if (focused?.isConnected && !focused.disabled && document.activeElement === document.body) focused.focus({ preventScroll: true });
      focused = null;
    },
    disable(under) {
      root = under || root;
      if (!root || node.hidden) return;
      for (const control of root.querySelectorAll("button")) {  // a field keeps what is typed in it, and its focus
        if (control.disabled) continue;
        if (control === document.activeElement) focused = control;
        control.disabled = true; control.dataset.reconnectOff = "1";
      }
    },
    stop() { clearInterval(timer); },
  };
  return box;
}
