// The players' pages (players.html): reserve a name or log in, the leaderboard, and a player's
// numbers with plots drawn here in SVG from GET /api/players/NAME/stats (docs/players.md).
import { html } from "htm/preact";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api, myName } from "./api.js";

const params = () => new URLSearchParams(location.search);
const pct = (x) => (x === null || x === undefined ? "–" : `${Math.round(x * 100)}%`);
const num = (x, digits = 1) => (x === null || x === undefined ? "–" : Number(x).toFixed(digits));
const pageOf = (name) => `/players.html?name=${encodeURIComponent(name)}`;

function useForm(initial) {
  const [values, setValues] = useState(initial);
  const bind = (key) => ({ value: values[key], onInput: (e) => setValues({ ...values, [key]: e.target.value }) });
  return [values, bind, setValues];
}

// ------------------------------------------------------------------------------- account
function AccountPanel({ me, reload }) {
  const [error, setError] = useState(null);
  const [done, setDone] = useState(null);
  const [login, bindLogin] = useForm({ name: myName.get(), password: "" });
  const [reserve, bindReserve] = useForm({ name: myName.get(), password: "" });
  const [change, bindChange, setChange] = useForm({ password: "", new_password: "" });

  const call = async (path, body, message) => {
    setError(null);
    setDone(null);
    try {
      const answer = await api("POST", path, body);
      if (answer && answer.name) myName.set(answer.name);
      if (message) setDone(message);
      await reload();
    } catch (err) {
      setError(err.message);
    }
  };
  const submit = (path, body, message) => (e) => {
    e.preventDefault();
    call(path, body, message);
  };

  if (!me.name) {
    return html`<section class="panel" aria-label="account">
      <h2>Your name</h2>
      <p class="hint">Guests play as always. Reserve your name to keep it yours at every table, with a rating and a page of your games.</p>
      <div class="account-forms">
        <form onSubmit=${submit("/api/accounts/login", login)} aria-label="log in">
          <h3>Log in</h3>
          <label class="field">Name <input name="login-name" autocomplete="username" ...${bindLogin("name")} /></label>
          <label class="field">Password <input name="login-password" type="password" autocomplete="current-password" ...${bindLogin("password")} /></label>
          <button class="primary" type="submit">Log in</button>
        </form>
        <form onSubmit=${submit("/api/accounts", reserve)} aria-label="reserve a name">
          <h3>Reserve a name</h3>
          <label class="field">Name <input name="reserve-name" autocomplete="username" ...${bindReserve("name")} /></label>
          <label class="field">Password (8 characters or more) <input name="reserve-password" type="password" autocomplete="new-password" ...${bindReserve("password")} /></label>
          <button type="submit">Reserve</button>
        </form>
      </div>
      ${error && html`<p class="error" role="alert">${error}</p>`}
    </section>`;
  }
  return html`<section class="panel" aria-label="account">
    <h2>Logged in as <a href=${pageOf(me.name)}>${me.name}</a></h2>
    <div class="row">
      <button onClick=${() => call("/api/accounts/logout", {})}>Log out</button>
      <button onClick=${() => call("/api/accounts/logout-all", {})}>Log out everywhere</button>
      <label class="seat-choice"><input type="checkbox" name="private" checked=${me.private}
        onChange=${(e) => call("/api/accounts/privacy", { private: e.target.checked }, e.target.checked ? "Your page is private now." : "Your page is public now.")} />
        My page is private</label>
    </div>
    <form class="row" aria-label="change password" onSubmit=${(e) => {
      e.preventDefault();
      call("/api/accounts/password", change, "Password changed; your other sessions were logged out.").then(() => setChange({ password: "", new_password: "" }));
    }}>
      <label class="field">Current password <input type="password" name="old-password" autocomplete="current-password" ...${bindChange("password")} /></label>
      <label class="field">New password <input type="password" name="new-password" autocomplete="new-password" ...${bindChange("new_password")} /></label>
      <button type="submit">Change password</button>
    </form>
    ${done && html`<p class="hint" role="status">${done}</p>`}
    ${error && html`<p class="error" role="alert">${error}</p>`}
  </section>`;
}

// ------------------------------------------------------------------------------- leaderboard
function Leaderboard() {
  const [board, setBoard] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    api("GET", "/api/leaderboard").then((d) => setBoard(d.players), (e) => setError(e.message));
  }, []);
  if (error) return html`<p class="error">${error}</p>`;
  if (!board) return html`<p class="hint">Loading the leaderboard…</p>`;
  return html`<section class="panel" aria-label="leaderboard">
    <h2>Leaderboard</h2>
    <p class="hint">OpenSkill ratings (μ − 3σ) of the reserved names and of each bot level, after every rated game.</p>
    ${board.length === 0
      ? html`<p>No rated game yet.</p>`
      : html`<table class="ptable">
          <thead><tr><th class="num">#</th><th>Player</th><th class="num">Rating</th><th class="num">μ</th><th class="num">σ</th><th class="num">Games</th></tr></thead>
          <tbody>
            ${board.map(
              (e) => html`<tr class=${e.kind}>
                <td class="num">${e.rank}</td>
                <td><a href=${pageOf(e.name)}>${e.name}</a></td>
                <td class="num">${num(e.rating, 2)}</td>
                <td class="num">${num(e.mu, 2)}</td>
                <td class="num">${num(e.sigma, 2)}</td>
                <td class="num">${e.games}</td>
              </tr>`,
            )}
          </tbody>
        </table>`}
  </section>`;
}

// ------------------------------------------------------------------------------- plots (SVG)
const W = 440;

function niceRange(values, pad = 0.08) {
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (lo === hi) {
    lo -= 1;
    hi += 1;
  }
  const p = (hi - lo) * pad;
  return [lo - p, hi + p];
}

function RatingPlot({ history }) {
  const H = 200;
  const m = { l: 40, r: 12, t: 12, b: 28 };
  if (history.length === 0) return html`<p class="hint">No rated game yet.</p>`;
  const values = [0, ...history.map((h) => h.rating)];
  const [lo, hi] = niceRange(values);
  const x = (i) => m.l + (i / Math.max(1, history.length)) * (W - m.l - m.r);
  const y = (v) => m.t + ((hi - v) / (hi - lo)) * (H - m.t - m.b);
  const points = [[0, 0], ...history.map((h, i) => [i + 1, h.rating])];
  const path = points.map(([i, v], k) => `${k ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const ticks = [lo, (lo + hi) / 2, hi];
  return html`<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="rating after each rated game">
    ${ticks.map((t) => html`<line class="grid" x1=${m.l} x2=${W - m.r} y1=${y(t)} y2=${y(t)} /><text x=${m.l - 4} y=${y(t) + 4} text-anchor="end">${t.toFixed(1)}</text>`)}
    <line class="axis" x1=${m.l} x2=${m.l} y1=${m.t} y2=${H - m.b} />
    <line class="axis" x1=${m.l} x2=${W - m.r} y1=${H - m.b} y2=${H - m.b} />
    <path class="line" d=${path} />
    ${points.map(([i, v]) => html`<circle class="dot" cx=${x(i)} cy=${y(v)} r="3"><title>${i ? `game ${i}: ${v.toFixed(2)}` : "start: 0"}</title></circle>`)}
    <text x=${(W + m.l) / 2} y=${H - 6} text-anchor="middle">rated games</text>
  </svg>`;
}

function HorizontalBars({ rows, label, value, unit = "" }) {
  const bar = 18;
  const m = { l: 120, r: 50, t: 6, b: 6 };
  const H = m.t + m.b + rows.length * (bar + 6);
  const top = Math.max(1, ...rows.map(value));
  const w = (v) => (v / top) * (W - m.l - m.r);
  return html`<svg viewBox="0 0 ${W} ${H}" role="img">
    ${rows.map((r, i) => {
      const yy = m.t + i * (bar + 6);
      return html`<g>
        <text x=${m.l - 6} y=${yy + bar - 5} text-anchor="end">${label(r)}</text>
        <rect class="bar" x=${m.l} y=${yy} width=${Math.max(1, w(value(r)))} height=${bar}><title>${label(r)}: ${num(value(r))}${unit}</title></rect>
        <text x=${m.l + w(value(r)) + 4} y=${yy + bar - 5}>${num(value(r))}${unit}</text>
      </g>`;
    })}
  </svg>`;
}

function HeadToHead({ rows }) {
  const bar = 18;
  const m = { l: 120, r: 60, t: 6, b: 6 };
  const H = m.t + m.b + rows.length * (bar + 6);
  const top = Math.max(1, ...rows.map((r) => r.games));
  const w = (v) => (v / top) * (W - m.l - m.r);
  return html`<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="head to head">
    ${rows.map((r, i) => {
      const yy = m.t + i * (bar + 6);
      return html`<g>
        <text x=${m.l - 6} y=${yy + bar - 5} text-anchor="end">${r.name}</text>
        <rect class="won" x=${m.l} y=${yy} width=${w(r.won)} height=${bar}><title>ahead of ${r.name}: ${r.won}</title></rect>
        <rect class="tied" x=${m.l + w(r.won)} y=${yy} width=${w(r.tied)} height=${bar}><title>level: ${r.tied}</title></rect>
        <rect class="lost" x=${m.l + w(r.won + r.tied)} y=${yy} width=${w(r.lost)} height=${bar}><title>behind: ${r.lost}</title></rect>
        <text x=${m.l + w(r.games) + 4} y=${yy + bar - 5}>${r.won}–${r.tied}–${r.lost}</text>
      </g>`;
    })}
  </svg>`;
}

// ------------------------------------------------------------------------------- a player's page
function Figure({ value, label }) {
  return html`<div class="figure"><div class="value">${value}</div><div class="label">${label}</div></div>`;
}

function PlayerPage({ name }) {
  const [stats, setStats] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    api("GET", `/api/players/${encodeURIComponent(name)}/stats`).then(setStats, (e) => setError(e.message));
  }, [name]);
  if (error) return html`<section class="panel"><h2>${name}</h2><p class="error" role="alert">${error}</p></section>`;
  if (!stats) return html`<p class="hint">Loading ${name}'s page…</p>`;
  const s = stats;
  return html`<section class="panel" aria-label="player">
    <h2>${s.name}${s.kind === "bot" ? " (a bot level)" : ""}</h2>
    ${s.private && html`<p class="private-note">Your page is private: only you see it.</p>`}
    <div class="figures">
      <${Figure} value=${num(s.rating.rating, 2)} label=${`rating (μ ${num(s.rating.mu, 1)}, σ ${num(s.rating.sigma, 2)})`} />
      <${Figure} value=${s.games} label="games played" />
      <${Figure} value=${s.won} label=${`won (${pct(s.win_rate)})`} />
      <${Figure} value=${pct(s.going_out_rate)} label=${`went out (of ${s.deals} deals)`} />
      <${Figure} value=${s.buys} label=${`buys, ${pct(s.buys_paid_rate)} paid off`} />
      <${Figure} value=${pct(s.down_rate)} label="deals laid down" />
    </div>
    <div class="plots">
      <div class="plot"><h3>Rating over time</h3><${RatingPlot} history=${s.rating_history} /></div>
      <div class="plot"><h3>Mean points per deal, by contract</h3>
        ${s.points_per_deal.length
          ? html`<${HorizontalBars} rows=${s.points_per_deal} label=${(r) => r.contract} value=${(r) => r.mean_points} />`
          : html`<p class="hint">No deal yet.</p>`}
      </div>
      <div class="plot"><h3>Head to head (ahead–level–behind)</h3>
        ${s.head_to_head.length ? html`<${HeadToHead} rows=${s.head_to_head.slice(0, 12)} />` : html`<p class="hint">Nobody met yet.</p>`}
      </div>
    </div>
    <h3>Latest games</h3>
    ${s.recent.length === 0
      ? html`<p>No game yet.</p>`
      : html`<table class="ptable" aria-label="latest games">
          <thead><tr><th>When</th><th class="num">Players</th><th class="num">Place</th><th class="num">Points</th><th class="num">Rating change</th><th></th></tr></thead>
          <tbody>
            ${s.recent.map(
              (g) => html`<tr>
                <td>${new Date(g.at * 1000).toLocaleString()}</td>
                <td class="num">${g.players}</td>
                <td class="num">${g.place}${g.won ? " 🏆" : ""}</td>
                <td class="num">${g.score}</td>
                <td class="num">${g.rated ? (g.change === null ? "–" : (g.change > 0 ? "+" : "") + num(g.change, 2)) : "unrated"}</td>
                <td><a href=${`/?replay=${encodeURIComponent(g.table_id)}`}>replay</a></td>
              </tr>`,
            )}
          </tbody>
        </table>`}
    <p class="hint">The same numbers as JSON: <a href=${`/api/players/${encodeURIComponent(s.name)}/stats`}>/api/players/${s.name}/stats</a></p>
  </section>`;
}

// ------------------------------------------------------------------------------- the page
function App() {
  const [me, setMe] = useState(null);
  const name = params().get("name");
  const reload = async () => setMe(await api("GET", "/api/me"));
  useEffect(() => {
    reload().catch(() => setMe({ name: null }));
  }, []);
  if (!me) return html`<p class="loading">Loading…</p>`;
  return html`<div class="players">
    <nav>
      <h1>Liverpool players</h1>
      <a href="/">Play</a>
      <a href="/players.html">Leaderboard</a>
      <span class="who">${me.name ? html`<a href=${pageOf(me.name)}>${me.name}</a>` : "guest"}</span>
    </nav>
    ${name ? html`<${PlayerPage} name=${name} key=${name} />` : html`<${AccountPanel} me=${me} reload=${reload} /><${Leaderboard} />`}
  </div>`;
}

render(html`<${App} />`, document.getElementById("app"));
