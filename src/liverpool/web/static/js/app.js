// Entry point: picks the page from the address (lobby, ?join=ID, ?table=ID, ?replay=ID).
import { html, render } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { tokens } from "./api.js";
import { JoinPage, Lobby } from "./lobby.js";
import { ReplayPage } from "./replay.js";
import { TablePage } from "./table.js";

function route() {
  const q = new URLSearchParams(location.search);
  if (q.get("replay")) return { page: "replay", id: q.get("replay") };
  if (q.get("table")) return { page: "table", id: q.get("table") };
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
  if (r.page === "join") return html`<${JoinPage} key=${r.id} tableId=${r.id} />`;
  if (r.page === "replay") return html`<${ReplayPage} key=${r.id} tableId=${r.id} />`;
  return html`<${Lobby} />`;
}

const root = document.getElementById("app");
root.textContent = "";
render(html`<${App} />`, root);
