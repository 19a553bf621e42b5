import { sql, type Kysely } from "kysely";

/**
 * Device sessions get a random public id: the id the devices list, its rename and delete, and the
 * demo member's login log show. The sequential key stays the internal one (a token resolves to
 * it); shown, it let a visitor of the shared demo member count its way to other visitors' sessions.
 * The default is volatile, so every existing row gets its own random id too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table device_session add column if not exists public_id uuid not null default gen_random_uuid()`.execute(db);
  await sql`create unique index if not exists device_session_public_id on device_session (public_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists device_session_public_id`.execute(db);
  await sql`alter table device_session drop column if exists public_id`.execute(db);
}
