import { createCookieSessionStorage, redirect } from "@remix-run/node";
import * as z from "zod";
import { isSecureRequest } from "./cookie-security.server";
import { sessionSecrets } from "./env.server";

/**
 * Toasts travel in a short-lived cookie so they survive the redirect after a form post, with or
 * without JavaScript. `text` is a translation key or, for server messages, the message itself.
 */
export const toastSchema = z.object({
  id: z.string(),
  type: z.enum(["success", "error", "info"]),
  /** A translation key (`key`) or a literal message from the engine (`message`). */
  key: z.string().optional(),
  message: z.string().optional(),
  /** Values the text `key` interpolates. */
  values: z.record(z.string(), z.string()).optional(),
});
export type Toast = z.infer<typeof toastSchema>;

/**
 * How long a toast outlives the redirect that set it, and how long once a client data load has
 * carried it. With JavaScript the page's data is loaded by `?_data=` requests that a live refresh
 * may interrupt and replace; such a request carries the toast without consuming it, so the
 * replacing load carries it too (the browser shows each toast id once), and a reload some seconds
 * later no longer does. Ten seconds, not three: on a loaded machine a chain of live refreshes, each
 * replacing the last, took longer than three seconds to let one complete, and the toast was lost.
 */
const TOAST_SECONDS = 15;
const CARRIED_TOAST_SECONDS = 10;

const toastStorage = createCookieSessionStorage({
  cookie: { name: "__toast", httpOnly: true, sameSite: "lax", path: "/", secrets: sessionSecrets(), maxAge: TOAST_SECONDS },
});

export async function toastHeader(request: Request, toast: Omit<Toast, "id">): Promise<string> {
  const session = await toastStorage.getSession(request.headers.get("cookie"));
  session.set("toast", { id: crypto.randomUUID(), ...toast });
  return toastStorage.commitSession(session, { secure: isSecureRequest(request) });
}

export async function redirectWithToast(request: Request, to: string, toast: Omit<Toast, "id">, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  headers.append("set-cookie", await toastHeader(request, toast));
  return redirect(to, { ...init, headers });
}

/**
 * Reads the pending toast. A document request consumes it (the returned header clears it: a
 * reload without JavaScript does not show it twice); a client data request (`?_data=`) leaves it
 * for a few seconds, for a load that may replace this one, and the cookie's expiry ends it.
 */
export async function readToast(request: Request): Promise<{ toast: Toast | null; header: string | null }> {
  const session = await toastStorage.getSession(request.headers.get("cookie"));
  const parsed = toastSchema.safeParse(session.get("toast"));
  if (!parsed.success) return { toast: null, header: null };
  const secure = isSecureRequest(request);
  if (new URL(request.url).searchParams.has("_data")) {
    if (session.get("carried") === true) return { toast: parsed.data, header: null };
    session.set("toast", parsed.data);
    session.set("carried", true);
    return { toast: parsed.data, header: await toastStorage.commitSession(session, { secure, maxAge: CARRIED_TOAST_SECONDS }) };
  }
  session.unset("toast");
  return { toast: parsed.data, header: await toastStorage.commitSession(session, { secure, maxAge: 0 }) };
}
