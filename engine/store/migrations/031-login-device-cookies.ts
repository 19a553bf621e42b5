import { sql, type Kysely } from "kysely";

/**
 * Device cookies (decision 040): a browser a member logged in from gets an opaque token, stored
 * here only as its digest, for the account it logged in to. A login that presents it is limited
 * per cookie, not by the account's limit for strangers. Deleting a row revokes its cookie.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table login_device_cookie (
      id bigserial primary key,
      member_id bigint not null references member (id),
      token_hash char(64) not null unique,
      created_at timestamptz not null,
      expires_at timestamptz not null
    );
    create index login_device_cookie_member on login_device_cookie (member_id)
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists login_device_cookie`.execute(db);
}
