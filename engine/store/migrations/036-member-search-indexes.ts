import { sql, type Kysely } from "kysely";

/**
 * The operators' member search (issue 29) by index, not by reading every member: an e-mail's
 * start in any case (`lower(email) like 'text%'`), and a phone number's last digits, typed with or
 * without the area code, as the start of the reversed area code and number. Replaces 035's index
 * on the bare number, which a suffix match (`like '%digits'`) cannot use.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index if exists member_phone_digits;
    create index member_email_prefix on member (lower(email) text_pattern_ops);
    create index member_phone_suffix on member (reverse(coalesce(area_code, '') || phone) text_pattern_ops);
  `.execute(db);
}
