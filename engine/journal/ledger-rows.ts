import type { Insertable } from "kysely";
import { fromMinor } from "../../protocol/money";
import { accountOf, type Ledger, type TransferEvent } from "../core/ledger/ledger";
import type { LedgerAccountTable, LedgerHoldTable, LedgerTransferTable } from "../store/schema";
import type { ProjectionRows, RowsKind } from "./command-batch";
import { insertStatement, jsonTexts } from "./sql-script";

/**
 * The ledger's query-table rows of one batch: its transfers, and each touched balance and hold
 * as it was after the batch's last command touching it (written once, with that value).
 * Any area's command that moves funds records its transfers here.
 */
export class LedgerRows implements ProjectionRows {
  private readonly transfers: Array<Insertable<LedgerTransferTable>> = [];
  private readonly accounts = new Map<string, Insertable<LedgerAccountTable>>();
  /** Last state of each touched hold; null: used up (deleted). */
  private readonly holds = new Map<string, Insertable<LedgerHoldTable> | null>();

  /**
   * Records the transfers, and the balances and holds they touched as the ledger holds them now
   * (right after them). A transfer whose fact is another row (`factElsewhere`) changes the
   * balances' rows only.
   */
  record(
    transfers: readonly TransferEvent[],
    ledger: Ledger,
    scaleOf: (asset: string) => number,
    at: string,
    factElsewhere?: (t: TransferEvent) => boolean,
  ): void {
    if (!transfers.length) return;
    const touchedHolds = new Map<string, TransferEvent>();
    for (const t of transfers) {
      const scale = scaleOf(t.asset);
      for (const key of t.credit ? [t.debit, t.credit] : [t.debit]) {
        const { owner, kind, asset } = accountOf(key);
        const { posted, held } = ledger.balanceOf(key);
        this.accounts.set(key, { id: key, owner, kind, asset, posted: fromMinor(posted, scale), held: fromMinor(held, scale) });
      }
      if (factElsewhere?.(t)) continue;
      this.transfers.push({
        id: t.id,
        phase: t.phase,
        debit: t.debit,
        credit: t.credit,
        asset: t.asset,
        amount: fromMinor(t.amount, scale),
        pending_id: t.pendingId ?? null,
        created_at: at,
      });
      if (t.phase === "pending") touchedHolds.set(t.id, t);
      if (t.phase === "post" || t.phase === "void") touchedHolds.set(t.pendingId!, t);
    }
    for (const [holdId, t] of touchedHolds) {
      const remaining = ledger.holdRemaining(holdId);
      this.holds.set(holdId, remaining === 0n ? null : { id: holdId, account_id: t.debit, asset: t.asset, remaining: fromMinor(remaining, scaleOf(t.asset)) });
    }
  }

  /** The next batch's: its transfers after these, its balances and holds as it left them. */
  absorb(later: LedgerRows): void {
    for (const t of later.transfers) this.transfers.push(t);
    for (const [key, row] of later.accounts) this.accounts.set(key, row);
    for (const [id, row] of later.holds) this.holds.set(id, row);
  }

  statements(): string[] {
    const kept: Array<Insertable<LedgerHoldTable>> = [];
    const gone: string[] = [];
    for (const [id, row] of this.holds) {
      if (row) kept.push(row);
      else gone.push(id);
    }
    return [
      insertStatement("ledger_transfer", this.transfers),
      insertStatement("ledger_account", [...this.accounts.values()], "on conflict (id) do update set posted = excluded.posted, held = excluded.held"),
      insertStatement("ledger_hold", kept, "on conflict (id) do update set remaining = excluded.remaining"),
      gone.length ? `delete from ledger_hold where id in ${jsonTexts(gone)}` : null,
    ].filter((x): x is string => x !== null);
  }
}

/** After every area's own rows: an area's rows (an order) may be what a hold belongs to. */
export const LEDGER_ROWS: RowsKind<LedgerRows> = { name: "ledger", order: 100, create: () => new LedgerRows() };
