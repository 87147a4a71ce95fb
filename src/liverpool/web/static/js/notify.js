// "Your turn" while the tab is in the background (issue 24): the title and the favicon change, an
// optional sound, and a desktop notification when the person allowed it. Nothing changes while the
// page is in front; everything is put back when it comes to the front again.
import { html } from "htm/preact";
import { useEffect, useRef, useState } from "preact/hooks";

const KEY = "liverpool.notify";
const DOT = (color) =>
  `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="${color}"/></svg>`)}`;

export const notifyPrefs = {
  get() {
    try {
      const p = JSON.parse(localStorage.getItem(KEY) || "{}");
      return { sound: !!p.sound, desktop: !!p.desktop };
    } catch {
      return { sound: false, desktop: false };
    }
  },
  set(p) {
    localStorage.setItem(KEY, JSON.stringify(p));
  },
};

function favicon(href) {
  let link = document.querySelector("link[rel='icon']");
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.appendChild(link);
  }
  link.href = href;
}

function beep() {
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    const ctx = new Ctx();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.value = 0.08;
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.18);
    osc.onended = () => ctx.close();
  } catch {
    // no sound on this browser: the title and the favicon still say it
  }
}

/** Signal `text` (e.g. "Your turn") while the tab is hidden; null: nothing to signal. */
export function useTurnSignal(text, prefs) {
  const base = useRef(document.title);
  const signalled = useRef(null);
  useEffect(() => {
    const restore = () => {
      if (signalled.current === null) return;
      document.title = base.current;
      favicon("data:,");
      signalled.current = null;
    };
    const update = () => {
      if (!text || !document.hidden) {
        restore();
        return;
      }
      if (signalled.current === text) return;
      const first = signalled.current === null;
      signalled.current = text;
      document.title = `● ${text} — Liverpool`;
      favicon(DOT("#d93025"));
      if (first && prefs.sound) beep();
      if (first && prefs.desktop && "Notification" in window && Notification.permission === "granted") {
        try {
          new Notification("Liverpool", { body: text, tag: "liverpool-turn" });
        } catch {
          // some browsers allow notifications only from a service worker
        }
      }
    };
    update();
    document.addEventListener("visibilitychange", update);
    return () => document.removeEventListener("visibilitychange", update);
  }, [text, prefs.sound, prefs.desktop]);
}

/** The person's choices: a sound, a desktop notification (asks the browser's permission). */
export function NotifyPrefs({ prefs, setPrefs }) {
  const [denied, setDenied] = useState(false);
  const desktop = async (on) => {
    if (on && "Notification" in window && Notification.permission !== "granted") {
      const answer = await Notification.requestPermission();
      if (answer !== "granted") {
        setDenied(true);
        on = false;
      }
    }
    setPrefs({ ...prefs, desktop: on });
  };
  return html`<details class="buy-prefs notify-prefs" id="notify-prefs">
    <summary title="how this page tells you it is your turn while you are in another tab">Alerts</summary>
    <div class="buy-prefs-body">
      <p class="hint">In another tab, the title and the icon of this page say when it is your turn.</p>
      <label class="field"><input type="checkbox" id="notify-sound" checked=${prefs.sound}
        onChange=${(e) => setPrefs({ ...prefs, sound: e.target.checked })} /> Also a sound</label>
      <label class="field"><input type="checkbox" id="notify-desktop" checked=${prefs.desktop}
        onChange=${(e) => desktop(e.target.checked)} /> Also a desktop notification</label>
      ${denied ? html`<p class="hint">The browser did not allow notifications for this page.</p>` : null}
    </div>
  </details>`;
}
