import { sql, type Kysely, type RawBuilder } from "kysely";
import type { Database } from "../store/schema";

/**
 * Keeps the simulated liquidity's own history to what the charts and lists need. The bots write
 * some 25,000 orders and 65,000 journal entries an hour (a demo install grew ~3 GB a day); nobody
 * reads them after a few minutes: the charts read k-lines (kept), the trade list the latest
 * trades (kept while recent), and bots never log in to see their orders. Deleted, when older
 * than the cut-off:
 * - trades between two bots (a trade with any other member is that member's history: kept);
 * - the bots' finished orders that no remaining trade names (open ones are the book: kept);
 * - journal entries that touch a bot's account and otherwise only system accounts (the
 *   balances and holds tables, which restarts read, are untouched).
 * Bots are the simulator's members, given by id (never guessed from an address or a UID range).
 * Deletes go in batches of `batchSize` rows, each its own statement, so commits of orders wait
 * behind one short batch at most, never behind the whole prune.
 */
/** Bot history older than this is pruned: an hour of trades is far more than the trade list shows. */
export const BOT_HISTORY_RETENTION_MS = 60 * 60_000;

export interface PruneCounts {
  trades: number;
  orders: number;
  transfers: number;
  /** Contract trades between bots (with their fills), and the bots' ended contract orders no fill names. */
  contractTrades: number;
  contractOrders: number;
}

export class BotHistoryPruner {
  /** Journal entries up to this sequence number were looked at already (kept ones stay kept). */
  private transferCursor = "0";

  constructor(
    private readonly db: Kysely<Database>,
    private readonly botIds: readonly string[],
    private readonly batchSize = 2_000,
  ) {}

  async prune(before: Date): Promise<PruneCounts> {
    const counts: PruneCounts = { trades: 0, orders: 0, transfers: 0, contractTrades: 0, contractOrders: 0 };
    if (!this.botIds.length) return counts;
    const bots = sql.join(this.botIds.map((id) => sql`${id}`));
    const cutoff = before.toISOString();
    // Trades first: a finished bot order whose bot-vs-bot trades are gone is then free to go.
    counts.trades = await this.inBatches(
      (limit) => sql`delete from spot_trade where id in (
        select id from spot_trade
        where buyer in (${bots}) and seller in (${bots}) and created_at < ${cutoff}::timestamptz
        order by id limit ${limit})`,
    );
    counts.orders = await this.inBatches(
      (limit) => sql`delete from spot_order where seq in (
        select o.seq from spot_order o
        where o.member_id in (${bots}) and o.status in ('filled', 'cancelled') and o.updated_at < ${cutoff}::timestamptz
          and not exists (select 1 from spot_trade t where t.taker_order_id = o.order_id)
          and not exists (select 1 from spot_trade t where t.maker_order_id = o.order_id)
        order by o.seq limit ${limit})`,
    );
    // Contracts the same way: bot-only trades (and their fills), then the bots' ended orders no fill names.
    counts.contractTrades = await this.inBatches(
      (limit) => sql`with gone as (
          delete from contract_trade where id in (
            select t.id from contract_trade t
            where t.created_at < ${cutoff}::timestamptz
              and not exists (select 1 from contract_fill f where f.trade_id = t.id and f.member_id not in (${bots}))
            order by t.seq limit ${limit})
          returning id)
        delete from contract_fill where trade_id in (select id from gone)`,
      true,
    );
    counts.contractOrders = await this.inBatches(
      (limit) => sql`delete from contract_order where order_id in (
        select o.order_id from contract_order o
        where o.member_id in (${bots}) and o.status <> 'open' and o.updated_at < ${cutoff}::timestamptz
          and not exists (select 1 from contract_fill f where f.order_id = o.order_id)
        order by o.seq limit ${limit})`,
    );
    counts.transfers = await this.pruneJournal(bots, cutoff);
    return counts;
  }

  /**
   * Runs a batched delete until a batch deletes less than a full batch (`halved`: the statement
   * deletes two rows per batch row, a trade's two fills, so a full batch is twice the limit).
   */
  private async inBatches(statement: (limit: number) => RawBuilder<unknown>, halved = false): Promise<number> {
    let total = 0;
    for (;;) {
      const result = await statement(this.batchSize).execute(this.db);
      const affected = Number(result.numAffectedRows ?? 0n);
      const deleted = halved ? Math.ceil(affected / 2) : affected;
      total += deleted;
      if (deleted < this.batchSize) return total;
      await yieldToCommits();
    }
  }

  /**
   * The journal has no index but its sequence: it is read forward in windows of `batchSize`
   * from where the last prune stopped, and a window is passed for good only once all of it is
   * older than the cut-off (what it kept then is a member's or the system's, kept for ever).
   */
  private async pruneJournal(bots: RawBuilder<unknown>, cutoff: string): Promise<number> {
    const owner = (column: string) => sql`split_part(${sql.ref(column)}, '/', 1)`;
    const botOrSystem = (column: string) => sql`(${owner(column)} in (${bots}) or ${owner(column)} like '@%')`;
    let total = 0;
    for (;;) {
      const window = await sql<{ last: string | null; all_old: boolean | null }>`
        select max(seq)::text as last, bool_and(created_at < ${cutoff}::timestamptz) as all_old
        from (select seq, created_at from ledger_transfer where seq > ${this.transferCursor} order by seq limit ${this.batchSize}) w`.execute(this.db);
      const { last, all_old } = window.rows[0] ?? { last: null, all_old: null };
      if (last === null) return total;
      const deleted = await sql`delete from ledger_transfer
        where seq > ${this.transferCursor} and seq <= ${last} and created_at < ${cutoff}::timestamptz
          and ${botOrSystem("debit")} and (credit is null or ${botOrSystem("credit")})
          and (${owner("debit")} in (${bots}) or ${owner("credit")} in (${bots}))`.execute(this.db);
      total += Number(deleted.numAffectedRows ?? 0n);
      if (!all_old) return total;
      this.transferCursor = last;
      await yieldToCommits();
    }
  }
}

/** Lets the group commit that queued behind a batch run before the next batch. */
const yieldToCommits = () => new Promise<void>((resolve) => setImmediate(resolve));
