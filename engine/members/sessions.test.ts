import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { createMembers } from "./new-member";
import { authenticate, openSessions } from "./sessions";

// Logins through the API are pinned by engine/api/members/*.test.ts; this is the bulk form the bench uses.
describe.each(testStoreKinds())("device sessions on %s", (kind) => {
  let store: TestStore;
  let ids: string[];
  const now = Date.UTC(2026, 0, 10);

  beforeAll(async () => {
    store = await openTestStore(kind);
    const rows = await createMembers(
      store.db,
      [0, 1, 2].map((n) => ({ account: { email: `sessions-${n}@example.com` }, password: null, uid: String(80_000_000 + n), inviteCode: `S${n}SESSION` })),
      now,
    );
    ids = rows.map((r) => String(r.id));
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it("opens many sessions at once, each token its member's, stored only as digests and logged like a login", async () => {
    const logins = ids.map((memberId) => ({ memberId, deviceId: `device-${memberId}`, userAgent: "bench", ip: "127.0.0.1" }));
    const tokens = await openSessions(store.db, logins, now);
    expect(tokens).toHaveLength(3);
    for (const [i, t] of tokens.entries()) expect(await authenticate(store.db, t.access, now + 1000)).toMatchObject({ memberId: ids[i] });
    const rows = await store.db.selectFrom("device_session").select(["access_token_hash", "refresh_token_hash"]).where("member_id", "in", ids).execute();
    const stored = rows.flatMap((r) => [r.access_token_hash, r.refresh_token_hash]);
    expect(stored).toHaveLength(6);
    for (const t of tokens) expect(stored).not.toContain(t.access);
    const logged = await store.db.selectFrom("login_log").select("member_id").where("member_id", "in", ids).execute();
    expect(logged.map((r) => String(r.member_id)).sort()).toEqual([...ids].sort());
  });

  it("replaces a device's earlier session, and only that device's", async () => {
    const [first] = await openSessions(store.db, [{ memberId: ids[0]!, deviceId: "phone", userAgent: "x", ip: "127.0.0.1" }], now);
    const [other] = await openSessions(store.db, [{ memberId: ids[0]!, deviceId: "laptop", userAgent: "x", ip: "127.0.0.1" }], now);
    const [again] = await openSessions(store.db, [{ memberId: ids[0]!, deviceId: "phone", userAgent: "x", ip: "127.0.0.1" }], now + 1);
    expect(await authenticate(store.db, first!.access, now + 2)).toBeNull();
    expect(await authenticate(store.db, again!.access, now + 2)).toMatchObject({ memberId: ids[0] });
    expect(await authenticate(store.db, other!.access, now + 2)).toMatchObject({ memberId: ids[0] });
  });
});
