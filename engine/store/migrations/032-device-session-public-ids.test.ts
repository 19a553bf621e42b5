import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStore, testStoreKinds, type TestStore } from "../../testing/test-stores";
import { down, up } from "./032-device-session-public-ids";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(testStoreKinds())("migration 032 on %s", (kind) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore(kind);
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it("gives every session, old ones too, its own random public id; its key stays; runs twice and back", async () => {
    const db = store.db;
    const migrationDb = db as unknown as Parameters<typeof up>[0];
    // As an install before 032 had them: sessions with only their sequential key.
    await down(migrationDb);
    await sql`insert into member (id, uid, email, password_hash, invite_code, chat_key)
      values (3201, 'm032', 'm032@example.com', 'x', 'i032', 'c032')`.execute(db);
    const { rows } = await sql<{ id: string }>`insert into device_session
      (member_id, device_id, name, access_token_hash, access_expires_at, refresh_token_hash, refresh_expires_at) values
      (3201, 'a', 'A', ${"a".repeat(64)}, now(), ${"b".repeat(64)}, now()),
      (3201, 'b', 'B', ${"c".repeat(64)}, now(), ${"d".repeat(64)}, now())
      returning id`.execute(db);
    await up(migrationDb);
    await up(migrationDb);
    const sessions = await db.selectFrom("device_session").select(["id", "public_id"]).where("member_id", "=", "3201").orderBy("id").execute();
    expect(sessions.map((s) => s.id)).toEqual(rows.map((r) => r.id));
    for (const s of sessions) expect(s.public_id).toMatch(UUID);
    expect(new Set(sessions.map((s) => s.public_id)).size).toBe(2);
    await down(migrationDb);
    await up(migrationDb);
  });
});
