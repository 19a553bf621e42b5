import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOPICS, type TopicPayloads } from "../../protocol/realtime";
import { DurableCore } from "../journal/durable-core";
import { SpotService } from "../spot/spot-service";
import { openTestStore, type TestStore } from "../testing/test-stores";
import { withdrawalProduct } from "../wallet/withdrawal-product";
import { WithdrawalService } from "../wallet/withdrawal-service";
import { MemberPushes } from "./member-pushes";
import { testAct } from "../testing/operator-act";

describe("a member's refresh pushes, from the core's event stream", () => {
  let store: TestStore;
  let spot: SpotService;
  const pushes: Array<{ topic: string; data: { symbols: string[]; orders: boolean; balances: boolean } }> = [];
  const topicsPushed = () => pushes.map((p) => p.topic).sort();

  beforeAll(async () => {
    store = await openTestStore("pglite");
    await sql`insert into market_symbol (symbol_name, coin_symbol, quote_symbol, price_scale, amount_scale, tick_size, lot_size, min_quantity)
              values ('BTC/USDT', 'BTC', 'USDT', 2, 6, 0.01, 0.000001, 0.00001)`.execute(store.db);
    spot = await SpotService.start({
      db: store.db,
      onFatal: (e) => {
        throw e;
      },
    });
    new MemberPushes(spot.durable).startPublishing((topic, data) => pushes.push({ topic, data: data as never }));
  });
  afterAll(async () => {
    await spot?.durable.drain();
    await store?.dispose();
  });

  it("tells a member of a deposit and a transfer between their accounts: balances, no market", async () => {
    const deposit = spot.durable.funds.deposit("11", "USDT", "funding", "1000", "mp-dep-1");
    expect(pushes).toEqual([]); // applied, not committed: nothing published yet
    expect(await deposit).toBe(true);
    expect(pushes).toEqual([{ topic: "refresh_11", data: { symbols: [], orders: false, balances: true } }]);
    pushes.length = 0;
    expect(await spot.durable.funds.transferBetween("11", "USDT", "funding", "spot", "1000", "mp-tr-1")).toBe("OK");
    expect(topicsPushed()).toEqual(["refresh_11"]);
  });

  it("tells both sides of a trade, once per commit, naming the market, and that a filled order made a notification; nobody else", async () => {
    await spot.durable.funds.deposit("12", "BTC", "spot", "1", "mp-dep-2");
    pushes.length = 0;
    await spot.placeOrder("12", { symbol: "BTC/USDT", side: "sell", type: "limit", price: "60000", quantity: "0.01", tif: "GTC" }, "mp-k1");
    expect(topicsPushed()).toEqual(["refresh_12"]);
    pushes.length = 0;
    // Two commands in one commit (the maker's second order and the taker's): one push per member.
    const maker = spot.placeOrder("12", { symbol: "BTC/USDT", side: "sell", type: "limit", price: "60001", quantity: "0.01", tif: "GTC" }, "mp-k2");
    const taker = spot.placeOrder("11", { symbol: "BTC/USDT", side: "buy", type: "market", quantity: "0.01", tif: "IOC" }, "mp-k3");
    await Promise.all([maker, taker]);
    expect(topicsPushed()).toEqual(["refresh_11", "refresh_12"]);
    // Both orders that traded were filled: each member has a new notification (decision 031).
    for (const p of pushes) expect(p.data).toEqual({ symbols: ["BTC/USDT"], orders: true, balances: true, notices: true });
  });
});

describe("a member's refresh pushes of their wallet", () => {
  let store: TestStore;
  let durable: DurableCore;
  let withdrawals: WithdrawalService;
  const pushes: Array<{ topic: string; data: TopicPayloads["refresh"] }> = [];

  beforeAll(async () => {
    store = await openTestStore("pglite");
    durable = await DurableCore.start({
      db: store.db,
      products: [withdrawalProduct],
      onFatal: (e) => {
        throw e;
      },
    });
    withdrawals = new WithdrawalService(durable, { newId: () => "mp-w-1" });
    new MemberPushes(durable).startPublishing((topic, data) => pushes.push({ topic, data: data as never }));
  });
  afterAll(async () => {
    await durable?.drain();
    await store?.dispose();
  });

  it("names a credited chain deposit and each step of a withdrawal, also one that moves no money (an approval)", async () => {
    expect(await durable.funds.deposit("21", "USDT", "funding", "300", "chain:tron:ab:0", { network: "TRC20", txid: "ab" })).toBe(true);
    expect(pushes).toEqual([
      {
        topic: "refresh_21",
        data: {
          symbols: [],
          orders: false,
          balances: true,
          wallet: [{ kind: "deposit", id: "chain:tron:ab:0", coin: "USDT", amount: "300", network: "TRC20", txid: "ab" }],
          notices: true,
        },
      },
    ]);
    pushes.length = 0;
    // An operator's credit is no deposit of the member's: balances only.
    await durable.funds.deposit("21", "USDT", "funding", "1", "mp-credit-1");
    expect(pushes).toEqual([{ topic: "refresh_21", data: { symbols: [], orders: false, balances: true } }]);
    pushes.length = 0;

    await withdrawals.request("21", { coin: "USDT", network: "TRC20", address: "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL", amount: "100", fee: "1" }, "mp-key-1");
    expect(await withdrawals.review("mp-w-1", "approve", undefined, testAct())).toBe("OK");
    expect(pushes.map((p) => [p.topic, p.data.wallet])).toEqual([
      [
        "refresh_21",
        [
          {
            kind: "withdrawal",
            id: "mp-w-1",
            coin: "USDT",
            amount: "100",
            fee: "1",
            state: "review",
            network: "TRC20",
            address: "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL",
          },
        ],
      ],
      ["refresh_21", [{ kind: "withdrawal", id: "mp-w-1", coin: "USDT", amount: "100", fee: "1", state: "approved" }]],
    ]);
    for (const p of pushes) expect(TOPICS.refresh.payload.safeParse(p.data).success).toBe(true);
    expect(pushes.every((p) => p.data.notices)).toBe(true);
  });
});
