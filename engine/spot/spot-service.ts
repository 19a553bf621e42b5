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
  /** Settlement ids carry a prefix unique to this process (decision 017). */
  private readonly idPrefix = `s${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}-`;
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
  /** The rows of the group-commit batch now collecting. */
  private collecting: { batch: number; writes: SpotWrites } | null = null;

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
    if (options.snapshots !== false) {
      const found = await restoreNewestSnapshot(db, () => new ExchangeCore(service.idPrefix), warn);
      if (found) {
        const restored = found.core;
        try {
          const seq = restored.lastSeq;
          const replayed = await eachJournalCommand(db, seq, (at, command) => {
            const outcome = restored.apply(command);
            if (outcome.seq !== at) throw new Error(`journal command ${at} replays as ${outcome.seq ?? outcome.code}`);
          });
          service.state = restored;
          service.lastSnapshotSeq = seq;
          service.restoredFrom = { source: "snapshot", seq, replayed };
          if (await service.openListedSince()) service.needsSnapshot = true;
          if (found.skipped) service.needsSnapshot = true;
          return service;
        } catch (error) {
          warn(`the journal after snapshot ${restored.lastSeq} does not replay (${(error as Error).message}); restoring from the tables`);
        }
      }
    }
    await service.restoreFromTables();
    service.core.restoreSeq(await lastJournalSeq(db));
    service.restoredFrom = { source: "tables", seq: service.core.lastSeq, replayed: 0 };
    service.needsSnapshot = true;
    return service;
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
    await this.options.db.transaction().execute(async (trx) => {
      await saveSnapshot(trx, snapshot);
      // A state rebuilt from the tables starts a new line: an older snapshot plus the journal
      // might not lead to it, so none is kept to fall back to.
      if (options.dropOlder) await trx.deleteFrom("core_snapshot").where("seq", "<", String(snapshot.seq)).execute();
    });
    this.lastSnapshotSeq = snapshot.seq;
    this.needsSnapshot = false;
    const pruned = await pruneJournal(this.options.db);
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
    const command: ListMarket = { type: "market.list", ...listing, newBaseScale: base?.scale };
    // Checked by the core before anything is stored: a refusal changes nothing.
    const config = this.core.listingConfig(command);
    if ("code" in config) return config;
    this.adding.add(def.symbol);
    try {
      const { db } = this.options;
      const known = await db.selectFrom("market_symbol").select("id").where("symbol_name", "=", def.symbol).executeTakeFirst();
      if (known) return { code: "MARKET_EXISTS" };
      const last = await db.selectFrom("market_symbol").select((eb) => eb.fn.max("sort").as("sort")).executeTakeFirst();
      const newBase = !this.core.assetScales.has(def.base);
      const outcome = this.core.apply(command);
      if (outcome.code !== "OK") return outcome;
      await this.commitConfig(outcome.seq, command, async (trx) => {
        if (newBase) await trx.insertInto("asset").values({ code: def.base, scale: config.baseAssetScale, name: def.newBase!.name }).execute();
        await trx
          .insertInto("market_symbol")
          .values({
            symbol_name: def.symbol,
            coin_symbol: def.base,
            quote_symbol: def.quote,
            contract_type: 0,
            price_scale: def.priceScale,
            amount_scale: def.amountScale,
            tick_size: def.tickSize,
            lot_size: def.lotSize,
            min_quantity: def.minQuantity,
            maker_fee_bps: def.makerFeeBps,
            taker_fee_bps: def.takerFeeBps,
            avatar: null,
            sort: Number(last?.sort ?? 0) + 10,
            enabled: true,
          })
          .execute();
      });
      for (const listener of this.marketListeners) await listener(outcome.market);
      return { code: "OK", market: outcome.market };
    } finally {
      this.adding.delete(def.symbol);
    }
  }

  /** Commits an operator's command with its configuration rows, in the journal's batch. */
  private async commitConfig(seq: number, command: Command, rows: (trx: Transaction<Database>) => Promise<unknown>): Promise<void> {
    const writes = this.writes();
    writes.appendCommand(seq, new Date(this.now()), command);
    await this.committer.commit(async (trx) => {
      await rows(trx);
      await writes.write(trx);
    });
  }

  /**
   * Changes a live market's minimum quantity or fees (operator): checked and applied from the
   * next order, journaled and stored with the market's row. Tick, lot and scales stay as listed: resting orders were placed on them.
   */
  async updateMarket(symbol: string, change: { minQuantity?: string; makerFeeBps?: number; takerFeeBps?: number }): Promise<MarketChange> {
    const command: ChangeMarketRules = { type: "market.rules", symbol, ...change };
    const outcome = this.core.apply(command);
    if (outcome.code !== "OK") return outcome;
    await this.commitConfig(outcome.seq, command, (trx) =>
      trx
        .updateTable("market_symbol")
        .set({
          ...(change.minQuantity !== undefined && { min_quantity: change.minQuantity }),
          ...(change.makerFeeBps !== undefined && { maker_fee_bps: change.makerFeeBps }),
          ...(change.takerFeeBps !== undefined && { taker_fee_bps: change.takerFeeBps }),
        })
        .where("symbol_name", "=", symbol)
        .execute(),
    );
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
    const writes = this.writes();
    if (outcome.code === "OK") {
      writes.appendCommand(outcome.seq, new Date(this.now()), command);
      const { market, result, amounts: parsed } = outcome;
      const c = market.config;
      this.applied(market, result);
      const closed = result.closed.find((x) => x.orderId === orderId);
      writes.insertOrder({
        order_id: orderId,
        member_id: memberId,
        symbol: c.symbol,
        side: input.side,
        type: input.type,
        tif: input.tif,
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
        created_at: new Date(this.now()),
        updated_at: new Date(this.now()),
      });
      this.recordResult(writes, market, result, orderId);
    }
    if (idempotencyKey !== null) writes.insertKey({ member_id: memberId, key: idempotencyKey, response: JSON.stringify(answer), fingerprint, created_at: new Date(this.now()) });
    await this.committer.commit((trx) => writes.write(trx));
    return answer;
  }

  async cancelOrder(memberId: string, orderId: string): Promise<SpotCode> {
    const command: CancelOrder = { type: "spot.cancel", memberId, orderId };
    const outcome = this.core.apply(command);
    // Another member's order is answered like a missing one: nothing about it is revealed.
    if (outcome.code !== "OK") return "ORDER_UNKNOWN";
    const writes = this.writes();
    writes.appendCommand(outcome.seq, new Date(this.now()), command);
    this.applied(outcome.market, outcome.result);
    this.recordResult(writes, outcome.market, outcome.result, null);
    await this.committer.commit((trx) => writes.write(trx));
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
    const writes = this.writes();
    writes.appendCommand(outcome.seq, new Date(this.now()), command);
    this.recordTransfers(writes, outcome.transfers);
    await this.committer.commit((trx) => writes.write(trx));
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
    await this.commitConfig(outcome.seq, command, (trx) => trx.updateTable("market_symbol").set({ halted }).where("symbol_name", "=", symbol).execute());
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
    const writes = this.writes();
    writes.appendCommand(outcome.seq, new Date(this.now()), command);
    this.recordTransfers(writes, outcome.transfers);
    await this.committer.commit((trx) => writes.write(trx));
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

  /** A committed transfer's accounts and amount (canonical decimal), if the journal has it. */
  private async journalTransfer(transferId: string) {
    const row = await this.options.db.selectFrom("ledger_transfer").select(["debit", "credit", "asset", "amount"]).where("id", "=", transferId).executeTakeFirst();
    return row && { ...row, amount: trim(row.amount) };
  }

  drain(): Promise<void> {
    return this.committer.drain();
  }

  private now() {
    return this.options.now?.() ?? Date.now();
  }

  /** The rows of the batch now collecting: a command adds its rows as it is applied (see SpotWrites). */
  private writes(): SpotWrites {
    const batch = this.committer.currentBatch;
    if (this.collecting?.batch !== batch) this.collecting = { batch, writes: new SpotWrites() };
    return this.collecting.writes;
  }

  /** Records what one command changed: stops it fired, makers' fills and states, trades, the ledger. */
  private recordResult(writes: SpotWrites, market: SpotMarket, result: SpotResult, takerOrderId: string | null): void {
    const c = market.config;
    const quoteScale = this.scaleOf(c.quote);
    const baseScale = this.scaleOf(c.base);
    const at = new Date(this.now());
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
      if (closed.orderId === takerOrderId) continue; // written with the order itself
      writes.setStatus(closed.orderId, closed.status, closed.reason ?? null, c.amountScale, at);
    }
    this.recordTransfers(writes, result.transfers);
  }

  /** Records the transfers for the journal, and the touched balances and holds as they are right after them. */
  private recordTransfers(writes: SpotWrites, transfers: TransferEvent[]): void {
    if (!transfers.length) return;
    const at = new Date(this.now());
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
export type MarketDefinition = Omit<ListMarket, "type" | "newBaseScale"> & {
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
