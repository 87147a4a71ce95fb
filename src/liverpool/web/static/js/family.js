// The family table (issue 24): the pace of a table of people, as the server runs it
// (server/pacing.py, docs/protocol.md): each person's buy choice (sent as `prefs` on every
// connection, kept in this browser), the deal-end pause (`pause` of every hello/state, the
// `continue` message), the automatic buy or pass (`auto_buy`) and the turn timer
// (`turn_deadline`). No rules here: whether a card fits the contract is the server's answer.
import { html } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { pretty } from "./cards.js";

const PREFS_KEY = "liverpool.buy";
export const BUY_MODES = [
  ["ask", "Ask me"],
  ["fits", "Pass unless the card fits my contract"],
  ["never", "Never buy"],
];

export const buyPrefs = {
  get() {
    try {
      const p = JSON.parse(localStorage.getItem(PREFS_KEY) || "{}");
      return { mode: BUY_MODES.some(([m]) => m === p.mode) ? p.mode : "ask", wish: Array.isArray(p.wish) ? p.wish.slice(0, 60) : [] };
    } catch {
      return { mode: "ask", wish: [] };
    }
  },
  set(p) {
    localStorage.setItem(PREFS_KEY, JSON.stringify(p));
  },
};

/** The `prefs` message of these choices: this page shows a deal-end screen (`pause`). */
export const prefsMessage = (p) => ({ type: "prefs", buy: p.mode, wish: p.wish, pause: true });

/** "7h, q, joker" → ["7H", "Q", "JK"] (tokens or ranks alone); what cannot be read is left out. */
export function parseWish(text) {
  return String(text)
    .split(/[\s,;]+/)
    .map((w) => w.trim().toUpperCase().replace(/^JOKER$/, "JK"))
    .filter((w) => /^(JK|(A|[2-9]|10|J|Q|K)[SHDC]?)$/.test(w))
    .slice(0, 60);
}

/** The family part of the page's state, after the game's reducer: a second step over its result. */
export function reduceFamily(s, m) {
  if (m.type !== "hello" && m.type !== "state") return s;
  const pause = m.pause ?? null;
  let overlay = s.overlay;
  // the pause ended by its timer while this person still read the scores: the table goes on
  if (!pause && s.pause && s.pause.waiting.includes(s.seat) && overlay && overlay.kind === "deal_end") overlay = null;
  // a reload during the pause: the server still waits for this person, so the deal-end screen is back
  if (m.type === "hello" && pause && pause.waiting.includes(m.seat) && !overlay) {
    const end = (m.events || []).filter((e) => e.type === "deal_end").pop();
    if (end) overlay = { kind: "deal_end", ev: end, over: false };
  }
  return {
    ...s,
    overlay,
    pause,
    autoBuy: m.auto_buy ?? null,
    turnDeadline: m.turn_deadline ?? null,
    hellos: m.type === "hello" ? (s.hellos || 0) + 1 : s.hellos || 0,
  };
}

/** Seconds left until `deadline` (ms since the epoch), redrawn four times a second. */
export function Clock({ deadline, id }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, []);
  const left = Math.max(0, Math.ceil((deadline - now) / 1000));
  return html`<span class="countdown" id=${id} aria-live="off">${left} s</span>`;
}

/** Under the deal-end screen: who is still reading, and when the pause ends by itself. */
export function PauseNote({ s, name }) {
  const p = s.pause;
  if (!p) return null;
  const others = p.waiting.filter((x) => x !== s.seat);
  const mine = p.waiting.includes(s.seat);
  return html`<p class="pause-note" id="pause-note" role="status">
    ${mine ? "The table waits for you. " : ""}${others.length ? `Waiting for ${others.map(name).join(", ")} to continue.` : mine ? "" : "Everyone has continued."}
    ${p.until ? html` The next deal starts in <${Clock} deadline=${p.until} />.` : null}</p>`;
}

/** The buy window's line when the server answers for this person (their buy choice). */
export function AutoBuyNote({ s, top }) {
  const a = s.autoBuy;
  if (!a || !top) return null;
  if (a.action === "ask") return html`<p class="auto-buy" id="auto-buy">The ${pretty(top)}: ${a.why}.</p>`;
  return html`<p class="auto-buy" id="auto-buy">${a.action === "buy" ? "Buying" : "Passing on"} the ${pretty(top)} for you: ${a.why}.</p>`;
}

/** The person's buy choice, kept in this browser and sent to the server on every change. */
export function BuyPrefs({ prefs, setPrefs }) {
  const [text, setText] = useState(prefs.wish.join(" "));
  const label = (BUY_MODES.find(([m]) => m === prefs.mode) || BUY_MODES[0])[1];
  return html`<details class="buy-prefs" id="buy-prefs">
    <summary>Buying: ${label}${prefs.wish.length ? `, wish list ${prefs.wish.length}` : ""}</summary>
    <div class="buy-prefs-body">
      <label class="field" for="buy-mode">When I may buy a discard
        <select id="buy-mode" value=${prefs.mode} onChange=${(e) => setPrefs({ ...prefs, mode: e.target.value })}>
          ${BUY_MODES.map(([m, t]) => html`<option value=${m}>${t}</option>`)}
        </select></label>
      <label class="field" for="buy-wish">Buy these at once (e.g. "7H QS JK", or "Q" for any queen)
        <input id="buy-wish" value=${text} onInput=${(e) => setText(e.target.value)}
          onChange=${(e) => setPrefs({ ...prefs, wish: parseWish(e.target.value) })} /></label>
      ${prefs.wish.length ? html`<p class="hint">Wish list: ${prefs.wish.map((w) => (w.length > 1 && w !== "10" ? pretty(w) : w)).join(" ")}</p>` : null}
    </div>
  </details>`;
}
