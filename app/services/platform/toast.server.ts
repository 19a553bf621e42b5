import { createCookieSessionStorage, redirect } from "@remix-run/node";
import * as z from "zod";
import { isSecureRequest } from "./cookie-security.server";
import { sessionSecrets } from "./env.server";

/**
 * Toasts travel in a flash cookie so they survive the redirect after a form post, with or
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

const toastStorage = createCookieSessionStorage({
  cookie: { name: "__toast", httpOnly: true, sameSite: "lax", path: "/", secrets: sessionSecrets() },
});

export async function toastHeader(request: Request, toast: Omit<Toast, "id">): Promise<string> {
  const session = await toastStorage.getSession(request.headers.get("cookie"));
  session.flash("toast", { id: crypto.randomUUID(), ...toast });
  return toastStorage.commitSession(session, { secure: isSecureRequest(request) });
}

export async function redirectWithToast(request: Request, to: string, toast: Omit<Toast, "id">, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  headers.append("set-cookie", await toastHeader(request, toast));
  return redirect(to, { ...init, headers });
}

/** Reads (and consumes) the pending toast; the returned header clears it. */
export async function readToast(request: Request): Promise<{ toast: Toast | null; header: string | null }> {
  const session = await toastStorage.getSession(request.headers.get("cookie"));
  const parsed = toastSchema.safeParse(session.get("toast"));
  if (!parsed.success) return { toast: null, header: null };
  return { toast: parsed.data, header: await toastStorage.commitSession(session, { secure: isSecureRequest(request) }) };
}
