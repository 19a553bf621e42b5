import { sql, type Kysely } from "kysely";

/**
 * Members' withdrawal address books and their whitelist mode (issue 12, docs/decisions/029).
 *
 * `wallet_address`: one row per saved address: the coin and network it is saved for, the address
 * as the network writes it (decision 024's canonical spelling), the destination tag (XRP) or null,
 * the member's label, and when it was saved (the whitelist's 24 hours count from `created_at`).
 * One coin, network, address and tag once per member: a missing tag counts as one value, so the
 * unique index is on `coalesce(memo, '')`.
 * `wallet_address_whitelist`: a row while the member's whitelist mode is on, since `since`.
 *
 * Plain member data, like KYC: no money moves here, so nothing goes through the journal.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists wallet_address (
      id bigserial primary key,
      member_id bigint not null references member (id) on delete cascade,
      coin varchar(20) not null,
      network varchar(20) not null,
      address varchar(128) not null,
      memo varchar(64),
      label varchar(30) not null,
      created_at timestamptz not null
    );
    create unique index if not exists wallet_address_once on wallet_address (member_id, coin, network, address, coalesce(memo, ''));
    create index if not exists wallet_address_member on wallet_address (member_id, id desc);
    create table if not exists wallet_address_whitelist (
      member_id bigint primary key references member (id) on delete cascade,
      since timestamptz not null
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists wallet_address_whitelist, wallet_address`.execute(db);
}
