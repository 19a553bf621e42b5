import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStore, testStoreKinds, type TestStore } from "../../testing/test-stores";
import { up } from "./026-support-requests";

describe.each(testStoreKinds())("migration 026 on %s", (kind) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore(kind);
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it("removes the websocket address an older seed wrote, keeps the rest, and runs twice", async () => {
    const db = store.db;
    await db
      .insertInto("site_config")
      .values({ config_key: "websocketAddress", config_value: "" })
      .onConflict((oc) => oc.column("config_key").doNothing())
      .execute();
    const before = await db.selectFrom("site_config").select("config_key").execute();
    await up(db as unknown as Parameters<typeof up>[0]);
    await up(db as unknown as Parameters<typeof up>[0]);
    const after = (await db.selectFrom("site_config").select("config_key").execute()).map((r) => r.config_key);
    expect(after).not.toContain("websocketAddress");
    expect(after).toHaveLength(before.length - 1);
    expect(after).toContain("tokenTime");
    const member = await db.selectFrom("member").select("support_requested_at").limit(1).execute();
    expect(member).toBeDefined();
  });
});
