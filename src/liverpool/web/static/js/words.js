// An event's words in the log: the server sends them with every event (`text`, made by
// liverpool.describe.event_words, the one home of the wording), with {pN} for seat N's name; this
// fills in the names and ends the sentence. No wording here. "" for bookkeeping (a pass, a cut).

export function eventText(ev, name) {
  const text = String((ev && ev.text) || "").replace(/\{p(\d+)\}/g, (_, p) => name(Number(p)));
  return text ? `${text}.` : "";
}
