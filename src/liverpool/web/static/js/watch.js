// Watching a table (issue 24, server/spectate.py): /?watch=TABLE shows the table live with the
// public view only (no hand, no hint, no moves), through the watch socket, which needs no token.
import { Conn } from "./conn.js";

/** The connection of a spectator: the seat's connection, on the table's watch socket. */
export class WatchConn extends Conn {
  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}/watch`;
  }

  firstMessage() {
    return null; // the watch socket takes no token: an `auth` would be answered `malformed`
  }
}

/** The watch link of a table, to send to whoever wants to follow the game. */
export const watchLink = (tableId) => `${location.origin}/?watch=${encodeURIComponent(tableId)}`;
