// Turn emails (docs/server.md, "Correspondence games and notices"): whether this server sends them, said
// where a player picks a correspondence timer (a day or more a move). `GET /features` answers it; the
// account settings page can show `turnEmailFeatures().turn_emails_note` the same way.

import { h } from "./boards/index.js";

let features = null;  // the server's answer, asked once per page load

export function turnEmailFeatures() {
  features ??= fetch("/features").then((answer) => (answer.ok ? answer.json() : null)).catch(() => null);
  return features;
}

// A note under the timer select: shown for a correspondence timer, saying whether a turn is emailed.
export function correspondenceNote(timerSelect) {
  const note = h("span", { class: "doc", id: "timer-mail-note", hidden: true, "aria-live": "polite" });
  const update = async () => {
    const [kind, seconds] = timerSelect.value.split(":");
    const known = await turnEmailFeatures();
    const correspondence = Boolean(known) && kind === "move" && Number(seconds) >= known.correspondence_seconds;
    note.hidden = !correspondence;
    note.textContent = correspondence ? known.turn_emails_note : "";
  };
  timerSelect.addEventListener("change", update);
  update();
  return note;
}
