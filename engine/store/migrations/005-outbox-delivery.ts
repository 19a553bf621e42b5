import { sql, type Kysely } from "kysely";

/** Delivery bookkeeping of the outbox: tries and when to try again. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table outbox_message add column attempts smallint not null default 0;
    alter table outbox_message add column next_attempt_at timestamptz not null default now();
    create index outbox_message_pending on outbox_message (next_attempt_at) where delivered_at is null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index outbox_message_pending;
    alter table outbox_message drop column next_attempt_at;
    alter table outbox_message drop column attempts;
  `.execute(db);
}
