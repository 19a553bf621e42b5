import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import { signInOperator, type SignedInOperator } from "~/testing/ops";
import { startTestExchange, type TestExchange } from "~/testing/test-exchange";
import type { StakeRefusal } from "./__staking.server";
import * as stakingRoute from "./staking";

/** The console's staking page (issue 32, decision 052) against a real engine: who sees the products, who changes them, what is refused. */
let exchange: TestExchange;
let markets: SignedInOperator;
let support: SignedInOperator;
beforeAll(async () => {
  exchange = await startTestExchange();
  markets = await signInOperator(exchange, { email: "staking@ops.example", role: "markets", name: "Stella Stake" });
  support = await signInOperator(exchange, { email: "support-s@ops.example", role: "support" });
});
afterAll(() => exchange?.close());

const PAGE = "/ops/staking";
type Product = { productId: string; yearlyRate: string; cap: string; minAmount: string; maxPerMember: string; enabled: boolean };
const form = (p: Product, changed: Record<string, string> = {}) => ({
  productId: p.productId,
  yearlyRate: p.yearlyRate,
  cap: p.cap,
  minAmount: p.minAmount,
  maxPerMember: p.maxPerMember,
  ...(p.enabled ? { enabled: "on" } : {}),
  ...changed,
});
const product = async (id: string) => (await exchange.api.data(endpoints.opsStakeProducts, {}, exchange.operator)).find((p) => p.productId === id)!;

describe("the console's staking page", () => {
  it("lists the products to a markets operator, changes one's rate and disables it, audited; refuses above 18 % and nonsense", async () => {
    const page = (await markets.browser.get(stakingRoute.loader, PAGE)).data as { products: Product[]; mayChange: boolean };
    expect(page.mayChange).toBe(true);
    expect(page.products).toHaveLength(16);
    const eth = page.products.find((p) => p.productId === "ETH-30")!;
    expect(eth).toMatchObject({ yearlyRate: "0.05", minAmount: "0.001", maxPerMember: "100", cap: "10000", enabled: true });
    const post = (fields: Record<string, string>) => markets.browser.post(stakingRoute.action, PAGE, fields);
    expect((await post(form(eth, { yearlyRate: "0.06", cap: "12000" }))).status).toBe(302);
    expect(await markets.browser.toast()).toMatchObject({ key: "ops.staking.saved", values: { product: "ETH-30" } });
    expect(await product("ETH-30")).toMatchObject({ yearlyRate: "0.06", cap: "12000", enabled: true });
    const { enabled: _, ...withoutEnabled } = form({ ...eth, yearlyRate: "0.06", cap: "12000" });
    expect((await post(withoutEnabled)).status).toBe(302);
    expect(await product("ETH-30")).toMatchObject({ enabled: false });
    const audit = await exchange.api.data(endpoints.opsAudit, { query: { target: "stake-product:ETH-30" } }, exchange.operator);
    expect(audit.rows).toHaveLength(2);

    const refusal = async (fields: Record<string, string>) => ((await post(fields)).data as { refusal: StakeRefusal }).refusal;
    const now = await product("ETH-30");
    expect((await refusal(form(now, { yearlyRate: "0.19" }))).fields).toEqual({ yearlyRate: "ops.staking.rate_range" });
    expect((await refusal(form(now, { cap: "12x" }))).fields?.cap).toMatch(/^validation\.number\./);
    // The engine's check: the most per member above the cap.
    expect((await refusal(form(now, { maxPerMember: "20000" }))).error).toBeTruthy();
    expect((await refusal(form(now))).error).toMatch(/ops\.errors\.no_change/);
    expect(await product("ETH-30")).toMatchObject({ yearlyRate: "0.06", maxPerMember: "100" });
  });

  it("refuses a change by a role without markets.change, and changes nothing", async () => {
    const p = await product("USDT-0");
    const answer = await support.browser.post(stakingRoute.action, PAGE, form(p, { yearlyRate: "0.01" }));
    expect([403, 302]).toContain(answer.status);
    expect(await product("USDT-0")).toMatchObject({ yearlyRate: p.yearlyRate });
  });
});
