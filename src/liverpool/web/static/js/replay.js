// Replay of a finished game: step forward and back through every action with all hands shown.
// The frames come from the server (GET /api/tables/{id}/replay), built by the engine.
import { html } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { api } from "./api.js";
import { bySuit, Card, CardBack } from "./cards.js";
import { eventText } from "./words.js";

export function ReplayPage({ tableId }) {
  const [frames, setFrames] = useState(null);
  const [info, setInfo] = useState(null);
  const [i, setI] = useState(0);
  const [error, setError] = useState(null);

  useEffect(() => {
    api("GET", `/api/tables/${encodeURIComponent(tableId)}/replay`).then(
      (d) => setFrames(d.frames || d),
      (e) => setError(e.message),
    );
    api("GET", `/api/tables/${encodeURIComponent(tableId)}`).then(setInfo, () => {});
  }, [tableId]);

  useEffect(() => {
    const key = (e) => {
      if (!frames) return;
      if (e.key === "ArrowRight") setI((x) => Math.min(frames.length - 1, x + 1));
      if (e.key === "ArrowLeft") setI((x) => Math.max(0, x - 1));
    };
    window.addEventListener("keydown", key);
    return () => window.removeEventListener("keydown", key);
  }, [frames]);

  if (error) return html`<main class="lobby"><section class="panel"><p class="error">No replay: ${error}</p><a href="/">Lobby</a></section></main>`;
  if (!frames) return html`<main class="lobby"><p>Loading the replay…</p></main>`;
  const f = frames[i];
  const name = (p) => (info && info.seats && info.seats[p] && info.seats[p].name) || `Seat ${p}`;
  const byOwner = {};
  for (const m of f.melds) (byOwner[m.owner] ||= []).push(m);
  return html`
    <div class="table-page replay">
      <header class="topbar">
        <div class="contract"><strong>Replay — deal ${f.deal} of ${f.deals}:</strong> ${f.contract.text}, ${f.contract.cards} cards</div>
        <div class="replay-controls">
          <button id="replay-first" onClick=${() => setI(0)}>Start</button>
          <button id="replay-back" onClick=${() => setI(Math.max(0, i - 1))} aria-label="step back">◀ Back</button>
          <span id="replay-step">Step ${i} of ${frames.length - 1}</span>
          <button id="replay-forward" onClick=${() => setI(Math.min(frames.length - 1, i + 1))} aria-label="step forward">Forward ▶</button>
          <button id="replay-last" onClick=${() => setI(frames.length - 1)}>End</button>
          <input type="range" min="0" max=${frames.length - 1} value=${i} onInput=${(e) => setI(Number(e.target.value))} aria-label="step" />
          <a href="/">Lobby</a>
        </div>
        <div class="last">${f.events.length ? f.events.map((e) => eventText(e, name)).join(" ") : "The deal as dealt."}</div>
      </header>
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
    </div>`;
}
