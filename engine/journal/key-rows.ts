import type { Insertable } from "kysely";
import type { IdempotencyKeyTable } from "../store/schema";
import type { ProjectionRows, RowsKind } from "./command-batch";
import { insertStatement } from "./sql-script";

/**
 * The idempotency keys of a batch's accepted commands, as `idempotency_key` rows written behind
 * the answer (decision 017, "the steps after" 2): until then the key is in its command's journal
 * row and in memory (`KeptAnswers`). A key's row is written once, with its command's rows.
 */
export class KeyRows implements ProjectionRows {
  /**
   * By `member:key`, the last one kept: one statement cannot insert a key twice (`on conflict do
   * update` refuses to touch a row twice), and a replay's batch of thousands of commands can hold
   * a key and its reuse after the window.
   */
  private readonly rows = new Map<string, Insertable<IdempotencyKeyTable>>();

  add(row: Insertable<IdempotencyKeyTable>): void {
    const id = `${row.member_id}:${row.key}`;
    this.rows.delete(id);
    this.rows.set(id, row);
  }

  absorb(later: KeyRows): void {
    for (const row of later.rows.values()) this.add(row);
  }

  statements(): string[] {
    const insert = insertStatement("idempotency_key", [...this.rows.values()], KEY_REPLACES_EXPIRED);
    return insert ? [insert] : [];
  }
}

/**
 * A key's row replaces one left from before the window (rows are pruned with the journal, so an
 * expired one can still be there when the key is used again: memory rightly took it as new).
 */
export const KEY_REPLACES_EXPIRED =
  "on conflict (member_id, key) do update set response = excluded.response, fingerprint = excluded.fingerprint, created_at = excluded.created_at";

export const KEY_ROWS: RowsKind<KeyRows> = { name: "idempotency keys", order: 300, create: () => new KeyRows() };
