import { useEffect, useRef } from "react";
import type { Socket } from "socket.io-client";
import type { PayloadOf, PushMessage } from "#protocol/realtime";

/**
 * The page's one socket.io connection (same origin: the web server passes /socket.io through to
 * the engine), opened the first time a live island needs it, in the browser only. Islands follow
 * topics with `useTopic`; after a reconnect every topic is followed again and `onResync` runs, so
 * an island can reload the snapshot it may have missed pushes for.
 */
let socket: Promise<Socket> | null = null;
const handlers = new Map<string, Set<(data: unknown) => void>>();
const resyncs = new Map<string, Set<() => void>>();
const subscribedHandlers = new Map<string, Set<() => void>>();
const tickets = new Map<string, string>();

/** Marks the page's socket on the document for `socket-state.ts` (which this module does not import, nor it this one). */
function markSocket(open: boolean) {
  document.documentElement.dataset.socket = open ? "open" : "";
  document.dispatchEvent(new Event("exchange:socket"));
}

function connect(): Promise<Socket> {
  if (socket) return socket;
  const opening = import("socket.io-client").then(({ io }) => {
    const s = io({ path: "/socket.io", transports: ["websocket", "polling"] });
    s.on("message", (message: PushMessage) => {
      for (const handler of handlers.get(message.topic) ?? []) handler(message.data);
    });
    s.io.on("reconnect", () => {
      for (const topic of handlers.keys()) {
        subscribe(s, topic);
        for (const resync of resyncs.get(topic) ?? []) resync();
      }
    });
    return s;
  });
  socket = opening;
  // socket.io-client could not be fetched (a weak connection): no socket, so the next island
  // that needs one tries again, and the notifications go back to reading by turns.
  opening.catch(() => {
    if (socket !== opening) return;
    socket = null;
    markSocket(false);
  });
  markSocket(true);
  return opening;
}

function subscribe(s: Socket, topic: string) {
  const ticket = tickets.get(topic);
  s.emit("subscribe", ticket ? { topic, ticket } : topic, (ok: unknown) => {
    if (ok === true) for (const run of subscribedHandlers.get(topic) ?? []) run();
  });
}

export interface TopicOptions {
  /** For a private topic (`refresh_{memberId}`): the ticket the loader fetched. */
  ticket?: string;
  /** Runs after a reconnect, when pushes may have been missed. */
  onResync?: () => void;
  /**
   * Runs once the engine has accepted the subscription (and again after each reconnect): pushes
   * reach the page from then on, so what happened before can be read now without a gap.
   */
  onSubscribed?: () => void;
}

/**
 * Follows a topic while the component is mounted; `onMessage` gets each push's data, typed by the
 * topic's kind when the name comes from `topics` (a name from elsewhere carries `unknown`).
 */
export function useTopic<N extends string>(topic: N | null | undefined, onMessage: (data: PayloadOf<N>) => void, options: TopicOptions = {}): void {
  const latest = useRef(onMessage);
  latest.current = onMessage;
  const resync = useRef(options.onResync);
  resync.current = options.onResync;
  const subscribedRef = useRef(options.onSubscribed);
  subscribedRef.current = options.onSubscribed;
  const { ticket } = options;

  useEffect(() => {
    if (!topic) return;
    let cancelled = false;
    const handler = (data: unknown) => latest.current(data as PayloadOf<N>);
    const onResync = () => resync.current?.();
    // A new ticket for a topic followed already (a fresh one after a reconnect: the old one may
    // have expired) is presented again; joining twice is harmless.
    const renewed = ticket !== undefined && tickets.has(topic) && tickets.get(topic) !== ticket;
    if (ticket) tickets.set(topic, ticket);
    const set = handlers.get(topic) ?? new Set();
    const first = set.size === 0;
    set.add(handler);
    handlers.set(topic, set);
    const resyncSet = resyncs.get(topic) ?? new Set();
    resyncSet.add(onResync);
    resyncs.set(topic, resyncSet);
    const onSubscribed = () => subscribedRef.current?.();
    const subscribedSet = subscribedHandlers.get(topic) ?? new Set();
    subscribedSet.add(onSubscribed);
    subscribedHandlers.set(topic, subscribedSet);
    connect().then(
      (s) => {
        if (cancelled) return;
        if (first || renewed) subscribe(s, topic);
        // Followed already by another island: its subscription serves this one too.
        else onSubscribed();
      },
      () => {},
    );
    return () => {
      cancelled = true;
      set.delete(handler);
      resyncSet.delete(onResync);
      subscribedSet.delete(onSubscribed);
      if (set.size === 0) {
        handlers.delete(topic);
        resyncs.delete(topic);
        subscribedHandlers.delete(topic);
        tickets.delete(topic);
        void socket?.then((s) => s.emit("unsubscribe", topic));
      }
    };
  }, [topic, ticket]);
}
