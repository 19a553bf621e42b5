import type { Kysely } from "kysely";
import { fromMinor } from "../../protocol/money";
import type { Command } from "../core/exchange/commands";
import { eventsOf } from "../core/exchange/events";
import type { ExchangeCore } from "../core/exchange/exchange-core";
import type { OpenWithdrawalState } from "../core/wallet/withdrawals";
import type { ProjectionRows, RowsKind } from "../journal/command-batch";
import type { Accepted, Product, ProjectionContext } from "../journal/product";
import { insertStatement, text } from "../journal/sql-script";
import { minorOf } from "../store/bulk-restore";
import type { Database } from "../store/schema";

/** The open states, as the table's partial index names them. */
export const OPEN_WITHDRAWAL_STATES: readonly OpenWithdrawalState[] = ["review", "approved", "broadcast"];

/**
 * A batch's withdrawal rows, in command order: a request inserts its row, a step updates it (a
 * request and its approval can share a batch). Withdrawals are few; a statement each is fine.
 */
class WithdrawalRows implements ProjectionRows {
  private readonly script: string[] = [];

  insert(row: Record<string, unknown>): void {
    const statement = insertStatement("wallet_withdrawal", [row]);
    if (statement) this.script.push(statement);
  }

  step(id: string, change: { state: string; reason?: string; txid?: string; at: string }): void {
    const sets = [`state = ${text(change.state)}`, `updated_at = ${text(change.at)}`];
    if (change.reason !== undefined) sets.push(`reason = ${text(change.reason)}`);
    if (change.txid !== undefined) sets.push(`txid = ${text(change.txid)}`);
    this.script.push(`update wallet_withdrawal set ${sets.join(", ")} where id = ${text(id)}`);
  }

  absorb(later: WithdrawalRows): void {
    this.script.push(...later.script);
  }

  statements(): string[] {
    return this.script;
  }
}

const WITHDRAWAL_ROWS: RowsKind<WithdrawalRows> = { name: "withdrawals", order: 30, create: () => new WithdrawalRows() };

/**
 * Withdrawals as a product of the durable layer (decision 017): the core decides and holds the
 * money (core/wallet/withdrawals.ts); this writes each withdrawal's row and its transfers behind
 * the answer, and puts the open ones back into the core when a start has no snapshot.
 */
export const withdrawalProduct: Product = {
  name: "withdrawals",
  commands: ["wallet.withdraw", "wallet.withdrawal"],

  project(command: Command, outcome: Accepted, ctx: ProjectionContext): void {
    ctx.transfers(eventsOf(outcome.events, "transfer"));
    const rows = ctx.batch.rows(WITHDRAWAL_ROWS);
    for (const e of eventsOf(outcome.events, "withdrawal.changed")) {
      ctx.touched(e.memberId);
      if (e.state === "review" && command.type === "wallet.withdraw") {
        const scale = ctx.core.scaleOf(e.asset);
        rows.insert({
          id: e.id,
          member_id: e.memberId,
          coin: e.asset,
          network: command.network ?? null,
          address: command.address ?? null,
          memo: command.memo ?? null,
          amount: fromMinor(e.amount, scale),
          fee: fromMinor(e.fee, scale),
          state: e.state,
          created_at: ctx.stamp,
          updated_at: ctx.stamp,
        });
      } else rows.step(e.id, { state: e.state, reason: e.reason, txid: e.txid, at: ctx.stamp });
    }
  },

  async restoreFromTables(core: ExchangeCore, db: Kysely<Database>): Promise<void> {
    const open = await db
      .selectFrom("wallet_withdrawal")
      .select(["id", "member_id", "coin", "amount", "fee", "state"])
      .where("state", "in", OPEN_WITHDRAWAL_STATES)
      .orderBy("seq")
      .execute();
    for (const w of open) {
      const scale = core.scaleOf(w.coin);
      core.withdrawals.restore({
        id: w.id,
        memberId: String(w.member_id),
        asset: w.coin,
        amount: minorOf(String(w.amount), scale),
        fee: minorOf(String(w.fee), scale),
        state: w.state as OpenWithdrawalState,
      });
    }
  },
};
