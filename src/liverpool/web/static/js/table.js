// The table: one seat's view of a game, driven only by the server's messages. What may be done
// comes from the `legal` list of the last `state`/`hello`; staged melds are checked by the server.
import { html } from "htm/preact";
import { useEffect, useReducer, useRef, useState } from "preact/hooks";
import { api, go, myName, tokens } from "./api.js";
import { byRank, bySuit, Card, CardBack, pretty } from "./cards.js";
import { Conn } from "./conn.js";
import { ChatPanel, reduceChat } from "./chat.js";
import { AutoBuyNote, BuyPrefs, buyPrefs, Clock, PauseNote, prefsMessage, reduceFamily } from "./family.js";
import { notifyPrefs, NotifyPrefs, useTurnSignal } from "./notify.js";
import { watchLink, WatchConn } from "./watch.js";
import { eventText } from "./words.js";

let keySeq = 0;

/** Keep the player's own order for cards still held; new cards go to the right. */
function reconcile(order, hand) {
  const pool = new Map();
  for (const c of hand) pool.set(c, (pool.get(c) || 0) + 1);
  const kept = [];
  for (const o of order) {
    const n = pool.get(o.card) || 0;
    if (n > 0) {
      pool.set(o.card, n - 1);
      kept.push(o);
    }
  }
  for (const c of hand) {
    const n = pool.get(c) || 0;
    if (n > 0) {
      pool.set(c, n - 1);
      kept.push({ key: `k${++keySeq}`, card: c });
    }
  }
  return kept;
}

const sameCards = (a, b) => a.length === b.length && [...a].sort().join(" ") === [...b].sort().join(" ");

const initial = {
  seat: null,
  table: null,
  version: null,
  view: null,
  legal: [],
  buyDeadline: null,
  answers: null,
  log: [],
  error: null,
  overlay: null,
  last: null,
  rematch: null,
  checks: {},
};

function reduce(s, m) {
  switch (m.type) {
    case "hello":
      return {
        ...s,
        seat: m.seat,
        table: m.table,
        version: m.version,
        view: m.view,
        legal: m.legal || [],
        buyDeadline: m.buy_deadline ?? null,
        answers: m.answers ?? null,
        log: (m.events || []).map((e) => ({ ev: e })),
        recent: [],
        error: null,
        overlay: m.view && m.view.is_over ? { kind: "game_over", ev: (m.events || []).filter((e) => e.type === "game_over").pop() } : s.overlay,
      };
    case "state": {
      const evs = m.events || [];
      let overlay = s.overlay;
      const end = evs.filter((e) => e.type === "deal_end").pop();
      const over = evs.find((e) => e.type === "game_over");
      if (end) overlay = { kind: over ? "game_over" : "deal_end", ev: end, over };
      return {
        ...s,
        table: m.table || s.table,
        version: m.version,
        view: m.view,
        legal: m.legal || [],
        buyDeadline: m.buy_deadline ?? null,
        answers: m.answers ?? null,
        log: evs.length ? [...s.log, ...evs.map((e) => ({ ev: e }))] : s.log, // a game's events: a few thousand at most
        last: m.last || null,
        recent: evs,
        error: null,
        overlay,
      };
    }
    case "lobby":
    case "table":
      return { ...s, table: m.table };
    case "error":
      return { ...s, error: m.reason || m.code };
    case "check_result":
      return { ...s, checks: { ...s.checks, [m.id]: m } };
    case "rematch":
      return { ...s, rematch: m };
    case "dismiss":
      return { ...s, overlay: null };
    case "local_error":
      return { ...s, error: m.reason };
    default:
      return s;
  }
}

// ---- hints (issue 13): the `hint` message's answer, the hints left this deal, a pending request.
// Kept apart from `reduce` (which follows the game's messages) as a second step over its result.
const sameAction = (a, b) => !!a && !!b && JSON.stringify(a) === JSON.stringify(b);

function reduceHints(s, m) {
  switch (m.type) {
    case "hello": // a new socket: an answer still being computed went to the old one
      return { ...s, hintPending: false, hintsLeft: "hints_left" in m ? m.hints_left : s.hintsLeft };
    case "state":
      return "hints_left" in m ? { ...s, hintsLeft: m.hints_left } : s;
    case "hint_asked":
      return { ...s, hintPending: true, hint: null };
    case "hint": {
      // the answer names the suggested action by its id in the list of its version: keep the
      // action itself, so the hint is shown for as long as that action is still offered
      const entry = s.version === m.version ? s.legal.find((l) => l.id === m.action) : null;
      return {
        ...s,
        hintPending: false,
        hintsLeft: "left" in m ? m.left : s.hintsLeft,
        hint: { text: m.text, cards: m.cards || [], action: entry ? entry.action : null, version: m.version },
      };
    }
    case "error":
      return s.hintPending ? { ...s, hintPending: false } : s;
    default:
      return s;
  }
}

const reduceTable = (s, m) => reduceChat(reduceFamily(reduceHints(reduce(s, m), m), m), m);

/** The hand's cards an action plays (to highlight), one card of the hand for each. */
export function markCards(order, cards) {
  const marked = new Set();
  for (const c of cards || []) {
    const o = order.find((x) => x.card === c && !marked.has(x.key));
    if (o) marked.add(o.key);
  }
  return marked;
}
// ---- end of hints

/** A short flight of a card between two places on the table (a seat, the stock, the pile). */
function fly(fromEl, toEl, card) {
  if (!fromEl || !toEl || !fromEl.getBoundingClientRect || window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const a = fromEl.getBoundingClientRect();
  const b = toEl.getBoundingClientRect();
  // a seat scrolled out of view (the phone's row of seats) would fly in from over the header
  const seen = (r) => r.width > 0 && r.right > 0 && r.bottom > 0 && r.left < window.innerWidth && r.top < window.innerHeight;
  const head = document.querySelector(".topbar");
  const top = head ? head.getBoundingClientRect().bottom : 0;
  if (!seen(a) || !seen(b) || a.top + a.height / 2 < top || b.top + b.height / 2 < top) return;
  const el = document.createElement("div");
  el.className = "flyer";
  el.setAttribute("aria-hidden", "true");
  el.textContent = card ? pretty(card) : "";
  document.body.appendChild(el);
  const x0 = a.left + a.width / 2, y0 = a.top + a.height / 2, x1 = b.left + b.width / 2, y1 = b.top + b.height / 2;
  const anim = el.animate(
    [
      { transform: `translate(${x0}px, ${y0}px) translate(-50%, -50%) scale(0.8)`, opacity: 0.95 },
      { transform: `translate(${x1}px, ${y1}px) translate(-50%, -50%) scale(1)`, opacity: 0.9 },
    ],
    { duration: 450, easing: "ease-in-out" },
  );
  anim.onfinish = () => el.remove();
}

/** Animate the public moves of others that just arrived, one by one. */
function animateEvents(events, mySeat) {
  const seatEl = (p) => document.querySelector(`.seat-box[data-seat="${p}"]`);
  const stock = document.getElementById("stock");
  const pile = document.getElementById("discard-pile");
  let delay = 0;
  for (const ev of events || []) {
    if (ev.player === undefined || ev.player === mySeat) continue;
    let from = null, to = null, card = null;
    if (ev.type === "draw_stock") [from, to] = [stock, seatEl(ev.player)];
    else if (ev.type === "draw_discard" || ev.type === "buy") [from, to, card] = [pile, seatEl(ev.player), ev.card];
    else if (ev.type === "discard") [from, to, card] = [seatEl(ev.player), pile, ev.card];
    else continue;
    setTimeout(() => fly(from, to, card), delay);
    delay += 250;
  }
}

function Countdown({ deadline }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, []);
  const left = Math.max(0, Math.ceil((deadline - now) / 1000));
  return html`<span class="countdown" aria-live="polite">${left} s</span>`;
}

function useConn(tableId, token, dispatch, watch) {
  const [status, setStatus] = useState({ state: "connecting" });
  const conn = useRef(null);
  useEffect(() => {
    if (!token && !watch) return undefined;
    const c = new (watch ? WatchConn : Conn)(tableId, token, { onMessage: dispatch, onStatus: setStatus });
    conn.current = c;
    c.connect();
    const ping = setInterval(() => c.send({ type: "ping" }), 20000);
    return () => {
      clearInterval(ping);
      c.close();
    };
  }, [tableId, token]);
  return [conn, status];
}

function ConnBanner({ status, conn }) {
  if (status.state === "open" || status.state === "connecting") return null;
  if (status.state === "closed" && /replaced/.test(status.reason || "")) {
    return html`<div class="conn-banner" role="alert" id="conn-banner">This seat is open in another window.
      <button onClick=${() => conn && conn.current && conn.current.resume()}>Play here</button></div>`;
  }
  const text =
    status.state === "closed"
      ? `Disconnected${status.reason ? `: ${status.reason}` : ""}.`
      : status.state === "lost"
        ? `Connection lost. Reconnecting in ${Math.round(status.delay / 100) / 10} s (attempt ${status.attempt})…`
        : `Reconnecting (attempt ${status.attempt})…`;
  return html`<div class="conn-banner" role="alert" id="conn-banner">${text}</div>`;
}

function WaitingRoom({ tableId, token, s, prefs, setPrefs, send }) {
  const [err, setErr] = useState(null);
  const [copied, setCopied] = useState(false);
  const info = s.table;
  const invite = `${location.origin}/?join=${tableId}`;
  const start = async () => {
    try {
      await api("POST", `/api/tables/${encodeURIComponent(tableId)}/start`, {}, token);
    } catch (e) {
      setErr(e.message);
    }
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(invite);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return html`
    <main class="lobby">
      <header class="banner-title"><h1>Waiting for players</h1></header>
      <section class="panel">
        <p>Share this invite link:</p>
        <div class="invite"><input id="invite-link" readonly value=${invite} onFocus=${(e) => e.target.select()} />
          <button onClick=${copy}>${copied ? "Copied" : "Copy"}</button></div>
        ${info && info.spectators !== false ? html`<p class="hint">Watch link (the table live, without the hands): <a id="watch-url" href=${watchLink(tableId)}>${watchLink(tableId)}</a></p>` : null}
        ${info ? html`
          <p>${info.players} players, ${info.preset} rules${info.timer ? `, ${info.timer} s per decision` : ""}.</p>
          <ul class="seat-list" id="seat-list">${info.seats.map((x) => html`<li>Seat ${x.seat}: ${
            x.kind === "bot" ? x.name || `bot (${x.bot})` : x.claimed ? `${x.name}${x.seat === s.seat ? " (you)" : ""}${x.connected ? "" : " (away)"}` : "free seat, waiting…"}</li>`)}</ul>` : null}
        <div class="waiting-prefs"><${BuyPrefs} prefs=${prefs} setPrefs=${setPrefs} /></div>
        ${s.seat === 0
          ? html`<button class="primary" id="start" onClick=${start}>Start the game</button><p class="hint">Free seats become bots.</p>`
          : html`<p>The table's creator starts the game.</p>`}
        ${err ? html`<p class="error" role="alert">${err}</p>` : null}
      </section>
      <section class="panel side-family waiting-chat"><${ChatPanel} s=${s} tableId=${tableId} send=${send} canTalk=${true}
        mySeat=${s.seat} nameOf=${(p) => baseName(s, p)} /></section>
    </main>`;
}

/** A seat's display name; names used by several seats (e.g. "medium bot") get the seat number
 * (the engine's, from 0, as in "Seat 0" and the records' p0). */
function baseName(s, p) {
  const seats = (s.table && s.table.seats) || [];
  const seat = seats[p];
  if (!seat || !seat.name) return seat && seat.kind === "bot" ? `Bot ${p}` : `Seat ${p}`;
  const same = seats.filter((x) => x.name === seat.name).length;
  return same > 1 ? `${seat.name} ${p}` : seat.name;
}

function seatName(s, p) {
  return p === s.seat ? `${baseName(s, p)} (you)` : baseName(s, p);
}

/** A seat's name for sentences in the log (no "(you)"). */
function plainName(s, p) {
  return baseName(s, p);
}

function listWords(parts) {
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} or ${parts[parts.length - 1]}`;
}

/** "What you may do now", in words, from the legal list only. */
function doNowText(s, has) {
  const v = s.view;
  const top = v.discard_pile[v.discard_pile.length - 1];
  const parts = [];
  if (has("draw_stock")) parts.push("draw from the stock");
  if (has("draw_discard")) parts.push(`take the ${pretty(top)}`);
  if (has("draw_pile")) parts.push("take cards from the pile");
  if (has("meld")) parts.push("lay down your contract");
  if (has("lay_off")) parts.push("lay off on a meld");
  if (has("swap")) parts.push("swap a joker");
  if (has("discard")) parts.push("discard a card (double-click it)");
  if (has("end_turn")) parts.push("end your turn");
  if (has("buy")) parts.push(`buy the ${pretty(top)}`);
  if (has("call")) parts.push(`call the ${pretty(top)}`);
  if (!parts.length) return "Nothing to do right now: wait for the others.";
  const text = listWords(parts);
  return text[0].toUpperCase() + text.slice(1) + ".";
}

// Tables of more than this many seats get compact seat boxes that wrap in rows (a layout choice:
// the rules' count is the view's `players`).
const MANY_SEATS = 8;

function Seats({ s, scoresOpen }) {
  const v = s.view;
  return html`
    <section class=${`seats-row ${v.players > MANY_SEATS ? "many" : ""}`} aria-label="Players" data-players=${v.players}>
      ${Array.from({ length: v.players }, (_, p) => {
        const info = s.table && s.table.seats ? s.table.seats[p] : null;
        return html`
        <div class=${`seat-box ${p === v.current ? "current" : ""} ${p === s.seat ? "me" : ""} ${s.last && s.last.seat === p ? "acted" : ""}`}
             data-seat=${p} key=${s.last && s.last.seat === p ? `acted-${s.version}` : `seat-${p}`}>
          <div class="seat-name" title=${plainName(s, p)}>${p === v.current ? "▶ " : ""}${seatName(s, p)}${info && info.kind === "bot" && !/bot\)$/.test(info.name || "") ? html` <span class="tag">bot</span>` : null}${
            info && info.kind === "human" && !info.connected && p !== s.seat ? html` <span class="tag away">away</span>` : null}${
            info && info.kind === "human" && info.bot_playing ? html` <span class="tag away">a bot plays</span>` : null}</div>
          <div class="seat-facts">
            <span class="hand-size" title="cards in hand">${v.hand_sizes[p]} cards</span>
            ${v.down[p] ? html`<span class="tag down">down</span>` : null}
            ${v.hand_sizes[p] === 1 ? html`<span class="tag knock">knock: 1 card</span>` : null}
            <span class="score" title="total points (low is good)">${v.scores[p]} pts</span>
            ${v.levels ? html`<span class="level" title="this player's level (contract)">level ${v.levels[p]}</span>` : null}
            ${v.buys_used[p] ? html`<span class="buys">${v.buys_used[p]} bought</span>` : null}
          </div>
        </div>`;
      })}
    </section>`;
}

function ScoreTable({ s }) {
  const v = s.view;
  if (!v.deal_scores.length) return html`<p class="hint">No deal finished yet.</p>`;
  return html`<div class="scores-wrap">
    <table class="scores" id="score-table">
      <thead><tr><th>Deal</th>${Array.from({ length: v.players }, (_, p) => html`<th>${seatName(s, p)}</th>`)}</tr></thead>
      <tbody>
        ${v.deal_scores.map((row, i) => html`<tr><td>${i + 1}</td>${row.map((x) => html`<td>${x}</td>`)}</tr>`)}
        <tr class="total"><td>Total</td>${v.scores.map((x) => html`<td>${x}</td>`)}</tr>
      </tbody>
    </table></div>`;
}

function Log({ s }) {
  const ref = useRef(null);
  useEffect(() => {
    if (ref.current) ref.current.scrollTop = ref.current.scrollHeight;
  }, [s.log.length]);
  const name = (p) => plainName(s, p);
  return html`<ol class="log" id="log" ref=${ref} aria-live="polite">
    ${s.log.filter((x) => x.ev.text).slice(-120).map((x) => html`<li class=${`ev-${x.ev.type}`}>${eventText(x.ev, name)}</li>`)}
  </ol>`;
}

function HandsReveal({ s, ev }) {
  const hands = ev.hands || {};
  return html`<table class="reveal">
    <thead><tr><th>Player</th><th>Cards left</th><th>Points</th><th>Total</th></tr></thead>
    <tbody>
      ${(ev.points || []).map((pts, p) => {
        const cards = String(hands[String(p)] || "").split(/\s+/).filter(Boolean);
        return html`<tr class=${ev.out === p ? "went-out" : ""}>
          <td>${seatName(s, p)}${ev.out === p ? " (out)" : ""}</td>
          <td class="reveal-cards">${cards.length ? cards.map((c) => html`<${Card} name=${c} small />`) : "—"}</td>
          <td class="pts">${pts}</td><td>${(ev.scores || [])[p]}</td></tr>`;
      })}
    </tbody></table>`;
}

function Overlay({ s, dispatch, tableId, token, conn }) {
  const o = s.overlay;
  const [err, setErr] = useState(null);
  if (!o) return null;
  const rematch = async () => {
    try {
      const res = await api("POST", `/api/tables/${encodeURIComponent(tableId)}/rematch`, {}, token);
      if (res.token) tokens.set(res.table_id, res.token);
      go({ table: res.table_id });
    } catch (e) {
      setErr(e.message);
    }
  };
  const over = o.kind === "game_over";
  const winners = over && o.over ? o.over.winners || [] : over && s.view ? s.view.winners : [];
  return html`
    <div class="overlay" role="dialog" aria-modal="true" id=${over ? "game-end" : "deal-end"}>
      <div class="overlay-box">
        <h2>${over ? "Game over" : `Deal ${o.ev ? (s.view.deal_scores.length || "") : ""} is over`}</h2>
        ${over && winners.length ? html`<p class="winners">${winners.map((p) => (p === s.seat ? "You" : plainName(s, p))).join(" and ")} won with the lowest score!</p>` : null}
        ${o.ev && o.ev.type === "deal_end" ? html`<p>${eventText(o.ev, (p) => plainName(s, p))}</p><${HandsReveal} s=${s} ev=${o.ev} />` : null}
        <h3>Scores so far</h3>
        <${ScoreTable} s=${s} />
        <div class="overlay-actions">
          ${over
            ? html`<button class="primary" id="rematch" onClick=${rematch}>Rematch</button>
                   <button onClick=${() => go({ replay: tableId })}>Replay this game</button>
                   <button id="review-game" onClick=${() => go({ review: tableId, seat: s.seat })}>Review my decisions</button>
                   <button onClick=${() => go({})}>Lobby</button>`
            : html`<button class="primary" id="next-deal" onClick=${() => {
                dispatch({ type: "dismiss" });
                if (conn && conn.current && s.seat !== null) conn.current.send({ type: "continue" });
              }}>Next deal</button>`}
        </div>
        ${over ? null : html`<${PauseNote} s=${s} name=${(p) => plainName(s, p)} />`}
        ${err ? html`<p class="error">${err}</p>` : null}
      </div>
    </div>`;
}

/** A table this browser holds no seat at: say whether it exists, and what can be done. */
function NoSeat({ tableId }) {
  const [info, setInfo] = useState(undefined); // undefined: asking; null: no such table
  useEffect(() => {
    api("GET", `/api/tables/${encodeURIComponent(tableId)}`).then(setInfo, (e) => setInfo(e.status === 404 ? null : { error: e.message }));
  }, [tableId]);
  const id = encodeURIComponent(tableId);
  let body;
  if (info === undefined) body = html`<p>Looking for table ${tableId}…</p>`;
  else if (info === null) body = html`<p><strong>There is no table ${tableId}.</strong> The link may be mistyped, or the table is gone.</p>`;
  else if (info.error) body = html`<p class="error">${info.error}</p>`;
  else if (info.status === "waiting") body = html`<p>This browser holds no seat at table ${tableId}. <a href=${`/?join=${id}`}>Take a free seat</a>.</p>`;
  else body = html`<p>This browser holds no seat at table ${tableId} (the game ${info.status === "over" ? "is over" : "has started"}).
    ${info.status === "over" ? html`<a href=${`/?replay=${id}`}>See its replay</a>.` : info.spectators !== false ? html`<a href=${`/?watch=${id}`}>Watch it</a>.` : null}</p>`;
  return html`<main class="lobby"><section class="panel" id="no-seat">${body}
    <p><a class="primary-link" href="/" id="to-lobby">Go to the lobby</a></p></section></main>`;
}

export function TablePage({ tableId, watch = false }) {
  const token = watch ? null : tokens.get(tableId);
  const [s, dispatch] = useReducer(reduceTable, initial);
  const [conn, status] = useConn(tableId, token, dispatch, watch);
  const [order, setOrder] = useState([]);
  const [sel, setSel] = useState(null); // key of the selected hand card
  const [stageRaw, setStage] = useState(null); // null or {melds: [{kind, keys}], active}
  const [queue, setQueue] = useState([]); // staged melds still to send, in order
  const [showScores, setShowScores] = useState(false);
  const [drag, setDrag] = useState(null);
  const [prefs, setPrefsRaw] = useState(buyPrefs.get()); // this person's buy choice (family.js)
  const [signal, setSignalRaw] = useState(notifyPrefs.get()); // "your turn" in a background tab
  const setSignal = (p) => {
    notifyPrefs.set(p);
    setSignalRaw(p);
  };
  const setPrefs = (p) => {
    buyPrefs.set(p);
    setPrefsRaw(p);
  };
  const checkSeq = useRef(0);
  const sentVersion = useRef(null);
  const dealSeen = useRef(null);
  const closing = useRef(false);

  const v = s.view;
  useEffect(() => {
    if (s.recent && s.recent.length) animateEvents(s.recent, s.seat);
  }, [s.version]);
  useEffect(() => {
    // a new hand (first sight or a new deal) starts sorted by suit; drawn cards go to the right
    if (v) setOrder((o) => (o.length && v.deal === dealSeen.current ? reconcile(o, v.hand) : reconcile([], v.hand.slice().sort(bySuit))));
    if (v) dealSeen.current = v.deal;
  }, [v && v.hand.join(" "), v && v.deal]);

  // every connection starts with hello: tell the server this person's buy choice and that this
  // page shows a deal-end screen (the table waits for its Next deal)
  useEffect(() => {
    if (s.hellos && conn.current && !watch) conn.current.send(prefsMessage(prefs));
  }, [s.hellos, prefs]);

  // a rematch's token for this seat comes on the socket: keep it for the new table
  useEffect(() => {
    if (s.rematch && s.rematch.token) tokens.set(s.rematch.table_id, s.rematch.token);
  }, [s.rematch]);

  // forget a selection or staged cards no longer in hand
  const keys = new Set(order.map((o) => o.key));
  const cardOf = (k) => (order.find((o) => o.key === k) || {}).card;

  // staged cards that left the hand (laid down, or a new deal) leave the stage
  const stage = stageRaw && { ...stageRaw, melds: stageRaw.melds.map((m) => ({ ...m, keys: m.keys.filter((k) => keys.has(k)) })) };
  useEffect(() => {
    if (sel && !keys.has(sel)) setSel(null);
  }, [order]);

  // ask the server whether the staged melds are valid, every time they change
  const stagedCards = stage ? stage.melds.map((m) => ({ kind: m.kind, cards: m.keys.map(cardOf) })) : [];
  const stagedSig = JSON.stringify(stagedCards);
  // the verdict shown is the answer for the melds staged now: in the render right after a change,
  // before the new check is sent, the last answer is for other melds and is not shown
  const [checkReq, setCheckReq] = useState(null);
  useEffect(() => {
    if (!stage || !stagedCards.length || stagedCards.some((m) => !m.cards.length)) {
      setCheckReq(null);
      return;
    }
    const id = `c${++checkSeq.current}`;
    setCheckReq({ id, sig: stagedSig });
    conn.current && conn.current.send({ type: "check", id, melds: stagedCards });
  }, [stagedSig, s.version]);
  const check = checkReq && checkReq.sig === stagedSig ? s.checks[checkReq.id] : null;

  // send the queued lay-down one meld per version; the stage closes once the last is accepted
  useEffect(() => {
    if (!v) return;
    if (s.error && (queue.length || closing.current)) {
      closing.current = false;
      setQueue([]);
      return;
    }
    if (closing.current && !queue.length && s.version !== sentVersion.current) {
      closing.current = false;
      setStage(null);
      return;
    }
    if (!queue.length || s.version === sentVersion.current) return;
    const [first, ...rest] = queue;
    const match = s.legal.find((l) => l.action.type === "meld" && l.action.kind === first.kind && sameCards(l.action.cards, first.cards));
    sentVersion.current = s.version;
    if (match) conn.current.send({ type: "act", version: s.version, action: match.id });
    else conn.current.send({ type: "meld", version: s.version, kind: first.kind, cards: first.cards });
    if (!rest.length) closing.current = true;
    setQueue(rest);
  }, [queue, s.version, s.error]);

  // hints: "h" asks for one (when the button is offered), from anywhere but a text field
  const askHint = useRef(null);
  useEffect(() => {
    const key = (e) => {
      if (e.key !== "h" || e.ctrlKey || e.metaKey || e.altKey || /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) return;
      if (askHint.current) askHint.current();
    };
    window.addEventListener("keydown", key);
    return () => window.removeEventListener("keydown", key);
  }, []);

  // a decision of this person's while the tab is hidden: the title, the favicon (notify.js)
  const myDecision = !watch && !!v && status.state === "open" && s.legal.length > 0 && !v.is_over && !(s.autoBuy && s.autoBuy.action !== "ask");
  useTurnSignal(myDecision ? (v.current === s.seat ? "Your turn" : "Buy or pass?") : null, signal);

  if (watch && !v) {
    return html`<${ConnBanner} status=${status} conn=${conn} /><main class="lobby"><header class="banner-title"><h1>Watching table ${tableId}</h1></header>
      <section class="panel">${s.error ? html`<p class="error" role="alert">${s.error}</p>` : html`<p>The game has not started yet: it shows here as soon as it does.</p>`}
        ${s.table ? html`<ul class="seat-list">${s.table.seats.map((x) => html`<li>Seat ${x.seat}: ${x.claimed ? x.name : "free seat"}</li>`)}</ul>` : null}
        <p><a href="/">Go to the lobby</a></p></section>
      <section class="panel side-family waiting-chat"><${ChatPanel} s=${s} tableId=${tableId} send=${(m) => conn.current && conn.current.send({ ...m, name: myName.get() || undefined })}
        canTalk=${!!s.table && s.table.chat === "everyone"} mySeat=${null} nameOf=${(p) => baseName(s, p)} /></section></main>`;
  }
  if (!token && !watch) return html`<${NoSeat} tableId=${tableId} />`;
  if (!v) {
    return html`<${ConnBanner} status=${status} conn=${conn} /><${WaitingRoom} tableId=${tableId} token=${token} s=${s} prefs=${prefs} setPrefs=${setPrefs}
      send=${(m) => conn.current && conn.current.send(m)} />
      ${s.error ? html`<p class="error">${s.error}</p>` : null}`;
  }

  const legal = status.state === "open" ? s.legal : []; // nothing can be sent while the socket is down

  const has = (t) => legal.some((l) => l.action.type === t);
  const of = (t) => legal.filter((l) => l.action.type === t);
  const act = (l) => {
    if (!l) return;
    conn.current.send({ type: "act", version: s.version, action: l.id });
  };
  const myTurn = v.current === s.seat && !v.is_over;
  const top = v.discard_pile[v.discard_pile.length - 1];
  const selCard = sel ? cardOf(sel) : null;
  const discardOf = (card) => of("discard").find((l) => l.action.card === card);
  const layoffs = selCard ? of("lay_off").filter((l) => l.action.card === selCard) : [];
  const swaps = selCard ? of("swap").filter((l) => l.action.card === selCard) : [];
  const inStage = new Set(stage ? stage.melds.flatMap((m) => m.keys) : []);

  const clickCard = (k) => {
    if (stage && stage.active !== null && stage.melds[stage.active]) {
      if (inStage.has(k)) return;
      const melds = stage.melds.map((m, i) => (i === stage.active ? { ...m, keys: [...m.keys, k] } : m));
      setStage({ ...stage, melds });
      return;
    }
    setSel(sel === k ? null : k);
  };
  const moveSel = (d) => {
    const i = order.findIndex((o) => o.key === sel);
    const j = i + d;
    if (i < 0 || j < 0 || j >= order.length) return;
    const next = order.slice();
    [next[i], next[j]] = [next[j], next[i]];
    setOrder(next);
  };
  const onHandKey = (e, k) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      clickCard(k);
    } else if (e.key === "ArrowLeft" && sel === k) {
      e.preventDefault();
      moveSel(-1);
    } else if (e.key === "ArrowRight" && sel === k) {
      e.preventDefault();
      moveSel(1);
    } else if (e.key === "Delete") {
      act(discardOf(cardOf(k)));
    }
  };
  const dropOnHand = (e, k) => {
    e.preventDefault();
    if (!drag || drag === k) return;
    const from = order.findIndex((o) => o.key === drag);
    const to = order.findIndex((o) => o.key === k);
    const next = order.slice();
    const [item] = next.splice(from, 1);
    next.splice(to, 0, item);
    setOrder(next);
    setDrag(null);
  };
  const dropOnDiscard = (e) => {
    e.preventDefault();
    if (drag) act(discardOf(cardOf(drag)));
    setDrag(null);
  };
  const dropOnMeld = (e, meldId) => {
    e.preventDefault();
    if (!drag) return;
    const card = cardOf(drag);
    const l = of("lay_off").find((x) => x.action.card === card && x.action.meld === meldId);
    act(l);
    setDrag(null);
  };

  // the engine's answers for this seat (server: liverpool.game.answers.seat_answers of this view)
  const answers = s.answers || {};
  const until = answers.buy ? answers.buy.until : null;
  const suggestion = answers.lay_down || null;
  const suggest = () => {
    // the engine's suggested lay-down (suggest_lay_down): its melds' cards placed on hand positions
    if (!suggestion) return;
    const best = suggestion;
    // turn the chosen melds' cards into hand positions
    const free = order.slice();
    const melds = best.map((a) => ({
      kind: a.kind,
      keys: a.cards.map((c) => {
        const i = free.findIndex((o) => o.card === c);
        return free.splice(i, 1)[0].key;
      }),
    }));
    setStage({ melds, active: null });
  };

  const submitStage = () => {
    if (!stage) return;
    const melds = stage.melds.filter((m) => m.keys.length).map((m) => ({ kind: m.kind, cards: m.keys.map(cardOf) }));
    if (!melds.length) return;
    sentVersion.current = null;
    dispatch({ type: "local_error", reason: null });
    setQueue(melds);
  };

  const down = status.state !== "open"; // the socket is down: nothing can be done until it is back
  const turnText = v.is_over
    ? "The game is over."
    : down
      ? "Reconnecting…"
    : myTurn
      ? `Your turn${v.phase === "draw" ? " to draw" : ""}.`
      : `${seatName(s, v.current)}'s turn${v.phase === "draw" ? " to draw" : ""}.`;
  const rules = v.rules || {};
  const buysLeft = rules.buy_limit === null || rules.buy_limit === undefined ? "no limit" : Math.max(0, rules.buy_limit - v.buys_used[s.seat]);
  const otherActs = legal.filter((l) => ["draw_pile", "end_turn", "retract", "unswap"].includes(l.action.type));
  const meldsByOwner = {};
  for (const m of v.melds) (meldsByOwner[m.owner] ||= []).push(m);
  const lastKey = s.last ? `${s.version}` : "";
  const mine = s.table && s.table.seats ? s.table.seats[s.seat] : null;

  // hints: offered unless the table's option is off; the answer is shown while its action is offered
  const hintsOn = !!s.table && s.table.hints !== undefined && s.table.hints !== "off" && !v.is_over;
  const hintEntry = s.hint && s.hint.action ? legal.find((l) => sameAction(l.action, s.hint.action)) : null;
  const hintShown = hintEntry ? s.hint : null;
  const hintType = hintEntry ? hintEntry.action.type : null;
  const hinted = hintShown ? markCards(order, hintShown.cards) : new Set();
  const hintMeld = hintEntry && (hintType === "lay_off" || hintType === "swap") ? hintEntry.action.meld : null;
  const canHint = hintsOn && legal.length > 0 && s.hintsLeft !== 0 && !s.hintPending;
  const hintLabel = s.hintPending
    ? "Thinking…"
    : s.hintsLeft === 0
      ? "No hints left this deal"
      : `Hint (${s.hintsLeft === null || s.hintsLeft === undefined ? "unlimited" : `${s.hintsLeft} left this deal`})`;
  askHint.current = canHint
    ? () => {
        if (conn.current.send({ type: "hint", version: s.version })) dispatch({ type: "hint_asked" });
      }
    : null;

  return html`
    <div class="table-page" data-version=${s.version} data-seat=${s.seat} data-phase=${v.phase} data-current=${v.current}
         data-my-events=${s.log.filter((x) => x.ev.player === s.seat).length}>
      <${ConnBanner} status=${status} conn=${conn} />
      <header class="topbar">
        <div class="contract" id="contract"><strong>Deal ${v.deal} of ${v.deals}${v.levels ? `, your level ${v.levels[s.seat]}` : ""}:</strong> ${v.contract.text}, ${v.contract.cards} cards${v.contract.whole_hand ? ", using the whole hand" : ""}</div>
        <div class="turn" id="turn"><strong>${turnText}</strong> <span id="do-now">${v.is_over || down ? "" : doNowText(s, has)}</span></div>
        ${s.table && s.table.timer ? html`<span class="timer" id="turn-timer">⏱ ${s.turnDeadline ? html`<${Clock} deadline=${s.turnDeadline} id="turn-clock" /> left of ` : ""}${s.table.timer} s per decision</span>` : null}
        <nav class="top-actions">
          ${watch ? html`<span class="tag watching-tag">watching</span>` : html`<${BuyPrefs} prefs=${prefs} setPrefs=${setPrefs} />`}
          ${watch ? null : html`<${NotifyPrefs} prefs=${signal} setPrefs=${setSignal} />`}
          ${watch ? null : html`<button id="watch-link" title="a link that shows this table live to a spectator (no hands)" onClick=${() => navigator.clipboard && navigator.clipboard.writeText(watchLink(tableId)).catch(() => {})}>Copy watch link</button>`}
          ${!v.is_over && mine ? html`<button id="autoplay" onClick=${() => conn.current.send({ type: "autoplay", on: !mine.bot_playing })}>${
            mine.bot_playing ? "Take my seat back" : "Let a bot play for me"}</button>` : null}<button onClick=${() => setShowScores(!showScores)}>${showScores ? "Hide scores" : "Scores"}</button> <a href="/" class="lobby-link">Lobby</a></nav>
        ${s.last ? html`<div class="last" key=${lastKey}>${s.last.text}</div>` : null}
      </header>
      ${s.error ? html`<div class="error-bar" role="alert" id="server-error">${s.error}</div>` : null}
      ${s.pause && !s.overlay ? html`<div class="pause-bar"><${PauseNote} s=${s} name=${(p) => plainName(s, p)} /></div>` : null}
      ${showScores ? html`<section class="panel scores-panel"><${ScoreTable} s=${s} /></section>` : null}
      <${Seats} s=${s} />
      <div class="board">
        <section class="center" aria-label="Stock and discard pile">
          <div class="pile-area">
            <button class=${`pile stock ${has("draw_stock") ? "can" : ""} ${hintType === "draw_stock" ? "hinted" : ""}`} id="stock" disabled=${!has("draw_stock")}
              onClick=${() => act(of("draw_stock")[0])} aria-label=${`stock, ${v.stock_size} cards${has("draw_stock") ? ": draw" : ""}`}>
              <${CardBack} label=${String(v.stock_size)} />
              <span class="pile-label">Stock</span>
            </button>
            <button class=${`pile discard ${has("draw_discard") ? "can" : ""} ${drag ? "drop-target" : ""} ${hintType === "draw_discard" || hintType === "draw_pile" ? "hinted" : ""}`} id="discard-pile"
              disabled=${!has("draw_discard") && !drag}
              onClick=${() => act(of("draw_discard")[0])}
              onDragOver=${(e) => e.preventDefault()} onDrop=${dropOnDiscard}
              aria-label=${top ? `discard pile, top ${pretty(top)}${has("draw_discard") ? ": take it" : ""}` : "discard pile, empty"}>
              ${top ? html`<${Card} name=${top} key=${`top-${v.discard_pile.length}-${top}`} cls="arrive" />` : html`<div class="empty-pile">empty</div>`}
              <span class="pile-label">Discard</span>
            </button>
          </div>
          ${v.buy_window || has("buy") || has("call") ? html`
            <div class="buy-window" id="buy-window">
              <div><strong>${v.buy_window ? `Buy window: the ${pretty(top)}` : "The discard is open"}</strong>
                ${s.buyDeadline ? html` closes in <${Countdown} deadline=${s.buyDeadline} />` : until ? html` (until ${seatName(s, until.seat)} ${until.event === "discard" ? "discards" : "draws"})` : null}</div>
              ${v.buy_window ? html`<div class="buy-facts">
                <span>Asked: ${v.buy_requests.length ? v.buy_requests.map((p) => seatName(s, p)).join(", ") : "nobody yet"}</span>
                ${watch ? null : html`<span>Your buys left this deal: ${buysLeft}</span>`}
                <span>Penalty: ${rules.buy_penalty ?? 1} extra card${(rules.buy_penalty ?? 1) === 1 ? "" : "s"}</span></div>` : null}
              <${AutoBuyNote} s=${s} top=${top} />
              ${s.autoBuy && s.autoBuy.action !== "ask" ? null : html`<div class="buy-actions">
                ${of("buy").map((l) => html`<button class=${`primary ${hintType === "buy" ? "hinted" : ""}`} id="buy" onClick=${() => act(l)}>Buy the ${pretty(top)}</button>`)}
                ${of("call").map((l) => html`<button class=${`primary ${hintType === "call" ? "hinted" : ""}`} id="call" onClick=${() => act(l)}>Call the ${pretty(top)}</button>`)}
                ${of("pass").map((l) => html`<button id="pass" class=${hintType === "pass" ? "hinted" : ""} onClick=${() => act(l)}>Pass</button>`)}
              </div>`}
            </div>` : null}
        </section>
        <section class=${`melds ${v.players > MANY_SEATS ? "many" : ""}`} aria-label="Melds on the table" id="melds">
          ${v.melds.length ? null : html`<p class="hint">No melds on the table yet.</p>`}
          ${Object.entries(meldsByOwner).map(([owner, ms]) => html`
            <div class="owner-melds"><div class="owner">${seatName(s, Number(owner))}</div>
              ${ms.map((m) => {
                const fits = layoffs.filter((l) => l.action.meld === m.id);
                const swapHere = swaps.filter((l) => l.action.meld === m.id);
                return html`
                <div class=${`meld ${fits.length ? "fits" : ""} ${hintMeld === m.id ? "hinted" : ""}`} data-meld=${m.id}
                  onClick=${() => fits.length === 1 && act(fits[0])}
                  onDragOver=${(e) => e.preventDefault()} onDrop=${(e) => dropOnMeld(e, m.id)}>
                  <span class="meld-kind">${m.kind}</span>
                  ${m.cards.map((c, i) => {
                    const sw = swapHere.find((l) => l.action.index === i);
                    return sw
                      ? html`<button class="swap-target" title=${`swap your ${pretty(selCard)} for this card`} onClick=${(e) => { e.stopPropagation(); act(sw); }}><${Card} name=${c} small /></button>`
                      : html`<${Card} name=${c} small />`;
                  })}
                  ${fits.length > 1 ? fits.map((l) => html`<button class="layoff-end" onClick=${(e) => { e.stopPropagation(); act(l); }}>${l.action.high ? "add at high end" : "add at low end"}</button>`) : null}
                </div>`;
              })}
            </div>`)}
          ${v.staged && v.staged.length ? html`<div class="owner-melds pending"><div class="owner">${myTurn ? "Your" : `${plainName(s, v.current)}'s`} lay-down so far</div>
            ${v.staged.map((m) => html`<div class="meld"><span class="meld-kind">${m.kind}</span>${m.cards.map((c) => html`<${Card} name=${c} small />`)}</div>`)}</div>` : null}
        </section>
        <aside class="side side-family">
          <h2 class="side-title">What happened</h2>
          <${Log} s=${s} />
          <${ChatPanel} s=${s} tableId=${tableId} send=${(m) => conn.current && conn.current.send(watch ? { ...m, name: myName.get() || undefined } : m)}
            canTalk=${status.state === "open" && (!watch || (s.table && s.table.chat === "everyone"))} mySeat=${s.seat} nameOf=${(p) => seatName(s, p)} />
        </aside>
      </div>
      ${watch ? html`<section class="hand-area watching" id="watching"><p class="hint">You are watching this table: the players' hands are hidden until each deal ends.</p></section>` : html`<section class="hand-area" aria-label="Your hand">
        ${stage ? html`
        <section class="stage panel" id="stage" aria-label="Your lay-down">
          <div class="stage-head"><strong>Lay down:</strong> click a meld below, then the cards from your hand, one by one.</div>
          <div class="stage-melds">
            ${stage.melds.map((m, i) => html`
              <div class=${`staged-meld ${stage.active === i ? "active" : ""}`} data-staged=${i} onClick=${() => setStage({ ...stage, active: i })}>
                <span class="meld-kind">${m.kind} ${i + 1}</span>
                ${m.keys.map((k) => html`<button class="staged-card" title="back to the hand" onClick=${(e) => { e.stopPropagation(); setStage({ ...stage, melds: stage.melds.map((x, j) => (j === i ? { ...x, keys: x.keys.filter((y) => y !== k) } : x)) }); }}><${Card} name=${cardOf(k)} small /></button>`)}
                ${m.keys.length ? null : html`<span class="hint">empty</span>`}
                <button class="remove" title="remove this meld" onClick=${(e) => { e.stopPropagation(); setStage({ melds: stage.melds.filter((_, j) => j !== i), active: null }); }}>✕</button>
              </div>`)}
          </div>
          <div class="stage-actions">
            <button id="new-set" onClick=${() => setStage({ melds: [...stage.melds, { kind: "set", keys: [] }], active: stage.melds.length })}>+ set</button>
            <button id="new-run" onClick=${() => setStage({ melds: [...stage.melds, { kind: "run", keys: [] }], active: stage.melds.length })}>+ run</button>
            <button id="suggest" onClick=${suggest} disabled=${!has("meld") || !suggestion}>Suggest lay-down</button>
            <button class="primary" id="lay-down" onClick=${submitStage} disabled=${!stagedCards.some((m) => m.cards.length) || queue.length > 0}>Lay down</button>
            <button id="cancel-stage" onClick=${() => setStage(null)}>Cancel</button>
          </div>
          <p class=${`check ${check ? (check.ok ? "ok" : "bad") : ""}`} id="stage-check" role="status">
            ${check
              ? check.ok ? "✓ Valid: these melds may be laid down." : `✗ ${check.reason}`
              : !stagedCards.length ? "Add a set or a run." : stagedCards.some((m) => !m.cards.length) ? "Click a meld, then the cards to put in it." : "Checking…"}
          </p>
        </section>` : null}
        <div class="hand-tools">
          <span class="hand-title">Your hand (${v.hand.length})</span>
          <button id="sort-suit" onClick=${() => setOrder(order.slice().sort((a, b) => bySuit(a.card, b.card)))}>Sort by suit</button>
          <button id="sort-rank" onClick=${() => setOrder(order.slice().sort((a, b) => byRank(a.card, b.card)))}>Sort by rank</button>
          ${sel && !stage ? html`
            <button onClick=${() => moveSel(-1)} aria-label="move the selected card left">◀</button>
            <button onClick=${() => moveSel(1)} aria-label="move the selected card right">▶</button>` : null}
          ${!stage && (has("meld") || (myTurn && v.staged && v.staged.length)) ? html`<button class="primary" id="open-stage" onClick=${() => setStage({ melds: [], active: null })}>Lay down…</button>` : null}
          ${selCard && discardOf(selCard) && !stage ? html`<button class="primary" id="discard-selected" onClick=${() => act(discardOf(selCard))}>Discard the ${pretty(selCard)}</button>` : null}
          ${otherActs.map((l) => html`<button class="other-act" onClick=${() => act(l)}>${l.text}</button>`)}
          ${hintsOn ? html`<button id="hint" class="hint-button" disabled=${!canHint} aria-keyshortcuts="h"
            title=${legal.length ? "What would the strong bot play here? (key: h)" : "Hints are for your own decisions"}
            onClick=${() => askHint.current && askHint.current()}>${hintLabel}</button>` : null}
        </div>
        ${hintShown ? html`<div class="hint-box" id="hint-box" role="status" aria-live="polite">
          <strong>Hint:</strong> <span id="hint-text">${hintShown.text}</span>
          <button class="primary" id="play-hint" onClick=${() => act(hintEntry)} title=${hintEntry.text}>Play it</button>
        </div>` : null}
        ${selCard && !stage && (layoffs.length || swaps.length) ? html`<p class="hint">${[
          layoffs.length ? `The highlighted melds take the ${pretty(selCard)}: click one (or drag the card onto it).` : "",
          swaps.length ? `The ${pretty(selCard)} may take the place of an outlined joker: click the joker to swap.` : "",
        ].join(" ")}</p>` : null}
        <div class="hand" id="hand" role="listbox" aria-label="your cards">
          ${order.map((o) => html`
            <div key=${o.key} role="option" tabindex="0" aria-selected=${sel === o.key}
              class=${`hand-card ${sel === o.key ? "selected" : ""} ${inStage.has(o.key) ? "staged" : ""} ${discardOf(o.card) ? "can-discard" : ""} ${hinted.has(o.key) ? "hinted" : ""}`}
              data-card=${o.card} draggable="true"
              onClick=${() => clickCard(o.key)}
              onDblClick=${() => !stage && act(discardOf(o.card))}
              onKeyDown=${(e) => onHandKey(e, o.key)}
              onDragStart=${(e) => { setDrag(o.key); e.dataTransfer.setData("text/plain", o.card); }}
              onDragEnd=${() => setDrag(null)}
              onDragOver=${(e) => e.preventDefault()} onDrop=${(e) => dropOnHand(e, o.key)}>
              <${Card} name=${o.card} />
            </div>`)}
        </div>
        <details class="all-moves"><summary>All moves you may make now (${legal.length})</summary>
          <div class="move-list">${legal.map((l) => html`<button class="move" data-type=${l.action.type} onClick=${() => act(l)}>${l.text}</button>`)}</div>
        </details>
      </section>`}
      <${Overlay} s=${s} dispatch=${dispatch} tableId=${tableId} token=${token} conn=${conn} />
      ${s.rematch ? html`<div class="rematch-bar">A rematch is ready. <button class="primary" onClick=${() => go({ table: s.rematch.table_id })}>Join the rematch</button></div>` : null}
    </div>`;
}
