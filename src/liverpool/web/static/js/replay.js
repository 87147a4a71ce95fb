// Replay of a finished game: step forward and back through every action with all hands shown.
// The frames come from the server (GET /api/tables/{id}/replay), built by the engine.
// Issue 24: a move list by deal and turn, a jump to any deal, steps by move or by turn, keys:
// ← → a move, ↑ ↓ (or Shift+← →) a turn, Page Up / Page Down a deal, Home / End.
import { html } from "htm/preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { api } from "./api.js";
import { bySuit, Card, CardBack } from "./cards.js";
import { eventText } from "./words.js";

/** Each frame's place: the deal and turn its action was made in (those of the frame before). */
export function movePlaces(frames) {
  const places = [];
  let turnNo = 0;
  let deal = null;
  let lastTurn = null;
  for (let i = 0; i < frames.length; i++) {
    const before = frames[Math.max(0, i - 1)];
    const d = i === 0 ? frames[0].deal : before.deal;
    const t = before.turn ?? null;
    if (d !== deal) {
      deal = d;
      turnNo = 0;
      lastTurn = null;
    }
    // a new turn: the engine's turn counter moved on (or, in frames without it, a draw)
    const type = frames[i].action ? frames[i].action.type : null;
    const fresh = t !== null ? t !== lastTurn : !!type && type.startsWith("draw");
    if (i > 0 && (fresh || turnNo === 0)) turnNo += 1;
    lastTurn = t;
    places.push({ deal: d, turn: i === 0 ? 0 : Math.max(1, turnNo), player: frames[i].action ? frames[i].action.player : null });
  }
  return places;
}

export function ReplayPage({ tableId }) {
  const [frames, setFrames] = useState(null);
  const [info, setInfo] = useState(null);
  const [i, setI] = useState(0);
  const [error, setError] = useState(null);
  const listRef = useRef(null);

  useEffect(() => {
    api("GET", `/api/tables/${encodeURIComponent(tableId)}/replay`).then(
      (d) => setFrames(d.frames || d),
      (e) => setError(e.message),
    );
    api("GET", `/api/tables/${encodeURIComponent(tableId)}`).then(setInfo, () => {});
  }, [tableId]);

  const places = useMemo(() => (frames ? movePlaces(frames) : []), [frames]);
  // the first frame of each turn and of each deal, to step by turn and to jump to a deal
  const turnStarts = useMemo(() => places.map((p, k) => k).filter((k) => k === 0 || places[k].turn !== places[k - 1].turn || places[k].deal !== places[k - 1].deal), [places]);
  const dealStarts = useMemo(() => {
    const out = new Map();
    places.forEach((p, k) => {
      if (!out.has(p.deal)) out.set(p.deal, k);
    });
    return out;
  }, [places]);

  const last = frames ? frames.length - 1 : 0;
  const clamp = (k) => Math.max(0, Math.min(last, k));
  const nextTurn = (k) => turnStarts.find((x) => x > k) ?? last;
  const prevTurn = (k) => [...turnStarts].reverse().find((x) => x < k) ?? 0;
  const deals = [...dealStarts.keys()];
  const dealOf = (k) => (places[k] ? places[k].deal : 1);
  const jumpDeal = (d) => dealStarts.has(d) && setI(dealStarts.get(d));

  useEffect(() => {
    const key = (e) => {
      if (!frames || /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) return;
      const turnKey = e.key === "ArrowDown" || (e.shiftKey && e.key === "ArrowRight");
      const backTurnKey = e.key === "ArrowUp" || (e.shiftKey && e.key === "ArrowLeft");
      let handled = true;
      if (turnKey) setI((x) => nextTurn(x));
      else if (backTurnKey) setI((x) => prevTurn(x));
      else if (e.key === "ArrowRight") setI((x) => clamp(x + 1));
      else if (e.key === "ArrowLeft") setI((x) => clamp(x - 1));
      else if (e.key === "PageDown") setI((x) => dealStarts.get(dealOf(x) + 1) ?? last);
      else if (e.key === "PageUp") setI((x) => { const d = dealOf(x); const start = dealStarts.get(d); return x > start ? start : dealStarts.get(d - 1) ?? 0; });
      else if (e.key === "Home") setI(0);
      else if (e.key === "End") setI(last);
      else handled = false;
      if (handled) e.preventDefault();
    };
    window.addEventListener("keydown", key);
    return () => window.removeEventListener("keydown", key);
  }, [frames, turnStarts, dealStarts]);

  useEffect(() => {
    const el = listRef.current && listRef.current.querySelector(".move.current");
    if (el && el.scrollIntoView) el.scrollIntoView({ block: "nearest" });
  }, [i]);

  if (error) return html`<main class="lobby"><section class="panel"><p class="error">No replay: ${error}</p><a href="/">Lobby</a></section></main>`;
  if (!frames) return html`<main class="lobby"><p>Loading the replay…</p></main>`;
  const f = frames[i];
  const name = (p) => (info && info.seats && info.seats[p] && info.seats[p].name) || `Seat ${p}`;
  const byOwner = {};
  for (const m of f.melds) (byOwner[m.owner] ||= []).push(m);
  const here = places[i];
  const words = (k) => frames[k].events.map((e) => eventText(e, name)).filter(Boolean).join(" ");

  // the move list of the deal shown: its turns, each with its moves (passes left out)
  const deal = here.deal;
  const turns = [];
  for (let k = dealStarts.get(deal) ?? 0; k <= last && places[k].deal === deal; k++) {
    if (k === 0) continue;
    const text = words(k);
    if (!text) continue;
    const t = places[k].turn;
    if (!turns.length || turns[turns.length - 1].turn !== t) turns.push({ turn: t, player: frames[k].action.player, moves: [] });
    turns[turns.length - 1].moves.push({ k, text });
  }

  return html`
    <div class="table-page replay" data-step=${i}>
      <header class="topbar">
        <div class="contract"><strong>Replay — deal ${f.deal} of ${f.deals}:</strong> ${f.contract.text}, ${f.contract.cards} cards</div>
        <div class="replay-controls">
          <button id="replay-first" onClick=${() => setI(0)} aria-keyshortcuts="Home">Start</button>
          <button id="replay-prev-turn" onClick=${() => setI(prevTurn(i))} aria-label="back a turn" aria-keyshortcuts="ArrowUp">◀◀ Turn</button>
          <button id="replay-back" onClick=${() => setI(clamp(i - 1))} aria-label="step back" aria-keyshortcuts="ArrowLeft">◀ Back</button>
          <span id="replay-step">Step ${i} of ${last}</span>
          <span id="replay-place">${i === 0 ? "as dealt" : `deal ${here.deal}, turn ${here.turn}`}</span>
          <button id="replay-forward" onClick=${() => setI(clamp(i + 1))} aria-label="step forward" aria-keyshortcuts="ArrowRight">Forward ▶</button>
          <button id="replay-next-turn" onClick=${() => setI(nextTurn(i))} aria-label="forward a turn" aria-keyshortcuts="ArrowDown">Turn ▶▶</button>
          <button id="replay-last" onClick=${() => setI(last)} aria-keyshortcuts="End">End</button>
          <label>Deal <select id="replay-deal" value=${deal} onChange=${(e) => jumpDeal(Number(e.target.value))} aria-keyshortcuts="PageUp PageDown">
            ${deals.map((d) => html`<option value=${d}>${d}</option>`)}</select></label>
          <input type="range" min="0" max=${last} value=${i} onInput=${(e) => setI(Number(e.target.value))} aria-label="step" />
          <a href="/">Lobby</a>
        </div>
        <div class="last">${f.events.length ? f.events.map((e) => eventText(e, name)).filter(Boolean).join(" ") : "The deal as dealt."}</div>
      </header>
      <div class="replay-body">
        <div class="replay-main">
          <section class="replay-hands">
            ${f.hands.map((h, p) => html`
              <div class=${`replay-seat ${p === f.current ? "current" : ""}`}>
                <div class="seat-name">${p === f.current ? "▶ " : ""}${name(p)} · ${h.length} cards · ${f.scores[p]} pts ${f.down[p] ? html`<span class="tag down">down</span>` : null}</div>
                <div class="replay-cards">${h.slice().sort(bySuit).map((c) => html`<${Card} name=${c} small />`)}</div>
                <div class="replay-melds">${(byOwner[p] || []).map((m) => html`<div class="meld"><span class="meld-kind">${m.kind}</span>${m.cards.map((c) => html`<${Card} name=${c} small />`)}</div>`)}</div>
              </div>`)}
          </section>
          <section class="center replay-piles"><div class="pile-area">
            <div class="pile"><${CardBack} label=${String(f.stock_size)} /><span class="pile-label">Stock</span></div>
            <div class="pile">${f.discard_pile.length ? html`<${Card} name=${f.discard_pile[f.discard_pile.length - 1]} />` : html`<div class="empty-pile">empty</div>`}<span class="pile-label">Discard</span></div>
          </div></section>
        </div>
        <aside class="side move-list-side" aria-label="Moves">
          <h2 class="side-title">Moves of deal ${deal}</h2>
          <p class="hint keys-hint">← → a move · ↑ ↓ a turn · Page Up/Down a deal</p>
          <ol class="replay-moves" id="replay-moves" ref=${listRef}>
            ${turns.map((t) => html`<li class="turn" data-turn=${t.turn}><div class="turn-head">Turn ${t.turn} · ${name(t.player)}</div>
              <ol>${t.moves.map((m) => html`<li class=${`move ${m.k === i ? "current" : ""} ${m.k < i ? "done" : ""}`}>
                <button class="move-jump" data-step=${m.k} onClick=${() => setI(m.k)}>${m.text}</button></li>`)}</ol></li>`)}
          </ol>
        </aside>
      </div>
    </div>`;
}
