import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromMinor } from "../../protocol/money";
import { SpotService } from "../spot/spot-service";
import { upkeepEmbedded } from "../store/embedded-upkeep";
import { openTestStore, type TestStore } from "../testing/test-stores";
import { BotHistoryPruner } from "./bot-history-pruner";
import { seedDemoMarkets } from "./demo-markets";
import { startSimulator, type Simulator } from "./market-simulator";

/**
 * Pruning keeps a real member's history whole and the engine's restart exact, and takes only the
 * bots' own old trades, finished orders and journal entries.
 */
describe("bot history pruning", () => {
  let store: TestStore;
  let clock = Date.parse("2026-11-22T08:00:00Z");
  const now = () => clock;
  let spot: SpotService;
  let sim: Simulator;
  let member: string;

  beforeAll(async () => {
    store = await openTestStore("pglite");
    await seedDemoMarkets(store.db);
    spot = await SpotService.start({
      db: store.db,
      now,
      onFatal: (e) => {
        throw e;
      },
    });
    sim = await startSimulator({ db: store.db, spot, seed: 3, timer: false, now });
    const row = await store.db
      .insertInto("member")
      .values({ uid: "12345678", email: "trader@example.com", password_hash: "-", invite_code: "TRADER01", chat_key: randomBytes(16).toString("hex") })
      .returning("id")
      .executeTakeFirstOrThrow();
    member = row.id;
    await spot.durable.funds.deposit(member, "USDT", "spot", "100000", "test-deposit-usdt");
    await spot.durable.funds.deposit(member, "BTC", "spot", "2", "test-deposit-btc");
  });
  afterAll(() => store?.dispose());

  async function run(ticks: number) {
    for (let i = 0; i < ticks; i++) {
      clock += 1_000;
      await sim.tick(1);
    }
    await spot.durable.drain();
  }

  /** Everything the member can see of its history, and the state a restart reads. */
  async function memberView() {
    const orders = await store.db.selectFrom("spot_order").selectAll().where("member_id", "=", member).orderBy("seq").execute();
    const trades = await store.db
      .selectFrom("spot_trade")
      .selectAll()
      .where((eb) => eb.or([eb("buyer", "=", member), eb("seller", "=", member)]))
      .orderBy("id")
      .execute();
    const journal = await sql<{
      id: string;
    }>`select id from ledger_transfer where split_part(debit, '/', 1) = ${member} or split_part(credit, '/', 1) = ${member} order by seq`.execute(store.db);
    const accounts = await store.db.selectFrom("ledger_account").selectAll().orderBy("id").execute();
    const holds = await store.db.selectFrom("ledger_hold").selectAll().orderBy("id").execute();
    const open = await store.db.selectFrom("spot_order").select("order_id").where("status", "=", "open").orderBy("seq").execute();
    return { orders, trades, journal: journal.rows, accounts, holds, open };
  }

  it("deletes the bots' own old history in batches, and nothing of a member's, a book's or a balance's", async () => {
    await run(60);
    // The member trades with the bots: takes the touch on both sides, and leaves an order resting.
    const btc = spot.markets.get("BTC/USDT")!;
    const { bids, asks } = btc.book.depth(1);
    const price = (p: bigint) => fromMinor(p, 2);
    expect(
      (await spot.placeOrder(member, { symbol: "BTC/USDT", side: "buy", type: "limit", price: price(asks[0]![0]), quantity: "0.00002", tif: "IOC" }, "k1"))
        .trades,
    ).toBeGreaterThan(0);
    expect(
      (await spot.placeOrder(member, { symbol: "BTC/USDT", side: "sell", type: "limit", price: price(bids[0]![0]), quantity: "0.00002", tif: "IOC" }, "k2"))
        .trades,
    ).toBeGreaterThan(0);
    expect(
      (await spot.placeOrder(member, { symbol: "BTC/USDT", side: "buy", type: "limit", price: "50000.00", quantity: "0.001", tif: "GTC" }, "k3")).status,
    ).toBe("open");
    await run(120);
    const cutoff = new Date(clock);
    // Two more hours: recent history the prune must keep.
    clock += 2 * 3_600_000;
    await run(60);

    const before = await memberView();
    const bots = [...sim.botIds];
    const oldBotTrades = await store.db
      .selectFrom("spot_trade")
      .select("id")
      .where("buyer", "in", bots)
      .where("seller", "in", bots)
      .where("created_at", "<", cutoff)
      .execute();
    const recentBotTrades = await store.db
      .selectFrom("spot_trade")
      .select("id")
      .where("buyer", "in", bots)
      .where("seller", "in", bots)
      .where("created_at", ">=", cutoff)
      .execute();
    expect(oldBotTrades.length).toBeGreaterThan(50);
    expect(recentBotTrades.length).toBeGreaterThan(10);

    // The bots' own old ledger rows: their funding (a trade's settlement and an order's hold are
    // not ledger rows of their own since decision 017, step 13: the trade and the order are).
    const oldBotTransfers = async () =>
      (
        await sql<{ n: number }>`select count(*)::int as n from ledger_transfer
          where created_at < ${cutoff.toISOString()}::timestamptz and split_part(debit, '/', 1) <> ${member} and split_part(coalesce(credit, ''), '/', 1) <> ${member}`.execute(
          store.db,
        )
      ).rows[0]!.n;
    const oldBotTransfersBefore = await oldBotTransfers();
    expect(oldBotTransfersBefore).toBeGreaterThan(0);

    // Small batches: many rounds of each delete, and of the journal's windows.
    const pruner = new BotHistoryPruner(store.db, bots, 50);
    const counts = await pruner.prune(cutoff);
    expect(counts.trades).toBe(oldBotTrades.length);
    expect(counts.orders).toBeGreaterThan(100);
    expect(counts.transfers).toBe(oldBotTransfersBefore);

    expect(await memberView()).toEqual(before);
    expect(
      await store.db.selectFrom("spot_trade").select("id").where("buyer", "in", bots).where("seller", "in", bots).where("created_at", "<", cutoff).execute(),
    ).toEqual([]);
    expect((await store.db.selectFrom("spot_trade").select("id").where("buyer", "in", bots).where("seller", "in", bots).execute()).length).toBe(
      recentBotTrades.length,
    );
    // The bot orders the member traded with stay: its trades still name both sides.
    const named = await sql<{ n: number }>`select count(*)::int as n from spot_trade t
      where (t.buyer = ${member} or t.seller = ${member})
        and exists (select 1 from spot_order o where o.order_id = t.maker_order_id)
        and exists (select 1 from spot_order o where o.order_id = t.taker_order_id)`.execute(store.db);
    expect(named.rows[0]!.n).toBe(before.trades.length);
    expect(await oldBotTransfers()).toBe(0);

    // Nothing more to take; and the engine restarts to exactly the state it had.
    expect(await pruner.prune(cutoff)).toEqual({ trades: 0, orders: 0, transfers: 0, contractTrades: 0, contractOrders: 0 });
    await upkeepEmbedded(store.db);
    const again = await SpotService.start({
      db: store.db,
      now,
      onFatal: (e) => {
        throw e;
      },
    });
    expect(again.durable.ledger.stateHash()).toBe(spot.durable.ledger.stateHash());
    for (const market of again.markets.values()) expect(market.checkInvariants()).toEqual([]);
    expect(again.durable.ledger.checkInvariants()).toEqual([]);
  });
});
