import { sql, type Kysely } from "kysely";

/**
 * Withdrawals (issue 12), a projection of the wallet's journaled commands: one row per
 * withdrawal with where it stands. The money side (the hold of amount + fee, its release or
 * payment) is in the ledger tables like every other transfer. A start without a snapshot puts
 * the open ones (review, approved, broadcast) back into the core from here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists wallet_withdrawal (
      id varchar(64) primary key,
      seq bigserial not null,
      member_id bigint not null,
      coin varchar(20) not null,
      network varchar(20),
      address varchar(128),
      memo varchar(64),
      amount numeric(38, 18) not null,
      fee numeric(38, 18) not null,
      state varchar(12) not null,
      reason varchar(500),
      txid varchar(128),
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create index if not exists wallet_withdrawal_member on wallet_withdrawal (member_id, seq desc);
    create index if not exists wallet_withdrawal_open on wallet_withdrawal (seq) where state in ('review', 'approved', 'broadcast');
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists wallet_withdrawal`.execute(db);
}
