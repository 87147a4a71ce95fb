// The lobby: quick play, create a table (rules form from GET /api/presets, its seat range from the
// engine's declarations of GET /api/options; checked by the server before submitting), and joining
// by invite link.
import { html } from "htm/preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { api, go, myName, tokens } from "./api.js";

// Sections as `liverpool rules` and docs/rules.md number them.
const SECTIONS = [
  [1, 9, "Cards and deal"],
  [10, 16, "Contracts"],
  [17, 21, "Wild cards"],
  [22, 26, "A turn"],
  [27, 31, "Buying"],
  [32, 36, "Discarding a playable card"],
  [37, 41, "Going out, floating, scoring"],
  [42, 99, "House options"],
];

function ruleNumber(rule) {
  const m = /R(\d+)/.exec(rule || "");
  return m ? parseInt(m[1], 10) : 99;
}

function sectionOf(rule) {
  const n = ruleNumber(rule);
  const s = SECTIONS.find(([lo, hi]) => n >= lo && n <= hi);
  return s ? s[2] : "Other";
}

function NameField({ name, setName, id = "name" }) {
  return html`
    <label class="field" for=${id}>Your name
      <input id=${id} name="name" value=${name} maxlength="24" autocomplete="nickname"
             onInput=${(e) => setName(e.target.value)} placeholder="e.g. Ana" />
    </label>`;
}

function optionValue(opt, raw) {
  // the form keeps text for text inputs; numbers and booleans go as JSON numbers/booleans
  if (opt.type === "bool") return !!raw;
  if (opt.type === "int") return raw === "" ? raw : Number(raw);
  if (/null/.test(opt.type) && raw === "") return null;
  if (/int/.test(opt.type) && /^-?\d+$/.test(String(raw))) return Number(raw);
  if (opt.type === "list" && typeof raw === "string") {
    try {
      return JSON.parse(raw);
    } catch {
      return raw; // the server says what is wrong with it
    }
  }
  return raw;
}

function displayValue(v) {
  if (v === null || v === undefined) return "";
  if (Array.isArray(v)) return JSON.stringify(v);
  if (typeof v === "object") return JSON.stringify(v);
  return v;
}

function OptionInput({ opt, value, onChange }) {
  const id = `opt-${opt.name}`;
  if (opt.type === "bool") {
    return html`<input id=${id} type="checkbox" checked=${!!value} onChange=${(e) => onChange(e.target.checked)} />`;
  }
  if (opt.choices && opt.choices.length) {
    return html`<select id=${id} value=${displayValue(value)} onChange=${(e) => onChange(e.target.value)}>
      ${opt.choices.map((c) => html`<option value=${c}>${String(c)}</option>`)}
    </select>`;
  }
  const numeric = opt.type === "int";
  return html`<input id=${id} type=${numeric ? "number" : "text"} value=${displayValue(value)}
    placeholder=${/null/.test(opt.type) ? "none" : ""} onInput=${(e) => onChange(e.target.value)} />`;
}

// The seats a table may have: from the engine's least min_players to its greatest max_players
// (rules.OPTIONS as GET /api/options serves it); a preset's own range is the server's to check.
function seatRange(declared) {
  const find = (n) => declared.options.find((o) => o.name === n) || {};
  const low = find("min_players").low ?? 2;
  const high = find("max_players").high ?? low;
  return Array.from({ length: high - low + 1 }, (_, i) => low + i);
}

function CreateForm({ presets, name }) {
  const counts = seatRange(presets.declared);
  const [players, setPlayers] = useState(4);
  const [preset, setPreset] = useState(presets.presets[0]);
  const [seats, setSeats] = useState(Array.from({ length: counts[counts.length - 1] }, (_, i) => (i ? "bot:medium" : "human")));
  const [changed, setChanged] = useState({});
  const [timer, setTimer] = useState("");
  const [hints, setHints] = useState("3"); // the table's `hints` option: "off", 3 per deal, "unlimited"
  // issue 24: the buy window's length and the deal-end pause (server/pacing.py)
  const [buySeconds, setBuySeconds] = useState("");
  const [dealPause, setDealPause] = useState("");
  const [chat, setChat] = useState("players"); // who may chat (server/chat.py)
  const [spectators, setSpectators] = useState(true); // the watch link shows the table
  const [check, setCheck] = useState({ ok: true, detail: null, describe: [] });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const seq = useRef(0);
  const options = presets.options[preset] || [];

  // Choosing a seat count outside the preset's min_players-max_players widens that range in the
  // rules form (shown as changed); anything else the count needs (packs) the server's check names.
  const fitted = (n, base, opts) => {
    const value = (key) => {
      const opt = opts.find((o) => o.name === key);
      return Number(key in base ? base[key] : opt ? opt.value : n);
    };
    const out = { ...base };
    if (n > value("max_players")) out.max_players = n;
    if (n < value("min_players")) out.min_players = n;
    return out;
  };
  const choosePlayers = (n) => {
    setPlayers(n);
    setChanged(fitted(n, changed, options));
  };

  const payloadOptions = () => {
    const out = {};
    for (const opt of options) {
      if (opt.name in changed) out[opt.name] = optionValue(opt, changed[opt.name]);
    }
    return out;
  };

  useEffect(() => {
    const n = ++seq.current;
    const t = setTimeout(async () => {
      try {
        const res = await api("POST", "/api/rules/check", { preset, options: payloadOptions(), players });
        if (n === seq.current) setCheck({ ok: true, detail: null, describe: res.describe || [] });
      } catch (e) {
        if (n === seq.current) setCheck({ ok: false, detail: e.message, describe: [] });
      }
    }, 250);
    return () => clearTimeout(t);
  }, [preset, changed, players]);

  // the option the server's reason names is marked where it is set
  const badNames = new Set(check.ok || !check.detail ? [] : options.filter((o) => new RegExp(`\\b${o.name}\\b`).test(check.detail)).map((o) => o.name));
  const grouped = {};
  for (const opt of [...options].sort((a, b) => ruleNumber(a.rule) - ruleNumber(b.rule))) {
    (grouped[sectionOf(opt.rule)] ||= []).push(opt);
  }

  const submit = async (e) => {
    e.preventDefault();
    if (!check.ok) return;
    setBusy(true);
    setError(null);
    try {
      const seatList = seats.slice(0, players).map((s, i) =>
        i === 0 || s === "human" ? { kind: "human" } : { kind: "bot", bot: s.split(":")[1] });
      myName.set(name);
      const res = await api("POST", "/api/tables", {
        players, preset, options: payloadOptions(), seats: seatList,
        timer: timer === "" ? null : Number(timer), name: name || "Player",
        hints: hints === "3" ? 3 : hints,
        buy_seconds: buySeconds === "" ? null : Number(buySeconds),
        deal_pause: dealPause === "" ? null : Number(dealPause),
        chat, spectators,
      });
      tokens.set(res.table_id, res.token);
      go({ table: res.table_id });
    } catch (err) {
      setError(err.message);
    } finally {
      setBusy(false);
    }
  };

  return html`
    <form class="create" onSubmit=${submit}>
      <div class="row">
        <label class="field">Players
          <select id="players" value=${players} onChange=${(e) => choosePlayers(Number(e.target.value))}>
            ${counts.map((n) => html`<option value=${n}>${n}</option>`)}
          </select>
        </label>
        <label class="field">Preset
          <select id="preset" value=${preset} onChange=${(e) => { setPreset(e.target.value); setChanged(fitted(players, {}, presets.options[e.target.value] || [])); }}>
            ${presets.presets.map((p) => html`<option value=${p}>${p[0].toUpperCase() + p.slice(1)}</option>`)}
          </select>
        </label>
        <label class="field">Turn timer (seconds, empty = off)
          <input id="timer" type="number" min="5" value=${timer} onInput=${(e) => setTimer(e.target.value)} />
        </label>
        <label class="field">Hints (the strong bot's advice)
          <select id="hints" value=${hints} onChange=${(e) => setHints(e.target.value)}>
            <option value="3">3 per player and deal</option>
            <option value="unlimited">unlimited</option>
            <option value="off">off</option>
          </select>
        </label>
        <label class="field">Buy window (seconds people get to buy, empty = the server's)
          <input id="buy-seconds" type="number" min="0.5" max="120" step="0.5" value=${buySeconds} onInput=${(e) => setBuySeconds(e.target.value)} />
        </label>
        <label class="field">Deal-end pause (longest wait in seconds for everyone to read the scores, empty = until all continue, 0 = none)
          <input id="deal-pause" type="number" min="0" max="3600" value=${dealPause} onInput=${(e) => setDealPause(e.target.value)} />
        </label>
        <label class="field">Chat
          <select id="chat-option" value=${chat} onChange=${(e) => setChat(e.target.value)}>
            <option value="players">the players</option>
            <option value="everyone">the players and spectators</option>
            <option value="off">off</option>
          </select>
        </label>
        <label class="field"><input type="checkbox" id="spectators" checked=${spectators} onChange=${(e) => setSpectators(e.target.checked)} /> Anyone with the watch link may watch (no hands shown)</label>
      </div>
      <fieldset class="seats">
        <legend>Seats</legend>
        ${Array.from({ length: players }, (_, i) => html`
          <label class="seat-choice">Seat ${i}
            ${i === 0
              ? html`<span class="you">you</span>`
              : html`<select class="seat-kind" data-seat=${i} value=${seats[i]}
                  onChange=${(e) => setSeats(seats.map((s, j) => (j === i ? e.target.value : s)))}>
                  <option value="human">a person (invite)</option>
                  <option value="bot:easy">bot: easy</option>
                  <option value="bot:medium">bot: medium</option>
                  <option value="bot:hard">bot: hard</option>
                </select>`}
          </label>`)}
      </fieldset>
      <details class="rules-form">
        <summary>Rules (${preset}${Object.keys(changed).length ? `, ${Object.keys(changed).length} changed` : ", as the preset"})</summary>
        ${Object.entries(grouped).map(([section, opts]) => html`
          <fieldset class="rule-group">
            <legend>${section}</legend>
            ${opts.map((opt) => html`
              <div class=${`option ${opt.name in changed ? "changed" : ""} ${badNames.has(opt.name) ? "bad" : ""}`}>
                <label for=${`opt-${opt.name}`}><span class="rule-no">${opt.rule || ""}</span> ${opt.name.replaceAll("_", " ")}</label>
                <${OptionInput} opt=${opt} value=${opt.name in changed ? changed[opt.name] : opt.value}
                  onChange=${(v) => setChanged({ ...changed, [opt.name]: v })} />
                <p class="help">${opt.help}</p>
              </div>`)}
          </fieldset>`)}
        ${Object.keys(changed).length ? html`<button type="button" onClick=${() => setChanged(fitted(players, {}, options))}>Back to the preset</button>` : null}
      </details>
      <p class=${`check ${check.ok ? "ok" : "bad"}`} role="status" id="rules-check">
        ${check.ok ? "These rules are valid." : `Not valid: ${check.detail}`}
      </p>
      ${error ? html`<p class="error" role="alert">${error}</p>` : null}
      <button type="submit" class="primary" id="create-table" disabled=${busy || !check.ok}>Create table</button>
    </form>`;
}

function History({ name }) {
  const [games, setGames] = useState(null);
  useEffect(() => {
    if (!name) {
      setGames(null);
      return undefined;
    }
    const t = setTimeout(() => {
      api("GET", `/api/players/${encodeURIComponent(name)}/history?limit=10`).then((d) => setGames(d.games || []), () => setGames(null));
    }, 300);
    return () => clearTimeout(t);
  }, [name]);
  if (!games || !games.length) return null;
  return html`
    <section class="panel" id="history">
      <h2>${name}'s finished games</h2>
      <ul class="history">
        ${games.map((g) => html`<li>
          ${g.finished_at ? new Date(typeof g.finished_at === "number" ? g.finished_at * 1000 : g.finished_at).toLocaleString() : ""}
          · ${g.names.join(", ")} · ${g.preset} · your score ${(g.scores || [])[g.seat]} · ${g.won ? "won" : "lost"}
          · <a href=${`/?replay=${g.table_id}`}>replay</a>
          · <a href=${`/?review=${g.table_id}&seat=${g.seat}`}>review</a></li>`)}
      </ul>
    </section>`;
}

export function Lobby() {
  const [name, setName] = useState(myName.get());
  const [presets, setPresets] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    Promise.all([api("GET", "/api/presets"), api("GET", "/api/options")]).then(
      ([p, declared]) => setPresets({ ...p, declared }),
      (e) => setError(`Could not load the rules: ${e.message}`),
    );
  }, []);

  const quick = async () => {
    setBusy(true);
    setError(null);
    try {
      myName.set(name);
      const res = await api("POST", "/api/quickplay", { name: name || "Player" });
      tokens.set(res.table_id, res.token);
      go({ table: res.table_id });
    } catch (e) {
      setError(e.message);
      setBusy(false);
    }
  };

  return html`
    <main class="lobby">
      <header class="banner-title"><h1>Liverpool Rummy</h1><p>Contract rummy in the browser: alone with bots or with friends.</p></header>
      <section class="panel">
        <${NameField} name=${name} setName=${setName} />
        <button class="primary big" id="quickplay" onClick=${quick} disabled=${busy}>Quick play</button>
        <p class="hint">You against three medium bots, Liverpool rules.</p>
        <p class="hint"><a id="players-link" href="/players.html">Players: the leaderboard, your page, your reserved name</a></p>
        ${error ? html`<p class="error" role="alert">${error}</p>` : null}
      </section>
      <${History} name=${name} />
      <section class="panel">
        <h2>Create a table</h2>
        ${presets ? html`<${CreateForm} presets=${presets} name=${name} />` : html`<p>Loading the rules…</p>`}
      </section>
    </main>`;
}

export function JoinPage({ tableId }) {
  const [name, setName] = useState(myName.get());
  const [info, setInfo] = useState(null);
  const [error, setError] = useState(null);
  const [missing, setMissing] = useState(false); // no such table: the invite is wrong or old

  useEffect(() => {
    api("GET", `/api/tables/${encodeURIComponent(tableId)}`).then(setInfo, (e) => (e.status === 404 ? setMissing(true) : setError(e.message)));
  }, [tableId]);

  const join = async (e) => {
    e.preventDefault();
    setError(null);
    try {
      myName.set(name);
      const res = await api("POST", `/api/tables/${encodeURIComponent(tableId)}/join`, { name: name || "Player" });
      tokens.set(tableId, res.token);
      go({ table: tableId });
    } catch (err) {
      setError(err.message);
    }
  };

  if (missing) {
    return html`<main class="lobby"><header class="banner-title"><h1>Liverpool Rummy</h1></header>
      <section class="panel" id="no-table"><p><strong>There is no table ${tableId}.</strong> The invite link may be mistyped, or the table is gone.</p>
        <p><a class="primary-link" href="/" id="to-lobby">Go to the lobby</a> to start a table or play against bots.</p></section></main>`;
  }
  const open = !info || (info.status === "waiting" && info.seats.some((s) => s.kind === "human" && !s.claimed));
  return html`
    <main class="lobby">
      <header class="banner-title"><h1>Liverpool Rummy</h1><p>${!info ? "Looking for the table…" : open ? "You are invited to a table." : "This table has no free seat."}</p></header>
      <section class="panel">
        ${info ? html`
          <p>${info.players} players, ${info.preset} rules, ${info.status === "waiting" ? "waiting for players" : info.status}.</p>
          <ul class="seat-list">${info.seats.map((s) => html`<li>Seat ${s.seat}: ${s.kind === "bot" ? s.name || `bot (${s.bot})` : s.claimed ? s.name : "free seat"}</li>`)}</ul>` : null}
        ${info && !open ? html`<p>${info.status === "waiting" ? "Every seat is taken." : info.status === "over" ? "The game is over." : "The game has already started."}
          ${info.spectators !== false && info.status !== "over" ? html` You can <a id="watch-instead" href=${`/?watch=${encodeURIComponent(tableId)}`}>watch it</a>.` : null}
          ${info.status === "over" ? html` <a href=${`/?replay=${encodeURIComponent(tableId)}`}>See its replay</a>.` : null}</p>` : null}
        ${open ? html`<form onSubmit=${join}>
          <${NameField} name=${name} setName=${setName} id="join-name" />
          <button class="primary" id="join" type="submit" disabled=${!info}>Take a seat</button>
        </form>` : null}
        ${error ? html`<p class="error" role="alert">${error}</p>` : null}
        <p><a href="/">Back to the lobby</a></p>
      </section>
    </main>`;
}
