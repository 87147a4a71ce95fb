// Entry point: picks the page from the address (lobby, ?join=ID, ?table=ID, ?replay=ID, ?review=ID).
import { html, render } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { tokens } from "./api.js";
import { JoinPage, Lobby } from "./lobby.js";
import { ReplayPage } from "./replay.js";
import { ReviewPage } from "./review.js";
import { TablePage } from "./table.js";

function route() {
  const q = new URLSearchParams(location.search);
  if (q.get("replay")) return { page: "replay", id: q.get("replay") };
  // the review of a finished game: /?review=TABLE&seat=N[&samples=K] (issue 13)
  if (q.get("review")) {
    const seat = /^\d+$/.test(q.get("seat") || "") ? Number(q.get("seat")) : null;
    return { page: "review", id: q.get("review"), seat, samples: q.get("samples") };
  }
  if (q.get("table")) return { page: "table", id: q.get("table") };
  if (q.get("watch")) return { page: "watch", id: q.get("watch") }; // a spectator (issue 24)
  if (q.get("join")) {
    const id = q.get("join");
    // an invite to a table this browser already sits at goes straight to it
    return tokens.get(id) ? { page: "table", id } : { page: "join", id };
  }
  return { page: "lobby" };
}

function App() {
  const [r, setR] = useState(route());
  useEffect(() => {
    const on = () => setR(route());
    window.addEventListener("popstate", on);
    window.addEventListener("liverpool:route", on);
    return () => {
      window.removeEventListener("popstate", on);
      window.removeEventListener("liverpool:route", on);
    };
  }, []);
  if (r.page === "table") return html`<${TablePage} key=${r.id} tableId=${r.id} />`;
  if (r.page === "watch") return html`<${TablePage} key=${`watch/${r.id}`} tableId=${r.id} watch=${true} />`;
  if (r.page === "join") return html`<${JoinPage} key=${r.id} tableId=${r.id} />`;
  if (r.page === "replay") return html`<${ReplayPage} key=${r.id} tableId=${r.id} />`;
  if (r.page === "review") return html`<${ReviewPage} key=${`${r.id}/${r.seat}`} tableId=${r.id} seat=${r.seat} samples=${r.samples} />`;
  return html`<${Lobby} />`;
}

const root = document.getElementById("app");
root.textContent = "";
render(html`<${App} />`, root);
