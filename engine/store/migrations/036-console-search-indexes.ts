import { sql, type Kysely } from "kysely";

/**
 * The console's searches (issue 29) by index, not by reading every row. The member search: an
 * e-mail's start in any case (`lower(email) like 'text%'`), and a phone number's last digits, typed
 * with or without the area code, as the start of the reversed area code and number (this replaces
 * 035's index on the bare number, which a suffix match `like '%digits'` cannot use). The audit
 * log's filters by operator name and by target, newest first (034 indexed the operator's id,
 * which no filter uses).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index if exists member_phone_digits;
    create index member_email_prefix on member (lower(email) text_pattern_ops);
    create index member_phone_suffix on member (reverse(coalesce(area_code, '') || phone) text_pattern_ops);
    create index operator_audit_name on operator_audit (operator_name, id desc);
    create index operator_audit_target on operator_audit (target, id desc);
  `.execute(db);
}
