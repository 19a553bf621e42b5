import type { AuditInsert } from "../operators/audit";
import type { Kysely } from "kysely";
import { fromMinor, toMinor } from "../../protocol/money";
import type { Command, Deposit, DepositSource, MoveFunds } from "../core/exchange/commands";
import { eventsOf } from "../core/exchange/events";
import type { ExchangeCore } from "../core/exchange/exchange-core";
import { accountId, type AccountKind, type AccountRef } from "../core/ledger/ledger";
import { eachHold, minorOf } from "../store/bulk-restore";
import type { Database } from "../store/schema";
import type { DurableCore } from "./durable-core";
import { InFlightRequests, KEY_REUSED, requestFingerprint } from "./idempotency";
import type { Accepted, Product, ProjectionContext } from "./product";

/** What a transfer between a member's accounts answers. */
export type TransferCode = "OK" | "RISK_INSUFFICIENT_AVAILABLE" | "ORDER_BAD_COMMAND" | typeof KEY_REUSED;

/**
 * The ledger's own operations, for every area: funds moved between a member's accounts (funding ↔
 * spot, later contract, margin and earn), deposits from outside, and balances from memory. It is
 * also the ledger's product: it projects its commands' transfers, and restores balances and holds
 * from the tables when a start has no snapshot.
 */
export class Funds implements Product {
  readonly name = "funds";
  readonly commands = ["ledger.transfer", "ledger.deposit"] as const;
  private readonly transfersInFlight = new InFlightRequests<TransferCode>();
  /** Deposit ids being applied and committed right now: a duplicate meanwhile is refused. */
  private readonly depositsInFlight = new Set<string>();
  /** Transfer and deposit ids accepted but not yet in `ledger_transfer`, so a retry meanwhile is known. */
  private readonly unprojected = new Map<string, { seq: number; debit: string; credit: string | null; asset: string; amount: string }>();

  constructor(private readonly durable: DurableCore) {}

  /**
   * Moves funds between a member's own accounts, as a ledger transfer. The transfer id carries the
   * idempotency key: a retry gets "OK" once the first has moved the funds (also while it
   * commits); the same id with another coin, amount or direction is refused.
   */
  async transferBetween(memberId: string, asset: string, from: AccountKind, to: AccountKind, amount: string, transferId: string): Promise<TransferCode> {
    let minor: bigint;
    try {
      minor = toMinor(amount, this.durable.scaleOf(asset));
    } catch {
      return "ORDER_BAD_COMMAND";
    }
    const debit = accountId({ owner: memberId, kind: from, asset });
    const credit = accountId({ owner: memberId, kind: to, asset });
    const canonical = fromMinor(minor, this.durable.scaleOf(asset));
    const fingerprint = requestFingerprint({ debit, credit, asset, amount: canonical });
    const command: MoveFunds = { type: "ledger.transfer", id: transferId, memberId, asset, from, to, amount: canonical };
    return this.transfersInFlight.run(
      transferId,
      fingerprint,
      () => this.transferOnce(command, fingerprint),
      () => KEY_REUSED,
    );
  }

  private async transferOnce(command: MoveFunds, fingerprint: string): Promise<TransferCode> {
    // A retry: the journal already has it (memory only knows this run's ids).
    const earlier = await this.accepted(command.id);
    if (earlier) {
      const same =
        requestFingerprint({ debit: earlier.debit, credit: earlier.credit ?? undefined, asset: earlier.asset, amount: earlier.amount }) === fingerprint;
      return same ? "OK" : KEY_REUSED;
    }
    return (await this.durable.execute(command)).code;
  }

  /**
   * A deposit from outside (operator credit, demo funds, the chain watcher with its `source`);
   * false if the id was credited before.
   */
  async deposit(
    memberId: string,
    asset: string,
    kind: AccountKind,
    amount: string,
    depositId: string,
    source?: DepositSource,
    /** An operator's credit: its audit row, committed with it (decision 043). */
    audit?: () => AuditInsert,
  ): Promise<boolean> {
    // A second deposit with the id while the first commits is refused like one after it.
    if (this.depositsInFlight.has(depositId)) return false;
    this.depositsInFlight.add(depositId);
    try {
      if (await this.accepted(depositId)) return false;
      const command: Deposit = { type: "ledger.deposit", id: depositId, memberId, asset, kind, amount, ...(source ? { source } : {}) };
      return (await this.durable.execute(command, audit ? { audit } : {})).code === "OK";
    } finally {
      this.depositsInFlight.delete(depositId);
    }
  }

  /** The ledger's decimals of an asset; undefined for an asset the ledger does not carry. */
  scaleOf(asset: string): number | undefined {
    return this.durable.core.assetScales.get(asset);
  }

  /** A member's balances of one account kind, as decimal strings. */
  balances(memberId: string, kind: AccountKind): Array<{ coin: string; available: string; frozen: string }> {
    const { core } = this.durable;
    return [...core.assetScales.entries()].map(([asset, scale]) => {
      const ref: AccountRef = { owner: memberId, kind, asset };
      return { coin: asset, available: fromMinor(core.ledger.available(ref), scale), frozen: fromMinor(core.ledger.held(ref), scale) };
    });
  }

  /** An accepted transfer's accounts and amount (canonical decimal), if there is one. */
  private async accepted(transferId: string) {
    const pending = this.unprojected.get(transferId);
    if (pending) return pending;
    const row = await this.durable.db
      .selectFrom("ledger_transfer")
      .select(["debit", "credit", "asset", "amount"])
      .where("id", "=", transferId)
      .executeTakeFirst();
    // The amount as stored (trailing zeros and all): the fingerprint compares decimals canonically.
    return row;
  }

  project(command: Command, outcome: Accepted, ctx: ProjectionContext): void {
    if (command.type !== "ledger.transfer" && command.type !== "ledger.deposit") return;
    const transfers = eventsOf(outcome.events, "transfer");
    ctx.touched(command.memberId);
    ctx.transfers(transfers);
    const first = transfers.find((t) => t.id === command.id) ?? transfers[0];
    if (first)
      this.unprojected.set(command.id, {
        seq: ctx.seq,
        debit: first.debit,
        credit: first.credit ?? null,
        asset: first.asset,
        amount: fromMinor(first.amount, ctx.core.scaleOf(first.asset)),
      });
  }

  /** The tables now include `cursor`: transfer ids up to it are found in `ledger_transfer` again. */
  projectedUpTo(cursor: number): void {
    for (const [id, t] of this.unprojected) {
      if (t.seq > cursor) break; // in sequence order
      this.unprojected.delete(id);
    }
  }

  /** Balances, then holds (they can be millions: read in pages of joined text, bulk-restore.ts). */
  async restoreFromTables(core: ExchangeCore, db: Kysely<Database>): Promise<void> {
    for (const a of await db.selectFrom("ledger_account").selectAll().execute()) {
      const scale = core.scaleOf(a.asset);
      core.ledger.restoreBalance(a.id, minorOf(String(a.posted), scale), minorOf(String(a.held), scale));
    }
    await eachHold(db, (id, accountId, asset, remaining) => core.ledger.restoreHold(id, accountId, asset, minorOf(remaining, core.scaleOf(asset))));
  }
}
