import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sourceRequestHandler, type RequestHandler } from "~/testing/request-handler";
import { Browser } from "~/testing/route-call";
import { routeFiles } from "~/testing/route-manifest";
import { startTestExchange, TEST_PASSWORD, type TestExchange } from "~/testing/test-exchange";

/**
 * Every route's data, asked for by its id (`?_data=<route id>`, as a prober or an old client does)
 * at a URL the route matches, by a visitor and by a member: never a server error. A layout whose
 * loader answered `null` was a 500 here (single fetch cannot send it as a data response).
 */
let exchange: TestExchange;
let handle: RequestHandler;
beforeAll(async () => {
  exchange = await startTestExchange();
  handle = await sourceRequestHandler();
});
afterAll(() => exchange?.close());

/** Sample values for the routes' URL parameters; the splat route gets a page that does not exist. */
const PARAMS: Record<string, string> = { symbol: "BTC_USDT", orderId: "1", lang: "en", file: "latest.json" };

/** Every route id of the app (the root too) with a URL it matches. */
async function dataRequests(): Promise<Array<{ id: string; url: string }>> {
  const routes = (await routeFiles()).map(({ id, url }) => ({
    id,
    url: url.replace("*", "no/such/page").replace(/:(\w+)/g, (_, name: string) => PARAMS[name] ?? "x"),
  }));
  return [{ id: "root", url: "/" }, ...routes];
}

async function serverErrors(cookie: string): Promise<string[]> {
  const failures: string[] = [];
  for (const { id, url } of await dataRequests()) {
    const target = `${url}?_data=${encodeURIComponent(id)}`;
    const answer = await handle(new Request(`http://localhost${target}`, { headers: { "accept-language": "en", cookie } }));
    if (answer.status >= 500) failures.push(`${target}: ${answer.status} ${(await answer.text()).slice(0, 200)}`);
  }
  return failures;
}

describe("data requests by route id", () => {
  it("covers every route of the manifest", async () => {
    expect((await dataRequests()).map((r) => r.id)).toContain("routes/account+/wallet+/_layout");
  });

  it("answers a visitor without a server error", async () => {
    expect(await serverErrors("")).toEqual([]);
  });

  it("answers a member without a server error", async () => {
    await exchange.register("data-requests@example.com");
    const browser = new Browser();
    await browser.logIn("data-requests@example.com", TEST_PASSWORD);
    expect(await serverErrors(browser.cookieHeader())).toEqual([]);
  });
});
