import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import { signInOperator, type SignedInOperator } from "~/testing/ops";
import { startTestExchange, type TestExchange } from "~/testing/test-exchange";
import type { ProductRefusal } from "./__loans.server";
import * as loansRoute from "./loans";

/** The console's crypto loans page (issue 31, decision 051) against a real engine: who sees the products, who changes them, what is refused. */
let exchange: TestExchange;
let markets: SignedInOperator;
let support: SignedInOperator;
beforeAll(async () => {
  exchange = await startTestExchange();
  markets = await signInOperator(exchange, { email: "loans@ops.example", role: "markets", name: "Lou Loans" });
  support = await signInOperator(exchange, { email: "support-l@ops.example", role: "support" });
});
afterAll(() => exchange?.close());

const PAGE = "/ops/loans";
type Product = {
  productId: string;
  hourlyRate: string;
  overdueHourlyRate: string;
  initialLtv: string;
  callLtv: string;
  liquidationLtv: string;
  minAmount: string;
  maxAmount: string;
  enabled: boolean;
};
const form = (p: Product, changed: Record<string, string> = {}) => ({
  productId: p.productId,
  hourlyRate: p.hourlyRate,
  overdueRate: p.overdueHourlyRate,
  initialLtv: p.initialLtv,
  callLtv: p.callLtv,
  liquidationLtv: p.liquidationLtv,
  minAmount: p.minAmount,
  maxAmount: p.maxAmount,
  ...(p.enabled ? { enabled: "on" } : {}),
  ...changed,
});
const product = async (id: string) => (await exchange.api.data(endpoints.opsPledgeProducts, {}, exchange.operator)).find((p) => p.productId === id)!;

describe("the console's crypto loans page", () => {
  it("lists the products to a markets operator, changes one's rate and LTVs and disables it, audited", async () => {
    const page = (await markets.browser.get(loansRoute.loader, PAGE)).data as { products: Product[]; mayChange: boolean };
    expect(page.mayChange).toBe(true);
    expect(page.products).toHaveLength(15);
    const sol = page.products.find((p) => p.productId === "USDT-SOL-90")!;
    expect(sol).toMatchObject({ hourlyRate: "0.000008", initialLtv: "0.5", callLtv: "0.7", liquidationLtv: "0.83", enabled: true });
    const post = (fields: Record<string, string>) => markets.browser.post(loansRoute.action, PAGE, fields);
    expect((await post(form(sol, { hourlyRate: "0.000009", initialLtv: "0.55" }))).status).toBe(302);
    expect(await markets.browser.toast()).toMatchObject({ key: "ops.loans.saved", values: { product: "USDT-SOL-90" } });
    expect(await product("USDT-SOL-90")).toMatchObject({ hourlyRate: "0.000009", initialLtv: "0.55", enabled: true });
    const { enabled: _, ...withoutEnabled } = form({ ...sol, hourlyRate: "0.000009", initialLtv: "0.55" });
    expect((await post(withoutEnabled)).status).toBe(302);
    expect(await product("USDT-SOL-90")).toMatchObject({ enabled: false });
    const audit = await exchange.api.data(endpoints.opsAudit, { query: { target: "pledge-product:USDT-SOL-90" } }, exchange.operator);
    expect(audit.rows).toHaveLength(2);

    // Refused, nothing changed: LTVs out of order (the engine), a rate above 1 % an hour, a typing error, no change at all.
    const now = await product("USDT-SOL-90");
    const refusal = async (fields: Record<string, string>) => ((await post(fields)).data as { refusal: ProductRefusal }).refusal;
    expect((await refusal(form(now, { callLtv: "0.5" }))).error).toBeTruthy();
    expect((await refusal(form(now, { overdueRate: "0.02" }))).fields).toEqual({ overdueRate: "ops.margin.rate_range" });
    expect((await refusal(form(now, { maxAmount: "12x" }))).fields?.maxAmount).toMatch(/^validation\.number\./);
    expect((await refusal(form(now))).error).toMatch(/ops\.errors\.no_change/);
    expect(await product("USDT-SOL-90")).toMatchObject({ callLtv: "0.7", hourlyRate: "0.000009" });
  });

  it("refuses a change by a role without markets.change, and changes nothing", async () => {
    const btc = await product("USDT-BTC-0");
    const answer = await support.browser.post(loansRoute.action, PAGE, form(btc, { hourlyRate: "0.001" }));
    expect([403, 302]).toContain(answer.status);
    expect(await product("USDT-BTC-0")).toMatchObject({ hourlyRate: btc.hourlyRate });
  });
});
