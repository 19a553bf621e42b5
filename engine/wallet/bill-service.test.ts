import { sql, type RawBuilder } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BILLS_COUNT_MAX, type BillFilter } from "../../protocol/endpoints/bills";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { BillService, billSourceSql } from "./bill-service";

/**
 * The bills' cost for a heavy trader (docs/decisions/026-bills.md): member 42 with 200,000 trades
 * (and their settlement rows in ledger_transfer) and a few deposits and transfers. Every source's
 * page and count must be an index scan of its own index (a plan that turns into a full scan fails
 * the test), and the first page's time is printed next to a plain indexed lookup of 20 trades
 * (a ratio, not a timed assertion: the machine is shared).
 */
const TRADES = 200_000;
const MEMBER = "42";

describe.each(testStoreKinds())("bills at scale on %s", (kind) => {
  let store: TestStore;
  let bills: BillService;

  const plan = async (query: RawBuilder<unknown>) =>
    (await sql<Record<string, string>>`explain ${query}`.execute(store.db)).rows.map((r) => Object.values(r)[0]).join("\n");

  async function median(run: () => Promise<unknown>, times = 7): Promise<number> {
    const ms: number[] = [];
    await run();
    for (let i = 0; i < times; i++) {
      const started = performance.now();
      await run();
      ms.push(performance.now() - started);
    }
    return ms.sort((a, b) => a - b)[Math.floor(times / 2)]!;
  }

  beforeAll(async () => {
    store = await openTestStore(kind);
    const start = "2026-01-01T00:00:00Z";
    // Half of the trades member 42 buys (from 7), half sells (to 7); each has its two hold payments in the ledger.
    await sql`insert into spot_trade (symbol, taker_order_id, maker_order_id, buyer, seller, price, quantity, value, buyer_fee, seller_fee, taker_side, created_at)
      select 'BTC/USDT', 'o' || i, 'm' || i, case when i % 2 = 0 then 42 else 7 end, case when i % 2 = 0 then 7 else 42 end,
        60000, 0.001, 60, 0.000002, 0.06, 'buy', ${start}::timestamptz + i * interval '1 second'
      from generate_series(1, ${TRADES}) i`.execute(store.db);
    await sql`insert into ledger_transfer (id, phase, debit, credit, asset, amount, pending_id, created_at)
      select 's' || i || '.' || k, 'post',
        case when k = 0 then (case when i % 2 = 0 then '42' else '7' end) || '/spot/USDT' else (case when i % 2 = 0 then '7' else '42' end) || '/spot/BTC' end,
        case when k = 0 then (case when i % 2 = 0 then '7' else '42' end) || '/spot/USDT' else (case when i % 2 = 0 then '42' else '7' end) || '/spot/BTC' end,
        case when k = 0 then 'USDT' else 'BTC' end, 1, 'hold:o' || i, ${start}::timestamptz + i * interval '1 second'
      from generate_series(1, ${TRADES}) i, generate_series(0, 1) k`.execute(store.db);
    // Other members' deposits, and 42's few: deposits before the trades, a transfer, one deposit after them.
    await sql`insert into ledger_transfer (id, phase, debit, credit, asset, amount, pending_id, created_at)
      select 'deposit:other' || i, 'posted', '@system/external/USDT', (1000 + i) || '/funding/USDT', 'USDT', 5, null, ${start}::timestamptz
      from generate_series(1, 5000) i`.execute(store.db);
    await sql`insert into ledger_transfer (id, phase, debit, credit, asset, amount, pending_id, created_at) values
      ('deposit:d1', 'posted', '@system/external/USDT', '42/funding/USDT', 'USDT', 100000, null, ${start}),
      ('deposit:d2', 'posted', '@system/external/BTC', '42/spot/BTC', 'BTC', 10, null, ${start}),
      ('trans:42:k1', 'posted', '42/funding/USDT', '42/spot/USDT', 'USDT', 50000, null, ${start}),
      ('deposit:d3', 'posted', '@system/external/USDT', '42/funding/USDT', 'USDT', 7, null, ${start}::timestamptz + interval '100 days')`.execute(store.db);
    // Member 99 trades now and then: 10 trades with 7, and a deposit.
    await sql`insert into spot_trade (symbol, taker_order_id, maker_order_id, buyer, seller, price, quantity, value, buyer_fee, seller_fee, taker_side, created_at)
      select 'BTC/USDT', 'p' || i, 'q' || i, case when i % 2 = 0 then 99 else 7 end, case when i % 2 = 0 then 7 else 99 end,
        60000, 0.001, 60, 0.000002, 0.06, 'sell', ${start}::timestamptz + i * interval '1 hour'
      from generate_series(1, 10) i`.execute(store.db);
    await sql`insert into ledger_transfer (id, phase, debit, credit, asset, amount, pending_id, created_at) values
      ('deposit:p1', 'posted', '@system/external/USDT', '99/spot/USDT', 'USDT', 1000, null, ${start})`.execute(store.db);
    await sql`insert into market_symbol (symbol_name, coin_symbol, quote_symbol) values ('BTC/USDT', 'BTC', 'USDT') on conflict do nothing`.execute(store.db);
    await sql`analyze spot_trade`.execute(store.db);
    await sql`analyze ledger_transfer`.execute(store.db);
    bills = new BillService(store.db, { projectedFor: async () => true });
  }, 300_000);
  afterAll(async () => {
    await store?.dispose();
  });

  const filters: Array<[string, BillFilter]> = [
    ["no filter", {}],
    ["deposits", { type: "deposit" }],
    ["BTC", { coin: "BTC" }],
    ["funding", { account: "1" }],
    ["trade fees in January", { type: "trade_fee", from: "2026-01-01", to: "2026-01-31" }],
  ];

  // A member with a few trades reads each source from its own index. For member 42, half of all
  // trades, the planner may walk the trades' primary key newest first instead (every other row is
  // theirs, so a page still reads about twice its rows): an index scan under the limit either way.
  it.each(filters)("reads every source of %s from an index, never a full scan", async (_what, filter) => {
    const indexOf = { debit: "ledger_transfer_bill_debit", credit: "ledger_transfer_bill_credit", buyer: "spot_trade_buyer", seller: "spot_trade_seller" };
    for (const member of ["99", MEMBER]) {
      for (const source of ["debit", "credit", "buyer", "seller"] as const) {
        const { page, count } = billSourceSql(source, member, filter, await bills.marketsOf(filter), 20);
        const allowed = member === MEMBER && (source === "buyer" || source === "seller") ? `(${indexOf[source]}|spot_trade_pkey)` : indexOf[source];
        for (const explained of [await plan(page), await plan(count)]) {
          expect(explained, `${member} ${source}\n${explained}`).toMatch(new RegExp(`Index (Only )?Scan (Backward )?using ${allowed} `));
          expect(explained, `${member} ${source}\n${explained}`).not.toMatch(/Seq Scan|Bitmap Heap Scan on spot_trade|Sort/);
          expect(explained, `${member} ${source}\n${explained}`).toMatch(/Limit/);
        }
      }
    }
  });

  it("answers the first page in a few milliseconds: the newest trade lines, a capped total", async () => {
    const page = await bills.lines(MEMBER, {});
    expect(page.records[0]).toMatchObject({ type: "deposit", amount: "7", reference: "d3", account: "funding" });
    expect(page.records.slice(1, 4).map((l) => [l.id, l.type, l.amount])).toEqual([
      [`trade:${TRADES}:buy:base`, "trade", "0.001"],
      [`trade:${TRADES}:buy:quote`, "trade", "-60"],
      [`trade:${TRADES}:buy:fee`, "trade_fee", "-0.000002"],
    ]);
    expect(page).toMatchObject({ total: BILLS_COUNT_MAX, more: true, pages: BILLS_COUNT_MAX / 20 });
    const deposits = await bills.lines(MEMBER, { type: "deposit" });
    expect(deposits.records.map((l) => l.reference)).toEqual(["d3", "d2", "d1"]);
    expect(deposits).toMatchObject({ total: 3, more: false });

    const lookup = await median(() => sql`select * from spot_trade where buyer = ${MEMBER} order by id desc limit 20`.execute(store.db));
    const first = await median(() => bills.lines(MEMBER, {}));
    const depositsOnly = await median(() => bills.lines(MEMBER, { type: "deposit" }));
    const counted = await median(() => bills.count(MEMBER, {}, BILLS_COUNT_MAX));
    const deep = await median(() => bills.lines(MEMBER, { pageNo: 100, pageSize: 20 }), 3);
    console.log(
      `[bills ${kind}] ${TRADES} trades: indexed lookup of 20 trades ${lookup.toFixed(2)} ms; first page ${first.toFixed(2)} ms (${(first / lookup).toFixed(1)}×); ` +
        `deposits only ${depositsOnly.toFixed(2)} ms (${(depositsOnly / lookup).toFixed(1)}×); page 100 ${deep.toFixed(2)} ms (${(deep / lookup).toFixed(1)}×); ` +
        `of which the capped count ${counted.toFixed(2)} ms`,
    );
  }, 120_000);
});
