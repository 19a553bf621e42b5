import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { GroupCommitter, runScript } from "./group-commit";

describe.each(testStoreKinds())("one batch, one script, all or nothing, on %s", (kind) => {
  let store: TestStore;
  const ids = async () => (await sql<{ id: number }>`select id from gc_probe order by id`.execute(store.db)).rows.map((r) => r.id);

  beforeAll(async () => {
    store = await openTestStore(kind);
    await sql`create table gc_probe (id int primary key)`.execute(store.db);
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it("commits every statement of a script, or none when one fails", async () => {
    await runScript(store.db, ["insert into gc_probe values (1)", "insert into gc_probe values (2)"]);
    expect(await ids()).toEqual([1, 2]);
    // The second statement breaks the key: the first, sent in the same script, is not kept.
    await expect(runScript(store.db, ["insert into gc_probe values (3)", "insert into gc_probe values (1)"])).rejects.toThrow();
    expect(await ids()).toEqual([1, 2]);
    // And the connection is usable after the failure (no transaction left open).
    await runScript(store.db, ["insert into gc_probe values (4)"]);
    expect(await ids()).toEqual([1, 2, 4]);
  });

  it("commits the changes that arrive together in one batch, answers them after it, and tells the hooks", async () => {
    const fatal: unknown[] = [];
    const committer = new GroupCommitter(store.db, (e) => fatal.push(e));
    const committed: number[] = [];
    committer.addHooks({ afterCommit: (batch) => committed.push(batch) });
    const answered: string[] = [];
    await Promise.all([
      committer.commit(() => ["insert into gc_probe values (10)"]).then(() => answered.push("a")),
      committer.commit(() => []).then(() => answered.push("barrier")),
      committer.commit(() => ["insert into gc_probe values (11)", "insert into gc_probe values (12)"]).then(() => answered.push("b")),
    ]);
    expect(answered.sort()).toEqual(["a", "b", "barrier"]);
    expect(committed).toEqual([1]);
    expect(committer.stats).toEqual({ commits: 1, changes: 3 });
    expect(await ids()).toEqual([1, 2, 4, 10, 11, 12]);
    expect(fatal).toEqual([]);
  });

  it("writes no batch while the engine lock is being taken again; once it is held, writes what waited in one batch", async () => {
    const fatal: unknown[] = [];
    let regained: (() => void) | null = null;
    let closed: Promise<void> | null = new Promise<void>((resolve) => (regained = resolve));
    const committer = new GroupCommitter(store.db, (e) => fatal.push(e), { whenHeld: () => closed });
    const committed: number[] = [];
    committer.addHooks({ afterCommit: (batch) => committed.push(batch) });
    const answered: string[] = [];
    const first = committer.commit(() => ["insert into gc_probe values (30)"]).then(() => answered.push("a"));
    await new Promise((r) => setTimeout(r, 50));
    const second = committer.commit(() => ["insert into gc_probe values (31)"]).then(() => answered.push("b"));
    await new Promise((r) => setTimeout(r, 100));
    // Held back: nothing written, nobody answered, nothing published, the engine not stopped.
    expect(await ids()).not.toContain(30);
    expect(answered).toEqual([]);
    expect(committed).toEqual([]);
    expect(fatal).toEqual([]);
    closed = null;
    regained!();
    await Promise.all([first, second]);
    expect(answered.sort()).toEqual(["a", "b"]);
    expect(await ids()).toEqual(expect.arrayContaining([30, 31]));
    expect(committed).toEqual([1]);
    expect(fatal).toEqual([]);
  });

  it("stops when the engine lock is not held again in time: the waiting batch is not written and its callers are not answered", async () => {
    const fatal: unknown[] = [];
    const never = new Promise<void>(() => {});
    const committer = new GroupCommitter(store.db, (e) => fatal.push(e), { whenHeld: () => never }, 100);
    let answered = 0;
    void committer.commit(() => ["insert into gc_probe values (40)"]).then(() => answered++);
    await vi.waitFor(() => expect(fatal).toHaveLength(1));
    expect(String(fatal[0])).toMatch(/engine lock was not held again within 0.1 s/);
    await new Promise((r) => setTimeout(r, 150));
    expect(fatal).toHaveLength(1);
    expect(answered).toBe(0);
    expect(await ids()).not.toContain(40);
  });

  it("stops on a failed batch: nothing of it is kept and none of its callers is answered", async () => {
    const fatal: unknown[] = [];
    const committer = new GroupCommitter(store.db, (e) => fatal.push(e));
    let answered = 0;
    void committer.commit(() => ["insert into gc_probe values (20)"]).then(() => answered++);
    void committer.commit(() => ["insert into gc_probe values (10)"]).then(() => answered++); // already there
    await new Promise((r) => setTimeout(r, 200));
    expect(fatal).toHaveLength(1);
    expect(answered).toBe(0);
    expect(await ids()).not.toContain(20);
  });
});
