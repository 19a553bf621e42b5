import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import { signInOperator, type SignedInOperator } from "~/testing/ops";
import { startTestExchange, type TestExchange } from "~/testing/test-exchange";
import type { ContractRefusal } from "./__contracts.server";
import * as contractsRoute from "./contracts";

/** The console's contracts page (issue 30) against a real engine: who sees, who halts and changes rules, what is refused. */
let exchange: TestExchange;
let markets: SignedInOperator;
let support: SignedInOperator;
beforeAll(async () => {
  exchange = await startTestExchange();
  markets = await signInOperator(exchange, { email: "contracts@ops.example", role: "markets", name: "Carl Contracts" });
  support = await signInOperator(exchange, { email: "support-c@ops.example", role: "support" });
});
afterAll(() => exchange?.close());

const PAGE = "/ops/contracts";
type Row = { info: { symbolName: string; halted: boolean; takerFeeRate: string; maxQty: string; priceBand: string }; shown: Record<string, string> };
type Page = { contracts: Row[]; mayChange: boolean };
const contract = async (symbol: string) =>
  (await exchange.api.data(endpoints.opsContracts, {}, exchange.operator)).find((c) => c.info.symbolName === symbol)!.info;
const auditRows = (target: string) => exchange.api.data(endpoints.opsAudit, { query: { target } }, exchange.operator).then((p) => p.rows);
const rulesForm = (shown: Record<string, string>, symbol: string, changed: Record<string, string> = {}) => ({
  intent: "rules",
  symbol,
  ...shown,
  ...Object.fromEntries(Object.entries(shown).map(([k, v]) => [`shown.${k}`, v])),
  ...changed,
});

describe("the contracts page", () => {
  it("lists every contract with its rules in the form's units to a markets operator", async () => {
    const page = await markets.browser.get(contractsRoute.loader, PAGE);
    expect(page.status).toBe(200);
    const { contracts, mayChange } = page.data as Page;
    expect(mayChange).toBe(true);
    expect(contracts.map((c) => c.info.symbolName)).toEqual(["BTC/USDT", "ETH/USDT", "SOL/USDT", "XRP/USDT", "BTC/USD", "ETH/USD"]);
    expect(contracts[0]!.shown).toEqual({ makerFeeBps: "2", takerFeeBps: "5", minQty: "1", maxQty: "100000", priceBandPercent: "5" });
  });

  it("halts and resumes a contract, changes its taker fee and band, each audited; bad rules change nothing", async () => {
    const post = (form: Record<string, string>) => markets.browser.post(contractsRoute.action, PAGE, form);
    expect((await post({ intent: "halt", symbol: "ETH/USDT" })).status).toBe(302);
    expect(await markets.browser.toast()).toMatchObject({ key: "ops.contracts.halted_done", values: { symbol: "ETH/USDT" } });
    expect((await contract("ETH/USDT")).halted).toBe(true);
    const again = await post({ intent: "halt", symbol: "ETH/USDT" });
    expect((again.data as { refusal: ContractRefusal }).refusal).toMatchObject({ error: "ops.errors.halted_already" });
    expect((await post({ intent: "resume", symbol: "ETH/USDT" })).status).toBe(302);
    await markets.browser.toast();
    expect((await contract("ETH/USDT")).halted).toBe(false);

    const page = (await markets.browser.get(contractsRoute.loader, PAGE)).data as Page;
    const sol = page.contracts.find((c) => c.info.symbolName === "SOL/USDT")!;
    const changed = await post(rulesForm(sol.shown, "SOL/USDT", { takerFeeBps: "7", priceBandPercent: "2.5" }));
    expect(changed.status).toBe(302);
    expect(await markets.browser.toast()).toMatchObject({ key: "ops.contracts.rules_done", values: { symbol: "SOL/USDT" } });
    expect(await contract("SOL/USDT")).toMatchObject({ takerFeeRate: "0.0007", priceBand: "0.025", maxQty: sol.info.maxQty });
    const rows = await auditRows("contract:SOL/USDT");
    expect(rows[0]).toMatchObject({ operator: "Carl Contracts", via: "console" });

    const before = await exchange.api.data(endpoints.opsContracts, {}, exchange.operator);
    const cases: Array<[Record<string, string>, Partial<ContractRefusal>]> = [
      [rulesForm(sol.shown, "SOL/USDT", { takerFeeBps: "1001" }), { fields: { takerFeeBps: "ops.errors.fee_bps" } }],
      [rulesForm(sol.shown, "SOL/USDT", { priceBandPercent: "60" }), { fields: { priceBandPercent: "ops.contracts.band_range" } }],
      [rulesForm(sol.shown, "SOL/USDT", { priceBandPercent: "1,5" }), { fields: { priceBandPercent: "validation.number.wrong_mark" } }],
      [rulesForm(sol.shown, "SOL/USDT", { minQty: "10", maxQty: "5" }), { fields: { maxQty: "ops.contracts.qty_order" } }],
      [rulesForm(sol.shown, "SOL/USDT", { maxQty: "2.5" }), { fields: { maxQty: "ops.contracts.qty_range" } }],
      [{ intent: "rules", symbol: "NOPE/USDT" }, { error: "ops.errors.market" }],
      [{ intent: "explode", symbol: "SOL/USDT" }, { error: "ops.errors.invalid" }],
    ];
    for (const [form, refusal] of cases) {
      const answer = await post(form);
      expect(answer.status, JSON.stringify(form)).toBe(400);
      expect((answer.data as { refusal: ContractRefusal }).refusal).toMatchObject(refusal);
    }
    expect(await exchange.api.data(endpoints.opsContracts, {}, exchange.operator)).toEqual(before);
  });

  it("shows each settlement coin's insurance fund, fees and deficit; refuses a move of fees it cannot make, with the reason", async () => {
    const page = (await markets.browser.get(contractsRoute.loader, PAGE)).data as {
      funds: Array<{ coin: string; insurance: string; fees: string; deficit: string; key: string }>;
    };
    expect(page.funds.map((f) => f.coin)).toEqual(["BTC", "ETH", "USDT"]);
    const usdt = page.funds.find((f) => f.coin === "USDT")!;
    expect(usdt.key).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    const post = (form: Record<string, string>) =>
      markets.browser.post(contractsRoute.action, PAGE, { intent: "insure", coin: "USDT", idempotencyKey: usdt.key, ...form });
    const typed = await post({ amount: "abc" });
    expect(typed.status).toBe(400);
    expect((typed.data as { refusal: ContractRefusal }).refusal).toMatchObject({
      symbol: "USDT",
      intent: "insure",
      error: expect.stringMatching(/^validation\.number\./),
    });
    expect((await post({ amount: "0" })).data).toMatchObject({ refusal: { error: "validation.number.zero" } });
    // More than the fees collected: the engine's reason on the row.
    const short = await post({ amount: "1000000000" });
    expect(short.status).toBe(400);
    expect((short.data as { refusal: ContractRefusal }).refusal).toMatchObject({ symbol: "USDT", intent: "insure" });
    expect((short.data as { refusal: ContractRefusal }).refusal.error).toMatch(/fees/i);
    expect((await markets.browser.post(contractsRoute.action, PAGE, { intent: "insure", coin: "DOGE", amount: "1", idempotencyKey: usdt.key })).status).toBe(
      400,
    );
    expect((await support.browser.post(contractsRoute.action, PAGE, { intent: "insure", coin: "USDT", amount: "1", idempotencyKey: usdt.key })).status).toBe(
      403,
    );
    expect((await exchange.api.data(endpoints.opsContractFunds, {}, exchange.operator)).find((f) => f.coin === "USDT")!.insurance).toBe(usdt.insurance);
  });

  it("refuses a change by a role without markets.change", async () => {
    const answer = await support.browser.post(contractsRoute.action, PAGE, { intent: "halt", symbol: "BTC/USDT" });
    expect([403, 302]).toContain(answer.status);
    expect((await contract("BTC/USDT")).halted).toBe(false);
  });
});
