import { sql, type Kysely } from "kysely";

/**
 * A member frozen by an operator (issue 29): `frozen_at` set means no login and no session (the
 * freeze revokes them in its transaction); `frozen_reason` is what the operator stated, kept for
 * the next operator (the audit row holds it too). Unfreezing clears both.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table member add column frozen_at timestamptz;
    alter table member add column frozen_reason text;
    create index member_phone_digits on member (phone);
  `.execute(db);
}
