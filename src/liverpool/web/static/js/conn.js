// One WebSocket per seat, reconnecting with back-off; every (re)connect is answered by `hello`,
// which restores the whole table.
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
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}?token=${encodeURIComponent(this.token)}`;
  }

  connect() {
    if (this.stopped) return;
    this.onStatus({ state: this.attempt ? "reconnecting" : "connecting", attempt: this.attempt });
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
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
      this.onMessage(msg);
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
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}
