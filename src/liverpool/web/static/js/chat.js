// The table's chat (issue 24, server/chat.py): `chat_log` after every hello, then a `chat`
// message per line; a line is sent as {"type": "chat", "text": ...}. Lines are shown as text
// only (never as markup). A person can mute anyone at the table: a seat's mutes are kept by the
// server (`mute`, answered by a `chat_log` with `muted`; browser and terminal alike); a spectator's
// are kept in this browser, per table.
import { html } from "htm/preact";
import { useEffect, useRef, useState } from "preact/hooks";

export const MAX_CHARS = 300;

/** The chat part of the page's state: a third step over the game's reducer. */
export function reduceChat(s, m) {
  if (m.type === "chat_log") return { ...s, chat: m.lines || [], chatOption: m.option || "players", chatMuted: m.muted || null };
  if (m.type === "chat" && m.line) {
    const lines = s.chat || [];
    if (lines.length && lines[lines.length - 1].n >= m.line.n) return s; // already there
    return { ...s, chat: [...lines, m.line].slice(-300) };
  }
  return s;
}

const muteKey = (tableId) => `liverpool.mute.${tableId}`;
const who = (line) => (line.seat === null || line.seat === undefined ? `name:${line.name}` : `seat:${line.seat}`);

function useMutes(tableId) {
  const [muted, setMuted] = useState(() => {
    try {
      return new Set(JSON.parse(localStorage.getItem(muteKey(tableId)) || "[]"));
    } catch {
      return new Set();
    }
  });
  const toggle = (key) => {
    const next = new Set(muted);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    localStorage.setItem(muteKey(tableId), JSON.stringify([...next]));
    setMuted(next);
  };
  return [muted, toggle];
}

/** The chat beside the log: lines, a box to talk (when this socket may), mute buttons. */
export function ChatPanel({ s, tableId, send, canTalk, mySeat, nameOf }) {
  const [text, setText] = useState("");
  const [localMuted, localToggle] = useMutes(tableId);
  const onServer = mySeat !== null && mySeat !== undefined && Array.isArray(s.chatMuted);
  const muted = onServer ? new Set(s.chatMuted) : localMuted;
  const toggle = onServer ? (key) => send({ type: "mute", who: key, on: !muted.has(key) }) : localToggle;
  const ref = useRef(null);
  const lines = s.chat || [];
  const shown = lines.filter((l) => l.kind === "system" || !muted.has(who(l)));
  useEffect(() => {
    if (ref.current) ref.current.scrollTop = ref.current.scrollHeight;
  }, [shown.length]);
  const talkers = new Map();
  for (const l of lines) if (l.kind === "say" && l.seat !== mySeat) talkers.set(who(l), l.seat === null ? l.name : nameOf(l.seat));
  for (const key of muted) { // the server sends no line of a muted talker: still listed, to unmute
    if (talkers.has(key)) continue;
    if (key.startsWith("seat:")) talkers.set(key, nameOf(Number(key.slice(5))));
    else if (key.startsWith("name:")) talkers.set(key, key.slice(5));
  }
  const submit = (e) => {
    e.preventDefault();
    const t = text.trim();
    if (!t) return;
    if (send({ type: "chat", text: t.slice(0, MAX_CHARS) })) setText("");
  };
  if (s.chatOption === "off") return html`<section class="chat" id="chat"><h2 class="side-title">Chat</h2><p class="hint">The chat is off at this table.</p></section>`;
  return html`<section class="chat" id="chat" aria-label="Chat">
    <h2 class="side-title">Chat</h2>
    <ol class="chat-lines" id="chat-lines" ref=${ref} aria-live="polite">
      ${shown.map((l) => html`<li class=${`chat-${l.kind}`} key=${l.n}>${l.kind === "system"
        ? html`<em>${l.text}</em>`
        : html`<strong class="chat-name">${l.seat === null || l.seat === undefined ? `${l.name} (watching)` : nameOf(l.seat)}:</strong> <span class="chat-text">${l.text}</span>`}</li>`)}
    </ol>
    ${canTalk ? html`<form class="chat-form" onSubmit=${submit}>
      <input id="chat-input" aria-label="Say something to the table" maxlength=${MAX_CHARS} value=${text}
        placeholder="Say something…" autocomplete="off" onInput=${(e) => setText(e.target.value)} />
      <button id="chat-send" type="submit" disabled=${!text.trim()}>Send</button>
    </form>` : html`<p class="hint">${s.chatOption === "players" ? "Only the players chat at this table." : ""}</p>`}
    ${talkers.size ? html`<details class="chat-mutes"><summary>Mute…</summary>
      ${[...talkers].map(([key, name]) => html`<label class="mute"><input type="checkbox" data-mute=${key} checked=${muted.has(key)}
        onChange=${() => toggle(key)} /> ${name}</label>`)}</details>` : null}
  </section>`;
}
