import { sql, type Kysely } from "kysely";

/**
 * Priority support requests (issue 14, docs/decisions/032-session-and-support-settings.md):
 * `member.support_requested_at` is when the member pressed the support button (their one request:
 * `supported` is 1 from then on), so an operator can list who is waiting, oldest first.
 *
 * `websocketAddress` leaves the site configuration: browsers reach the real-time server through
 * the page's own origin (spec §7 "the address derives from the page host"; decision 018), so the
 * key was stored but never read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table member add column if not exists support_requested_at timestamptz;
    create index if not exists member_support_requested on member (support_requested_at) where support_requested_at is not null;
    delete from site_config where config_key = 'websocketAddress';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index if exists member_support_requested;
    alter table member drop column if exists support_requested_at;
  `.execute(db);
}
