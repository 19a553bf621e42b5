import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import { signInOperator, type SignedInOperator } from "~/testing/ops";
import { startTestExchange, type TestExchange } from "~/testing/test-exchange";
import type { PoolRefusal } from "./__margin.server";
import * as marginRoute from "./margin";

/** The console's margin page (issue 31) against a real engine: who sees the lending pools, who changes them, what is refused. */
let exchange: TestExchange;
let markets: SignedInOperator;
let support: SignedInOperator;
beforeAll(async () => {
  exchange = await startTestExchange();
  markets = await signInOperator(exchange, { email: "margin@ops.example", role: "markets", name: "Mia Margin" });
  support = await signInOperator(exchange, { email: "support-m@ops.example", role: "support" });
});
afterAll(() => exchange?.close());

const PAGE = "/ops/margin";
type Pool = { coin: string; hourlyRate: string; limit: string; minBorrow: string; lent: string; earned: string };
type Page = { pools: Pool[]; mayChange: boolean };
const form = (pool: Pool, changed: Record<string, string> = {}) => ({
  coin: pool.coin,
  hourlyRate: pool.hourlyRate,
  limit: pool.limit,
  minBorrow: pool.minBorrow,
  ...changed,
});

describe("the console's margin page", () => {
  it("lists the lending pools to a markets operator, and changes a rate and a limit, audited", async () => {
    const page = (await markets.browser.get(marginRoute.loader, PAGE)).data as Page;
    expect(page.mayChange).toBe(true);
    expect(page.pools.map((p) => p.coin)).toEqual(["USDT", "BTC", "ETH", "SOL", "XRP"]);
    const eth = page.pools.find((p) => p.coin === "ETH")!;
    expect(eth).toMatchObject({ hourlyRate: "0.000004", limit: "2000", minBorrow: "0.001", lent: "0" });
    const post = (fields: Record<string, string>) => markets.browser.post(marginRoute.action, PAGE, fields);
    expect((await post(form(eth, { hourlyRate: "0.000006", limit: "2500" }))).status).toBe(302);
    expect(await markets.browser.toast()).toMatchObject({ key: "ops.margin.saved", values: { coin: "ETH" } });
    const now = (await exchange.api.data(endpoints.opsMarginPools, {}, exchange.operator)).find((p) => p.coin === "ETH")!;
    expect(now).toMatchObject({ hourlyRate: "0.000006", limit: "2500", minBorrow: "0.001" });
    const audit = await exchange.api.data(endpoints.opsAudit, { query: { target: "margin-pool:ETH" } }, exchange.operator);
    expect(audit.rows).toHaveLength(1);

    // Refused, nothing changed: a rate above 1 % an hour, a typing error, no change at all.
    const changedEth = { ...eth, hourlyRate: "0.000006", limit: "2500" };
    const refusal = async (fields: Record<string, string>) => ((await post(fields)).data as { refusal: PoolRefusal }).refusal;
    expect((await refusal(form(changedEth, { hourlyRate: "0.02" }))).fields).toEqual({ hourlyRate: "ops.margin.rate_range" });
    expect((await refusal(form(changedEth, { limit: "12x" }))).fields?.limit).toMatch(/^validation\.number\./);
    expect((await refusal(form(changedEth, { minBorrow: "0" }))).fields).toEqual({ minBorrow: "validation.number.zero" });
    expect((await refusal(form(changedEth))).error).toMatch(/ops\.errors\.no_change/);
    expect((await exchange.api.data(endpoints.opsMarginPools, {}, exchange.operator)).find((p) => p.coin === "ETH")).toMatchObject({ hourlyRate: "0.000006" });
  });

  it("moves trading fees into a pool's insurance, once per key; an amount that is not a number is refused", async () => {
    const page = (await markets.browser.get(marginRoute.loader, PAGE)).data as Page & { keys: Record<string, string> };
    const post = (fields: Record<string, string>) =>
      markets.browser.post(marginRoute.action, PAGE, { intent: "insurance", coin: "USDT", idempotencyKey: page.keys.USDT!, ...fields });
    expect(((await post({ amount: "abc" })).data as { refusal: PoolRefusal }).refusal.error).toMatch(/ops\.margin\.amount_invalid/);
    // No trade yet on this exchange: no fees to move.
    expect(((await post({ amount: "1" })).data as { refusal: PoolRefusal }).refusal.error).toBeTruthy();
    expect((await exchange.api.data(endpoints.opsMarginPools, {}, exchange.operator)).find((p) => p.coin === "USDT")).toMatchObject({ insurance: "0" });
  });

  it("puts a market on margin and changes a pair's highest leverage; a leverage outside 2 to 10 or an unknown market is refused", async () => {
    const page = (await markets.browser.get(marginRoute.loader, PAGE)).data as Page & {
      pairs: Array<{ symbolName: string; maxLeverage: number }>;
      offMargin: string[];
    };
    expect(page.pairs.map((p) => p.symbolName)).toEqual(["BTC/USDT", "ETH/USDT", "SOL/USDT", "XRP/USDT"]);
    expect(page.offMargin).toContain("DOGE/USDT");
    const post = (fields: Record<string, string>) => markets.browser.post(marginRoute.action, PAGE, { intent: "pair", ...fields });
    expect((await post({ symbolName: "DOGE/USDT", maxLeverage: "3" })).status).toBe(302);
    expect(await markets.browser.toast()).toMatchObject({ key: "ops.margin.pair_saved", values: { symbol: "DOGE/USDT", leverage: "3" } });
    expect((await post({ symbolName: "SOL/USDT", maxLeverage: "8" })).status).toBe(302);
    const pairs = (await exchange.api.data(endpoints.marginPairs, {})).pairs;
    expect(pairs.find((p) => p.symbolName === "DOGE/USDT")?.maxLeverage).toBe(3);
    expect(pairs.find((p) => p.symbolName === "SOL/USDT")?.maxLeverage).toBe(8);
    const audit = await exchange.api.data(endpoints.opsAudit, { query: { target: "margin-pair:DOGE/USDT" } }, exchange.operator);
    expect(audit.rows).toHaveLength(1);
    const refusal = async (fields: Record<string, string>) => ((await post(fields)).data as { refusal: PoolRefusal }).refusal;
    for (const maxLeverage of ["1", "11", "2.5", "x"])
      expect((await refusal({ symbolName: "SOL/USDT", maxLeverage })).error).toMatch(/ops\.margin\.pair_leverage_range/);
    expect((await refusal({ symbolName: "NOPE/USDT", maxLeverage: "5" })).error).toBeTruthy();
    expect((await refusal({ maxLeverage: "5" })).error).toMatch(/ops\.margin\.pair_market_required/);
    expect((await exchange.api.data(endpoints.marginPairs, {})).pairs.find((p) => p.symbolName === "SOL/USDT")?.maxLeverage).toBe(8);
    expect((await support.browser.post(marginRoute.action, PAGE, { intent: "pair", symbolName: "TRX/USDT", maxLeverage: "5" })).status).toBe(403);
  });

  it("refuses a change by a role without markets.change, and changes nothing", async () => {
    const answer = await support.browser.post(marginRoute.action, PAGE, { coin: "USDT", hourlyRate: "0.00001", limit: "1", minBorrow: "1" });
    expect([403, 302]).toContain(answer.status);
    expect((await exchange.api.data(endpoints.opsMarginPools, {}, exchange.operator)).find((p) => p.coin === "USDT")).toMatchObject({ limit: "5000000" });
  });
});
