import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DurableCore } from "../journal/durable-core";
import { createMember } from "../members/new-member";
import { spotProduct } from "../spot/spot-product";
import { SpotService } from "../spot/spot-service";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { withdrawalProduct } from "../wallet/withdrawal-product";
import { WithdrawalService } from "../wallet/withdrawal-service";
import { noticeProduct } from "./notice-product";
import { pruneNotices } from "./notice-retention";
import { testAct } from "../testing/operator-act";

/**
 * Members' notifications of the core's events (decision 031): an order filled (taker and maker),
 * a stop triggered, a chain deposit credited, each withdrawal step; one row per event, never a
 * second, not when a restart replays the journal nor when the projection is rebuilt; none for the
 * quiet members (the simulator's bots).
 */
describe.each(testStoreKinds())("notifications of the core's events on %s", (kind) => {
  let store: TestStore;
  let durable: DurableCore;
  let spot: SpotService;
  let withdrawals: WithdrawalService;
  let n = 0;
  const ids: Record<string, string> = {};
  const start = async (snapshots = true) => {
    durable = await DurableCore.start({
      db: store.db,
      products: [spotProduct, withdrawalProduct, noticeProduct(new Set([ids.bot!]))],
      snapshots,
      onFatal: (e) => {
        throw e;
      },
    });
    spot = new SpotService(durable, { newOrderId: () => `np-${kind}-${++n}` });
    withdrawals = new WithdrawalService(durable, { newId: () => `npw-${kind}-${++n}` });
  };
  const noticesOf = async (name: string) => {
    await durable.drain();
    return store.db
      .selectFrom("member_notice")
      .select(["type", "service_type", "order_code", "params", "read_at", "dedupe_key"])
      .where("member_id", "=", ids[name]!)
      .orderBy("id")
      .execute();
  };
  const count = async () => {
    await durable.drain();
    const row = await store.db
      .selectFrom("member_notice")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  beforeAll(async () => {
    store = await openTestStore(kind);
    await sql`insert into market_symbol (symbol_name, coin_symbol, quote_symbol, price_scale, amount_scale, tick_size, lot_size, min_quantity)
              values ('BTC/USDT', 'BTC', 'USDT', 2, 6, 0.01, 0.000001, 0.00001)`.execute(store.db);
    for (const name of ["alice", "bob", "bot"]) {
      ids[name] = (await createMember(store.db, { account: { email: `${name}-np-${kind}@example.com` }, password: null }, Date.now())).id;
    }
    await start();
    for (const name of ["alice", "bob", "bot"]) {
      expect(await durable.funds.deposit(ids[name]!, "USDT", "spot", "100000", `np-usdt-${name}`)).toBe(true);
      expect(await durable.funds.deposit(ids[name]!, "BTC", "spot", "10", `np-btc-${name}`)).toBe(true);
      expect(await durable.funds.deposit(ids[name]!, "USDT", "funding", "1000", `np-fund-${name}`)).toBe(true);
    }
  });
  afterAll(async () => {
    await durable?.drain();
    await store?.dispose();
  });

  it("tells the taker and the maker of a filled order, with its side; an operator's credit tells nothing", async () => {
    expect(await noticesOf("alice")).toEqual([]);
    const maker = await spot.placeOrder(ids.bob!, { symbol: "BTC/USDT", side: "sell", type: "limit", price: "60000", quantity: "0.01", tif: "GTC" }, "np-k1");
    // Resting: nothing yet; partly filled: still nothing.
    await spot.placeOrder(ids.alice!, { symbol: "BTC/USDT", side: "buy", type: "limit", price: "60000", quantity: "0.004", tif: "GTC" }, "np-k2");
    expect(await noticesOf("bob")).toEqual([]);
    const taker = await spot.placeOrder(ids.alice!, { symbol: "BTC/USDT", side: "buy", type: "limit", price: "60000", quantity: "0.006", tif: "GTC" }, "np-k3");
    const bob = await noticesOf("bob");
    expect(bob).toEqual([
      {
        type: "order_filled",
        service_type: "spot",
        order_code: maker.orderId,
        params: { symbol: "BTC/USDT", side: "sell" },
        read_at: null,
        dedupe_key: `order:${ids.bob}:${maker.orderId}:filled`,
      },
    ]);
    const alice = await noticesOf("alice");
    expect(alice.map((a) => [a.type, a.order_code, a.params])).toEqual([
      ["order_filled", `np-${kind}-2`, { symbol: "BTC/USDT", side: "buy" }],
      ["order_filled", taker.orderId, { symbol: "BTC/USDT", side: "buy" }],
    ]);
  });

  it("tells of a stop triggered; a quiet member (a bot) is told nothing", async () => {
    // Alice's stop buy (a stop-loss above the last price, 60000) waits until a trade at 61000; once fired it rests far below.
    const stop = await spot.placeOrder(
      ids.alice!,
      { symbol: "BTC/USDT", side: "buy", type: "limit", price: "30000", quantity: "0.001", tif: "GTC", stopLossPrice: "61000" },
      "np-k4",
    );
    expect(stop.orderId).toBeDefined();
    const before = (await noticesOf("alice")).length;
    await spot.placeOrder(ids.bot!, { symbol: "BTC/USDT", side: "sell", type: "limit", price: "61000", quantity: "0.002", tif: "GTC" }, "np-k5");
    // Bob takes it (a member does not trade with itself).
    await spot.placeOrder(ids.bob!, { symbol: "BTC/USDT", side: "buy", type: "limit", price: "61000", quantity: "0.002", tif: "GTC" }, "np-k6");
    expect((await noticesOf("alice")).slice(before)).toEqual([
      {
        type: "stop_triggered",
        service_type: "spot",
        order_code: stop.orderId,
        params: { symbol: "BTC/USDT", side: "buy", price: "61000" },
        read_at: null,
        dedupe_key: `order:${ids.alice}:${stop.orderId}:triggered`,
      },
    ]);
    expect(await noticesOf("bot")).toEqual([]);
  });

  it("tells of each withdrawal step and a chain deposit, with the wallet's keys", async () => {
    const { id } = await withdrawals.request(
      ids.bob!,
      { coin: "USDT", network: "TRC20", address: "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL", amount: "100", fee: "1" },
      "np-w1",
    );
    expect(await withdrawals.review(id!, "reject", "Sanctioned address", testAct())).toBe("OK");
    const txid = "cd".repeat(32);
    expect(await durable.funds.deposit(ids.bob!, "USDT", "funding", "250.5", `chain:tron:${txid}:0`, { network: "TRC20", txid })).toBe(true);
    const bob = (await noticesOf("bob")).filter((b) => b.service_type !== "spot");
    expect(bob.map((b) => [b.type, b.service_type, b.order_code, b.params, b.dedupe_key])).toEqual([
      ["withdrawal_review", "withdrawal", id, { coin: "USDT", amount: "100" }, `withdrawal:${id}:review`],
      ["withdrawal_rejected", "withdrawal", id, { coin: "USDT", amount: "100", reason: "Sanctioned address" }, `withdrawal:${id}:rejected`],
      ["deposit_credited", "deposit", `chain:tron:${txid}:0`, { coin: "USDT", amount: "250.5", network: "TRC20" }, `deposit:chain:tron:${txid}:0`],
    ]);
  });

  it("writes none twice: not when a restart replays the journal, nor when the projection is rebuilt", async () => {
    await durable.drain();
    await durable.projection.pause(true);
    const order = await spot.placeOrder(
      ids.alice!,
      { symbol: "BTC/USDT", side: "sell", type: "limit", price: "59000", quantity: "0.001", tif: "GTC" },
      "np-k7",
    );
    await spot.placeOrder(ids.bob!, { symbol: "BTC/USDT", side: "buy", type: "limit", price: "59000", quantity: "0.001", tif: "GTC" }, "np-k8");
    const written = () => store.db.selectFrom("member_notice").select("id").where("order_code", "=", order.orderId!).execute();
    expect(await written()).toEqual([]);

    // A start replays the journal after the tables' cursor and writes the missing rows, once.
    await start();
    expect(await written()).toHaveLength(1);
    const total = await count();
    await start();
    await start(false);
    expect(await count()).toBe(total);

    // Every query table emptied and the cursor set back: the whole journal is projected again.
    await sql`delete from ledger_hold; delete from ledger_transfer; delete from ledger_account; delete from wallet_withdrawal;
              delete from spot_trade; delete from spot_order; update projection_cursor set seq = 0`.execute(store.db);
    await start(false);
    expect(await count()).toBe(total);
  });

  it("writes the notices of batches held back as one statement, each once (decision 017, step 18)", async () => {
    await durable.drain();
    await durable.projection.pause(true);
    const sells = [];
    for (let i = 0; i < 3; i++)
      sells.push(
        await spot.placeOrder(ids.alice!, { symbol: "BTC/USDT", side: "sell", type: "limit", price: "57000", quantity: "0.001", tif: "GTC" }, `np-m${i}`),
      );
    for (let i = 0; i < 3; i++)
      expect(
        (await spot.placeOrder(ids.bob!, { symbol: "BTC/USDT", side: "buy", type: "limit", price: "57000", quantity: "0.001", tif: "GTC" }, `np-n${i}`)).status,
      ).toBe("filled");
    const { merged } = durable.projection.stats;
    await durable.projection.pause(false);
    await durable.drain();
    expect(durable.projection.stats.merged - merged).toBeGreaterThanOrEqual(5);
    const told = await store.db
      .selectFrom("member_notice")
      .select(["order_code", "type"])
      .where(
        "order_code",
        "in",
        sells.map((o) => o.orderId!),
      )
      .execute();
    expect(told.map((t) => t.type).sort()).toEqual(["order_filled", "order_filled", "order_filled"]);
  });

  it("keeps the newest 200 a member has, for 90 days", async () => {
    const at = Date.now();
    await store.db
      .insertInto("member_notice")
      .values(
        Array.from({ length: 205 }, (_, i) => ({
          member_id: ids.bot!,
          type: "security_anti_code",
          service_type: "security",
          params: "{}",
          created_at: new Date(at - (205 - i) * 1000),
        })),
      )
      .execute();
    await store.db
      .insertInto("member_notice")
      .values({ member_id: ids.alice!, type: "security_anti_code", service_type: "security", params: "{}", created_at: new Date(at - 91 * 86_400_000) })
      .execute();
    const alice = (await noticesOf("alice")).length;
    expect(await pruneNotices(store.db, at)).toBe(6);
    expect(await noticesOf("bot")).toHaveLength(200);
    expect(await noticesOf("alice")).toHaveLength(alice - 1);
  });
});
