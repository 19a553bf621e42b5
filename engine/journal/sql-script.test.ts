import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { jsonRecords, jsonTexts, text } from "./sql-script";

describe("dollar-quoted literals", () => {
  it("pick a tag the text cannot close early", () => {
    expect(text("abc")).toBe("$v$abc$v$");
    expect(text("a$v$b")).toBe("$vv$a$v$b$vv$");
    expect(text("ends in $v")).toBe("$vv$ends in $v$vv$");
  });
});

/**
 * A batch's rows joined to a table must be one index probe per row. When the rows came from a
 * bare `json_to_recordset` (which the planner counts as 100 rows whatever it holds), Postgres
 * read the whole of `spot_order` for every projection write as long as its statistics said the
 * table was small (autovacuum off or behind, as on the development machine): milliseconds per
 * write, growing with the table, and a projection lag that grew with it.
 */
describe.each(testStoreKinds())("batch rows joined by index, on %s", (kind) => {
  let store: TestStore;
  const plan = async (statement: string) =>
    (await sql.raw<Record<string, string>>(`explain ${statement}`).execute(store.db)).rows.map((r) => Object.values(r)[0]).join("\n");

  beforeAll(async () => {
    store = await openTestStore(kind);
    await sql`create table probe_order (order_id varchar primary key, filled numeric not null)`.execute(store.db);
    // Statistics that call the table small: 100 probes cost more than reading all of it.
    await sql`insert into probe_order select 'o' || i, 0 from generate_series(1, 3000) i`.execute(store.db);
    await sql`analyze probe_order`.execute(store.db);
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it("updates from a few JSON rows through the primary key", async () => {
    const rows = [
      { order_id: "o5", filled: "1.5" },
      { order_id: "o77", filled: "2" },
    ];
    const update = `update probe_order o set filled = o.filled + v.filled from ${jsonRecords(rows, "v", "order_id varchar, filled numeric")} where o.order_id = v.order_id`;
    const explained = await plan(update);
    expect(explained).toMatch(/Index Scan using probe_order_pkey/);
    expect(explained).not.toMatch(/Seq Scan on probe_order/);
    await sql.raw(update).execute(store.db);
    const after = await sql<{
      order_id: string;
      filled: string;
    }>`select order_id, filled::text from probe_order where order_id in ('o5', 'o77', 'o6') order by order_id`.execute(store.db);
    expect(after.rows).toEqual([
      { order_id: "o5", filled: "1.5" },
      { order_id: "o6", filled: "0" },
      { order_id: "o77", filled: "2" },
    ]);
  });

  it("deletes a few ids through the primary key", async () => {
    const remove = `delete from probe_order where order_id in ${jsonTexts(["o9", "o10", "o11"])}`;
    const explained = await plan(remove);
    expect(explained).toMatch(/Index Scan using probe_order_pkey/);
    expect(explained).not.toMatch(/Seq Scan on probe_order/);
    await sql.raw(remove).execute(store.db);
    const left = await sql<{ n: string }>`select count(*)::text as n from probe_order`.execute(store.db);
    expect(left.rows[0]!.n).toBe("2997");
  });
});
