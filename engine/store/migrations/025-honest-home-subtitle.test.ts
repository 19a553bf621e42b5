import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStore, testStoreKinds, type TestStore } from "../../testing/test-stores";
import { up } from "./025-honest-home-subtitle";

describe.each(testStoreKinds())("migration 025 on %s", (kind) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore(kind);
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it("removes the seeded subtitle that promised products, and keeps one an operator wrote", async () => {
    const db = store.db;
    await db.deleteFrom("lang_entry").where("label", "=", "home.hero.subtitle").execute();
    await db
      .insertInto("lang_entry")
      .values([
        { value: "en", label: "home.hero.subtitle", text: "Spot, contracts up to 100x, staking up to 18% a year and new-coin subscriptions, on one account." },
        { value: "de", label: "home.hero.subtitle", text: "Unser Frühlingsangebot: keine Gebühren im April." },
      ])
      .execute();
    await up(db as unknown as Parameters<typeof up>[0]);
    const left = await db.selectFrom("lang_entry").select(["value", "text"]).where("label", "=", "home.hero.subtitle").execute();
    expect(left).toEqual([{ value: "de", text: "Unser Frühlingsangebot: keine Gebühren im April." }]);
  });
});
