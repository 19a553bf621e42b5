import { useLocation } from "@remix-run/react";
import { createContext, lazy, Suspense, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { Notice } from "#protocol/endpoints/notices";
import { NOTICE_STACK } from "#protocol/limits";
import { LIVE_NOTICES_PATH, NOTICE_READ_MS, readsNoticesByTurns, type LiveNoticesAnswer } from "~/lib/notice-links";
import { useSocketOpen } from "~/lib/socket-state";
import { useShell } from "~/lib/use-shell";

interface LiveNotices {
  /** The bell's count. */
  unread: number;
  /** The stack, oldest first: at most four (spec §9). */
  stack: Notice[];
  close(id: string): void;
}

const Context = createContext<LiveNotices>({ unread: 0, stack: [], close: () => {} });

/** The member's notifications as the shell shows them: the bell's count and the stack. */
export function useLiveNotices(): LiveNotices {
  return useContext(Context);
}

/** New ones go on top; a fifth closes the oldest (spec §4 "Notifications"). */
function stackUp(stack: Notice[], incoming: Notice[]): Notice[] {
  const known = new Set(stack.map((n) => n.id));
  return [...stack, ...incoming.filter((n) => !known.has(n.id))].slice(-NOTICE_STACK);
}

/** How long a read that could not be made waits before it is made anyway (ms). */
const UNAVAILABLE_RETRY_MS = 30_000;

/** Following the topic needs socket.io: loaded only where the stack is followed live. */
const NoticeFollower = lazy(() => import("./notice-follower"));

const newer = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : Number(b) > Number(a) ? b : a);

/**
 * A member's notifications on every page (issue 14, decision 031). Starts from what the root
 * loader read (so the bell and the stack are there without JavaScript), then, once a member is
 * signed in, follows their `refresh` topic: a push that says "new notifications" reads what came
 * since the newest one shown (`/account/center/notifications/live`, which also hands out the
 * topic's ticket). Logging out ends the subscription (no member, no topic); after a reconnect the
 * read is made again, with a fresh ticket, so what came meanwhile is stacked without a reload.
 * The member's own pages follow the topic only when the page's socket is open anyway; otherwise
 * they read every 30 s while shown, and at once when shown again (decision 037).
 */
export function LiveNoticesProvider({ children }: { children: ReactNode }) {
  const { member, notices } = useShell();
  const [unread, setUnread] = useState(notices?.unread ?? 0);
  const [stack, setStack] = useState<Notice[]>(notices?.stack ?? []);
  const [live, setLive] = useState<{ topic: string; ticket: string } | null>(null);
  const lastId = useRef<string | null>(notices?.lastId ?? null);
  const needTicket = useRef(true);
  const [answer, setAnswer] = useState<LiveNoticesAnswer | undefined>(undefined);
  const lastAnswer = useRef<LiveNoticesAnswer | undefined>(undefined);
  lastAnswer.current = answer;
  const reading = useRef<AbortController | null>(null);

  // A plain fetch of the JSON route (no route module to download, decision 037); a newer read
  // replaces one still on its way. One that cannot reach the server (offline, a dropped
  // connection) or is not answered is "unavailable", and the stack reads again later: thrown, it
  // would have nowhere to go but the console.
  const read = useCallback((force = false) => {
    reading.current?.abort();
    const controller = new AbortController();
    reading.current = controller;
    const url = `${LIVE_NOTICES_PATH}?after=${lastId.current ?? "0"}${force ? "&force=1" : ""}`;
    fetch(url, { headers: { accept: "application/json" }, signal: controller.signal })
      .then((res) => (res.ok ? (res.json() as Promise<LiveNoticesAnswer>) : { unavailable: true as const }))
      .catch(() => ({ unavailable: true as const }))
      .then((next) => {
        if (!controller.signal.aborted) setAnswer(next);
      });
  }, []);
  useEffect(() => () => reading.current?.abort(), []);

  // Each read of the root loader (a page, a form's post): its count is the newest.
  useEffect(() => {
    if (!notices) {
      setUnread(0);
      setStack([]);
      return;
    }
    setUnread(notices.unread);
    if (notices.stack.length) setStack((cur) => stackUp(cur, notices.stack));
    lastId.current = newer(lastId.current, notices.lastId);
    // The page's own request has just refreshed the token if it was due: a read that could not be
    // made then is made now.
    const last = lastAnswer.current;
    if (last && "unavailable" in last) read();
  }, [notices, read]);

  const { pathname } = useLocation();
  const socketOpen = useSocketOpen();
  const follow = socketOpen || !readsNoticesByTurns(pathname);

  // A member signed in (or the page starts following): read once for a fresh ticket; signed out
  // (or another member): stop.
  const uid = member?.uid;
  useEffect(() => {
    setLive(null);
    if (!uid) return;
    needTicket.current = true;
    read();
  }, [uid, follow, read]);

  // Not following: read by turns while the page is shown.
  useEffect(() => {
    if (!uid || follow) return;
    const readIfShown = () => document.visibilityState === "visible" && read();
    const timer = setInterval(readIfShown, NOTICE_READ_MS);
    document.addEventListener("visibilitychange", readIfShown);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", readIfShown);
    };
  }, [uid, follow, read]);

  useEffect(() => {
    if (!answer || !uid || "signedOut" in answer) return;
    if ("unavailable" in answer) {
      // Not read now (a token due for its refresh, or the engine away): again after a quiet while,
      // or sooner after the member's next page or form (the effect on `notices` above).
      const retry = setTimeout(() => read(true), UNAVAILABLE_RETRY_MS);
      return () => clearTimeout(retry);
    }
    setUnread(answer.unread);
    if (answer.latest.length) setStack((cur) => stackUp(cur, answer.latest));
    lastId.current = newer(lastId.current, answer.lastId);
    if (needTicket.current) {
      needTicket.current = false;
      setLive({ topic: answer.topic, ticket: answer.ticket });
    }
  }, [answer, uid, read]);

  const resync = useCallback(() => {
    needTicket.current = true;
    read();
  }, [read]);
  const onNotices = useCallback(() => read(), [read]);

  const close = useCallback((id: string) => setStack((cur) => cur.filter((n) => n.id !== id)), []);
  const value = useMemo(() => ({ unread, stack, close }), [unread, stack, close]);
  return (
    <Context.Provider value={value}>
      {children}
      {/* `live` is set by the first read, in the browser only: nothing of it on the server. */}
      {live && follow ? (
        <Suspense fallback={null}>
          <NoticeFollower topic={live.topic} ticket={live.ticket} onNotices={onNotices} onResync={resync} onSubscribed={onNotices} />
        </Suspense>
      ) : null}
    </Context.Provider>
  );
}
