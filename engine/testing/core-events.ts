import { eventsOf, type CoreEvent } from "../core/exchange/events";

/** Tests read a command's effect from its ordered events (core/exchange/events.ts) through these. */
type WithEvents = { events?: readonly CoreEvent[] };

export const tradesOf = (r: WithEvents) => eventsOf(r.events ?? [], "trade");
export const closedOf = (r: WithEvents) => eventsOf(r.events ?? [], "order.closed");
export const triggeredOf = (r: WithEvents) => eventsOf(r.events ?? [], "order.triggered");
export const transfersOf = (r: WithEvents) => eventsOf(r.events ?? [], "transfer");
/** Whether the command's own order (the first placed) waits for its stop price. */
export const isWaiting = (r: WithEvents) => eventsOf(r.events ?? [], "order.placed")[0]?.waiting === true;
