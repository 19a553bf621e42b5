import { sql, type Kysely } from "kysely";

/**
 * Wallet e-mails (issue 12, docs/decisions/030-wallet-emails.md).
 *
 * `outbox_message.dedupe_key`: what a message is about (`deposit:<id>`, `withdrawal:<id>:<state>`),
 * unique, so that whatever writes it twice (a replay of the journal, a rebuild of the projection)
 * writes one row: the projection inserts with `on conflict (dedupe_key) do nothing`. Code
 * messages have none (NULLs never clash).
 * `member.lang`: the language the member last logged in or registered with (null: English), the
 * language of the mails no request of theirs asks for.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table outbox_message add column if not exists dedupe_key varchar(200);
    create unique index if not exists outbox_message_dedupe on outbox_message (dedupe_key);
    alter table member add column if not exists lang varchar(8);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table member drop column if exists lang;
    drop index if exists outbox_message_dedupe;
    alter table outbox_message drop column if exists dedupe_key;
  `.execute(db);
}
