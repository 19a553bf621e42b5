import { useFetcher } from "@remix-run/react";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { Notice } from "#protocol/endpoints/notices";
import { NOTICE_STACK } from "#protocol/limits";
import type { TopicName } from "#protocol/realtime";
import { LIVE_NOTICES_PATH, type LiveNoticesAnswer } from "~/lib/notice-links";
import { useTopic } from "~/lib/realtime";
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

const newer = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : Number(b) > Number(a) ? b : a);

/**
 * A member's notifications on every page (issue 14, decision 031). Starts from what the root
 * loader read (so the bell and the stack are there without JavaScript), then, once a member is
 * signed in, follows their `refresh` topic: a push that says "new notifications" reads what came
 * since the newest one shown (`/account/center/notifications/live`, which also hands out the
 * topic's ticket). Logging out ends the subscription (no member, no topic); after a reconnect the
 * read is made again, with a fresh ticket, so what came meanwhile is stacked without a reload.
 */
export function LiveNoticesProvider({ children }: { children: ReactNode }) {
  const { member, notices } = useShell();
  const [unread, setUnread] = useState(notices?.unread ?? 0);
  const [stack, setStack] = useState<Notice[]>(notices?.stack ?? []);
  const [live, setLive] = useState<{ topic: string; ticket: string } | null>(null);
  const lastId = useRef<string | null>(notices?.lastId ?? null);
  const needTicket = useRef(true);
  const fetcher = useFetcher<LiveNoticesAnswer>();
  const lastAnswer = useRef<LiveNoticesAnswer | undefined>(undefined);
  lastAnswer.current = fetcher.data;
  const loadRef = useRef(fetcher.load);
  loadRef.current = fetcher.load;

  const read = useCallback((force = false) => {
    void loadRef.current(`${LIVE_NOTICES_PATH}?after=${lastId.current ?? "0"}${force ? "&force=1" : ""}`);
  }, []);

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

  // A member signed in: read once for the ticket; signed out (or another member): stop.
  const uid = member?.uid;
  useEffect(() => {
    setLive(null);
    if (!uid) return;
    needTicket.current = true;
    read();
  }, [uid, read]);

  useEffect(() => {
    const answer = fetcher.data;
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
  }, [fetcher.data, uid, read]);

  const resync = useCallback(() => {
    needTicket.current = true;
    read();
  }, [read]);
  // The engine names the topic (`refresh_{memberId}`) with the ticket; its pushes are `refresh`'s.
  // Once the engine accepts the subscription, what came between the first read and then is read too.
  useTopic(live ? (live.topic as TopicName<"refresh">) : null, (push) => push.notices && read(), {
    ticket: live?.ticket,
    onResync: resync,
    onSubscribed: read,
  });

  const close = useCallback((id: string) => setStack((cur) => cur.filter((n) => n.id !== id)), []);
  const value = useMemo(() => ({ unread, stack, close }), [unread, stack, close]);
  return <Context.Provider value={value}>{children}</Context.Provider>;
}
