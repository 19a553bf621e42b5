import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { engineFor, memberEngine, type Engine, type MemberEngine } from "./client.server";

/** A loader's or an action's arguments (Remix gives both the same shape). */
type RouteArgs = LoaderFunctionArgs;

/**
 * Runs a loader or action with the request's engine client. Whatever it answers — data, `data()`,
 * a redirect, or a thrown response (a redirect, the unavailable page) — leaves with the cookies
 * the client collected, so a refreshed token always reaches the browser (issue 11): the next
 * request may be served by another web process, which can only go on with the new token.
 *
 *     export function loader(args: LoaderFunctionArgs) {
 *       return withMember(args, async ({ engine }) => ({ devices: await engine.member.devices() }));
 *     }
 *
 * NOTE: called inside a function declaration, never as `export const loader = withEngine(…)`:
 * the browser build keeps a top-level call (it may have side effects) while this `.server` module
 * is empty there, and the page's JavaScript would stop at "withEngine is not a function".
 */
export async function withEngine<R>(args: RouteArgs, handler: (args: RouteArgs & { engine: Engine }) => Promise<R>): Promise<R> {
  const engine = await engineFor(args);
  return answerWithCookies(engine.headers, () => handler({ ...args, engine }));
}

/** `withEngine` for a member's page or form; a visitor is sent to the login page first. */
export async function withMember<R>(args: RouteArgs, handler: (args: RouteArgs & { engine: MemberEngine }) => Promise<R>): Promise<R> {
  const engine = await memberEngine(args);
  return answerWithCookies(engine.headers, () => handler({ ...args, engine }));
}

async function answerWithCookies<R>(headers: Headers, run: () => Promise<R>): Promise<R> {
  try {
    // NOTE: a plain value becomes `data(value, { headers })`; Remix serializes both alike, so the
    // route's inferred loader data type (R) stays true.
    return withCookies(await run(), headers) as R;
  } catch (error) {
    throw isResponseLike(error) ? withCookies(error, headers) : error;
  }
}

interface DataWithInit {
  type: "DataWithResponseInit";
  data: unknown;
  init: ResponseInit | null;
}

function isDataWithInit(value: unknown): value is DataWithInit {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "DataWithResponseInit";
}

const isResponseLike = (value: unknown) => value instanceof Response || isDataWithInit(value);

/** Adds the collected cookies to an answer; a cookie the answer sets itself (a logout, a login) wins. */
export function withCookies(answer: unknown, collected: Headers): unknown {
  const cookies = collected.getSetCookie();
  if (cookies.length === 0) return answer;
  if (answer instanceof Response) {
    appendMissing(answer.headers, cookies);
    return answer;
  }
  if (isDataWithInit(answer)) {
    const headers = new Headers(answer.init?.headers);
    appendMissing(headers, cookies);
    return data(answer.data, { ...answer.init, headers });
  }
  return data(answer, { headers: cookies.map((cookie) => ["set-cookie", cookie] as [string, string]) });
}

const cookieName = (header: string) => header.slice(0, header.indexOf("="));

function appendMissing(headers: Headers, cookies: string[]) {
  const present = new Set(headers.getSetCookie().map(cookieName));
  for (const cookie of cookies) if (!present.has(cookieName(cookie))) headers.append("set-cookie", cookie);
}
