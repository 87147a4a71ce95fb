// One WebSocket per seat, reconnecting with back-off; every (re)connect is answered by `hello`,
// which restores the whole table.
//
// Protocol 3 (docs/protocol.md): the first message on the socket is `{"type": "auth", "token"}`
// (the seat's token is never in the URL); `hello` holds the seat's whole view and every public event so
// far; a `state` only what changed since the last message (the view's changed keys, the new
// events, the table's info when it changed). The connection keeps the whole view and the event
// log, and hands the page every `hello`/`state` with the whole view rebuilt (`view.events`: this
// deal's events, the log from `deal_events_from` on) and the table's info, so the page never
// sees a delta. States that come faster than the screen is drawn (bots at full speed) reach the
// page once per frame, as one state with all their events: the page draws each frame once
// instead of falling behind; other messages keep their order after the states before them.
// No point in trying again: a wrong token, an unknown table, a refused origin, or this seat
// opened in another window (4000: "replaced by a newer connection"; the page offers to take it back).
const FINAL_ERRORS = new Set(["bad_token", "no_table", "bad_origin"]);
const FINAL_CLOSES = new Set([4000, 4401, 4403, 4404]);

export class Conn {
  constructor(tableId, token, { onMessage, onStatus }) {
    this.tableId = tableId;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.attempt = 0;
    this.ws = null;
    this.stopped = false;
    this.timer = null;
    this.view = null; // the seat's whole view, as the last hello/state left it
    this.log = []; // every public event so far (hello's, then each state's)
    this.table = null; // the table's info as last sent
    this.pending = null; // a rebuilt state not yet handed to the page (this frame's states)
    this.frame = null; // the scheduled hand-over of `pending`
  }

  /** Hand a message to the page: states once per frame (merged), anything else at once. */
  deliver(msg) {
    const m = this.rebuild(msg);
    if (m.type === "state") {
      this.pending = this.pending ? { ...m, events: this.pending.events.concat(m.events || []) } : { ...m, events: m.events || [] };
      if (!this.frame) {
        const flush = () => this.flush();
        // a hidden tab draws no frames: the timer hands the states over all the same
        this.frame = { raf: requestAnimationFrame(flush), timer: setTimeout(flush, 100) };
      }
      return;
    }
    this.flush();
    this.onMessage(m);
  }

  flush() {
    if (this.frame) {
      cancelAnimationFrame(this.frame.raf);
      clearTimeout(this.frame.timer);
      this.frame = null;
    }
    const p = this.pending;
    this.pending = null;
    if (p) this.onMessage(p);
  }

  /** The message with the whole view (a `state` merged into the view kept), for the page. */
  rebuild(msg) {
    if (msg.table) this.table = msg.table;
    if (msg.type === "hello") {
      this.view = msg.view;
      this.log = msg.events || [];
      return msg;
    }
    if (msg.type !== "state") return msg;
    const events = msg.events || [];
    if (events.length) this.log = this.log.concat(events);
    const view = { ...(this.view || {}), ...(msg.view || {}) };
    view.events = this.log.slice(msg.deal_events_from ?? 0);
    this.view = view;
    return { ...msg, view, table: this.table };
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    // no token in the URL (it would reach access logs): it is the socket's first message
    return `${proto}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`;
  }

  /** The socket's first message: the seat's token (a spectator's socket needs none). */
  firstMessage() {
    return { type: "auth", token: this.token };
  }

  connect() {
    if (this.stopped) return;
    this.onStatus({ state: this.attempt ? "reconnecting" : "connecting", attempt: this.attempt });
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      const first = this.firstMessage();
      if (first) ws.send(JSON.stringify(first));
      this.attempt = 0;
      this.onStatus({ state: "open" });
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.type === "error" && FINAL_ERRORS.has(msg.code)) this.stopped = true;
      this.deliver(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (FINAL_CLOSES.has(ev.code)) this.stopped = true;
      if (this.stopped) {
        this.onStatus({ state: "closed", reason: ev.reason || "" });
        return;
      }
      const delay = Math.min(10000, 500 * 2 ** this.attempt);
      this.attempt += 1;
      this.onStatus({ state: "lost", delay, attempt: this.attempt, reason: ev.reason || "" });
      this.timer = setTimeout(() => this.connect(), delay);
    };
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  /** Connect again after a final close (the person asked to take the seat back here). */
  resume() {
    this.stopped = false;
    this.attempt = 0;
    this.connect();
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.frame) {
      cancelAnimationFrame(this.frame.raf);
      clearTimeout(this.frame.timer);
      this.frame = null;
    }
    this.pending = null;
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}
