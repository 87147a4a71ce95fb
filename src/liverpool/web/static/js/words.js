// Public events in plain words for the log ("Ana bought the 9♣ and a penalty card").
import { pretty } from "./cards.js";

const cards = (list) => (Array.isArray(list) ? list : String(list || "").split(/\s+/).filter(Boolean)).map(pretty).join(" ");

export function eventText(ev, name) {
  const who = (p) => (p === null || p === undefined ? "nobody" : name(p));
  switch (ev.type) {
    case "cut":
      return "Everyone cut for the deal.";
    case "deal":
      return `Deal ${ev.number}: ${who(ev.dealer)} deals. Contract: ${ev.contract}.`;
    case "cut_for_deal":
      return `${who(ev.player)} cut the deck.`;
    case "cut_bonus":
      return `${who(ev.player)} cut exactly and earns ${ev.points} points off.`;
    case "stock_rebuilt":
      return `The stock ran out and was rebuilt from the discard pile (${ev.size} cards).`;
    case "discard":
      return `${who(ev.player)} discarded the ${pretty(ev.card)}.`;
    case "pass":
      return `${who(ev.player)} passed.`;
    case "draw_stock":
      return `${who(ev.player)} drew from the stock.`;
    case "draw_discard":
      return `${who(ev.player)} took the ${pretty(ev.card)} from the discard pile.`;
    case "draw_pile":
      return `${who(ev.player)} took ${cards(ev.cards)} from the discard pile.`;
    case "buy_request":
      return `${who(ev.player)} asked to buy.`;
    case "buy":
      return `${who(ev.player)} bought the ${pretty(ev.card)}${ev.penalty ? ` and ${ev.penalty === 1 ? "a penalty card" : `${ev.penalty} penalty cards`}` : ""}.`;
    case "meld":
      return `${who(ev.player)} laid down a ${ev.kind}: ${cards(ev.cards)}.`;
    case "down":
      return `${who(ev.player)} is down.`;
    case "lay_off":
      return `${who(ev.player)} laid off the ${pretty(ev.card)}.`;
    case "swap":
      return `${who(ev.player)} swapped the ${pretty(ev.card)} for a joker.`;
    case "unswap":
      return `${who(ev.player)} undid a joker swap.`;
    case "end_turn":
      return `${who(ev.player)} ended the turn.`;
    case "retract":
      return `${who(ev.player)} took back a lay-down${ev.penalty ? ` (penalty ${ev.penalty})` : ""}.`;
    case "call":
      return `${who(ev.player)} called the ${pretty(ev.card)} discarded by ${who(ev.offender)}.`;
    case "call_penalty":
      return `${who(ev.player)} takes ${ev.penalty || "a"} penalty card${ev.penalty > 1 ? "s" : ""} for the called ${pretty(ev.card)}.`;
    case "float":
      return `${who(ev.player)} is floating (played every card but must still discard).`;
    case "knock":
      return `${who(ev.player)} knocks: one card left!`;
    case "deal_end":
      return ev.out === null || ev.out === undefined
        ? `The deal ended (${ev.reason || "no one went out"}).`
        : `${who(ev.out)} went out. The deal is over.`;
    case "level":
      return `${who(ev.player)} completed level ${ev.completed}.`;
    case "game_over":
      return `Game over: ${(ev.winners || []).map(who).join(" and ")} won.`;
    default:
      return `${ev.player !== undefined ? who(ev.player) + ": " : ""}${ev.type.replaceAll("_", " ")}`;
  }
}
