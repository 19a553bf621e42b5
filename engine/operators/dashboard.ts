import { sql, type Kysely } from "kysely";
import { KYC_STATUS } from "../../protocol/member";
import type { DurableCore } from "../journal/durable-core";
import type { Database } from "../store/schema";

/**
 * The console's first page: is the exchange well (the journal, the tables' lag behind it, the last
 * snapshot, mail waiting to go out) and what waits for an operator (withdrawals and identities in
 * review). Counted when asked; the console asks once per page view.
 */
export class Dashboard {
  private readonly startedAt = new Date().toISOString();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly durable: DurableCore | null,
    private readonly simulator: boolean,
  ) {}

  async read() {
    const count = (value: unknown) => Number(value ?? 0);
    const [outbox, withdrawals, kyc, members, snapshot] = await Promise.all([
      this.db
        .selectFrom("outbox_message")
        .select(sql<string>`count(*)`.as("n"))
        .where("delivered_at", "is", null)
        .executeTakeFirst(),
      this.db
        .selectFrom("wallet_withdrawal")
        .select(sql<string>`count(*)`.as("n"))
        .where("state", "=", "review")
        .executeTakeFirst(),
      this.db
        .selectFrom("kyc_submission")
        .select(sql<string>`count(*)`.as("n"))
        .where("status", "=", KYC_STATUS.review)
        .executeTakeFirst(),
      this.db
        .selectFrom("member")
        .select(sql<string>`count(*)`.as("n"))
        .executeTakeFirst(),
      this.db.selectFrom("core_snapshot").select(["seq", "created_at"]).orderBy("seq", "desc").limit(1).executeTakeFirst(),
    ]);
    return {
      startedAt: this.startedAt,
      journalSeq: this.durable?.core.lastSeq ?? 0,
      projectedSeq: this.durable?.projectedSeq ?? 0,
      lastSnapshotSeq: snapshot ? Number(snapshot.seq) : -1,
      lastSnapshotAt: snapshot ? new Date(snapshot.created_at).toISOString() : null,
      outboxWaiting: count(outbox?.n),
      withdrawalsInReview: count(withdrawals?.n),
      kycInReview: count(kyc?.n),
      simulator: this.simulator,
      members: count(members?.n),
    };
  }
}
