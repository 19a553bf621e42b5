import { createCookie, redirect } from "@remix-run/node";
import { noticeIdField } from "#protocol/endpoints/notices";
import { NOTICES_PATH } from "~/lib/notice-links";
import type { ShellNotices } from "~/lib/shell";
import type { Engine, MemberEngine } from "../engine/client.server";
import { isSecureRequest } from "../platform/cookie-security.server";
import { redirectWithToast } from "../platform/toast.server";

/**
 * The newest notification this browser has stacked for a member (`uid:id`), so that a page load
 * stacks only what came since (decision 031): without JavaScript the stack is rendered with the
 * page; with it, the live stack carries on from here. Another member's value counts as none.
 */
const seenCookie = createCookie("notices_seen", { path: "/", sameSite: "lax", httpOnly: true, maxAge: 30 * 24 * 60 * 60 });

/** Notifications on one page of the list. */
export const NOTICES_PAGE_SIZE = 20;

async function seenAfter(request: Request, uid: string): Promise<string | undefined> {
  const value: unknown = await seenCookie.parse(request.headers.get("cookie"));
  if (typeof value !== "string") return undefined;
  const [owner, id] = value.split(":");
  return owner === uid && id && (id === "0" || noticeIdField.safeParse(id).success) ? id : undefined;
}

/**
 * What the shell shows of a member's notifications: the unread count (the bell) and those that
 * came since this browser last stacked one (the stack, newest four), with the cookie that moves
 * the mark on. A refused call leaves the shell without them (every page still renders); a 401
 * logs the member out as any call does.
 */
export async function loadShellNotices(engine: Engine): Promise<{ notices: ShellNotices | null; cookie: string | null }> {
  const member = engine.asMember();
  if (!member) return { notices: null, cookie: null };
  const after = await seenAfter(engine.request, member.signedIn.uid);
  const answer = await engine.attempt(() => member.notices.unread(after));
  if (!answer.ok) return { notices: null, cookie: null };
  const { unread, lastId, latest } = answer.value;
  return { notices: { unread, lastId, stack: latest }, cookie: await markSeen(member, lastId) };
}

/**
 * The live stack's read (a resource route): a fresh ticket for the member's topic, the unread
 * count, and what came after `after`. Asked for when the stack starts, on each push that says
 * "new notifications", and after a reconnect (missed pushes, an expired ticket).
 */
export async function loadLiveNotices(engine: MemberEngine) {
  const raw = new URL(engine.request.url).searchParams.get("after");
  const after = raw && (raw === "0" || noticeIdField.safeParse(raw).success) ? raw : await seenAfter(engine.request, engine.signedIn.uid);
  const [ticket, { unread, lastId, latest }] = await Promise.all([engine.member.realtimeTicket(), engine.notices.unread(after)]);
  const headers = new Headers({ "cache-control": "no-store" });
  headers.append("set-cookie", await markSeen(engine, lastId));
  return { body: { topic: ticket.topic, ticket: ticket.ticket, unread, lastId, latest }, headers };
}

function markSeen(engine: MemberEngine, lastId: string | null): Promise<string> {
  return seenCookie.serialize(`${engine.signedIn.uid}:${lastId ?? "0"}`, { secure: isSecureRequest(engine.request) });
}

/** The notifications page: a page of them (all, or the unread), newest first. */
export async function loadNoticesPage(engine: MemberEngine) {
  const url = new URL(engine.request.url);
  const pageNo = Math.min(Math.max(Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1, 1), 100_000);
  const unreadOnly = url.searchParams.get("filter") === "unread";
  const page = await engine.notices.list({ pageNo, pageSize: NOTICES_PAGE_SIZE, unreadOnly });
  return { page, unreadOnly };
}

/**
 * The page's forms: `read` one (its `id`), or `read-all`. Each goes back to the page it was
 * posted from (its filter and page kept), so it works the same without JavaScript.
 */
export async function noticesAction(engine: MemberEngine) {
  const { request } = engine;
  const form = await request.formData();
  const back = backTo(form.get("redirectTo"));
  const intent = form.get("intent");
  if (intent === "read-all") {
    const done = await engine.attempt(() => engine.notices.read({ all: true }));
    return redirectWithToast(request, back, done.ok ? { type: "success", key: "notices.all_read" } : { type: "error", message: done.message ?? undefined });
  }
  const id = noticeIdField.safeParse(form.get("id"));
  if (intent !== "read" || !id.success) return redirectWithToast(request, back, { type: "error", key: "errors.unknown" });
  const done = await engine.attempt(() => engine.notices.read({ ids: [id.data] }));
  return done.ok ? redirect(back) : redirectWithToast(request, back, { type: "error", message: done.message ?? undefined });
}

/** Back to the notifications page, with its query (a path of the page only: never elsewhere). */
function backTo(value: FormDataEntryValue | null): string {
  if (typeof value !== "string" || !value.startsWith(`${NOTICES_PATH}`)) return NOTICES_PATH;
  const url = new URL(value, "http://x");
  return url.pathname === NOTICES_PATH ? `${url.pathname}${url.search}` : NOTICES_PATH;
}
