import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import { readFormError } from "~/lib/forms/form-error";
import { Browser } from "~/testing/route-call";
import { startTestExchange, TEST_PASSWORD, type TestExchange } from "~/testing/test-exchange";
import * as marketRoute from "../pledge-loan";
import * as historyRoute from "../borrowings+/_index";
import * as recordsRoute from "../borrowings+/records";
import * as borrowRoute from "./get";
import * as loansRoute from "./_index";

/** The crypto loan pages (issue 31, decision 051) against a real engine, as a browser without JavaScript posts their forms. */
let exchange: TestExchange;
beforeAll(async () => {
  exchange = await startTestExchange();
  // BTC trades at 50 000 between two members: the collateral's price.
  const [seller, buyer] = [new Browser(), new Browser()];
  for (const [browser, email, coin, amount] of [
    [seller, "loan-seller@example.com", "BTC", "1"],
    [buyer, "loan-buyer@example.com", "USDT", "100000"],
  ] as const) {
    const uid = await exchange.register(email);
    await exchange.deposit(uid, coin, amount);
    await browser.logIn(email, TEST_PASSWORD);
  }
  const order = (browser: Browser, direction: "buy" | "sell", key: string) =>
    exchange.as(browser).then((caller) =>
      exchange.api.data(
        endpoints.placeOrder,
        {
          params: { type: "1" },
          body: { symbol: "BTC_USDT", direction, price: "50000", num: "0.001", tif: direction === "buy" ? "IOC" : "GTC", idempotencyKey: key },
        },
        caller,
      ),
    );
  await order(seller, "sell", "loan-route-sell");
  await order(buyer, "buy", "loan-route-buy");
});
afterAll(() => exchange?.close());

async function borrower() {
  const email = `borrower-${Math.random().toString(36).slice(2)}@example.com`;
  const uid = await exchange.register(email);
  await exchange.api.data(endpoints.adminDeposit, { body: { uid, coin: "BTC", account: "funding", amount: "1", reference: `lb-${uid}` } }, exchange.operator);
  const browser = new Browser();
  await browser.logIn(email, TEST_PASSWORD);
  return Object.assign(browser, { uid });
}

interface Market {
  coins: string[];
  coin: string;
  products: Array<{ productId: string; termDays: number }>;
  chosen: { productId: string } | null;
  quote: Record<string, string | null> | null;
  errors: Record<string, string[]> | null;
}
interface Loans {
  loans: Array<{ loanId: string; owed: string; collateral: string; ltv: string; key: string; removable: string }>;
  closed: { status: string } | null;
}
interface Reply {
  loanId?: string;
  key: string;
  result: { error?: Record<string, string[] | null> | null };
}

describe("the crypto loan pages", () => {
  it("show anyone the products of a collateral coin and answer the calculator, a figure that is not a number on its field", async () => {
    const visitor = new Browser();
    const first = (await visitor.get(marketRoute.loader, "/pledge-loan")).data as Market;
    expect(first).toMatchObject({ coins: ["BTC", "ETH", "SOL"], coin: "BTC", chosen: { productId: "USDT-BTC-0" }, quote: null });
    expect(first.products.map((p) => p.termDays)).toEqual([0, 7, 30, 90, 180]);
    const quoted = (await visitor.get(marketRoute.loader, "/pledge-loan?coin=BTC&product=USDT-BTC-30&collateral=1&amount=20000")).data as Market;
    expect(quoted.quote).toMatchObject({ maxAmount: "32500", ltv: "0.4", liquidationPrice: "22222.23" });
    const eth = (await visitor.get(marketRoute.loader, "/pledge-loan?coin=ETH")).data as Market;
    expect(eth).toMatchObject({ coin: "ETH", chosen: { productId: "USDT-ETH-0" } });
    const bad = (await visitor.get(marketRoute.loader, "/pledge-loan?collateral=abc")).data as Market;
    expect(bad).toMatchObject({ quote: null, errors: { collateral: ["validation.number.invalid"] } });
  });

  it("takes a loan once per key, refuses one above the initial LTV on the form, and shows it on /my-loan", async () => {
    const browser = await borrower();
    const page = (await browser.get(borrowRoute.loader, "/my-loan/get?product=USDT-BTC-7&collateral=0.5")).data as {
      chosen: string;
      key: string;
      values: object;
    };
    expect(page).toMatchObject({ chosen: "USDT-BTC-7", values: { collateral: "0.5" } });
    const tooMuch = await browser.post(borrowRoute.action, "/my-loan/get", {
      productId: "USDT-BTC-7",
      collateral: "0.5",
      amount: "20000",
      idempotencyKey: page.key,
    });
    expect(tooMuch.status).toBe(400);
    expect((tooMuch.data as Reply).result.error?.[""]?.map(readFormError)).toEqual([
      { text: "That is above the initial LTV of 65 %: with this collateral you can borrow at most 16250 USDT." },
    ]);
    const key = (tooMuch.data as Reply).key;
    const form = { productId: "USDT-BTC-7", collateral: "0.5", amount: "10000", idempotencyKey: key };
    const taken = await browser.post(borrowRoute.action, "/my-loan/get", form);
    expect(taken.status).toBe(302);
    expect(taken.location).toMatch(/^\/my-loan\?loan=L/);
    expect(await browser.toast()).toMatchObject({ type: "success", key: "loans.borrowed" });
    // The same post again (a retry) takes no second loan.
    await browser.post(borrowRoute.action, "/my-loan/get", form);
    const mine = (await browser.get(loansRoute.loader, taken.location!)).data as Loans;
    expect(mine.loans).toHaveLength(1);
    expect(mine.loans[0]).toMatchObject({ owed: "10000.095", collateral: "0.5", ltv: "0.4001" });
    // Not a number: refused on its field, nothing taken.
    const typo = await browser.post(borrowRoute.action, "/my-loan/get", {
      productId: "USDT-BTC-7",
      collateral: "0,5x",
      amount: "100",
      idempotencyKey: "typo-key-0001",
    });
    expect(typo.status).toBe(400);
    expect(((await browser.get(loansRoute.loader, "/my-loan")).data as Loans).loans).toHaveLength(1);
  });

  it("repays in part and in full, adds and takes back collateral within the LTV, and keeps the history and records", async () => {
    const browser = await borrower();
    const page = (await browser.get(borrowRoute.loader, "/my-loan/get")).data as { key: string };
    await browser.post(borrowRoute.action, "/my-loan/get", { productId: "USDT-BTC-0", collateral: "0.4", amount: "5000", idempotencyKey: page.key });
    let loan = ((await browser.get(loansRoute.loader, "/my-loan")).data as Loans).loans[0]!;
    const post = (fields: Record<string, string>) => browser.post(loansRoute.action, "/my-loan", { loanId: loan.loanId, idempotencyKey: loan.key, ...fields });

    const tooFar = await post({ operation: "remove", amount: "0.3" });
    expect(tooFar.status).toBe(400);
    expect((tooFar.data as Reply).result.error?.[""]?.map(readFormError)[0]).toMatchObject({
      text: expect.stringMatching(/^That would take the loan above its initial LTV of 65 %/),
    });
    loan = ((await browser.get(loansRoute.loader, "/my-loan")).data as Loans).loans[0]!;
    expect((await post({ operation: "add", amount: "0.1" })).status).toBe(302);
    loan = ((await browser.get(loansRoute.loader, "/my-loan")).data as Loans).loans[0]!;
    expect(loan.collateral).toBe("0.5");
    expect((await post({ operation: "repay", amount: "1000" })).status).toBe(302);
    expect(await browser.toast()).toMatchObject({ key: "loans.done_repay" });
    loan = ((await browser.get(loansRoute.loader, "/my-loan")).data as Loans).loans[0]!;
    expect(loan.owed).toBe("4000.057");
    // The member holds only 4 000 of the loan: a deposit covers the interest, then the rest closes it.
    const uid = browser.uid;
    await exchange.api.data(
      endpoints.adminDeposit,
      { body: { uid, coin: "USDT", account: "funding", amount: "1", reference: `lb-usdt-${uid}` } },
      exchange.operator,
    );
    const last = await post({ operation: "repay", amount: loan.owed });
    expect(last).toMatchObject({ status: 302, location: "/my-loan" });
    expect(await browser.toast()).toMatchObject({ key: "loans.done_closed" });
    expect(((await browser.get(loansRoute.loader, "/my-loan")).data as Loans).loans).toEqual([]);
    const history = (await browser.get(historyRoute.loader, "/borrowings")).data as { page: { records: Array<{ loanId: string; status: string }> } };
    expect(history.page.records).toMatchObject([{ loanId: loan.loanId, status: "repaid" }]);
    const records = (await browser.get(recordsRoute.loader, `/borrowings/records?loan=${loan.loanId}`)).data as { page: { records: Array<{ kind: string }> } };
    expect(records.page.records.map((r) => r.kind)).toEqual(["repay", "repay", "add", "interest", "add", "borrow"]);
    // A closed loan asked for says so.
    expect(((await browser.get(loansRoute.loader, `/my-loan?loan=${loan.loanId}`)).data as Loans).closed).toMatchObject({ status: "repaid" });
  });

  it("keeps members apart: another member's loan cannot be repaid or changed", async () => {
    const alice = await borrower();
    const page = (await alice.get(borrowRoute.loader, "/my-loan/get")).data as { key: string };
    await alice.post(borrowRoute.action, "/my-loan/get", { productId: "USDT-BTC-0", collateral: "0.2", amount: "1000", idempotencyKey: page.key });
    const loan = ((await alice.get(loansRoute.loader, "/my-loan")).data as Loans).loans[0]!;
    const bob = await borrower();
    const tried = await bob.post(loansRoute.action, "/my-loan", { loanId: loan.loanId, operation: "repay", amount: "1", idempotencyKey: "bob-key-00001" });
    expect(tried.status).toBe(400);
    expect(((await alice.get(loansRoute.loader, "/my-loan")).data as Loans).loans[0]!.owed).toBe(loan.owed);
    expect((await new Browser().get(loansRoute.loader, "/my-loan")).status).toBe(302);
  });
});
