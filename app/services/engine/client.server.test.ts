import http from "node:http";
import type { AddressInfo } from "node:net";
import { data, redirect } from "@remix-run/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import { callEndpoint } from "./api.server";
import type { StoredAuth } from "../account/auth.server";
import { exchangeAction } from "../spot/exchange.server";
import { COMMITTED_AT_KEY, sessionStorage } from "../platform/session.server";
import type { MemberEngine } from "./client.server";
import { withCookies, withEngine, withMember } from "./route.server";
import { clearSymbolRules } from "./symbol-rules.server";

/**
 * The request's engine client against a stand-in engine that counts the calls it gets: the
 * cookies a refresh produced reach every kind of answer, a 401 logs out (its own cookie wins), an
 * unreachable engine is the 503 page, a refusal is a form result, and an order is one engine call.
 */
const calls: string[] = [];
let refreshes = 0;
let probe: http.Server;

const ok = (data: unknown) => ({ status: 200, body: { code: 200, success: true, msg: "success", data } });
const refusal = (code: number, msg: string) => ({ status: code === 401 ? 401 : 200, body: { code, success: false, msg, data: null } });
const BTC = {
  symbolName: "BTC/USDT",
  coin_symbol: "BTC",
  quote_symbol: "USDT",
  base_coin_scale: 4,
  coin_coin_scale: 2,
  baseAssetScale: 8,
  quoteAssetScale: 8,
  tickSize: "0.01",
  lotSize: "0.0001",
  minQuantity: "0.0001",
  makerFee: "0.1",
  takerFee: "0.1",
  halted: false,
};
const member = { id: "1", uid: "12345678", email: "m@example.com", phone: null, areaCode: null, is_merchant: 0, avatar: "" };
const memberInfo = {
  ...member,
  merchant: null,
  blade_user_id: "1",
  chatKey: "",
  supported: 0,
  inviteCode: "ABCD",
  googleBound: false,
  tradePasswordSet: false,
  antiCodeSet: false,
  createdAt: "2026-01-01T00:00:00Z",
};

function answer(path: string, token: string | undefined) {
  if (path === "/api/blade-auth/oauth/token") {
    refreshes++;
    return ok({
      access_token: `fresh-access-${refreshes}`,
      refresh_token: `fresh-refresh-${refreshes}`,
      token_type: "bearer",
      expires_in: 604800,
      user: memberInfo,
    });
  }
  if (token === "bearer expired-access-token") return refusal(401, "expired");
  if (path.endsWith("/coin/open/getSpotSymbols")) return ok([BTC]);
  if (path.endsWith("/coin/entrust/exchange/1")) return ok({ orderId: "o1", status: "open", filled: "0", trades: 0 });
  if (path.endsWith("/coin/member/deleteDevice/7")) return refusal(400, "No such device");
  if (path.endsWith("/coin/member/getLoginDevice")) return ok([]);
  // Site configuration, rates: refused, so the web tier uses its defaults (token time 7 days).
  return refusal(404, "not here");
}

beforeAll(async () => {
  probe = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    calls.push(path);
    const { status, body } = answer(path, req.headers["blade-auth"] as string | undefined);
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { webEnv } = await import("../platform/env.server");
  webEnv().ENGINE_URL = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => probe.close(resolve)));
beforeEach(() => {
  calls.length = 0;
  clearSymbolRules();
});

/** A session cookie of a member whose token is `ageMs` old (8 days: due for a refresh). */
async function memberCookie(ageMs: number, accessToken = "current-access-token", committedAt = Date.now()): Promise<string> {
  const session = await sessionStorage.getSession();
  const auth: StoredAuth = {
    accessToken,
    refreshToken: `refresh-${Math.random().toString(36).slice(2)}-0123456789abcdef`,
    issuedAt: Date.now() - ageMs,
    member,
  };
  session.set("auth", auth);
  session.set(COMMITTED_AT_KEY, committedAt);
  return (await sessionStorage.commitSession(session)).split(";")[0]!;
}
const DUE = 8 * 24 * 3600_000;

function args(cookie: string | null, init: RequestInit = {}, url = "http://localhost/account/center/device-management") {
  const headers = new Headers(init.headers);
  if (cookie) headers.set("cookie", cookie);
  return { request: new Request(url, { ...init, headers }), params: {}, context: {} };
}
const setCookies = (headers: Headers | HeadersInit | undefined) => new Headers(headers).getSetCookie().map((c) => c.slice(0, c.indexOf("=")));
const initOf = (value: unknown) => (value as { init: ResponseInit }).init;

describe("cookies of a refreshed token", () => {
  it("reach a plain answer, a data() answer, a redirect and a thrown redirect", async () => {
    const cookie = await memberCookie(DUE);
    const plain = await withMember(args(cookie), async () => ({ fine: true }));
    expect(setCookies(initOf(plain).headers)).toEqual(["__session"]);
    const refused = await withMember(args(cookie), async () => {
      return data({ errors: ["x"] }, { status: 400, headers: { "x-kept": "1" } });
    });
    expect(initOf(refused).status).toBe(400);
    expect(new Headers(initOf(refused).headers).get("x-kept")).toBe("1");
    expect(setCookies(initOf(refused).headers)).toEqual(["__session"]);
    const moved = await withMember(args(cookie), async () => redirect("/elsewhere"));
    expect(setCookies((moved as Response).headers)).toEqual(["__session"]);
    const thrown = await withMember(args(cookie), async () => {
      throw redirect("/elsewhere");
    }).catch((e: unknown) => e);
    expect(setCookies((thrown as Response).headers)).toEqual(["__session"]);
  });

  it("are refreshed once for a request, and not at all for a young token", async () => {
    const before = refreshes;
    const scope = args(await memberCookie(DUE));
    await withMember(scope, async () => null);
    await withEngine({ ...scope, request: new Request(scope.request.url, { headers: scope.request.headers }) }, async () => null);
    expect(refreshes - before).toBe(1);
    const young = await withMember(args(await memberCookie(60_000)), async () => ({ fine: true }));
    expect(young).toEqual({ fine: true });
  });

  it("give way to a cookie the answer sets itself (a logout)", () => {
    const collected = new Headers([["set-cookie", "__session=refreshed; Path=/"]]);
    const logout = redirect("/home/index", { headers: [["set-cookie", "__session=; Max-Age=0"]] });
    const out = withCookies(logout, collected) as Response;
    expect(out.headers.getSetCookie()).toEqual(["__session=; Max-Age=0"]);
  });
});

describe("what the client owns", () => {
  it("logs the member out on a 401, with a toast", async () => {
    const thrown = await withMember(args(await memberCookie(60_000, "expired-access-token")), ({ engine }) => engine.member.devices()).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get("location")).toBe("/home/index");
    expect(setCookies((thrown as Response).headers).sort()).toEqual(["__session", "__toast"]);
  });

  it("sends a visitor of a member page to the login, coming back", async () => {
    const thrown = await withMember(args(null), async () => null).catch((e: unknown) => e);
    expect((thrown as Response).headers.get("location")).toBe("/user/login?redirectTo=%2Faccount%2Fcenter%2Fdevice-management");
  });

  it("turns a refusal into a form result", async () => {
    const result = await withMember(args(await memberCookie(60_000)), ({ engine }) => engine.attempt(() => engine.member.deleteDevice("7")));
    expect(result).toEqual({ ok: false, message: "No such device", retryAfterSeconds: null });
  });

  it("answers the unavailable page when the engine cannot be reached", async () => {
    const { webEnv } = await import("../platform/env.server");
    const env = webEnv();
    const previous = env.ENGINE_URL;
    env.ENGINE_URL = "http://127.0.0.1:9";
    try {
      const thrown = await withEngine(args(null), ({ engine }) => engine.market.snapshot()).catch((e: unknown) => e);
      expect(initOf(thrown).status).toBe(503);
    } finally {
      env.ENGINE_URL = previous;
    }
  });
});

describe("placing an order", () => {
  const orderForm = () => new URLSearchParams({ side: "buy", orderType: "limit", price: "100", num: "0.5", idempotencyKey: "key-0123456789" });
  const place = async (cookie: string) =>
    withMember(args(cookie, { method: "POST", body: orderForm() }, "http://localhost/exchange/full-screen/BTC_USDT"), ({ engine }) =>
      exchangeAction(engine, "BTC_USDT"),
    );

  it("is one engine call once the market's rules are cached", async () => {
    const cookie = await memberCookie(60_000);
    const first = (await place(cookie)) as Response;
    expect(first.headers.get("location")).toBe("/exchange/full-screen/BTC_USDT");
    const orderCalls = () => calls.filter((c) => c.includes("/coin/"));
    expect(orderCalls()).toEqual(["/api/mjkj-web/coin/open/getSpotSymbols", "/api/mjkj-web/coin/entrust/exchange/1"]);
    calls.length = 0;
    await place(cookie);
    expect(orderCalls()).toEqual(["/api/mjkj-web/coin/entrust/exchange/1"]);
  });
});

/** Compile-time checks (never run): inputs are typed from the endpoint schemas. */
export function typedInputs(engine: MemberEngine) {
  // @ts-expect-error an account type that does not exist
  void engine.spot.balances("margin");
  // @ts-expect-error a path parameter the endpoint does not have
  void callEndpoint(endpoints.deleteDevice, { params: { id: "1" } }, { lang: "en" });
  // @ts-expect-error a required path parameter left out
  void callEndpoint(endpoints.kycStatus, {}, { lang: "en" });
  // @ts-expect-error a query value of the wrong type (query strings are texts)
  void callEndpoint(endpoints.loginLog, { query: { pageSize: 10 } }, { lang: "en" });
  // @ts-expect-error an order without its idempotency key
  void engine.spot.place({ type: "1", body: { symbol: "BTC_USDT", direction: "buy", price: "1", num: "1" } });
  // The answer is the response schema's output.
  const balance: Promise<Array<{ coin: string; available: string; frozen: string }>> = engine.spot.balances("spot");
  return balance;
}
