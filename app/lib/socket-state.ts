import { useSyncExternalStore } from "react";

/**
 * Whether the page's socket is open (or opening), read without loading the socket's code
 * (`realtime.ts`), so a page without live data can ask at no cost (decision 037). The socket's
 * code marks it on the document (`data-socket="open"` on `<html>`) and says so with an
 * `exchange:socket` event: the document is the one thing both sides share without importing
 * each other (a shared module would be one more chunk on every page).
 */
export const SOCKET_EVENT = "exchange:socket";

export function socketOpen(): boolean {
  return document.documentElement.dataset.socket === "open";
}

/** True once a live island asked for the page's socket: other parts may follow their topics on it at no cost. */
export function useSocketOpen(): boolean {
  return useSyncExternalStore(
    (listener) => {
      document.addEventListener(SOCKET_EVENT, listener);
      return () => document.removeEventListener(SOCKET_EVENT, listener);
    },
    socketOpen,
    () => false,
  );
}
