import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { action as loginAction } from "../routes/user+/login";
import { readToast, type Toast } from "../services/platform/toast.server";

/** A route module's loader or action. */
export type RouteFunction = (args: LoaderFunctionArgs | ActionFunctionArgs) => unknown;

/**
 * What a loader or action answered, as the browser would see it: whether it returned or threw
 * (Remix treats a thrown response as the answer too), a plain value, `data(value, init)` or a
 * `Response` (a redirect, a 404 page).
 */
export interface RouteAnswer {
  status: number;
  headers: Headers;
  /** The redirect target, if it is one. */
  location: string | null;
  /** The data of a plain value or a `data()` answer; the text of a `Response` that has a body. */
  data: unknown;
  thrown: boolean;
}

const ORIGIN = "http://localhost";

/**
 * A browser without JavaScript for route tests: it keeps the cookies the answers set (the session,
 * the toast) and sends them with the next request, as a real one would. Requests are real `Request`
 * objects: a form is posted as `application/x-www-form-urlencoded`, and each request has its own
 * load context, as `server.mjs` makes one per HTTP request.
 *
 *     const browser = new Browser();
 *     await browser.logIn(email, password);
 *     const answer = await browser.post(deviceRoute.action, "/account/center/device-management", { intent: "delete", id });
 *     expect(answer.location).toBe("/account/center/device-management");
 *     expect((await browser.toast())?.key).toBe("account.devices.deleted");
 */
export class Browser {
  private readonly cookies = new Map<string, string>();

  /** The `Cookie` header this browser sends. */
  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  /** Calls a loader with a GET of `path` (`/exchange/full-screen/BTC_USDT?type=limit`). */
  get(loader: RouteFunction, path: string, params: Record<string, string> = {}): Promise<RouteAnswer> {
    return this.send(loader, new Request(new URL(path, ORIGIN), { headers: this.headers() }), params);
  }

  /**
   * Calls an action with a form posted to `path`; a field given a list is sent once per value. A
   * `FormData` (files) is posted as `multipart/form-data`.
   */
  post(action: RouteFunction, path: string, form: Record<string, string | string[]> | FormData, params: Record<string, string> = {}): Promise<RouteAnswer> {
    const body =
      form instanceof FormData ? form : new URLSearchParams(Object.entries(form).flatMap(([name, value]) => [value].flat().map((one) => [name, one])));
    const request = new Request(new URL(path, ORIGIN), { method: "POST", headers: this.headers(), body });
    return this.send(action, request, params);
  }

  /** The toast the next page would show (read from the flash cookie, which this consumes). */
  async toast(): Promise<Toast | null> {
    const { toast } = await readToast(new Request(ORIGIN, { headers: this.headers() }));
    this.cookies.delete("__toast");
    return toast;
  }

  /** Logs in through the login page's action, as a member would; the session cookie is kept. */
  async logIn(email: string, password: string): Promise<RouteAnswer> {
    const answer = await this.post(loginAction, "/user/login", { accountType: "email", email, password, redirectTo: "/account/center/info" });
    if (answer.status !== 302) throw new Error(`login refused (${answer.status}): ${JSON.stringify(answer.data)}`);
    await this.toast();
    return answer;
  }

  private headers(): Headers {
    const headers = new Headers({ "accept-language": "en" });
    if (this.cookies.size > 0) headers.set("cookie", this.cookieHeader());
    return headers;
  }

  private async send(route: RouteFunction, request: Request, params: Record<string, string>): Promise<RouteAnswer> {
    let answer: RouteAnswer;
    try {
      answer = await answerOf(await route({ request, params, context: {} }), false);
    } catch (error) {
      if (!(error instanceof Response) && !isDataWithInit(error)) throw error;
      answer = await answerOf(error, true);
    }
    for (const cookie of answer.headers.getSetCookie()) this.keep(cookie);
    return answer;
  }

  private keep(setCookie: string) {
    const [pair = "", ...attributes] = setCookie.split(";");
    const name = pair.slice(0, pair.indexOf("=")).trim();
    const value = pair.slice(pair.indexOf("=") + 1).trim();
    const expired = attributes.some((a) => {
      const [key = "", v = ""] = a.split("=").map((part) => part.trim());
      return (key.toLowerCase() === "max-age" && Number(v) <= 0) || (key.toLowerCase() === "expires" && Date.parse(v) <= Date.now());
    });
    if (expired || value === "") this.cookies.delete(name);
    else this.cookies.set(name, value);
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

async function answerOf(value: unknown, thrown: boolean): Promise<RouteAnswer> {
  if (value instanceof Response) {
    const text = await value.text();
    return { status: value.status, headers: value.headers, location: value.headers.get("location"), data: text || null, thrown };
  }
  if (isDataWithInit(value)) {
    const headers = new Headers(value.init?.headers);
    return { status: value.init?.status ?? 200, headers, location: headers.get("location"), data: value.data, thrown };
  }
  return { status: 200, headers: new Headers(), location: null, data: value, thrown };
}
