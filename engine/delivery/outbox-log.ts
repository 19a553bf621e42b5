import type { Kysely } from "kysely";
import type { OutboxRow } from "../../protocol/endpoints/operators";
import type { Database } from "../store/schema";
import { MAX_DELIVERY_ATTEMPTS } from "./outbox-worker";

/** Where a message stands: sent, still being tried, or given up after its last attempt. */
export type OutboxState = "waiting" | "delivered" | "failed";

/**
 * The outbox as operators read it (issue 29): every e-mail and text message, newest first, with
 * its delivery: sent, waiting for its next attempt (and the last error), or given up. A message's
 * text holds codes that would let its reader act as the member, so it is shown only where nothing
 * leaves the machine (`showBodies`: the dev mailbox of an install without real delivery).
 */
export class OutboxLog {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly showBodies: boolean,
  ) {}

  async list(
    filter: { destination?: string; state?: OutboxState; before?: string },
    size: number,
  ): Promise<{ rows: OutboxRow[]; next: string | null; bodiesShown: boolean }> {
    let query = this.db.selectFrom("outbox_message").selectAll();
    if (filter.destination) query = query.where("destination", "=", filter.destination.trim().toLowerCase());
    if (filter.state === "delivered") query = query.where("delivered_at", "is not", null);
    if (filter.state === "waiting") query = query.where("delivered_at", "is", null).where("attempts", "<", MAX_DELIVERY_ATTEMPTS);
    if (filter.state === "failed") query = query.where("delivered_at", "is", null).where("attempts", ">=", MAX_DELIVERY_ATTEMPTS);
    if (filter.before) query = query.where("id", "<", filter.before);
    const found = await query
      .orderBy("id", "desc")
      .limit(size + 1)
      .execute();
    const page = found.slice(0, size);
    return {
      rows: page.map((row) => ({
        id: row.id,
        channel: row.channel,
        destination: row.destination,
        // A code mail's subject carries its code too ("… verification code: 123456").
        subject: this.showBodies ? row.subject : maskCodes(row.subject),
        createdAt: new Date(row.created_at).toISOString(),
        state: row.delivered_at !== null ? "delivered" : row.attempts >= MAX_DELIVERY_ATTEMPTS ? "failed" : "waiting",
        deliveredAt: row.delivered_at === null ? null : new Date(row.delivered_at).toISOString(),
        attempts: row.attempts,
        error: row.delivery_error,
        body: this.showBodies ? row.body : null,
      })),
      next: found.length > size ? page.at(-1)!.id : null,
      bodiesShown: this.showBodies,
    };
  }
}

/** A subject with every run of 4 or more digits hidden: codes are never shown where mail really leaves. */
export function maskCodes(subject: string): string {
  return subject.replace(/\d{4,}/g, (digits) => "•".repeat(digits.length));
}
