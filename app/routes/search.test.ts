import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SearchData } from "~/lib/search";
import { Browser } from "~/testing/route-call";
import { startTestExchange, type TestExchange } from "~/testing/test-exchange";
import * as searchRoute from "./search";

/** The search page's loader (`/search?q=`, also the header panel's fetcher) against a real engine with the six demo markets. */
let exchange: TestExchange;
beforeAll(async () => {
  exchange = await startTestExchange();
});
afterAll(() => exchange?.close());

const search = async (path: string) => {
  const answer = await new Browser().get(searchRoute.loader, path);
  return { status: answer.status, data: answer.data as SearchData };
};

describe("the search page's loader", () => {
  it("answers the matches of a visitor's text, spot and contract", async () => {
    const { status, data } = await search("/search?q=et");
    expect(status).toBe(200);
    expect(data.error).toBeNull();
    expect(data.answer.spot.map((r) => r.symbol)).toEqual(["ETH/USDT"]);
    expect(data.answer).toMatchObject({ q: "et", contractsListed: true, hot: [], suggestions: [] });
    // The perpetuals of ETH, coin-margined (2) and USDT-margined (1); untraded, so by symbol.
    expect(data.answer.contract.map((r) => [r.symbol, r.contract_type])).toEqual([
      ["ETH/USD", 2],
      ["ETH/USDT", 1],
    ]);
  });

  it("answers the hot list without text and 4 suggestions when nothing matches", async () => {
    expect((await search("/search")).data.answer.hot).toHaveLength(6);
    const { data } = await search("/search?q=zzzz");
    expect(data.answer.spot).toEqual([]);
    expect(data.answer.suggestions).toHaveLength(4);
  });

  it("answers a text the engine would refuse with 400, the rule's key and the hot list", async () => {
    const { status, data } = await search(`/search?q=${encodeURIComponent("<script>")}`);
    expect(status).toBe(400);
    expect(data).toMatchObject({ q: "<script>", error: "search.invalid" });
    expect(data.answer.hot).toHaveLength(6);
    expect((await search(`/search?q=${"x".repeat(21)}`)).status).toBe(400);
  });
});
