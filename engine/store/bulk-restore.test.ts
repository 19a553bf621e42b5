import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStore, type TestStore } from "../testing/test-stores";
import { eachHold, eachOpenOrder, minorOf } from "./bulk-restore";

describe("bulk restore reads", () => {
  it("turns numeric text into exact minor units", () => {
    expect(minorOf("63999.500000000000000000", 2)).toBe(6_399_950n);
    expect(minorOf("0.001000000000000000", 6)).toBe(1_000n);
    expect(minorOf("12", 3)).toBe(12_000n);
    expect(minorOf("-0.5", 8)).toBe(-50_000_000n);
    expect(minorOf("7", 0)).toBe(7n);
    expect(minorOf("1.5", 4)).toBe(15_000n);
    expect(() => minorOf("1.005000", 2)).toThrow(RangeError);
  });

  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore("pglite");
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it("reads open orders in book time order across pages, fired stops by when they fired", async () => {
    const row = (id: string, status = "open") => sql`(${id}, 1, 'X/Y', 'buy', 'limit', 'GTC', 10.5, 3, 1, ${status})`;
    // seq 1..6 in this order; o5 is a stop that fired after o2 was placed (triggered_seq 2.5 → takes a later seq).
    await sql`insert into spot_order (order_id, member_id, symbol, side, type, tif, price, quantity, filled, status) values ${sql.join([row("o1"), row("o2"), row("done", "filled"), row("o4"), row("o5"), row("o6")])}`.execute(
      store.db,
    );
    await sql`update spot_order set triggered_seq = 3 where order_id = 'o5'`.execute(store.db); // fired between o2 (2) and o4 (4)
    await sql`insert into spot_order (order_id, member_id, symbol, side, type, tif, price, quantity, filled, status) values ('other', 1, 'Z/Y', 'buy', 'limit', 'GTC', 1, 1, 0, 'open')`.execute(
      store.db,
    );
    const seen: string[] = [];
    await eachOpenOrder(store.db, "X/Y", (orderId, _member, _side, price, remaining) => seen.push(`${orderId}:${price}:${remaining}`), 2);
    expect(seen.map((s) => s.split(":")[0])).toEqual(["o1", "o2", "o5", "o4", "o6"]);
    expect(minorOf(seen[0]!.split(":")[1]!, 1)).toBe(105n);
    expect(minorOf(seen[0]!.split(":")[2]!, 0)).toBe(2n);
  });

  it("reads every hold across pages", async () => {
    await sql`insert into asset (code, scale, name) values ('HLD', 8, 'Hold test') on conflict do nothing`.execute(store.db);
    await sql`insert into ledger_account (id, owner, kind, asset, posted, held) values ('1/spot/HLD', '1', 'spot', 'HLD', 10, 6)`.execute(store.db);
    await sql`insert into ledger_hold (id, account_id, asset, remaining) values ('hold:a', '1/spot/HLD', 'HLD', 1), ('hold:b', '1/spot/HLD', 'HLD', 2), ('hold:c', '1/spot/HLD', 'HLD', 3)`.execute(
      store.db,
    );
    const seen: string[] = [];
    await eachHold(store.db, (id, account, asset, remaining) => seen.push(`${id} ${account} ${asset} ${minorOf(remaining, 8)}`), 2);
    expect(seen).toEqual(["hold:a 1/spot/HLD HLD 100000000", "hold:b 1/spot/HLD HLD 200000000", "hold:c 1/spot/HLD HLD 300000000"]);
  });
});
