import { sql, type Kysely, type Selectable, type Transaction } from "kysely";
import { fromMinor, toMinor } from "../../protocol/money";
import { accountId, accountOf, type AccountKind, type AccountRef, type TransferEvent } from "../core/ledger/ledger";
import type { Side, TimeInForce } from "../core/matching/order-book";
import type { SpotCode, SpotMarket, SpotResult } from "../core/spot/spot-market";
import type { Database, MarketSymbolTable } from "../store/schema";
import type { CancelOrder, ChangeMarketRules, Command, Deposit, HaltMarket, ListMarket, MoveFunds, PlaceOrder } from "../core/exchange/commands";
import { eachJournalCommand, lastJournalSeq, pruneJournal, restoreNewestSnapshot, saveSnapshot, snapshotOf } from "../journal/journal";
import { ExchangeCore } from "../core/exchange/exchange-core";
import { GroupCommitter, type BatchHooks } from "./group-commit";
import { Projector } from "../journal/projector";
import { InFlightRequests, KEY_REUSED, requestFingerprint } from "./idempotency";
import { BatchedLookup } from "../store/batched-lookup";
import { eachHold, eachOpenOrder, Interner, minorOf } from "./bulk-restore";
import { SpotWrites } from "./spot-writes";

/**
 * The spot exchange's I/O layer: rebuilds the ledger and the books from the database at start,
 * runs each command through the deterministic core (`ExchangeCore`, one writer: the event loop)
 * as plain data (core/exchange/commands.ts), and answers only after
 * the command's orders, trades and ledger changes are committed (group commit). A retried
 * command with the same idempotency key gets the first answer back.
 */
export interface PlaceOrderInput {
  symbol: string;
  side: Side;
  type: "limit" | "market";
  price?: string;
  quantity?: string;
  money?: string;
  tif: TimeInForce;
  /** A stop order (docs/decisions/009): waits until the last price reaches one; `price` is its triggerMoney. */
  stopProfitPrice?: string;
  stopLossPrice?: string;
}

/** A service answer: the core's code, or a key reused for a different request. */
export type SpotServiceCode = SpotCode | typeof KEY_REUSED;

export interface OrderAnswer {
  code: SpotServiceCode;
  orderId: string | null;
  status: "open" | "filled" | "cancelled" | "rejected" | "waiting";
  filled: string;
  trades: number;
}

export interface SpotServiceOptions {
  db: Kysely<Database>;
  onFatal: (error: unknown) => void;
  now?: () => number;
  newOrderId?: () => string;
  /** Start from a stored snapshot when there is a good one (default true). */
  snapshots?: boolean;
  warn?: (message: string) => void;
}

/** What one command did in a market, told synchronously as the core applies it (before its commit). */
export interface SpotApplied {
  market: SpotMarket;
  result: SpotResult;
  /** When it happened (ms). */
  at: number;
  /** The commit batch it joins: publish it only after that batch's `afterCommit`. */
  batch: number;
}

export class SpotService {
  /**
   * Settlement ids are `s<seq>.<n>` (decision 017): the sequence is durable (journal, snapshots,
   * projection cursor), so a replay makes the ids the live engine made. (Ids from before the
   * journal carry a per-process prefix with a dash; outside ids carry a colon or a dash.)
   */
  private readonly idPrefix = "s";
  /** The deterministic core every command goes through (replaced once, at start, by a snapshot's). */
  private state = new ExchangeCore(this.idPrefix);
  /** Where the start found the state: a snapshot and how many journal commands after it, or the tables. */
  restoredFrom: { source: "snapshot" | "tables"; seq: number; replayed: number } = { source: "tables", seq: 0, replayed: 0 };
  /** The sequence of the newest stored snapshot (-1: none stored by this process nor loaded at start). */
  private lastSnapshotSeq = -1;
  /**
   * The start rebuilt state the journal does not fully describe (from the tables, past a damaged
   * snapshot, or with markets listed by hand while stopped): write a snapshot before serving.
   */
  needsSnapshot = false;
  private readonly committer: GroupCommitter;
  /** First answers by `member:key`, looked up for all the orders of one event-loop turn at once. */
  private readonly answers: BatchedLookup<{ response: string; fingerprint: string | null }>;
  private readonly inFlight = new InFlightRequests<OrderAnswer>();
  private readonly transfersInFlight = new InFlightRequests<TransferCode>();
  /** Deposit ids being applied and committed right now: a duplicate meanwhile is refused. */
  private readonly depositsInFlight = new Set<string>();
  private orderCounter = 0;
  private readonly appliedListeners: Array<(event: SpotApplied) => void> = [];
  private readonly marketListeners: Array<(market: SpotMarket) => Promise<void> | void> = [];
  /** Symbols an operator is adding right now (a second add of the same one is refused). */
  private readonly adding = new Set<string>();
  /** The rows of each group-commit batch not yet committed, by batch number. */
  private readonly batches = new Map<number, SpotWrites>();
  /** Writes the query tables behind the answer (created at start, at the stored cursor). */
  private projector!: Projector;
  /** The last command that touched each member's rows: their history waits until the tables include it. */
  private readonly memberSeq = new Map<string, number>();
  private memberSweepAt = 1_000;
  /** Transfer and deposit ids accepted but not yet in `ledger_transfer`, so a retry meanwhile is known. */
  private readonly unprojected = new Map<string, { seq: number; debit: string; credit: string | null; asset: string; amount: string }>();

  get core(): ExchangeCore {
    return this.state;
  }

  get ledger() {
    return this.core.ledger;
  }

  get markets(): ReadonlyMap<string, SpotMarket> {
    return this.core.markets;
  }

  private constructor(private readonly options: SpotServiceOptions) {
    this.committer = new GroupCommitter(options.db, options.onFatal);
    // Once a batch's journal rows are durable, its table rows go to the projector.
    this.committer.addHooks({
      afterCommit: (batch) => {
        const writes = this.batches.get(batch);
        this.batches.delete(batch);
        if (writes && writes.size) this.projector.enqueue(writes);
      },
    });
    this.answers = new BatchedLookup(async (keys) => {
      const wanted = keys.map((k) => ({ m: k.slice(0, k.indexOf(":")), k: k.slice(k.indexOf(":") + 1) }));
      // A lateral join: one primary-key probe per key, whatever the table's size.
      const rows = await sql<{ member_id: string; key: string; response: string; fingerprint: string | null }>`select i.member_id, i.key, i.response, i.fingerprint
        from json_to_recordset(${JSON.stringify(wanted)}::json) as v(m bigint, k varchar)
        cross join lateral (select member_id, key, response, fingerprint from idempotency_key where member_id = v.m and key = v.k) i`.execute(options.db);
      return new Map(rows.rows.map((r) => [`${r.member_id}:${r.key}`, { response: r.response, fingerprint: r.fingerprint }]));
    });
  }

  /**
   * Restores the core: from the newest good snapshot and the journal after it (decision 017), or,
   * when there is none (an install older than the journal, or every snapshot damaged), from the
   * tables (balances, holds, open orders in time order, waiting stops).
   */
  static async start(options: SpotServiceOptions): Promise<SpotService> {
    const service = new SpotService(options);
    const { db } = options;
    const warn = options.warn ?? ((message: string) => console.warn(message));
    // The tables include the journal up to the cursor; an install without one wrote them with it.
    const projected = (await Projector.cursorOf(db, "spot")) ?? (await lastJournalSeq(db));
    service.projector = new Projector(db, "spot", projected, options.onFatal, (cursor) => service.projectedUpTo(cursor));
    if (options.snapshots !== false) {
      const found = await restoreNewestSnapshot(db, () => new ExchangeCore(service.idPrefix), warn);
      // A snapshot is stored only once the tables include it; one ahead of them cannot be resumed from.
      if (found && found.core.lastSeq > projected) warn(`snapshot ${found.core.lastSeq} is ahead of the tables (${projected}); restoring from the tables`);
      else if (found) {
        const seq = found.core.lastSeq;
        service.state = found.core;
        try {
          const replayed = await service.replayJournal(seq, projected);
          service.lastSnapshotSeq = seq;
          service.restoredFrom = { source: "snapshot", seq, replayed };
          if (await service.openListedSince()) service.needsSnapshot = true;
          if (found.skipped) service.needsSnapshot = true;
          return service;
        } catch (error) {
          // Rows this replay already wrote came from the snapshot being given up: the tables are no
          // independent fallback any more. Stop, for an operator to look.
          if (service.projector.cursor > projected) throw new Error(`the journal after snapshot ${seq} does not replay (${(error as Error).message}), and the tables were written up to ${service.projector.cursor} from it`);
          service.state = new ExchangeCore(service.idPrefix);
          warn(`the journal after snapshot ${seq} does not replay (${(error as Error).message}); restoring from the tables`);
        }
      }
    }
    // The tables are the state after command `projected`; the journal after it is replayed.
    const cursor = service.projector.cursor;
    await service.restoreFromTables();
    service.core.restoreSeq(cursor);
    const replayed = await service.replayJournal(cursor, cursor);
    service.restoredFrom = { source: "tables", seq: cursor, replayed };
    service.needsSnapshot = true;
    return service;
  }

  /**
   * Replays the journal after `afterSeq` through the core (each command must take its recorded
   * number again), and writes the table rows of those after `projected` (the tables were behind
   * when the engine stopped) before anything is served. Answers the commands replayed.
   */
  private async replayJournal(afterSeq: number, projected: number): Promise<number> {
    let writes = new SpotWrites();
    const replayed = await eachJournalCommand(this.options.db, afterSeq, (seq, command, at) => {
      const outcome = this.core.apply(command);
      if (outcome.seq !== seq) throw new Error(`journal command ${seq} replays as ${outcome.seq ?? outcome.code}`);
      if (seq <= projected) return;
      writes.noteSeq(seq);
      this.project(writes, command, outcome, at);
      if (writes.size < 5_000) return;
      this.projector.enqueue(writes);
      writes = new SpotWrites();
      return this.projector.drain();
    });
    if (writes.size) this.projector.enqueue(writes);
    await this.projector.drain();
    return replayed;
  }

  /** Assets and markets in the configuration tables that the snapshot does not know yet (listed by hand while stopped). */
  private async openListedSince(): Promise<boolean> {
    const { db } = this.options;
    let opened = false;
    for (const a of await db.selectFrom("asset").selectAll().execute()) {
      if (this.core.assetScales.has(a.code)) continue;
      this.core.listAsset(a.code, a.scale);
      opened = true;
    }
    const symbols = await db.selectFrom("market_symbol").selectAll().where("enabled", "=", true).where("contract_type", "=", 0).execute();
    for (const s of symbols) if (!this.markets.has(s.symbol_name)) opened = this.open(s) !== null || opened;
    return opened;
  }

  private async restoreFromTables(): Promise<void> {
    const { db } = this.options;
    for (const a of await db.selectFrom("asset").selectAll().execute()) this.core.listAsset(a.code, a.scale);
    const symbols = await db.selectFrom("market_symbol").selectAll().where("enabled", "=", true).where("contract_type", "=", 0).execute();
    for (const s of symbols) this.open(s);
    for (const a of await db.selectFrom("ledger_account").selectAll().execute()) {
      const scale = this.scaleOf(a.asset);
      this.ledger.restoreBalance(a.id, toMinor(trim(a.posted), scale), toMinor(trim(a.held), scale));
    }
    // Holds and open orders can be millions: read in pages of joined text (bulk-restore.ts).
    await eachHold(db, (id, accountId, asset, remaining) => this.ledger.restoreHold(id, accountId, asset, minorOf(remaining, this.scaleOf(asset))));
    // A fired stop's time priority is when it fired (triggered_seq), not when it was placed.
    for (const market of this.markets.values()) {
      const c = market.config;
      const prices = new Interner((text) => minorOf(text, c.priceScale)); // many orders share a price
      await eachOpenOrder(db, c.symbol, (orderId, memberId, side, price, remaining) => {
        this.core.restoreOrder(c.symbol, { orderId, memberId, side: side as Side, price: prices.get(price), remaining: minorOf(remaining, c.amountScale) });
      });
    }
    // Stop orders watch the last price: restore it, then the stops still waiting (in placement order).
    for (const market of this.markets.values()) {
      const last = await db.selectFrom("spot_trade").select("price").where("symbol", "=", market.config.symbol).orderBy("id", "desc").limit(1).executeTakeFirst();
      if (last) market.restoreLastPrice(toMinor(trim(last.price), market.config.priceScale));
    }
    const waiting = await db.selectFrom("spot_order").selectAll().where("status", "=", "waiting").orderBy("seq").execute();
    for (const o of waiting) {
      const market = this.markets.get(o.symbol);
      if (!market) continue;
      const c = market.config;
      const minor = (value: string | null, scale: number) => (value === null ? undefined : toMinor(trim(value), scale));
      this.core.restoreStop(o.symbol, {
        orderId: o.order_id,
        memberId: o.member_id,
        side: o.side as Side,
        type: o.type as "limit" | "market",
        tif: o.tif as TimeInForce,
        price: minor(o.trigger_price, c.priceScale),
        quantity: minor(o.quantity, c.amountScale),
        money: minor(o.money, this.scaleOf(c.quote)),
        stopProfitPrice: minor(o.stop_profit_price, c.priceScale),
        stopLossPrice: minor(o.stop_loss_price, c.priceScale),
      });
    }
  }

  /**
   * Stores a snapshot of the core as it is now, once the commands it includes are committed,
   * then drops the journal no kept snapshot needs. Nothing to do when no command was accepted
   * since the last one. Answers the snapshot's sequence, or null.
   */
  async writeSnapshot(options: { force?: boolean; dropOlder?: boolean } = {}): Promise<{ seq: number; bytes: number; pruned: number } | null> {
    if (this.core.lastSeq === this.lastSnapshotSeq && !options.force) return null;
    const snapshot = snapshotOf(this.core);
    // Stored once every command it includes is committed (an empty change queued behind them),
    // in a transaction of its own: orders never wait for a large insert, and a failed one only
    // means the next start replays a longer tail.
    await this.committer.commit(async () => {});
    // ... and once the tables include them: a start resumes the projection from a snapshot at or before its cursor.
    if (!(await this.projector.reach(snapshot.seq, 60_000))) throw new Error(`the tables did not reach snapshot ${snapshot.seq} within a minute; not stored`);
    await this.options.db.transaction().execute(async (trx) => {
      await saveSnapshot(trx, snapshot);
      // A state rebuilt from the tables starts a new line: an older snapshot plus the journal
      // might not lead to it, so none is kept to fall back to.
      if (options.dropOlder) await trx.deleteFrom("core_snapshot").where("seq", "<", String(snapshot.seq)).execute();
    });
    this.lastSnapshotSeq = snapshot.seq;
    this.needsSnapshot = false;
    const pruned = await pruneJournal(this.options.db, this.projector.cursor);
    return { seq: snapshot.seq, bytes: snapshot.data.length, pruned: pruned.commands };
  }

  /** Opens a market from its stored row (skipped when an asset is unknown); the row's halt applies. */
  private open(s: Selectable<MarketSymbolTable>): SpotMarket | null {
    const baseScale = this.core.assetScales.get(s.coin_symbol);
    const quoteScale = this.core.assetScales.get(s.quote_symbol);
    if (baseScale === undefined || quoteScale === undefined) return null;
    return this.core.openMarket(
      {
        symbol: s.symbol_name,
        base: s.coin_symbol,
        quote: s.quote_symbol,
        priceScale: s.price_scale,
        amountScale: s.amount_scale,
        baseAssetScale: baseScale,
        quoteAssetScale: quoteScale,
        tickSize: toMinor(trim(s.tick_size), s.price_scale),
        lotSize: toMinor(trim(s.lot_size), s.amount_scale),
        minQuantity: toMinor(trim(s.min_quantity), s.amount_scale),
        makerFeeBps: BigInt(s.maker_fee_bps),
        takerFeeBps: BigInt(s.taker_fee_bps),
      },
      s.halted,
    );
  }

  /** Listens for markets an operator adds while the engine runs (market data tracks them). */
  onMarketAdded(listener: (market: SpotMarket) => Promise<void> | void): void {
    this.marketListeners.push(listener);
  }

  /**
   * Lists a new spot market while the engine runs (operator): checked by the core's rules first,
   * stored (with its base asset, when new), then opened for trading. Nothing changes on a refusal.
   */
  async addMarket(def: MarketDefinition): Promise<MarketChange> {
    if (this.markets.has(def.symbol) || this.adding.has(def.symbol)) return { code: "MARKET_EXISTS" };
    const { newBase: base, ...listing } = def;
    const command: ListMarket = { type: "market.list", ...listing, newBaseScale: base?.scale, newBaseName: base?.name };
    // Checked by the core before anything is stored: a refusal changes nothing.
    const config = this.core.listingConfig(command);
    if ("code" in config) return config;
    this.adding.add(def.symbol);
    try {
      const { db } = this.options;
      const known = await db.selectFrom("market_symbol").select("id").where("symbol_name", "=", def.symbol).executeTakeFirst();
      if (known) return { code: "MARKET_EXISTS" };
      const outcome = this.core.apply(command);
      if (outcome.code !== "OK") return outcome;
      await this.commitOperator(outcome, command);
      for (const listener of this.marketListeners) await listener(outcome.market);
      return { code: "OK", market: outcome.market };
    } finally {
      this.adding.delete(def.symbol);
    }
  }

  /**
   * Commits an operator's command and answers once its configuration rows (market, asset) are
   * written too: they are projected in sequence with the rest, so the tables at the projection's
   * cursor show the markets as they were then (a start from the tables replays the journal after
   * it), and an operator reads back what was just answered.
   */
  private async commitOperator(outcome: AcceptedOutcome, command: Command): Promise<void> {
    const writes = this.accepted(command, outcome);
    await this.committer.commit((trx) => writes.writeJournal(trx));
    // Applied and durable either way; the row follows if the tables are slow.
    await this.projector.reach(outcome.seq, 30_000);
  }

  /**
   * Changes a live market's minimum quantity or fees (operator): checked and applied from the
   * next order, journaled and stored with the market's row. Tick, lot and scales stay as listed: resting orders were placed on them.
   */
  async updateMarket(symbol: string, change: { minQuantity?: string; makerFeeBps?: number; takerFeeBps?: number }): Promise<MarketChange> {
    const command: ChangeMarketRules = { type: "market.rules", symbol, ...change };
    const outcome = this.core.apply(command);
    if (outcome.code !== "OK") return outcome;
    await this.commitOperator(outcome, command);
    return { code: "OK", market: outcome.market };
  }

  /** Listens to every command the core applies (market data, real-time pushes). */
  onApplied(listener: (event: SpotApplied) => void): void {
    this.appliedListeners.push(listener);
  }

  /** Adds per-batch hooks to the group commit (writes in the batch's transaction, publishing after it). */
  addBatchHooks(hooks: BatchHooks): void {
    this.committer.addHooks(hooks);
  }

  private applied(market: SpotMarket, result: SpotResult): void {
    if (!this.appliedListeners.length) return;
    const event: SpotApplied = { market, result, at: this.now(), batch: this.committer.currentBatch };
    // A listener (market data, pushes) never stops a command the core already applied.
    for (const listener of this.appliedListeners) {
      try {
        listener(event);
      } catch (error) {
        console.error("a listener of applied commands failed (the command stands)", error);
      }
    }
  }

  scaleOf(asset: string): number {
    return this.core.scaleOf(asset);
  }

  /** Places an order; a repeated idempotency key answers the first result instead of placing again. */
  async placeOrder(memberId: string, input: PlaceOrderInput, idempotencyKey: string | null): Promise<OrderAnswer> {
    // Internal callers (the simulated liquidity) place without a key: nothing to retry.
    if (idempotencyKey === null) return this.placeOnce(memberId, input, null, "");
    const fingerprint = requestFingerprint({ ...input, tif: input.tif });
    return this.inFlight.run(
      `${memberId}:${idempotencyKey}`,
      fingerprint,
      () => this.placeOnce(memberId, input, idempotencyKey, fingerprint),
      () => rejected(KEY_REUSED),
    );
  }

  private async placeOnce(memberId: string, input: PlaceOrderInput, idempotencyKey: string | null, fingerprint: string): Promise<OrderAnswer> {
    const earlier = idempotencyKey === null ? undefined : await this.answers.get(`${memberId}:${idempotencyKey}`);
    if (earlier !== undefined) {
      // The same key for another request: refused as reused, nothing placed (old rows have no fingerprint).
      if (earlier.fingerprint !== null && earlier.fingerprint !== fingerprint) return rejected(KEY_REUSED);
      return JSON.parse(earlier.response) as OrderAnswer;
    }

    const orderId = this.options.newOrderId?.() ?? `${Date.now().toString(36)}${(++this.orderCounter).toString(36).padStart(4, "0")}`;
    const command: PlaceOrder = {
      type: "spot.place",
      memberId,
      orderId,
      symbol: input.symbol,
      side: input.side,
      orderType: input.type,
      tif: input.tif,
      price: input.price,
      quantity: input.quantity,
      money: input.money,
      stopProfitPrice: input.stopProfitPrice,
      stopLossPrice: input.stopLossPrice,
    };
    const outcome = this.core.apply(command);
    const answer = outcome.code === "OK" ? placedAnswer(orderId, outcome.result, outcome.market.config.amountScale) : rejected(outcome.code);
    const writes = outcome.code === "OK" ? this.accepted(command, outcome) : this.writes();
    if (idempotencyKey !== null) writes.insertKey({ member_id: memberId, key: idempotencyKey, response: JSON.stringify(answer), fingerprint, created_at: new Date(this.now()) });
    await this.committer.commit((trx) => writes.writeJournal(trx));
    return answer;
  }

  async cancelOrder(memberId: string, orderId: string): Promise<SpotCode> {
    const command: CancelOrder = { type: "spot.cancel", memberId, orderId };
    const outcome = this.core.apply(command);
    // Another member's order is answered like a missing one: nothing about it is revealed.
    if (outcome.code !== "OK") return "ORDER_UNKNOWN";
    const writes = this.accepted(command, outcome);
    await this.committer.commit((trx) => writes.writeJournal(trx));
    return "OK";
  }

  /**
   * Moves funds between a member's own accounts (funding ↔ spot), as a ledger transfer. The
   * transfer id carries the idempotency key: a retry gets "OK" once the first has moved the funds
   * (also while it commits); the same id with another coin, amount or direction is refused.
   */
  async transferBetween(memberId: string, asset: string, from: AccountKind, to: AccountKind, amount: string, transferId: string): Promise<TransferCode> {
    let minor: bigint;
    try {
      minor = toMinor(amount, this.scaleOf(asset));
    } catch {
      return "ORDER_BAD_COMMAND";
    }
    const debit = accountId({ owner: memberId, kind: from, asset });
    const credit = accountId({ owner: memberId, kind: to, asset });
    const fingerprint = requestFingerprint({ debit, credit, asset, amount: fromMinor(minor, this.scaleOf(asset)) });
    return this.transfersInFlight.run(transferId, fingerprint, () => this.transferOnce(transferId, fingerprint, { memberId, asset, from, to, minor }), () => KEY_REUSED);
  }

  private async transferOnce(transferId: string, fingerprint: string, t: { memberId: string; asset: string; from: AccountKind; to: AccountKind; minor: bigint }): Promise<TransferCode> {
    // A retry: the journal already has it (memory only knows this run's ids).
    const earlier = await this.journalTransfer(transferId);
    if (earlier) {
      const same = requestFingerprint({ debit: earlier.debit, credit: earlier.credit ?? undefined, asset: earlier.asset, amount: earlier.amount }) === fingerprint;
      return same ? "OK" : KEY_REUSED;
    }
    const command: MoveFunds = { type: "ledger.transfer", id: transferId, memberId: t.memberId, asset: t.asset, from: t.from, to: t.to, amount: fromMinor(t.minor, this.scaleOf(t.asset)) };
    const outcome = this.core.apply(command);
    if (outcome.code !== "OK") return outcome.code;
    const writes = this.accepted(command, outcome);
    await this.committer.commit((trx) => writes.writeJournal(trx));
    return "OK";
  }

  /**
   * Halts or resumes a market (operator), journaled and stored with its row, so a restart keeps
   * it. Answers false for an unknown market.
   */
  async setHalted(symbol: string, halted: boolean): Promise<boolean> {
    const command: HaltMarket = { type: "market.halt", symbol, halted };
    const outcome = this.core.apply(command);
    if (outcome.code !== "OK") return false;
    // The market's row (read by a start without a snapshot) commits with the command.
    await this.commitOperator(outcome, command);
    return true;
  }

  /** A deposit from outside (operator credit, demo funds, later the chain watcher). */
  async deposit(memberId: string, asset: string, kind: AccountKind, amount: string, depositId: string): Promise<boolean> {
    // A second deposit with the id while the first commits is refused like one after it.
    if (this.depositsInFlight.has(depositId)) return false;
    this.depositsInFlight.add(depositId);
    try {
      return await this.depositOnce(memberId, asset, kind, amount, depositId);
    } finally {
      this.depositsInFlight.delete(depositId);
    }
  }

  private async depositOnce(memberId: string, asset: string, kind: AccountKind, amount: string, depositId: string): Promise<boolean> {
    if (await this.journalHas(depositId)) return false;
    const command: Deposit = { type: "ledger.deposit", id: depositId, memberId, asset, kind, amount };
    const outcome = this.core.apply(command);
    if (outcome.code !== "OK") return false;
    const writes = this.accepted(command, outcome);
    await this.committer.commit((trx) => writes.writeJournal(trx));
    return true;
  }

  /** A member's balances of one account kind, as decimal strings. */
  balances(memberId: string, kind: AccountKind): Array<{ coin: string; available: string; frozen: string }> {
    return [...this.core.assetScales.entries()].map(([asset, scale]) => {
      const ref: AccountRef = { owner: memberId, kind, asset };
      return { coin: asset, available: fromMinor(this.ledger.available(ref), scale), frozen: fromMinor(this.ledger.held(ref), scale) };
    });
  }

  private async journalHas(transferId: string): Promise<boolean> {
    return (await this.journalTransfer(transferId)) !== undefined;
  }

  /** An accepted transfer's accounts and amount (canonical decimal), if there is one. */
  private async journalTransfer(transferId: string) {
    const accepted = this.unprojected.get(transferId);
    if (accepted) return accepted;
    const row = await this.options.db.selectFrom("ledger_transfer").select(["debit", "credit", "asset", "amount"]).where("id", "=", transferId).executeTakeFirst();
    return row && { ...row, amount: trim(row.amount) };
  }

  /** Waits until everything applied so far is committed and in the tables. */
  async drain(): Promise<void> {
    await this.committer.drain();
    await this.projector.drain();
  }

  /**
   * Waits (up to `timeoutMs`) until the tables include every command that touched the member's
   * rows, so their history and open orders read back what they were just answered. False when it
   * timed out (the answer may then trail by the projection's lag).
   */
  async projectedFor(memberId: string, timeoutMs = 5_000): Promise<boolean> {
    const seq = this.memberSeq.get(memberId);
    if (seq === undefined) return true;
    if (seq <= this.projector.cursor) {
      this.memberSeq.delete(memberId);
      return true;
    }
    return this.projector.reach(seq, timeoutMs);
  }

  /** How far the tables trail the core (for /healthz and the benchmark). */
  projectionLag() {
    return this.projector.lag();
  }

  /** Tests and benchmarks: the projector itself (pause it to play a crash before the tables are written). */
  get projection(): Projector {
    return this.projector;
  }

  /** The tables now include `cursor`: transfer ids up to it are found in `ledger_transfer` again. */
  private projectedUpTo(cursor: number): void {
    for (const [id, t] of this.unprojected) {
      if (t.seq > cursor) break; // in sequence order
      this.unprojected.delete(id);
    }
    // Members whose rows are all written need no entry: swept when the map has doubled since the last sweep.
    if (this.memberSeq.size > this.memberSweepAt) {
      for (const [member, seq] of this.memberSeq) if (seq <= cursor) this.memberSeq.delete(member);
      this.memberSweepAt = Math.max(1_000, this.memberSeq.size * 2);
    }
  }

  private now() {
    return this.options.now?.() ?? Date.now();
  }

  /** The rows of the batch now collecting: a command adds its rows as it is applied (see SpotWrites). */
  private writes(): SpotWrites {
    const batch = this.committer.currentBatch;
    let writes = this.batches.get(batch);
    if (!writes) {
      writes = new SpotWrites();
      this.batches.set(batch, writes);
    }
    return writes;
  }

  /**
   * An accepted command joins the collecting batch: its journal row, what it did told to the
   * listeners (market data, pushes), and its table rows. The caller commits the batch.
   */
  private accepted(command: Command, outcome: AcceptedOutcome): SpotWrites {
    const writes = this.writes();
    const at = new Date(this.now());
    writes.appendCommand(outcome.seq, at, command);
    if ("result" in outcome) this.applied(outcome.market, outcome.result);
    this.project(writes, command, outcome, at);
    return writes;
  }

  /**
   * The table rows of an accepted command (orders, trades, ledger), as they are right after it:
   * written by the projector once the command's journal row is committed, and by a start for the
   * commands the tables had not caught up with. `at` is when it was applied (the journal's time).
   */
  private project(writes: SpotWrites, command: Command, outcome: AcceptedOutcome, at: Date): void {
    const seq = outcome.seq;
    const touched = (memberId: string) => this.memberSeq.set(memberId, seq);
    switch (command.type) {
      case "spot.place": {
        if (!("result" in outcome)) return;
        const { market, result, amounts: parsed } = outcome;
        const c = market.config;
        const answer = placedAnswer(command.orderId, result, c.amountScale);
        const closed = result.closed.find((x) => x.orderId === command.orderId);
        writes.insertOrder({
          order_id: command.orderId,
          member_id: command.memberId,
          symbol: c.symbol,
          side: command.side,
          type: command.orderType,
          tif: command.tif,
          // A waiting stop has no price on the book yet: its triggerMoney is kept as trigger_price.
          price: parsed.price === undefined || result.waiting ? null : fromMinor(parsed.price, c.priceScale),
          quantity: parsed.quantity === undefined ? null : fromMinor(parsed.quantity, c.amountScale),
          money: parsed.money === undefined ? null : fromMinor(parsed.money, this.scaleOf(c.quote)),
          stop_profit_price: parsed.stopProfitPrice === undefined ? null : fromMinor(parsed.stopProfitPrice, c.priceScale),
          stop_loss_price: parsed.stopLossPrice === undefined ? null : fromMinor(parsed.stopLossPrice, c.priceScale),
          trigger_price: parsed.price === undefined || !result.waiting ? null : fromMinor(parsed.price, c.priceScale),
          filled: answer.filled,
          status: answer.status,
          reason: closed?.reason ?? null,
          created_at: at,
          updated_at: at,
        });
        touched(command.memberId);
        this.recordResult(writes, market, result, command.orderId, at, touched);
        return;
      }
      case "spot.cancel":
        if (!("result" in outcome)) return;
        touched(command.memberId);
        this.recordResult(writes, outcome.market, outcome.result, null, at, touched);
        return;
      case "ledger.transfer":
      case "ledger.deposit": {
        if (!("transfers" in outcome)) return;
        touched(command.memberId);
        this.recordTransfers(writes, outcome.transfers, at);
        const first = outcome.transfers.find((t) => t.id === command.id) ?? outcome.transfers[0];
        if (first) this.unprojected.set(command.id, { seq, debit: first.debit, credit: first.credit ?? null, asset: first.asset, amount: fromMinor(first.amount, this.scaleOf(first.asset)) });
        return;
      }
      // Operator commands: their configuration rows.
      case "market.halt":
        writes.marketHalted(command.symbol, command.halted);
        return;
      case "market.rules":
        writes.marketRules(command.symbol, command);
        return;
      case "market.list":
        writes.marketListed(command);
        return;
    }
  }

  /** Records what one command changed: stops it fired, makers' fills and states, trades, the ledger. */
  private recordResult(writes: SpotWrites, market: SpotMarket, result: SpotResult, takerOrderId: string | null, at: Date, touched: (memberId: string) => void): void {
    const c = market.config;
    const quoteScale = this.scaleOf(c.quote);
    const baseScale = this.scaleOf(c.base);
    for (const fired of result.triggered) touched(fired.memberId);
    for (const t of result.trades) {
      touched(t.buyer);
      touched(t.seller);
    }
    // Stops this command fired: open now (their fills and ends follow), with the book time they got.
    for (const fired of result.triggered) writes.fireStop(fired.orderId, fired.kind, at);
    for (const t of result.trades) {
      writes.addFill(t.makerOrderId, t.quantity, c.amountScale, at);
      // A fired stop is the taker of its trades (the command's own order is written with the order itself).
      if (t.takerOrderId !== takerOrderId) writes.addFill(t.takerOrderId, t.quantity, c.amountScale, at);
      writes.insertTrade({
        symbol: c.symbol,
        taker_order_id: t.takerOrderId,
        maker_order_id: t.makerOrderId,
        buyer: t.buyer,
        seller: t.seller,
        price: fromMinor(t.price, c.priceScale),
        quantity: fromMinor(t.quantity, c.amountScale),
        value: fromMinor(t.value, quoteScale),
        buyer_fee: fromMinor(t.buyerFee, baseScale),
        seller_fee: fromMinor(t.sellerFee, quoteScale),
        taker_side: t.takerSide,
        created_at: at,
      });
    }
    for (const closed of result.closed) {
      touched(closed.memberId);
      if (closed.orderId === takerOrderId) continue; // written with the order itself
      writes.setStatus(closed.orderId, closed.status, closed.reason ?? null, c.amountScale, at);
    }
    this.recordTransfers(writes, result.transfers, at);
  }

  /** Records the transfers for the journal, and the touched balances and holds as they are right after them. */
  private recordTransfers(writes: SpotWrites, transfers: TransferEvent[], at: Date): void {
    if (!transfers.length) return;
    const holds = new Map<string, TransferEvent>();
    for (const t of transfers) {
      const scale = this.scaleOf(t.asset);
      writes.insertTransfer({ id: t.id, phase: t.phase, debit: t.debit, credit: t.credit, asset: t.asset, amount: fromMinor(t.amount, scale), pending_id: t.pendingId ?? null, created_at: at });
      for (const key of t.credit ? [t.debit, t.credit] : [t.debit]) {
        const { owner, kind, asset } = accountOf(key);
        const { posted, held } = this.ledger.balanceOf(key);
        writes.putAccount({ id: key, owner, kind, asset, posted: fromMinor(posted, scale), held: fromMinor(held, scale) });
      }
      if (t.phase === "pending") holds.set(t.id, t);
      if (t.phase === "post" || t.phase === "void") holds.set(t.pendingId!, t);
    }
    for (const [holdId, t] of holds) {
      const remaining = this.ledger.holdRemaining(holdId);
      writes.putHold(holdId, remaining === 0n ? null : { id: holdId, account_id: t.debit, asset: t.asset, remaining: fromMinor(remaining, this.scaleOf(t.asset)) });
    }
  }
}

function trim(value: string): string {
  const text = String(value);
  return text.includes(".") ? text.replace(/\.?0+$/, "") : text;
}

/** A market an operator lists (decimal texts at the market's scales), with its base asset's name when that is new. */
export type MarketDefinition = Omit<ListMarket, "type" | "newBaseScale" | "newBaseName"> & {
  /** A base asset the exchange does not list yet: its scale (decimals) and name. */
  newBase?: { scale: number; name: string };
};

/** What listing or changing a market answers. */
export type MarketChange =
  | { code: "OK"; market: SpotMarket }
  | { code: "MARKET_EXISTS" }
  | { code: "MARKET_UNKNOWN" }
  | { code: "ASSET_UNKNOWN"; problem: string }
  | { code: "BAD_RULES"; problem: string };

/** A command the core accepted, with what it did. */
type AcceptedOutcome = Extract<ReturnType<ExchangeCore["apply"]>, { code: "OK" }>;

/** What a transfer between a member's accounts answers. */
export type TransferCode = "OK" | "RISK_INSUFFICIENT_AVAILABLE" | "ORDER_BAD_COMMAND" | typeof KEY_REUSED;

/** The answer to an accepted order: its state after the command, what it filled, its own trades. */
function placedAnswer(orderId: string, result: SpotResult, amountScale: number): OrderAnswer {
  const own = result.trades.filter((t) => t.takerOrderId === orderId);
  const closed = result.closed.find((x) => x.orderId === orderId);
  return {
    code: "OK",
    orderId,
    status: closed ? (closed.status === "filled" ? "filled" : "cancelled") : result.waiting ? "waiting" : "open",
    filled: fromMinor(own.reduce((sum, t) => sum + t.quantity, 0n), amountScale),
    // Its own trades (stops it fired trade in this command too).
    trades: own.length,
  };
}

function rejected(code: SpotServiceCode): OrderAnswer {
  return { code, orderId: null, status: "rejected", filled: "0", trades: 0 };
}

export { accountId };
