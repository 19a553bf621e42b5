import type { Kysely } from "kysely";
import { fromMinor } from "../../protocol/money";
import type { Command } from "../core/exchange/commands";
import { eventsOf, membersTouched, type CoreEvent, type TransferEvent } from "../core/exchange/events";
import type { ExchangeCore } from "../core/exchange/exchange-core";
import { accountOf } from "../core/ledger/ledger";
import { LTV_SCALE } from "../core/loans/pledge-loans";
import { MARGIN_RATE_SCALE } from "../core/margin/margin";
import type { Accepted, Product, ProjectionContext } from "../journal/product";
import { minorOf } from "../store/bulk-restore";
import type { Database } from "../store/schema";
import { projectEvents as projectSpotEvents } from "../spot/spot-product";
import { configurePledge, pledgeProductRows } from "./pledge-config";
import { PLEDGE_ROWS, type PledgeRows } from "./pledge-rows";

/** The commands of crypto loans (decision 051). */
export const PLEDGE_COMMANDS = ["pledge.borrow", "pledge.repay", "pledge.collateral", "pledge.tick", "pledge.product"] as const;

/** The loan a pledge account belongs to (`pledge:<id>`, `pledge_debt:<id>`), or null. */
const loanOfKind = (kind: string) => (kind.startsWith("pledge:") ? kind.slice(7) : kind.startsWith("pledge_debt:") ? kind.slice(12) : null);

/**
 * Crypto loans as a product of the durable layer (decisions 017 and 051): each command's rows
 * (loans as the core holds them right after it, closed ones ended; the records of what moved;
 * products changed), and the restore of the loans' part of the core from those tables when a start
 * has no usable snapshot. Products are read from their table at such a start, and any added while
 * the engine was stopped at a start from a snapshot.
 */
export const pledgeProduct: Product = {
  name: "pledge",
  commands: PLEDGE_COMMANDS,

  project(_command: Command, outcome: Accepted, ctx: ProjectionContext): void {
    const events = outcome.events;
    if (!events.some((e) => e.type === "pledge.liquidation_step")) {
      projectEvents(ctx, ctx.batch.rows(PLEDGE_ROWS), events, eventsOf(events, "transfer"));
      return;
    }
    // A liquidation's sale: its spot events (an order placed and traded) are spot's rows, up to the next pledge event.
    const own: TransferEvent[] = [];
    let step: CoreEvent[] | null = null;
    const flush = () => {
      if (step?.length) projectSpotEvents(ctx, step);
      step = null;
    };
    for (const e of events) {
      if (e.type === "pledge.liquidation_step") {
        flush();
        step = [];
      } else if (e.type.startsWith("pledge.")) flush();
      else if (step) step.push(e);
      else if (e.type === "transfer") own.push(e);
    }
    flush();
    projectEvents(ctx, ctx.batch.rows(PLEDGE_ROWS), events, own);
  },

  async restoreFromTables(core: ExchangeCore, db: Kysely<Database>): Promise<void> {
    configurePledge(core, await pledgeProductRows(db));
    const open = await db.selectFrom("pledge_loan").selectAll().where("status", "=", "open").execute();
    for (const l of open) {
      const scale = core.scaleOf(l.loan_asset);
      core.pledges.restoreLoan({
        id: l.id,
        owner: l.member_id,
        productId: l.product_id,
        principal: minorOf(String(l.principal), scale),
        interest: minorOf(String(l.interest), scale),
        nextHour: Number(l.next_hour),
        dueAt: l.due_at === null ? null : new Date(l.due_at).getTime(),
        createdAt: new Date(l.created_at).getTime(),
        warned: l.warned,
      });
    }
  },

  async openConfiguredSince(core: ExchangeCore, db: Kysely<Database>): Promise<boolean> {
    return configurePledge(core, await pledgeProductRows(db));
  },
};

/** The rows of one loan command's events; `own`: the transfers no spot step of it recorded. */
function projectEvents(ctx: ProjectionContext, rows: PledgeRows, events: readonly CoreEvent[], own: TransferEvent[]): void {
  const { core, stamp, seq } = ctx;
  for (const member of membersTouched(events, (id) => accountOf(id).owner)) ctx.touched(member);
  ctx.transfers(own);
  const money = (asset: string, v: bigint) => fromMinor(v, core.scaleOf(asset));
  const touched = new Set<string>();
  const liquidated = new Set<string>();
  const liquidating = new Set<string>();
  const record = (
    loanId: string,
    memberId: string,
    kind: "borrow" | "repay" | "interest" | "add" | "remove" | "liquidation" | "writeoff",
    asset: string,
    amount: bigint,
    principal = 0n,
    interest = 0n,
  ) =>
    rows.record({
      seq: String(seq),
      loan_id: loanId,
      member_id: memberId,
      kind,
      asset,
      amount: money(asset, amount),
      principal: money(asset, principal),
      interest: money(asset, interest),
      created_at: stamp,
    });
  const assetsOf = (productId: string) => {
    const p = core.pledges.products.get(productId)!;
    return { loan: p.loanAsset, collateral: p.collateralAsset };
  };
  for (const e of events) {
    switch (e.type) {
      case "pledge.borrowed":
        touched.add(e.loanId);
        record(e.loanId, e.memberId, "borrow", assetsOf(e.productId).loan, e.amount, e.amount);
        record(e.loanId, e.memberId, "add", assetsOf(e.productId).collateral, e.collateral);
        break;
      case "pledge.repaid":
        touched.add(e.loanId);
        // A liquidation's repayment (from the sale) is its record; a member's is a repayment.
        record(
          e.loanId,
          e.memberId,
          liquidating.has(e.loanId) ? "liquidation" : "repay",
          assetsOf(e.productId).loan,
          e.principal + e.interest,
          e.principal,
          e.interest,
        );
        if (e.closed) rows.close(e.loanId, liquidating.has(e.loanId) ? "liquidated" : "repaid", stamp);
        break;
      case "pledge.liquidating":
        liquidating.add(e.loanId);
        break;
      case "pledge.collateral":
        touched.add(e.loanId);
        record(e.loanId, e.memberId, e.direction, assetsOf(e.productId).collateral, e.amount);
        break;
      case "pledge.ltv":
        touched.add(e.loanId);
        break;
      case "pledge.liquidated":
        touched.add(e.loanId);
        if (e.writtenOff > 0n) record(e.loanId, e.memberId, "writeoff", assetsOf(e.productId).loan, e.writtenOff);
        if (e.closed) liquidated.add(e.loanId);
        break;
      case "pledge.product": {
        const p = core.pledges.products.get(e.productId)!;
        rows.product({
          id: p.id,
          loan_asset: p.loanAsset,
          collateral_asset: p.collateralAsset,
          term_days: p.termDays,
          hourly_rate: fromMinor(p.hourlyRate, MARGIN_RATE_SCALE),
          overdue_rate: fromMinor(p.overdueRate, MARGIN_RATE_SCALE),
          initial_ltv: fromMinor(p.initialLtv, LTV_SCALE),
          call_ltv: fromMinor(p.callLtv, LTV_SCALE),
          liquidation_ltv: fromMinor(p.liquidationLtv, LTV_SCALE),
          min_amount: money(p.loanAsset, p.minAmount),
          max_amount: money(p.loanAsset, p.maxAmount),
          enabled: p.enabled,
        });
        break;
      }
    }
  }
  // Interest charged (the debt account to the pool), one record per loan and charge; every loan a transfer touched gets its row.
  for (const t of eventsOf(events, "transfer")) {
    for (const id of t.credit ? [t.debit, t.credit] : [t.debit]) {
      const loanId = loanOfKind(accountOf(id).kind);
      if (loanId !== null) touched.add(loanId);
    }
    if (t.credit === null || accountOf(t.credit).kind !== "pledge_lending") continue;
    const debit = accountOf(t.debit);
    const loanId = loanOfKind(debit.kind);
    if (loanId !== null && debit.kind.startsWith("pledge_debt:")) record(loanId, debit.owner, "interest", debit.asset, t.amount, 0n, t.amount);
  }
  for (const id of liquidated) rows.close(id, "liquidated", stamp);
  for (const id of touched) {
    const loan = core.pledges.loan(id);
    if (!loan) continue;
    const p = core.pledges.productOf(loan);
    rows.loan({
      id,
      member_id: loan.owner,
      product_id: loan.productId,
      loan_asset: p.loanAsset,
      collateral_asset: p.collateralAsset,
      principal: money(p.loanAsset, loan.principal),
      interest: money(p.loanAsset, loan.interest),
      collateral: money(p.collateralAsset, core.pledges.collateralOf(loan)),
      next_hour: String(loan.nextHour),
      due_at: loan.dueAt === null ? null : new Date(loan.dueAt).toISOString(),
      warned: loan.warned,
      status: "open",
      created_at: new Date(loan.createdAt).toISOString(),
      updated_at: stamp,
    });
  }
}
