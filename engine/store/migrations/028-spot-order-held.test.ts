import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoMarkets } from "../../sim/demo-markets";
import { openTestStore, testStoreKinds, type TestStore } from "../../testing/test-stores";
import { down, up } from "./028-spot-order-held";

describe.each(testStoreKinds())("migration 028 on %s", (kind) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore(kind);
    await seedDemoMarkets(store.db);
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it("moves open orders' holds from ledger_hold into their rows, keeps other holds, runs twice and back", async () => {
    const db = store.db;
    const migrationDb = db as unknown as Parameters<typeof up>[0];
    // As an install before 028 had them: an order's hold as a ledger_hold row, a withdrawal's too.
    await down(migrationDb);
    await sql`insert into ledger_account (id, owner, kind, asset, posted, held) values
      ('7/spot/USDT', '7', 'spot', 'USDT', 1000, 600), ('7/funding/BTC', '7', 'funding', 'BTC', 1, 0.5)`.execute(db);
    await sql`insert into spot_order (order_id, member_id, symbol, side, type, tif, price, quantity, filled, status, created_at, updated_at) values
      ('m28a', 7, 'BTC/USDT', 'buy', 'limit', 'GTC', 100, 5, 1, 'open', now(), now()),
      ('m28b', 7, 'BTC/USDT', 'buy', 'limit', 'GTC', 100, 2, 2, 'filled', now(), now())`.execute(db);
    await sql`insert into ledger_hold (id, account_id, asset, remaining) values
      ('hold:m28a', '7/spot/USDT', 'USDT', 600), ('wd:m28', '7/funding/BTC', 'BTC', 0.5)`.execute(db);
    await up(migrationDb);
    await up(migrationDb);
    const orders = await db.selectFrom("spot_order").select(["order_id", "held"]).where("order_id", "in", ["m28a", "m28b"]).orderBy("order_id").execute();
    expect(orders.map((o) => [o.order_id, o.held === null ? null : Number(o.held)])).toEqual([
      ["m28a", 600],
      ["m28b", null],
    ]);
    expect((await db.selectFrom("ledger_hold").select("id").where("id", "in", ["hold:m28a", "wd:m28"]).execute()).map((h) => h.id)).toEqual(["wd:m28"]);
    // And back: the open order's hold is a ledger_hold row again.
    await down(migrationDb);
    expect((await db.selectFrom("ledger_hold").select("id").where("id", "=", "hold:m28a").execute()).length).toBe(1);
    await up(migrationDb);
  });
});
