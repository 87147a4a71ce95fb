// REST calls to the server's lobby API and the per-table token kept in this browser's storage.
export async function api(method, path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers["X-Seat-Token"] = token;
  const csrf = csrfToken();
  if (csrf && method !== "GET") headers["X-CSRF-Token"] = csrf; // a logged-in player's requests (docs/players.md)
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const detail = data && data.detail;
    const text = typeof detail === "string" ? detail : detail ? JSON.stringify(detail) : `${res.status} ${res.statusText}`;
    const err = new Error(text);
    err.status = res.status;
    throw err;
  }
  return data;
}

/** The CSRF token of this browser's session (the liverpool_csrf cookie), or null for a guest. */
export function csrfToken() {
  const found = document.cookie.split("; ").find((c) => c.startsWith("liverpool_csrf="));
  return found ? decodeURIComponent(found.slice("liverpool_csrf=".length)) : null;
}

export const tokens = {
  get(tableId) {
    return localStorage.getItem(`liverpool.token.${tableId}`);
  },
  set(tableId, token) {
    localStorage.setItem(`liverpool.token.${tableId}`, token);
  },
};

export const myName = {
  get() {
    return localStorage.getItem("liverpool.name") || "";
  },
  set(name) {
    localStorage.setItem("liverpool.name", name);
  },
};

/** Go to a page of this app (the page reads its query string). */
export function go(params) {
  const q = new URLSearchParams(params).toString();
  history.pushState(null, "", q ? `/?${q}` : "/");
  window.dispatchEvent(new Event("liverpool:route"));
}
