// The review of a finished game (/?review=TABLE&seat=N[&samples=K]): every decision of one seat,
// rated by the server (GET /api/tables/{id}/review/{seat}, liverpool.analysis.review) against the
// best action its search found, stepped through one at a time with the hand of that moment and
// both moves shown on the cards. Display only: the verdicts, values and words come from the server.
import { html } from "htm/preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { api, go } from "./api.js";
import { bySuit, Card, pretty } from "./cards.js";

export const VERDICT_WORDS = {
  best: "Best",
  good: "Good",
  inaccuracy: "Inaccuracy",
  mistake: "Mistake",
  blunder: "Blunder",
  uncertain: "Uncertain", // a loss within its own error: not called a mistake (docs/analysis.md)
};
const FILTERS = {
  all: { label: "every decision", keep: () => true },
  costly: { label: "inaccuracies, mistakes and blunders", keep: (d) => ["inaccuracy", "mistake", "blunder"].includes(d.verdict) },
  bad: { label: "mistakes and blunders", keep: (d) => ["mistake", "blunder"].includes(d.verdict) },
};

const cardsText = (cards) => (cards || []).map(pretty).join(" ");

/** Plain words for an action (a candidate's, when the server sent no words for it). */
export function actionWords(a, top, melds) {
  const meld = (id) => {
    const m = (melds || []).find((x) => x.id === id);
    return m ? `the ${m.kind} ${cardsText(m.cards)}` : "a meld";
  };
  switch (a.type) {
    case "draw_stock": return "draw from the stock";
    case "draw_discard": return `take the discard ${pretty(a.card || top)}`;
    case "draw_pile": return `take ${a.depth + 1} cards from the discard pile`;
    case "buy": return `buy the discard ${pretty(a.card || top)}`;
    case "call": return `call the discard ${pretty(a.card || top)}`;
    case "pass": return "pass (don't buy or call)";
    case "meld": return `lay down a ${a.kind}: ${cardsText(a.cards)}`;
    case "lay_off": return `lay off ${pretty(a.card)} on ${meld(a.meld)}`;
    case "swap": return `swap ${pretty(a.card)} for the wild card in ${meld(a.meld)}`;
    case "discard": return `discard ${pretty(a.card)}`;
    case "end_turn": return "end the turn";
    case "retract": return "take back the lay-down";
    case "unswap": return "undo the last joker swap";
    default: return a.type;
  }
}

/** The hand's cards an action plays (discard, lay-off, swap, meld). */
function handCards(a) {
  if (!a) return [];
  if (a.type === "meld") return a.cards || [];
  if (["discard", "lay_off", "swap"].includes(a.type)) return a.card ? [a.card] : [];
  return [];
}

/** Whether an action takes the pile's top card. */
const takesTop = (a) => !!a && ["draw_discard", "draw_pile", "buy", "call"].includes(a.type);

/** Mark one card of the hand for each card the action plays: {index in the sorted hand: true}. */
function marks(hand, cards) {
  const out = new Set();
  for (const c of cards) {
    const i = hand.findIndex((x, j) => x === c && !out.has(j));
    if (i >= 0) out.add(i);
  }
  return out;
}

const fmt = (x, digits = 1) => (x === null || x === undefined ? "–" : Number(x).toFixed(digits));

function Verdict({ v }) {
  return html`<span class=${`verdict verdict-${v}`}>${VERDICT_WORDS[v] || v}</span>`;
}

/** The decision on the cards: the hand then, the pile's top card, the melds; both moves marked. */
function DecisionCards({ d }) {
  const hand = (d.hand || []).slice().sort(bySuit);
  const same = JSON.stringify(d.taken) === JSON.stringify(d.best);
  const played = marks(hand, handCards(d.taken));
  const better = same ? new Set() : marks(hand, handCards(d.best));
  const pileTag = [takesTop(d.taken) ? "played" : null, !same && takesTop(d.best) ? "better" : null].filter(Boolean);
  const stockTag = [d.taken.type === "draw_stock" ? "played" : null, !same && d.best.type === "draw_stock" ? "better" : null].filter(Boolean);
  const meldTag = (m) =>
    [
      ["lay_off", "swap"].includes(d.taken.type) && d.taken.meld === m.id ? "played" : null,
      !same && ["lay_off", "swap"].includes(d.best.type) && d.best.meld === m.id ? "better" : null,
    ].filter(Boolean);
  const tagText = (tags) => tags.map((t) => (t === "played" ? "you played" : "better")).join(" · ");
  return html`
    <div class="review-cards">
      <div class="review-piles">
        <div class=${`review-pile ${stockTag.join(" ")}`}><div class="stock-mini" aria-label="the stock">Stock</div>
          ${stockTag.length ? html`<span class="mark-label">${tagText(stockTag)}</span>` : null}</div>
        <div class=${`review-pile ${pileTag.join(" ")}`}>
          ${d.top ? html`<${Card} name=${d.top} />` : html`<div class="empty-pile">empty</div>`}
          <span class="pile-label">Discard</span>
          ${pileTag.length ? html`<span class="mark-label">${tagText(pileTag)}</span>` : null}</div>
      </div>
      <div class="review-hand-wrap">
        <div class="review-hand-title">Your hand then (${hand.length} cards)</div>
        <div class="review-hand" id="review-hand">
          ${hand.map((c, i) => {
            const tags = [played.has(i) ? "played" : null, better.has(i) ? "better" : null].filter(Boolean);
            return html`<div class=${`review-card ${tags.join(" ")}`} data-card=${c}>
              <${Card} name=${c} />${tags.length ? html`<span class="mark-label">${tagText(tags)}</span>` : null}</div>`;
          })}
        </div>
      </div>
      ${d.melds && d.melds.length ? html`<div class="review-melds"><div class="review-hand-title">On the table</div>
        ${d.melds.map((m) => {
          const tags = meldTag(m);
          return html`<div class=${`meld ${tags.join(" ")}`} data-meld=${m.id}><span class="meld-kind">${m.kind}</span>
            ${m.cards.map((c) => html`<${Card} name=${c} small />`)}${tags.length ? html`<span class="mark-label">${tagText(tags)}</span>` : null}</div>`;
        })}</div>` : null}
    </div>`;
}

function Candidates({ d }) {
  const ev = d.evaluation;
  if (!ev || !ev.candidates || ev.candidates.length < 2) {
    return html`<p class="review-note">${ev && !ev.searched ? "The search saw one sensible move here." : ""}</p>`;
  }
  return html`<details class="candidates"><summary>The moves weighed (${ev.candidates.length}, ${ev.samples} samples)</summary>
    <table><thead><tr><th>move</th><th>expected points this deal</th><th>samples</th><th></th></tr></thead><tbody>
      ${ev.candidates.map((c) => {
        const played = JSON.stringify(c.action) === JSON.stringify(d.taken);
        const best = JSON.stringify(c.action) === JSON.stringify(d.best);
        return html`<tr class=${`${played ? "played" : ""} ${best ? "better" : ""}`}>
          <td>${actionWords(c.action, d.top, d.melds)}</td><td class="num">${fmt(c.value)} ± ${fmt(c.se)}</td>
          <td class="num">${c.samples}</td><td>${[best ? "best found" : "", played ? "played" : ""].filter(Boolean).join(", ")}</td></tr>`;
      })}
    </tbody></table>
    <p class="review-note">Lower is better: the points this seat was expected to score by the end of the deal after each move.</p>
  </details>`;
}

function Waiting({ name, moves, samples, started, back }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(t);
  }, []);
  const secs = Math.floor((now - started) / 1000);
  return html`<section class="panel review-wait" id="review-wait" role="status" aria-live="polite">
    <div class="spinner" aria-hidden="true"></div>
    <div>
      <p><strong>The server is rating every decision${name ? ` of ${name}` : ""} in this game${moves ? ` (${moves} moves)` : ""}.</strong></p>
      <p>Each decision is played out on ${samples ? `${samples}` : "a couple of dozen"} guesses of the hidden cards, so a whole game takes
        from a few seconds to about a minute; the first request for a game computes it, later ones are read from the store at once.
        The page cannot tell how far along it is: it waits for the answer.</p>
      <p class="elapsed">Waiting for ${secs} s…</p>
      <p>${back}</p>
    </div>
  </section>`;
}

export function ReviewPage({ tableId, seat, samples }) {
  const [info, setInfo] = useState(null);
  const [moves, setMoves] = useState(null);
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  const [attempt, setAttempt] = useState(0);
  const [filter, setFilter] = useState("all");
  const [pos, setPos] = useState(0); // index into the filtered decisions
  const started = useRef(Date.now());
  const enc = encodeURIComponent(tableId);

  useEffect(() => {
    api("GET", `/api/tables/${enc}`).then(setInfo, () => {});
  }, [tableId]);
  useEffect(() => {
    if (seat === null) return;
    // the seat's moves in the record, to say how much there is to rate (a cheap request)
    api("GET", `/api/tables/${enc}/record`).then(
      (r) => setMoves((r.actions || []).filter((a) => a.player === seat).length),
      () => {},
    );
  }, [tableId, seat]);
  useEffect(() => {
    if (seat === null) return undefined;
    let live = true;
    started.current = Date.now();
    setError(null);
    setData(null);
    const q = samples ? `?samples=${encodeURIComponent(samples)}` : "";
    api("GET", `/api/tables/${enc}/review/${seat}${q}`).then(
      (d) => live && setData(d),
      (e) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [tableId, seat, samples, attempt]);

  const decisions = data ? data.review.decisions || [] : [];
  const shown = decisions.filter(FILTERS[filter].keep);
  const i = Math.min(pos, Math.max(0, shown.length - 1));
  const step = (k) => setPos((p) => Math.max(0, Math.min(shown.length - 1, Math.min(p, shown.length - 1) + k)));

  // the keys act on the decisions shown now: the handler is the latest render's (a listener
  // registered once; an effect re-registering it after each render could run a stale one)
  const onKey = useRef(null);
  onKey.current = (e) => {
    if (/^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName) || !shown.length) return;
    if (e.key === "ArrowRight") {
      e.preventDefault();
      step(1);
    } else if (e.key === "ArrowLeft") {
      e.preventDefault();
      step(-1);
    } else if (e.key === "Home") setPos(0);
    else if (e.key === "End") setPos(shown.length - 1);
  };
  useEffect(() => {
    const key = (e) => onKey.current && onKey.current(e);
    window.addEventListener("keydown", key);
    return () => window.removeEventListener("keydown", key);
  }, []);

  const name = (p) => (info && info.seats && info.seats[p] && info.seats[p].name) || `Seat ${p}`;
  const back = html`<a href="/" class="lobby-link">Lobby</a>`;

  if (seat === null) {
    return html`<main class="lobby"><section class="panel"><h2>Review a finished game</h2>
      <p>Whose decisions?</p>
      <div class="row">${info ? info.seats.map((x) => html`<button onClick=${() => go({ review: tableId, seat: x.seat })}>${name(x.seat)}</button> `) : "Loading the table…"}</div>
      <p>${back}</p></section></main>`;
  }
  if (error) {
    return html`<main class="lobby"><section class="panel" id="review-error"><h2>No review</h2><p class="error" role="alert">${error}</p>
      <button onClick=${() => setAttempt(attempt + 1)}>Try again</button> ${back}</section></main>`;
  }
  if (!data) {
    return html`<main class="lobby"><header class="banner-title"><h1>Game review</h1></header>
      <${Waiting} name=${name(seat)} moves=${moves} samples=${samples || null} started=${started.current} back=${back} /></main>`;
  }

  const r = data.review;
  const sum = r.summary;
  const reasons = r.reasons || {};
  const d = shown[i];
  const costly = new Set(sum.costliest || []);
  const jump = (index) => {
    setFilter("all");
    setPos(Math.max(0, decisions.findIndex((x) => x.index === index)));
  };
  const deals = Object.entries(sum.loss_per_deal || {});
  return html`
    <div class="table-page review-page" data-decision=${d ? d.index : ""}>
      <header class="topbar">
        <div class="contract"><strong>Game review — ${name(seat)}</strong> · ${sum.decisions} decisions rated${sum.forced ? ` (and ${sum.forced} forced move${sum.forced === 1 ? "" : "s"})` : ""} · ${data.samples} samples each${data.cached ? " · from the store" : ""}</div>
        <nav class="top-actions"><button onClick=${() => go({ replay: tableId })}>Replay</button> ${back}</nav>
      </header>
      <section class="panel review-summary" id="review-summary">
        <div class="verdict-counts">${Object.entries(sum.by_verdict).map(([k, n]) => html`<span class="verdict-count"><${Verdict} v=${k} /> ${n}</span>`)}</div>
        <p>Expected points lost: <strong>${fmt(sum.total_loss)}</strong> in all, <strong>${fmt(sum.mean_loss, 2)}</strong> per decision${deals.length ? html`; by deal: ${deals.map(([k, x]) => `${k}: ${fmt(x)}`).join(", ")}` : null}.</p>
        ${(sum.costliest || []).length ? html`<div class="costliest"><strong>The costliest moments:</strong>
          <ol>${sum.costliest.map((index) => {
            const c = decisions.find((x) => x.index === index);
            return c ? html`<li><button class="linkish" onClick=${() => jump(index)}>Deal ${c.deal}, turn ${c.turn}: ${c.taken_words || actionWords(c.taken, c.top, c.melds)} (${fmt(c.loss)} points)</button></li>` : null;
          })}</ol></div>` : null}
      </section>
      <section class="panel review-step" aria-label="One decision">
        <div class="review-controls">
          <button id="review-prev" onClick=${() => step(-1)} disabled=${i <= 0} aria-label="previous decision">◀ Previous</button>
          <span id="review-pos">Decision ${shown.length ? i + 1 : 0} of ${shown.length}</span>
          <button id="review-next" onClick=${() => step(1)} disabled=${i >= shown.length - 1} aria-label="next decision">Next ▶</button>
          <input type="range" min="0" max=${Math.max(0, shown.length - 1)} value=${i} onInput=${(e) => setPos(Number(e.target.value))} aria-label="decision" />
          <label>Show <select id="review-filter" value=${filter} onChange=${(e) => { setFilter(e.target.value); setPos(0); }}>
            ${Object.entries(FILTERS).map(([k, f]) => html`<option value=${k}>${f.label}</option>`)}</select></label>
          <span class="review-note">(← → keys step)</span>
        </div>
        ${d ? html`
          <div class="review-decision" id="review-decision">
            <h2>Deal ${d.deal}, turn ${d.turn} <${Verdict} v=${d.verdict} /> ${costly.has(d.index) ? html`<span class="tag">one of the costliest</span>` : null}</h2>
            <p class="review-moves">
              <span>You played: <strong id="review-taken">${d.taken_words || actionWords(d.taken, d.top, d.melds)}</strong>.</span>
              ${JSON.stringify(d.taken) === JSON.stringify(d.best)
                ? html` <span>That is the best move found.</span>`
                : html` <span>Better: <strong id="review-best">${d.best_words || actionWords(d.best, d.top, d.melds)}</strong>.</span>`}
            </p>
            <p>Points lost: <strong id="review-loss">${fmt(d.loss)}</strong>${d.loss_se !== null && d.loss_se !== undefined ? ` ± ${fmt(d.loss_se)}` : ""}${" "}
              <span class="review-note">(expected points this deal; a loss within about two of its ± may be noise of the samples)</span></p>
            ${reasons[String(d.index)] ? html`<p class="review-reason">${reasons[String(d.index)]}</p>` : null}
            <${DecisionCards} d=${d} />
            <${Candidates} d=${d} />
          </div>` : html`<p>No decision ${filter === "all" ? "to show" : `among the ${FILTERS[filter].label}`}.</p>`}
      </section>
    </div>`;
}
