import { afterEach, describe, expect, it } from "vitest";
import { PGliteThread } from "./pglite-thread";

/** The embedded database in its own thread (decision 017, step 17), spoken to as the dialect does. */
describe("the embedded database's thread", () => {
  let client: PGliteThread | null = null;
  afterEach(async () => {
    await client?.close();
    client = null;
  });

  async function open(): Promise<PGliteThread> {
    client = new PGliteThread("memory://", []);
    await client.waitReady;
    return client;
  }

  it("runs scripts and parameterised statements; amounts and big ids come back as exact text", async () => {
    const db = await open();
    await db.exec(
      "create table t (id int8 primary key, amount numeric, at timestamptz, doc jsonb); insert into t values (9007199254740993, 0.1, '2026-01-01Z', '{\"a\":1}')",
    );
    const last = await db.exec("select 1 as one; select 2 as two");
    expect(last.rows).toEqual([{ two: 2 }]);
    const got = await db.query("select id, amount + $1::numeric as amount, at, doc from t where id = $2", ["0.2", "9007199254740993"]);
    expect(got.rows).toEqual([{ id: "9007199254740993", amount: "0.3", at: new Date("2026-01-01Z"), doc: { a: 1 } }]);
    expect((await db.query("update t set amount = 1 where id > $1", [0])).affectedRows).toBe(1);
  });

  it("fails a statement with Postgres's own fields, and carries on", async () => {
    const db = await open();
    await db.exec("create table k (id int primary key)");
    await db.query("insert into k values ($1)", [1]);
    const error = await db.query("insert into k values ($1)", [1]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: "23505", constraint: "k_pkey" });
    expect((await db.query("select count(*)::int as n from k", [])).rows).toEqual([{ n: 1 }]);
  });

  it("hands on notifications until the listener stops", async () => {
    const db = await open();
    await db.exec("select 1");
    await db.query("select $1::int as n", [2]);
    const heard: string[] = [];
    const stop = await db.listen("news", (payload) => heard.push(`news ${payload}`));
    await db.listen("other", (payload) => heard.push(`other ${payload}`));
    await db.exec("notify news, 'one'; notify other, 'two'");
    await expect.poll(() => heard).toEqual(["news one", "other two"]);
    await stop();
    await db.exec("notify news, 'three'; notify other, 'four'");
    await expect.poll(() => heard).toEqual(["news one", "other two", "other four"]);
  });

  it("refuses statements once closed, closed once however often asked", async () => {
    const db = await open();
    await Promise.all([db.close(), db.close()]);
    expect(db.closed).toBe(true);
    await expect(db.exec("select 1")).rejects.toThrow(/closed/);
  });
});
