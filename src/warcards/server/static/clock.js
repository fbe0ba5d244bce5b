// The table's timer on the table page: the `clock` of every view and event frame (docs/protocol.md, "The
// clock"), counted down in the browser from the moment the frame arrived — a per-move limit for the running
// seat, or every seat's bank on a chess clock — and, when a stand-in bot holds the reader's own seat after a
// timeout, a notice with a "Take my seat back" button that sends `reclaim`.

import { h } from "./boards/index.js";

/** "4:05", "1:02:03", "0:00": whole seconds left, never below zero. */
export function clockText(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  const [hours, minutes, rest] = [Math.floor(whole / 3600), Math.floor(whole / 60) % 60, whole % 60];
  const pad = (n) => String(n).padStart(2, "0");
  return hours ? `${hours}:${pad(minutes)}:${pad(rest)}` : `${minutes}:${pad(rest)}`;
}

// send(message): send a client message on the table's socket; seatName(seat): a seat's name.
export function clockBox(send, seatName) {
  const state = { clock: null, at: 0, seat: null, reclaiming: null, ended: false };
  const banks = h("ul", { class: "banks", id: "clock-banks", "aria-label": "Each seat's time" });
  const running = h("p", { id: "clock-running", role: "timer", "aria-live": "off" });
  const reclaim = h("button", { id: "reclaim", class: "primary", type: "button", text: "Take my seat back",
    onclick: () => { state.reclaiming = `r${Date.now().toString(36)}`; reclaim.disabled = true; send({ type: "reclaim", id: state.reclaiming }); } });
  const standIn = h("div", { id: "stand-in", class: "refusal", role: "alert", hidden: true },
    h("p", { text: "You ran out of time: a bot is playing your seat until you take it back." }), reclaim);
  const node = h("section", { id: "clock", class: "clock", "aria-label": "Timer", hidden: true }, running, banks, standIn);

  const left = (seat) => {  // seconds left for `seat` now, or null
    const value = state.clock.seconds_left[seat];
    if (value === null || value === undefined) return null;
    return state.clock.running === seat && !state.ended ? value - (performance.now() - state.at) / 1000 : value;
  };
  // A seat's time for its panel: its bank on a chess clock, the move's time left for the seat to move.
  function seatText(seat) {
    const clock = state.clock;
    if (!clock || (clock.kind !== "total" && clock.running !== seat)) return null;
    const value = left(seat);
    return value === null ? null : `clock ${clockText(value)}${clock.running === seat && !state.ended ? " running" : ""}`;
  }
  function draw() {
    const clock = state.clock;
    node.hidden = !clock;
    if (!clock) return;
    const who = clock.running;
    if (who === null || who === undefined || state.ended) running.textContent = state.ended ? "The clock is stopped: the game is over." : "No clock is running.";
    else {
      const mine = who === state.seat ? "your" : `${seatName(who)}'s`;
      const what = clock.kind === "move" ? "for this move" : "on the clock";
      running.textContent = `${who === state.seat ? "You have" : `${seatName(who)} has`} ${clockText(left(who) ?? 0)} left ${what}` +
        (clock.stand_ins.includes(who) ? ` (a bot plays ${mine} seat)` : "");
    }
    banks.hidden = clock.kind !== "total";
    if (clock.kind === "total") banks.replaceChildren(...clock.seconds_left.map((_, seat) => h("li", {
      class: seat === who ? "running" : null, "data-seat": String(seat),
      text: `${seatName(seat)}: ${clockText(left(seat) ?? 0)}${seat === who && !state.ended ? " ▸ running" : ""}`,
    })));
    for (const fact of document.querySelectorAll("#players .clock-fact[data-seat]")) {  // each player's panel
      fact.textContent = seatText(Number(fact.dataset.seat)) ?? "";
    }
    const held = state.seat !== null && clock.stand_ins.includes(state.seat) && !state.ended;
    standIn.hidden = !held;
    if (!held) { reclaim.disabled = false; state.reclaiming = null; }
  }
  const ticker = setInterval(() => { if (state.clock && !state.ended) draw(); }, 1000);

  return {
    node,
    // Every frame the table page receives, with the reader's seat (null: a spectator).
    receive(message, seat) {
      state.seat = seat;
      const carried = message.type === "catchup" ? message.view : message;
      if ((message.type === "view" || message.type === "event" || message.type === "catchup") && "clock" in carried) {
        state.clock = carried.clock; state.at = performance.now();
      } else if (message.type === "end") {
        state.ended = true;
      } else if (message.type === "ack" && state.reclaiming && message.id === state.reclaiming && state.clock) {
        state.clock = { ...state.clock, stand_ins: state.clock.stand_ins.filter((s) => s !== seat) };
      } else if (message.type === "refused" && message.id === state.reclaiming) {
        reclaim.disabled = false; state.reclaiming = null;
      } else return;
      draw();
    },
    seatText,
    stop() { clearInterval(ticker); },
  };
}
