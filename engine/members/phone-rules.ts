import { sql, type Kysely } from "kysely";
import type { Database } from "../store/schema";

/**
 * Spec §5: a valid phone for its area code — the dial code must be one of the configured area
 * codes and the number's length within that country's range (the web form checks the same).
 */
export async function phoneFitsArea(db: Kysely<Database>, areaCode: string, phone: string): Promise<boolean> {
  const row = await db
    .selectFrom("area_code")
    .select(sql<number>`count(*)::int`.as("n"))
    .where("dial_code", "=", areaCode)
    .where("phone_min_length", "<=", phone.length)
    .where("phone_max_length", ">=", phone.length)
    .executeTakeFirstOrThrow();
  return row.n > 0;
}
