import { sql, type Kysely } from "kysely";

/**
 * Members' notifications (issue 14, docs/decisions/031-notifications.md).
 *
 * `member_notice`: one row per thing a member is told (an order filled, a stop triggered, a
 * deposit credited, a withdrawal's step, a KYC decision, a security change): its type, the values
 * its text needs (`params`, rendered in the reader's language when read, never stored as text),
 * what it is about (`service_type`, `order_code`: the page it links to), when, and when the member
 * read it (null: unread). `dedupe_key`: what it is about when only one may ever be written (the
 * projection's rows, written `on conflict (dedupe_key) do nothing`); the member service's rows
 * have none (NULLs never clash). The partial index counts a member's unread ones without reading
 * the rest.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists member_notice (
      id bigserial primary key,
      member_id bigint not null references member (id) on delete cascade,
      type varchar(40) not null,
      service_type varchar(20) not null,
      order_code varchar(100),
      params jsonb not null default '{}',
      created_at timestamptz not null,
      read_at timestamptz,
      dedupe_key varchar(200)
    );
    create unique index if not exists member_notice_dedupe on member_notice (dedupe_key);
    create index if not exists member_notice_member on member_notice (member_id, id desc);
    create index if not exists member_notice_unread on member_notice (member_id) where read_at is null;
    create index if not exists member_notice_created on member_notice (created_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists member_notice`.execute(db);
}
