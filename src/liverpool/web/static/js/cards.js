// Card faces drawn as SVG, each with a text label (rank + suit letter) so nothing depends on colour.
// Display only: no rule lives here. A card name is the engine's token, e.g. "7H", "10S", "JK".
import { html } from "htm/preact";

export const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_WORDS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_WORDS = { A: "ace", J: "jack", Q: "queen", K: "king" };
const SUIT_ORDER = { C: 0, D: 1, H: 2, S: 3 };
const RANK_ORDER = { A: 1, J: 11, Q: 12, K: 13 };

export function parseCard(name) {
  if (name === "JK" || name.startsWith("JK")) return { joker: true, rank: "JK", suit: "", name };
  // a dead deuce (house rule dead_discarded_wild) is the deuce's token with "~": "2H~"
  const dead = name.endsWith("~");
  const base = dead ? name.slice(0, -1) : name;
  return { joker: false, rank: base.slice(0, -1), suit: base.slice(-1), name, dead };
}

export function rankValue(rank) {
  return RANK_ORDER[rank] ?? (parseInt(rank, 10) || 99);
}

/** "7♥" for logs and buttons. */
export function pretty(name) {
  if (!name) return "";
  const c = parseCard(name);
  return c.joker ? "joker" : `${c.rank}${SUITS[c.suit] ?? c.suit}${c.dead ? "~" : ""}`;
}

export function cardWords(name) {
  const c = parseCard(name);
  if (c.joker) return "joker";
  return `${c.dead ? "dead " : ""}${RANK_WORDS[c.rank] ?? c.rank} of ${SUIT_WORDS[c.suit] ?? c.suit}`;
}

/** Sort keys for the hand's display order (a view preference, not a rule). */
export function bySuit(a, b) {
  const x = parseCard(a), y = parseCard(b);
  if (x.joker !== y.joker) return x.joker ? 1 : -1;
  return (SUIT_ORDER[x.suit] - SUIT_ORDER[y.suit]) || (rankValue(x.rank) - rankValue(y.rank));
}
export function byRank(a, b) {
  const x = parseCard(a), y = parseCard(b);
  if (x.joker !== y.joker) return x.joker ? 1 : -1;
  return (rankValue(x.rank) - rankValue(y.rank)) || (SUIT_ORDER[x.suit] - SUIT_ORDER[y.suit]);
}

function pip(suit) {
  return SUITS[suit] ?? "?";
}

/** One card face. `small` draws the compact size used in melds. */
export function Card({ name, small = false, cls = "", ...rest }) {
  if (!name) return null;
  const c = parseCard(name);
  const red = c.suit === "H" || c.suit === "D";
  const color = c.joker ? "#6a1b9a" : red ? "#c62828" : "#1a1a1a";
  const label = c.joker ? "JK" : `${c.rank}${c.suit}${c.dead ? "~" : ""}`;
  return html`
    <svg class=${`card ${small ? "small" : ""} ${cls}`} viewBox="0 0 60 84" role="img"
         aria-label=${cardWords(name)} data-card=${name} ...${rest}>
      <rect x="1" y="1" width="58" height="82" rx="6" ry="6" fill="#fffdf7" stroke="#555" stroke-width="1.2" />
      ${c.joker
        ? html`
          <text x="6" y="17" font-size="13" font-weight="700" fill=${color}>JK</text>
          <text x="30" y="52" font-size="28" text-anchor="middle" fill=${color}>★</text>
          <text x="30" y="76" font-size="10" text-anchor="middle" fill=${color}>JOKER</text>`
        : html`
          <text x="5" y="17" font-size="15" font-weight="700" fill=${color}>${c.rank}</text>
          <text x="5" y="31" font-size="13" fill=${color}>${pip(c.suit)}</text>
          <text x="33" y="56" font-size="30" text-anchor="middle" fill=${color}>${pip(c.suit)}</text>
          <text x="54" y="78" font-size="11" font-weight="700" text-anchor="end" fill=${color}>${label}</text>`}
    </svg>`;
}

export function CardBack({ label = "", small = false, ...rest }) {
  return html`
    <svg class=${`card back ${small ? "small" : ""}`} viewBox="0 0 60 84" role="img" aria-label=${label || "card back"} ...${rest}>
      <defs>
        <pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <rect width="6" height="6" fill="#1f4e8c" /><line x1="0" y1="0" x2="0" y2="6" stroke="#5b8fd1" stroke-width="2" />
        </pattern>
      </defs>
      <rect x="1" y="1" width="58" height="82" rx="6" ry="6" fill="url(#hatch)" stroke="#123" stroke-width="1.2" />
      <rect x="7" y="7" width="46" height="70" rx="4" fill="none" stroke="#fff" stroke-width="1" opacity="0.6" />
      ${label ? html`<text x="30" y="48" font-size="13" font-weight="700" text-anchor="middle" fill="#fff">${label}</text>` : null}
    </svg>`;
}
