import { sql, type Kysely } from "kysely";
import type { Database } from "../store/schema";

/** Notifications older than this are deleted (decision 031). */
export const NOTICE_RETENTION_DAYS = 90;
/** A member keeps at most this many: the newest. */
export const NOTICES_PER_MEMBER = 200;

/**
 * Deletes what the retention lets go: notifications older than 90 days, and a member's beyond
 * their newest 200 (read or not: a member that never reads is told of the newest). A housekeeping
 * chore; answers how many rows went.
 */
export async function pruneNotices(db: Kysely<Database>, now: number): Promise<number> {
  const old = await db
    .deleteFrom("member_notice")
    .where("created_at", "<", new Date(now - NOTICE_RETENTION_DAYS * 86_400_000))
    .executeTakeFirst();
  const extra = await sql`
    delete from member_notice d
    using (
      select id from (
        select id, row_number() over (partition by member_id order by id desc) as n
        from member_notice
        where member_id in (select member_id from member_notice group by member_id having count(*) > ${NOTICES_PER_MEMBER})
      ) ranked
      where n > ${NOTICES_PER_MEMBER}
    ) gone
    where d.id = gone.id`.execute(db);
  return Number(old.numDeletedRows) + Number(extra.numAffectedRows ?? 0n);
}
