import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import type { OpsMarket } from "#protocol/endpoints/spot";
import { signInOperator, type SignedInOperator } from "~/testing/ops";
import { sourceRequestHandler } from "~/testing/request-handler";
import { startTestExchange, type TestExchange } from "~/testing/test-exchange";
import { languageCookie } from "~/services/platform/preferences.server";
import type { MarketRefusal } from "./__markets.server";
import * as marketsRoute from "./markets";

/** The console's markets page (issue 29, decision 043) against a real engine: who sees, who halts and changes rules, what is refused. */
let exchange: TestExchange;
let markets: SignedInOperator;
let finance: SignedInOperator;
let support: SignedInOperator;
beforeAll(async () => {
  exchange = await startTestExchange();
  markets = await signInOperator(exchange, { email: "markets@ops.example", role: "markets", name: "Mia Markets" });
  finance = await signInOperator(exchange, { email: "finance@ops.example", role: "finance" });
  support = await signInOperator(exchange, { email: "support@ops.example", role: "support" });
  // A market whose lot is not its amount's smallest unit: a minimum must be a whole number of lots.
  await exchange.api.data(
    endpoints.adminMarketAdd,
    {
      body: {
        symbol: "LINK_USDT",
        priceScale: 3,
        amountScale: 2,
        tickSize: "0.001",
        lotSize: "0.05",
        minQuantity: "0.1",
        makerFeeBps: 10,
        takerFeeBps: 10,
        baseScale: 8,
        baseName: "Chainlink",
      },
    },
    exchange.operator,
  );
});
afterAll(() => exchange?.close());

const PAGE = "/ops/markets";
type Page = { markets: OpsMarket[]; mayChange: boolean; mark: string };
const listed = () => exchange.api.data(endpoints.opsMarkets, {}, exchange.operator);
const market = async (symbol: string) => (await listed()).find((one) => one.symbol === symbol)!;
const auditRows = (query: { action?: string; target?: string } = {}) => exchange.api.data(endpoints.opsAudit, { query }, exchange.operator).then((p) => p.rows);
/** The rules form of a market as the page shows it, with some fields changed. */
const rulesForm = (shown: OpsMarket, changed: Record<string, string> = {}) => ({
  intent: "rules",
  symbol: shown.symbol,
  minQuantity: shown.minQuantity,
  makerFeeBps: String(shown.makerFeeBps),
  takerFeeBps: String(shown.takerFeeBps),
  "shown.minQuantity": shown.minQuantity,
  "shown.makerFeeBps": String(shown.makerFeeBps),
  "shown.takerFeeBps": String(shown.takerFeeBps),
  ...changed,
});

describe("the markets page", () => {
  it("lists every spot market with its rules as exact decimals to a markets operator, who may change them", async () => {
    const page = await markets.browser.get(marketsRoute.loader, PAGE);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    const { markets: rows, mayChange, mark } = page.data as Page;
    expect(mayChange).toBe(true);
    expect(mark).toBe(".");
    expect(rows.map((row) => row.symbol)).toEqual(["BTC/USDT", "ETH/USDT", "SOL/USDT", "XRP/USDT", "DOGE/USDT", "TRX/USDT", "LINK/USDT"]);
    expect(rows[0]).toMatchObject({
      base: "BTC",
      quote: "USDT",
      priceScale: 2,
      amountScale: 6,
      tickSize: "0.01",
      lotSize: "0.000001",
      minQuantity: "0.00001",
      halted: false,
    });
    expect(rows.find((row) => row.symbol === "DOGE/USDT")).toMatchObject({ amountScale: 0, tickSize: "0.00001", lotSize: "1", minQuantity: "10" });
  });

  it("halts and resumes a market with a toast each, and the audit log has both rows with the operator", async () => {
    const post = async (intent: string, key: string) => {
      const answer = await markets.browser.post(marketsRoute.action, PAGE, { intent, symbol: "BTC/USDT" });
      expect(answer.status).toBe(302);
      expect(answer.location).toBe(PAGE);
      expect(answer.headers.get("cache-control")).toBe("no-store");
      expect(await markets.browser.toast()).toMatchObject({ type: "success", key, values: { symbol: "BTC/USDT" } });
    };
    await post("halt", "ops.markets.halted_done");
    expect(await market("BTC/USDT")).toMatchObject({ halted: true });
    const page = await markets.browser.get(marketsRoute.loader, PAGE);
    expect((page.data as Page).markets[0]).toMatchObject({ symbol: "BTC/USDT", halted: true });
    // Halted already (a second tab): said, and no row of a change that changed nothing.
    const again = await markets.browser.post(marketsRoute.action, PAGE, { intent: "halt", symbol: "BTC/USDT" });
    expect(again.status).toBe(400);
    expect((again.data as { refusal: MarketRefusal }).refusal).toMatchObject({ symbol: "BTC/USDT", intent: "halt", error: "ops.errors.halted_already" });
    await post("resume", "ops.markets.resumed_done");
    expect(await market("BTC/USDT")).toMatchObject({ halted: false });
    const rows = await auditRows({ action: "market.halt", target: "market:BTC/USDT" });
    expect(rows.slice(0, 2)).toMatchObject([
      { operator: "Mia Markets", role: "markets", via: "console", before: { halted: true }, after: { halted: false } },
      { operator: "Mia Markets", role: "markets", via: "console", before: { halted: false }, after: { halted: true } },
    ]);
    expect(rows).toHaveLength(2);
  });

  it("changes a market's taker fee, sending only the rule that changed", async () => {
    const before = await market("ETH/USDT");
    const taker = before.takerFeeBps === 25 ? 26 : 25;
    const answer = await markets.browser.post(marketsRoute.action, PAGE, rulesForm(before, { takerFeeBps: ` ${taker} ` }));
    expect(answer.status).toBe(302);
    expect(answer.location).toBe(PAGE);
    expect(await markets.browser.toast()).toMatchObject({ type: "success", key: "ops.markets.rules_done", values: { symbol: "ETH/USDT" } });
    expect(await market("ETH/USDT")).toEqual({ ...before, takerFeeBps: taker });
    const [row] = await auditRows({ action: "market.update", target: "market:ETH/USDT" });
    expect(row).toMatchObject({ operator: "Mia Markets", role: "markets", after: { takerFeeBps: taker } });
    expect(row!.after).toEqual({ symbol: "ETH/USDT", takerFeeBps: taker });
  });

  it("does not set back a rule another operator changed after the page was shown", async () => {
    const shown = await market("SOL/USDT");
    await exchange.api.data(endpoints.adminMarketUpdate, { body: { symbol: "SOL_USDT", makerFeeBps: shown.makerFeeBps + 1 } }, exchange.operator);
    // The page still shows the old maker fee; the operator changes only the minimum.
    const answer = await markets.browser.post(marketsRoute.action, PAGE, rulesForm(shown, { minQuantity: "0.02" }));
    expect(answer.status).toBe(302);
    await markets.browser.toast();
    expect(await market("SOL/USDT")).toMatchObject({ minQuantity: "0.02", makerFeeBps: shown.makerFeeBps + 1, takerFeeBps: shown.takerFeeBps });
  });

  it("answers bad rules and forged posts with a translated message beside the field, and changes nothing", async () => {
    const btc = await market("BTC/USDT");
    const link = await market("LINK/USDT");
    const beforeMarkets = await listed();
    const beforeAudit = (await auditRows()).length;
    const cases: Array<[Record<string, string>, Partial<MarketRefusal>]> = [
      [rulesForm(btc, { minQuantity: "0.0000001" }), { symbol: "BTC/USDT", fields: { minQuantity: "validation.number.decimals" } }],
      [rulesForm(btc, { minQuantity: "1e-5" }), { fields: { minQuantity: "validation.number.invalid" } }],
      [rulesForm(btc, { minQuantity: "0,0001" }), { fields: { minQuantity: "validation.number.wrong_mark" } }],
      [rulesForm(btc, { minQuantity: "-0.001" }), { fields: { minQuantity: "validation.number.negative" } }],
      [rulesForm(btc, { minQuantity: "0" }), { fields: { minQuantity: "validation.number.zero" } }],
      [rulesForm(btc, { minQuantity: "" }), { fields: { minQuantity: "ops.errors.value_required" } }],
      [
        rulesForm(link, { minQuantity: "0.12" }),
        { symbol: "LINK/USDT", fields: { minQuantity: 'key:{"key":"ops.errors.lots","values":{"lot":"0.05","coin":"LINK"}}' } },
      ],
      [rulesForm(btc, { makerFeeBps: "-5" }), { fields: { makerFeeBps: "validation.number.negative" } }],
      [rulesForm(btc, { takerFeeBps: "1001", makerFeeBps: "2.5" }), { fields: { makerFeeBps: "ops.errors.fee_bps", takerFeeBps: "ops.errors.fee_bps" } }],
      [rulesForm(btc), { symbol: "BTC/USDT", error: "ops.errors.no_change" }],
      [rulesForm({ ...btc, symbol: "NOPE/USDT" }, { takerFeeBps: "1" }), { symbol: null, error: "ops.errors.market" }],
      [
        { intent: "halt", symbol: "BTC_USDT' OR 1=1" },
        { symbol: null, error: "ops.errors.market" },
      ],
      [{ intent: "halt" }, { symbol: null, error: "ops.errors.market" }],
      [
        { intent: "delete", symbol: "BTC/USDT" },
        { symbol: null, error: "ops.errors.invalid" },
      ],
      [{}, { symbol: null, error: "ops.errors.invalid" }],
    ];
    for (const [form, refusal] of cases) {
      const answer = await markets.browser.post(marketsRoute.action, PAGE, form);
      expect([form, answer.status]).toEqual([form, 400]);
      expect([form, (answer.data as { refusal: MarketRefusal }).refusal]).toEqual([form, expect.objectContaining(refusal)]);
    }
    // A refused form comes back as it was typed.
    const typed = await markets.browser.post(marketsRoute.action, PAGE, rulesForm(btc, { makerFeeBps: "-5", minQuantity: "0.00002" }));
    expect((typed.data as { refusal: MarketRefusal }).refusal.values).toEqual({
      minQuantity: "0.00002",
      makerFeeBps: "-5",
      takerFeeBps: String(btc.takerFeeBps),
    });
    expect(await listed()).toEqual(beforeMarkets);
    expect(await auditRows()).toHaveLength(beforeAudit);
  });

  it("reads a minimum in the operator's language: a German operator writes a decimal comma", async () => {
    const xrp = await market("XRP/USDT");
    // The language is the `lang` cookie's (the language menu's).
    const german = (await languageCookie.serialize("de")).split(";")[0]!;
    const request = (body: Record<string, string>) =>
      new Request(`http://localhost${PAGE}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: `${markets.browser.cookieHeader()}; ${german}` },
        body: new URLSearchParams(body),
      });
    const refused = (await marketsRoute.action({ request: request(rulesForm(xrp, { minQuantity: "1.5" })), params: {}, context: {} })) as unknown as {
      data: { refusal: MarketRefusal };
      init: ResponseInit;
    };
    expect(refused.init.status).toBe(400);
    expect(refused.data.refusal.fields).toEqual({ minQuantity: "validation.number.wrong_mark" });
    expect(await market("XRP/USDT")).toEqual(xrp);
    const done = (await marketsRoute.action({ request: request(rulesForm(xrp, { minQuantity: "1,5" })), params: {}, context: {} })) as Response;
    expect(done.status).toBe(302);
    expect(await market("XRP/USDT")).toMatchObject({ minQuantity: "1.5" });
  });

  it("shows a finance operator the table without the forms, and refuses their forged halt", async () => {
    const page = await finance.browser.get(marketsRoute.loader, PAGE);
    expect(page.status).toBe(200);
    expect((page.data as Page).mayChange).toBe(false);
    expect((page.data as Page).markets).toHaveLength(7);
    const forged = await finance.browser.post(marketsRoute.action, PAGE, { intent: "halt", symbol: "BTC/USDT" });
    expect(forged.status).toBe(403);
    expect((forged.data as { refusal: MarketRefusal }).refusal.error).toBe("ops.errors.role_denied");
    expect(await market("BTC/USDT")).toMatchObject({ halted: false });
  });

  it("is a 403 for a support operator, the page and its action alike", async () => {
    expect(await support.browser.get(marketsRoute.loader, PAGE)).toMatchObject({ status: 403, thrown: true });
    expect(await support.browser.post(marketsRoute.action, PAGE, { intent: "halt", symbol: "BTC/USDT" })).toMatchObject({ status: 403, thrown: true });
    expect(await market("BTC/USDT")).toMatchObject({ halted: false });
  });

  it("answers data requests and bad posts through Remix without a 5xx, and changes nothing", async () => {
    const handle = await sourceRequestHandler();
    const before = await listed();
    const send = (url: string, init: RequestInit = {}) =>
      handle(new Request(`http://localhost${url}`, { ...init, headers: { "accept-language": "en", cookie: markets.browser.cookieHeader(), ...init.headers } }));
    const form = (body: Record<string, string>) => ({
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(body),
    });
    const answers = [
      await send(`${PAGE}?_data=${encodeURIComponent("routes/ops+/markets")}`),
      await send(`${PAGE}.data`),
      await send(
        `${PAGE}?_data=${encodeURIComponent("routes/ops+/markets")}`,
        form({ intent: "rules", symbol: "BTC/USDT", minQuantity: "x", makerFeeBps: "-1" }),
      ),
      await send(`${PAGE}.data`, form({ intent: "halt", symbol: "NOPE/USDT" })),
      await send(`${PAGE}.data`, { method: "POST", headers: { "content-type": "multipart/form-data; boundary=x" }, body: "not a form" }),
    ];
    for (const answer of answers) expect(answer.status).toBeLessThan(500);
    expect(await listed()).toEqual(before);
  });
});
