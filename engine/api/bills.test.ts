import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { endpoints } from "../../protocol/endpoints";
import { billEndpoints, type BillLineView } from "../../protocol/endpoints/bills";
import { buildApp } from "../app";
import { DurableCore } from "../journal/durable-core";
import { spotProduct } from "../spot/spot-product";
import { SpotService } from "../spot/spot-service";
import { withdrawalProduct } from "../wallet/withdrawal-product";
import { WithdrawalService } from "../wallet/withdrawal-service";
import { ApiClient, type Caller } from "../testing/api-client";
import { OPERATOR, registerAndLogIn, TEST_ADMIN_TOKEN } from "../testing/api-members";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { createServices } from "./context";
import { testAct } from "../testing/operator-act";

// A small export limit: alice's 12 lines are over it, bob's 4 are not.
vi.mock("../../protocol/endpoints/order-history", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../protocol/endpoints/order-history")>()),
  EXPORT_MAX_ROWS: 8,
}));

const DAY = 86_400_000;
const DAY1 = Date.UTC(2026, 0, 10, 12, 0, 0);

/** Exact sum of decimal strings (18 places). */
function sum(values: string[]): string {
  const scale = 10n ** 18n;
  const units = values.reduce((acc, v) => {
    const negative = v.startsWith("-");
    const [whole = "0", frac = ""] = v.replace("-", "").split(".");
    const n = BigInt(whole) * scale + BigInt((frac + "0".repeat(18)).slice(0, 18));
    return acc + (negative ? -n : n);
  }, 0n);
  const abs = units < 0n ? -units : units;
  const frac = (abs % scale).toString().padStart(18, "0").replace(/0+$/, "");
  return `${units < 0n ? "-" : ""}${abs / scale}${frac ? `.${frac}` : ""}`;
}

describe.each(testStoreKinds())("bills API on %s", (kind) => {
  let store: TestStore;
  let app: FastifyInstance;
  let clock = DAY1;
  let spot: SpotService;
  let withdrawals: WithdrawalService;
  let client: ApiClient;
  const members: Record<string, { token: string; uid: string; id: string }> = {};
  const ids: Record<string, string> = {};
  const as = (name: string | null): Caller => (name ? { token: members[name]!.token } : {});
  const bills = (name: string, query: Record<string, string> = {}) => client.data(endpoints.myBills, { query }, as(name));
  const exportCsv = (name: string | null, body: object, lang?: string) => client.send(endpoints.exportMyBill, { body }, { ...as(name), lang });
  const tick = () => (clock += 1000);

  beforeAll(async () => {
    store = await openTestStore(kind);
    await sql`insert into market_symbol (symbol_name, coin_symbol, quote_symbol, price_scale, amount_scale) values
      ('BTC/USDT', 'BTC', 'USDT', 2, 6)`.execute(store.db);
    const durable = await DurableCore.start({
      db: store.db,
      products: [spotProduct, withdrawalProduct],
      onFatal: (e) => {
        throw e;
      },
      now: () => clock,
    });
    spot = new SpotService(durable);
    withdrawals = new WithdrawalService(durable);
    app = await buildApp({
      store,
      apiHead: "mjkj-web",
      spot,
      withdrawals,
      services: createServices({ devMailbox: true, siteName: async () => "Meridian", adminToken: TEST_ADMIN_TOKEN }),
    });
    await app.ready();
    client = new ApiClient(app);
    for (const name of ["alice", "bob", "carol"]) {
      const { uid, token } = await registerAndLogIn(app, `${name}-bills-${kind}@example.com`, `device-${name}`);
      const row = await store.db.selectFrom("member").select("id").where("uid", "=", uid).executeTakeFirstOrThrow();
      members[name] = { token, uid, id: String(row.id) };
    }
    const deposit = async (name: string, coin: string, account: "funding" | "spot", amount: string, reference: string) => {
      const res = await client.call(endpoints.adminDeposit, { body: { uid: members[name]!.uid, coin, account, amount, reference } }, OPERATOR);
      expect(res.code).toBe(200);
    };
    const place = async (name: string, key: string, payload: object) => {
      const answer = await client.callUnchecked(
        endpoints.placeOrder,
        { params: { type: "1" }, body: { ...payload, idempotencyKey: `${name}-${key}-bill` } },
        as(name),
      );
      expect(answer.code, answer.msg).toBe(200);
      ids[key] = answer.data!.orderId;
    };
    // Day 1: alice's deposit to funding, her move of part of it to spot, and a buy from bob (she takes: 20 bps).
    await deposit("alice", "USDT", "funding", "10000", "bl-alice-usdt");
    await deposit("bob", "BTC", "spot", "1", "bl-bob-btc");
    await deposit("carol", "USDT", "spot", "10000", "bl-carol-usdt");
    tick();
    const moved = await client.call(
      endpoints.transfer,
      { query: { from: "1", to: "2", coin: "USDT", amount: "7000", idempotencyKey: "alice-move-1" } },
      as("alice"),
    );
    expect(moved.code, moved.msg).toBe(200);
    tick();
    await place("bob", "B1", { symbol: "BTC_USDT", direction: "sell", price: "60000", num: "0.1" });
    tick();
    await place("alice", "A1", { symbol: "BTC_USDT", direction: "buy", price: "60000", num: "0.1" });
    // Day 2: alice rests an ask that carol takes (alice makes: 10 bps).
    clock = DAY1 + DAY;
    await place("alice", "A2", { symbol: "BTC_USDT", direction: "sell", price: "61000", num: "0.05" });
    tick();
    await place("carol", "C1", { symbol: "BTC_USDT", direction: "buy", price: "61000", num: "0.05" });
    // Day 3: alice receives ETH on spot, and rests a bid (a hold: no line).
    clock = DAY1 + 2 * DAY;
    await deposit("alice", "ETH", "spot", "2", "bl-alice-eth");
    tick();
    await place("alice", "A3", { symbol: "BTC_USDT", direction: "buy", price: "50000", num: "0.01" });
    // Day 4: a withdrawal of 100 USDT (fee 1) paid out from funding; another one cancelled (a hold and its release: no line).
    clock = DAY1 + 3 * DAY;
    const to = { coin: "USDT", network: "TRC20", address: "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL", amount: "100", fee: "1" };
    const paid = await withdrawals.request(members.alice!.id, to, "alice-wd-1");
    const dropped = await withdrawals.request(members.alice!.id, to, "alice-wd-2");
    ids.W1 = paid.id!;
    expect(await withdrawals.cancel(members.alice!.id, dropped.id!)).toBe("OK");
    expect(await withdrawals.review(ids.W1, "approve", undefined, testAct())).toBe("OK");
    tick();
    expect(await withdrawals.broadcast(ids.W1, "0xfeed")).toBe("OK");
    expect(await withdrawals.complete(ids.W1)).toBe("OK");
  });
  afterAll(async () => {
    await spot?.durable.drain();
    await app?.close();
    await store?.dispose();
  });

  const short = (l: BillLineView) => [l.accountCode, l.account, l.coin, l.type, l.amount, l.reference];

  it("shows alice exactly her movements, newest first, with their signs, types and references", async () => {
    const page = await bills("alice");
    expect(page).toMatchObject({ total: 12, more: false, size: 20, current: 1, pages: 1 });
    expect(page.records.map(short)).toEqual([
      ["1", "funding", "USDT", "withdrawal_fee", "-1", ids.W1],
      ["1", "funding", "USDT", "withdrawal", "-100", ids.W1],
      ["2", "spot", "ETH", "deposit", "2", "bl-alice-eth"],
      ["2", "spot", "BTC", "trade", "-0.05", ids.A2],
      ["2", "spot", "USDT", "trade", "3050", ids.A2],
      ["2", "spot", "USDT", "trade_fee", "-3.05", ids.A2],
      ["2", "spot", "BTC", "trade", "0.1", ids.A1],
      ["2", "spot", "USDT", "trade", "-6000", ids.A1],
      ["2", "spot", "BTC", "trade_fee", "-0.0002", ids.A1],
      ["1", "funding", "USDT", "transfer_out", "-7000", `trans:${members.alice!.id}:alice-move-1`],
      ["2", "spot", "USDT", "transfer_in", "7000", `trans:${members.alice!.id}:alice-move-1`],
      ["1", "funding", "USDT", "deposit", "10000", "bl-alice-usdt"],
    ]);
    // Stable ids: the same page twice answers the same lines.
    expect((await bills("alice")).records.map((l) => l.id)).toEqual(page.records.map((l) => l.id));
    expect(new Set(page.records.map((l) => l.id)).size).toBe(12);
    expect(page.records[0]!.time).toBe(new Date(DAY1 + 3 * DAY + 1000).toISOString());
  });

  it("adds up, per account and coin, to each balance (available + frozen)", async () => {
    for (const name of ["alice", "bob", "carol"]) {
      const lines = (await bills(name, { pageSize: "100" })).records;
      for (const code of ["1", "2"] as const) {
        const balances = await client.data(endpoints.balances, { query: { type: code } }, as(name));
        const coins = new Set([...balances.map((b) => b.coin), ...lines.filter((l) => l.accountCode === code).map((l) => l.coin)]);
        for (const coin of coins) {
          const b = balances.find((x) => x.coin === coin);
          const expected = b ? sum([b.available, b.frozen]) : "0";
          const mine = lines.filter((l) => l.accountCode === code && l.coin === coin).map((l) => l.amount);
          expect(sum(mine), `${name} ${code} ${coin}`).toBe(expected);
        }
      }
    }
  });

  it("filters by coin, type, account and days, and pages without gaps or repeats", async () => {
    const all = (await bills("alice")).records;
    const btc = await bills("alice", { coin: "BTC" });
    expect(btc.total).toBe(3);
    expect(btc.records).toEqual(all.filter((l) => l.coin === "BTC"));
    for (const type of ["deposit", "trade", "trade_fee", "transfer_in", "transfer_out", "withdrawal", "withdrawal_fee", "other"]) {
      const page = await bills("alice", { type });
      expect(page.records, type).toEqual(all.filter((l) => l.type === type));
      expect(page.total, type).toBe(page.records.length);
    }
    const funding = await bills("alice", { account: "1" });
    expect(funding.records).toEqual(all.filter((l) => l.accountCode === "1"));
    expect(funding.total).toBe(4);
    expect((await bills("alice", { account: "4" })).records).toEqual([]);
    const usdtFees = await bills("alice", { coin: "USDT", type: "trade_fee" });
    expect(usdtFees.records.map((l) => l.amount)).toEqual(["-3.05"]);
    const day2 = await bills("alice", { from: "2026-01-11", to: "2026-01-11" });
    expect(day2.records).toEqual(all.slice(3, 6));
    expect((await bills("alice", { from: "2026-01-12" })).records).toEqual(all.slice(0, 3));
    expect((await bills("alice", { to: "2026-01-10" })).records).toEqual(all.slice(6));
    const pages = [];
    for (let p = 1; p <= 5; p++) pages.push(await bills("alice", { pageNo: String(p), pageSize: "5" }));
    expect(pages.map((p) => p.pages)).toEqual([3, 3, 3, 3, 3]);
    expect(pages.map((p) => p.records.length)).toEqual([5, 5, 2, 0, 0]);
    expect(pages.flatMap((p) => p.records)).toEqual(all);
  });

  it("shows a member none of another member's lines", async () => {
    const alice = new Set((await bills("alice")).records.map((l) => l.id));
    const bob = (await bills("bob")).records;
    expect(bob.map(short)).toEqual([
      ["2", "spot", "BTC", "trade", "-0.1", ids.B1],
      ["2", "spot", "USDT", "trade", "6000", ids.B1],
      ["2", "spot", "USDT", "trade_fee", "-6", ids.B1],
      ["2", "spot", "BTC", "deposit", "1", "bl-bob-btc"],
    ]);
    // One trade, two members: the trade's lines are told apart by whose they are.
    expect(bob.filter((l) => alice.has(l.id))).toEqual([]);
    expect((await bills("carol", { coin: "ETH" })).records).toEqual([]);
  });

  it("exports the lines as CSV in the request's language, and refuses more than the limit", async () => {
    const res = await exportCsv("bob", {}, "de");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toMatch(/^attachment; filename="bills-\d{8}\.csv"$/);
    const rows = res.body.trim().split("\r\n");
    expect(rows[0]).toBe("Zeit (UTC),Konto,Coin,Art,Betrag,Referenz,Zeilen-ID");
    expect(rows.slice(1).map((r) => r.split(",").slice(1, 6).join(","))).toEqual([
      `spot,BTC,trade,-0.1,${ids.B1}`,
      `spot,USDT,trade,6000,${ids.B1}`,
      `spot,USDT,trade_fee,-6,${ids.B1}`,
      "spot,BTC,deposit,1,bl-bob-btc",
    ]);
    const english = await exportCsv("alice", { coin: "BTC", from: "2026-01-10", to: "2026-01-11" });
    expect(english.headers["content-disposition"]).toBe('attachment; filename="bills-BTC-20260110-20260111.csv"');
    expect(english.body.split("\r\n")[0]).toBe("Time (UTC),Account,Coin,Type,Amount,Reference,Line ID");
    expect(english.body.trim().split("\r\n")).toHaveLength(4);
    const tooMany = await exportCsv("alice", {});
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({ code: 400, success: false });
    expect((await exportCsv(null, {})).statusCode).toBe(401);
    expect((await client.send(endpoints.myBills, {})).statusCode).toBe(401);
  });

  const garbage: unknown[] = [
    undefined,
    null,
    "",
    42,
    [],
    {},
    "x".repeat(70_000),
    "\u0000",
    "%00",
    "-1",
    "0",
    "3",
    "btc",
    "9999-99-99",
    { from: "2026-02-01", to: "2026-01-01" },
  ];
  it.each(Object.entries(billEndpoints))("%s never answers 5xx to malformed input", async (_name, endpoint) => {
    for (const value of garbage) {
      for (const caller of [{}, as("alice")]) {
        const text = String(value).slice(0, 500);
        const res = await client.send(
          endpoint,
          {
            query: { coin: text, type: text, account: text, from: text, to: text, pageNo: text, pageSize: text },
            body: value === undefined ? "{bad" : JSON.stringify(value),
          },
          { ...caller, headers: { "content-type": "application/json" } },
        );
        expect(res.statusCode, `${endpoint.path} ${JSON.stringify(value)?.slice(0, 30)}`).toBeLessThan(500);
      }
    }
  });

  it("refuses a malformed filter naming the field", async () => {
    const bad: Array<Record<string, string>> = [
      { type: "fee" },
      { account: "3" },
      { coin: "btc" },
      { pageSize: "101" },
      { from: "2026-02-01", to: "2026-01-01" },
    ];
    for (const query of bad) {
      const res = await client.send(endpoints.myBills, { query }, as("alice"));
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
    }
  });
});
