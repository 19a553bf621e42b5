import { sql, type Kysely } from "kysely";

/**
 * The account codes of decision 023 in an install seeded before it: code 3 is the margin
 * account (it said contract), code 4 the contract account (it was missing). A fresh install
 * seeds them from protocol/accounts.ts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update dict_item set item_text = 'Margin account'
    where dict_code = 'account_type' and item_value = '3' and item_text = 'Contract account'`.execute(db);
  await sql`
    insert into dict_item (dict_code, item_value, item_text, item_key, sort)
    select 'account_type', '4', 'Contract account', 'dict.account_type.4', 45
    where exists (select 1 from dict_item where dict_code = 'account_type')
      and not exists (select 1 from dict_item where dict_code = 'account_type' and item_value = '4')`.execute(db);
}

export async function down(): Promise<void> {
  // Labels only; nothing to undo.
}
