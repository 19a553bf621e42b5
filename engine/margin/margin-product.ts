import type { Kysely } from "kysely";
import { fromMinor } from "../../protocol/money";
import type { Command } from "../core/exchange/commands";
import { eventsOf, membersTouched, type CoreEvent, type TransferEvent } from "../core/exchange/events";
import type { ExchangeCore } from "../core/exchange/exchange-core";
import { accountOf } from "../core/ledger/ledger";
import { lendingAccount, MARGIN_RATE_SCALE, type MarginScope } from "../core/margin/margin";
import type { Accepted, Product, ProjectionContext } from "../journal/product";
import { minorOf } from "../store/bulk-restore";
import type { Database } from "../store/schema";
import { configureMargin, marginConfigRows } from "./margin-config";
import { MARGIN_ROWS, type MarginRows } from "./margin-rows";
import { projectEvents as projectSpotEvents } from "../spot/spot-product";

/** The commands of margin trading (decision 050). */
export const MARGIN_COMMANDS = [
  "margin.borrow",
  "margin.repay",
  "margin.transfer",
  "margin.leverage",
  "margin.tick",
  "margin.pool",
  "margin.pair",
  "margin.insurance",
] as const;

/**
 * Margin trading as a product of the durable layer (decisions 017 and 050): each command's rows
 * (loans and margin accounts as the core holds them right after it, the records of what moved),
 * and the restore of margin's part of the core from those tables when a start has no usable
 * snapshot. Its configuration (pools and pairs) is read from its tables at such a start, and any
 * pool or pair added while the engine was stopped at a start from a snapshot.
 */
export const marginProduct: Product = {
  name: "margin",
  commands: MARGIN_COMMANDS,

  project(_command: Command, outcome: Accepted, ctx: ProjectionContext): void {
    const events = outcome.events;
    if (!events.some((e) => e.type === "margin.liquidation_step")) {
      projectEvents(ctx, ctx.batch.rows(MARGIN_ROWS), events, eventsOf(events, "transfer"));
      return;
    }
    // A liquidation: each step's spot events (an order cancelled, placed and traded on one market)
    // are spot's rows, up to the next margin event; the rest is margin's. Each transfer is recorded once.
    const own: TransferEvent[] = [];
    let step: CoreEvent[] | null = null;
    const flush = () => {
      if (step?.length) projectSpotEvents(ctx, step);
      step = null;
    };
    for (const e of events) {
      if (e.type === "margin.liquidation_step") {
        flush();
        step = [];
      } else if (e.type.startsWith("margin.")) flush();
      else if (step) step.push(e);
      else if (e.type === "transfer") own.push(e);
    }
    flush();
    projectEvents(ctx, ctx.batch.rows(MARGIN_ROWS), events, own);
  },

  async restoreFromTables(core: ExchangeCore, db: Kysely<Database>): Promise<void> {
    configureMargin(core, await marginConfigRows(db));
    const [loans, accounts] = await Promise.all([db.selectFrom("margin_loan").selectAll().execute(), db.selectFrom("margin_account").selectAll().execute()]);
    for (const l of loans) {
      const scale = core.scaleOf(l.asset);
      core.margin.restoreLoan({
        owner: l.member_id,
        scope: l.scope,
        asset: l.asset,
        principal: minorOf(String(l.principal), scale),
        interest: minorOf(String(l.interest), scale),
        nextHour: Number(l.next_hour),
      });
    }
    core.margin.restore({
      pools: [],
      pairs: [],
      loans: "",
      leverages: accounts.filter((a) => a.leverage !== null).map((a) => [a.member_id, a.scope, a.leverage!]),
      warned: accounts.filter((a) => a.warned).map((a) => [a.member_id, a.scope]),
    });
  },

  async openConfiguredSince(core: ExchangeCore, db: Kysely<Database>): Promise<boolean> {
    return configureMargin(core, await marginConfigRows(db));
  },
};

/** The rows of one margin command's events; `own`: the transfers no spot step of it recorded. */
function projectEvents(ctx: ProjectionContext, rows: MarginRows, events: readonly CoreEvent[], own: TransferEvent[]): void {
  const { core, stamp, seq } = ctx;
  for (const member of membersTouched(events, (id) => accountOf(id).owner)) ctx.touched(member);
  const transfers = eventsOf(events, "transfer");
  ctx.transfers(own);
  const money = (asset: string, v: bigint) => fromMinor(v, core.scaleOf(asset));
  /** Loans whose row changes: every loan account a transfer touched. */
  const loans = new Map<string, { owner: string; scope: MarginScope; asset: string }>();
  const accounts = new Map<string, { owner: string; scope: MarginScope }>();
  for (const t of transfers) {
    for (const id of t.credit ? [t.debit, t.credit] : [t.debit]) {
      const { owner, kind, asset } = accountOf(id);
      if (kind === "loan" || kind.startsWith("loan:")) loans.set(`${owner}|${kind}|${asset}`, { owner, scope: kind === "loan" ? "all" : kind.slice(5), asset });
    }
  }
  for (const e of events) {
    switch (e.type) {
      case "margin.borrowed":
        rows.record({
          seq: String(seq),
          member_id: e.memberId,
          scope: e.scope,
          asset: e.asset,
          kind: "borrow",
          amount: money(e.asset, e.amount),
          principal: money(e.asset, e.amount),
          interest: "0",
          created_at: stamp,
        });
        break;
      case "margin.repaid":
        rows.record({
          seq: String(seq),
          member_id: e.memberId,
          scope: e.scope,
          asset: e.asset,
          kind: "repay",
          amount: money(e.asset, e.principal + e.interest),
          principal: money(e.asset, e.principal),
          interest: money(e.asset, e.interest),
          created_at: stamp,
        });
        break;
      case "margin.transferred":
        rows.record({
          seq: String(seq),
          member_id: e.memberId,
          scope: e.scope,
          asset: e.asset,
          kind: e.direction,
          amount: money(e.asset, e.amount),
          principal: "0",
          interest: "0",
          created_at: stamp,
        });
        break;
      case "margin.written_off":
        rows.record({
          seq: String(seq),
          member_id: e.memberId,
          scope: e.scope,
          asset: e.asset,
          kind: "writeoff",
          amount: money(e.asset, e.insurance + e.pool),
          principal: "0",
          interest: "0",
          created_at: stamp,
        });
        break;
      case "margin.leverage":
        accounts.set(`${e.memberId}|${e.symbol}`, { owner: e.memberId, scope: e.symbol });
        break;
      case "margin.level":
        accounts.set(`${e.memberId}|${e.scope}`, { owner: e.memberId, scope: e.scope });
        break;
      case "margin.pair": {
        const pair = core.margin.pairs.get(e.symbol)!;
        rows.pair({ symbol: pair.symbol, base: pair.base, quote: pair.quote, max_leverage: pair.maxLeverage });
        break;
      }
      case "margin.pool": {
        const pool = core.margin.pools.get(e.asset)!;
        rows.pool({
          asset: e.asset,
          hourly_rate: fromMinor(pool.hourlyRate, MARGIN_RATE_SCALE),
          lend_limit: money(e.asset, pool.limit),
          min_borrow: money(e.asset, pool.minBorrow),
        });
        break;
      }
    }
  }
  // Interest charged: one record per loan and charge (the transfer from its loan account to the pool).
  for (const t of transfers) {
    if (t.credit === null || accountOf(t.credit).kind !== "lending") continue;
    const { owner, kind, asset } = accountOf(t.debit);
    if (owner === lendingAccount(asset).owner || !(kind === "loan" || kind.startsWith("loan:"))) continue;
    rows.record({
      seq: String(seq),
      member_id: owner,
      scope: kind === "loan" ? "all" : kind.slice(5),
      asset,
      kind: "interest",
      amount: money(asset, t.amount),
      principal: "0",
      interest: money(asset, t.amount),
      created_at: stamp,
    });
  }
  for (const { owner, scope, asset } of loans.values()) {
    const loan = core.margin.loan(owner, scope, asset);
    if (!loan) {
      rows.loanGone(owner, scope, asset);
      // The account's last loan closed clears its warning: its row says so.
      if (core.margin.loansOf(owner, scope).size === 0) accounts.set(`${owner}|${scope}`, { owner, scope });
    } else
      rows.loan({
        member_id: owner,
        scope,
        asset,
        principal: money(asset, loan.principal),
        interest: money(asset, loan.interest),
        next_hour: String(loan.nextHour),
        updated_at: stamp,
      });
  }
  for (const { owner, scope } of accounts.values())
    rows.account({
      member_id: owner,
      scope,
      leverage: core.margin.chosenLeverage(owner, scope) ?? null,
      warned: core.margin.isWarned(owner, scope),
    });
}
