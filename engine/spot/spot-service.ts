import { sql, type Kysely, type Selectable } from "kysely";
import { fromMinor, toMinor } from "../../protocol/money";
import { accountId, Ledger, type AccountKind, type AccountRef, type TransferEvent } from "../core/ledger/ledger";
import type { Side, TimeInForce } from "../core/matching/order-book";
import { SpotMarket, type SpotCode, type SpotResult } from "../core/spot/spot-market";
import type { Database, MarketSymbolTable } from "../store/schema";
import { listingProblem, type TradingRules } from "../core/spot/symbol-rules";
import { GroupCommitter, type BatchHooks } from "./group-commit";
import { InFlightRequests, KEY_REUSED, requestFingerprint } from "./idempotency";
import { BatchedLookup } from "../store/batched-lookup";
import { eachHold, eachOpenOrder, Interner, minorOf } from "./bulk-restore";
import { SpotWrites } from "./spot-writes";

/**
 * The spot exchange's I/O layer: rebuilds the ledger and the books from the database at start,
 * runs each command through the pure core (one writer: the event loop), and answers only after
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
  readonly ledger = new Ledger();
  readonly markets = new Map<string, SpotMarket>();
  private readonly assetScales = new Map<string, number>();
  private readonly committer: GroupCommitter;
  /** First answers by `member:key`, looked up for all the orders of one event-loop turn at once. */
  private readonly answers: BatchedLookup<{ response: string; fingerprint: string | null }>;
  private readonly inFlight = new InFlightRequests<OrderAnswer>();
  private readonly transfersInFlight = new InFlightRequests<TransferCode>();
  /** Symbol of every resting order, so a cancel finds it even before its placement is committed. */
  private readonly restingSymbol = new Map<string, string>();
  private orderCounter = 0;
  /** Settlement transfer ids: a prefix unique to this process, then a counter (never repeat across restarts). */
  private readonly transferPrefix = `s${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  private transferCounter = 0;
  private readonly appliedListeners: Array<(event: SpotApplied) => void> = [];
  private readonly marketListeners: Array<(market: SpotMarket) => Promise<void> | void> = [];
  /** Symbols an operator is adding right now (a second add of the same one is refused). */
  private readonly adding = new Set<string>();
  /** The rows of the group-commit batch now collecting. */
  private collecting: { batch: number; writes: SpotWrites } | null = null;

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

  /** Loads assets, symbols, balances, holds and open orders (in time order) from the database. */
  static async start(options: SpotServiceOptions): Promise<SpotService> {
    const service = new SpotService(options);
    const { db } = options;
    for (const a of await db.selectFrom("asset").selectAll().execute()) service.assetScales.set(a.code, a.scale);
    const symbols = await db.selectFrom("market_symbol").selectAll().where("enabled", "=", true).where("contract_type", "=", 0).execute();
    for (const s of symbols) {
      const market = service.open(s);
      if (market) service.markets.set(s.symbol_name, market);
    }
    for (const a of await db.selectFrom("ledger_account").selectAll().execute()) {
      const scale = service.scaleOf(a.asset);
      service.ledger.restoreBalance(a.id, toMinor(trim(a.posted), scale), toMinor(trim(a.held), scale));
    }
    // Holds and open orders can be millions: read in pages of joined text (bulk-restore.ts).
    await eachHold(db, (id, accountId, asset, remaining) => service.ledger.restoreHold(id, accountId, asset, minorOf(remaining, service.scaleOf(asset))));
    // A fired stop's time priority is when it fired (triggered_seq), not when it was placed.
    for (const market of service.markets.values()) {
      const c = market.config;
      const prices = new Interner((text) => minorOf(text, c.priceScale)); // many orders share a price
      await eachOpenOrder(db, c.symbol, (orderId, memberId, side, price, remaining) => {
        market.restore({ orderId, memberId, side: side as Side, price: prices.get(price), remaining: minorOf(remaining, c.amountScale) });
        service.restingSymbol.set(orderId, c.symbol);
      });
    }
    // Stop orders watch the last price: restore it, then the stops still waiting (in placement order).
    for (const market of service.markets.values()) {
      const last = await db.selectFrom("spot_trade").select("price").where("symbol", "=", market.config.symbol).orderBy("id", "desc").limit(1).executeTakeFirst();
      if (last) market.restoreLastPrice(toMinor(trim(last.price), market.config.priceScale));
    }
    const waiting = await db.selectFrom("spot_order").selectAll().where("status", "=", "waiting").orderBy("seq").execute();
    for (const o of waiting) {
      const market = service.markets.get(o.symbol);
      if (!market) continue;
      const c = market.config;
      const minor = (value: string | null, scale: number) => (value === null ? undefined : toMinor(trim(value), scale));
      market.restoreStop({
        orderId: o.order_id,
        memberId: o.member_id,
        side: o.side as Side,
        type: o.type as "limit" | "market",
        tif: o.tif as TimeInForce,
        price: minor(o.trigger_price, c.priceScale),
        quantity: minor(o.quantity, c.amountScale),
        money: minor(o.money, service.scaleOf(c.quote)),
        stopProfitPrice: minor(o.stop_profit_price, c.priceScale),
        stopLossPrice: minor(o.stop_loss_price, c.priceScale),
      });
      service.restingSymbol.set(o.order_id, o.symbol);
    }
    return service;
  }

  /** A market from its stored row (null when an asset is unknown); the row's halt applies. */
  private open(s: Selectable<MarketSymbolTable>): SpotMarket | null {
    const baseScale = this.assetScales.get(s.coin_symbol);
    const quoteScale = this.assetScales.get(s.quote_symbol);
    if (baseScale === undefined || quoteScale === undefined) return null;
    const market = new SpotMarket(
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
      this.ledger,
      () => `${this.transferPrefix}-${(++this.transferCounter).toString(36)}`,
    );
    market.setHalted(s.halted);
    return market;
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
    const quoteScale = this.assetScales.get(def.quote);
    if (quoteScale === undefined) return { code: "ASSET_UNKNOWN", problem: `the quote asset ${def.quote} is not listed` };
    const listedBase = this.assetScales.get(def.base);
    if (listedBase === undefined && !def.newBase) return { code: "ASSET_UNKNOWN", problem: `the base asset ${def.base} is not listed: give its scale and name to list it` };
    if (listedBase !== undefined && def.newBase && def.newBase.scale !== listedBase) return { code: "BAD_RULES", problem: `${def.base} is listed with scale ${listedBase}` };
    const baseScale = listedBase ?? def.newBase!.scale;
    this.adding.add(def.symbol);
    try {
      const { db } = this.options;
      const known = await db.selectFrom("market_symbol").select("id").where("symbol_name", "=", def.symbol).executeTakeFirst();
      if (known) return { code: "MARKET_EXISTS" };
      const row = await db.transaction().execute(async (trx) => {
        if (listedBase === undefined) await trx.insertInto("asset").values({ code: def.base, scale: baseScale, name: def.newBase!.name }).execute();
        const last = await trx.selectFrom("market_symbol").select((eb) => eb.fn.max("sort").as("sort")).executeTakeFirst();
        const values = {
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
        };
        // Checked by the core before anything is stored: the transaction rolls back on a refusal.
        const problem = this.rulesProblem(values, baseScale, quoteScale);
        if (problem) throw new Refused(problem);
        return trx.insertInto("market_symbol").values(values).returningAll().executeTakeFirstOrThrow();
      });
      this.assetScales.set(def.base, baseScale);
      const market = this.open(row)!;
      this.markets.set(def.symbol, market);
      for (const listener of this.marketListeners) await listener(market);
      return { code: "OK", market };
    } catch (error) {
      if (error instanceof Refused) return { code: "BAD_RULES", problem: error.message };
      throw error;
    } finally {
      this.adding.delete(def.symbol);
    }
  }

  /**
   * Changes a live market's minimum quantity or fees (operator): checked, stored, then applied
   * from the next order. Tick, lot and scales stay as listed: resting orders were placed on them.
   */
  async updateMarket(symbol: string, change: { minQuantity?: string; makerFeeBps?: number; takerFeeBps?: number }): Promise<MarketChange> {
    const market = this.markets.get(symbol);
    if (!market) return { code: "MARKET_UNKNOWN" };
    const c = market.config;
    let rules: Partial<TradingRules>;
    try {
      rules = {
        ...(change.minQuantity !== undefined && { minQuantity: toMinor(change.minQuantity, c.amountScale) }),
        ...(change.makerFeeBps !== undefined && { makerFeeBps: BigInt(change.makerFeeBps) }),
        ...(change.takerFeeBps !== undefined && { takerFeeBps: BigInt(change.takerFeeBps) }),
      };
    } catch {
      return { code: "BAD_RULES", problem: `the minimum quantity has more than ${c.amountScale} decimals` };
    }
    const problem = listingProblem({ ...c, ...rules });
    if (problem) return { code: "BAD_RULES", problem };
    await this.options.db
      .updateTable("market_symbol")
      .set({
        ...(change.minQuantity !== undefined && { min_quantity: change.minQuantity }),
        ...(change.makerFeeBps !== undefined && { maker_fee_bps: change.makerFeeBps }),
        ...(change.takerFeeBps !== undefined && { taker_fee_bps: change.takerFeeBps }),
      })
      .where("symbol_name", "=", symbol)
      .execute();
    market.updateRules(rules);
    return { code: "OK", market };
  }

  /** Why a market row cannot trade (the core's rules), or null. */
  private rulesProblem(v: { symbol_name: string; coin_symbol: string; quote_symbol: string; price_scale: number; amount_scale: number; tick_size: string; lot_size: string; min_quantity: string; maker_fee_bps: number; taker_fee_bps: number }, baseScale: number, quoteScale: number): string | null {
    const minor = (value: string, scale: number, name: string) => {
      try {
        return toMinor(value, scale);
      } catch {
        throw new Refused(`the ${name} has more decimals than its scale (${scale})`);
      }
    };
    const scaleProblem = [v.price_scale, v.amount_scale].some((x) => !Number.isInteger(x) || x < 0 || x > 18);
    if (scaleProblem) return "price and amount scales must be whole numbers from 0 to 18";
    return listingProblem({
      symbol: v.symbol_name,
      base: v.coin_symbol,
      quote: v.quote_symbol,
      priceScale: v.price_scale,
      amountScale: v.amount_scale,
      baseAssetScale: baseScale,
      quoteAssetScale: quoteScale,
      tickSize: minor(v.tick_size, v.price_scale, "tick size"),
      lotSize: minor(v.lot_size, v.amount_scale, "lot size"),
      minQuantity: minor(v.min_quantity, v.amount_scale, "minimum quantity"),
      makerFeeBps: BigInt(v.maker_fee_bps),
      takerFeeBps: BigInt(v.taker_fee_bps),
    });
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
    for (const listener of this.appliedListeners) listener(event);
  }

  scaleOf(asset: string): number {
    const scale = this.assetScales.get(asset);
    if (scale === undefined) throw new Error(`unknown asset ${asset}`);
    return scale;
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

    const reject = rejected;
    const market = this.markets.get(input.symbol);
    if (!market) return reject("ORDER_BAD_COMMAND");
    const c = market.config;
    const parsed = parseAmounts(input, c.priceScale, c.amountScale, this.scaleOf(c.quote));
    if ("code" in parsed) return reject(parsed.code);

    const orderId = this.options.newOrderId?.() ?? `${Date.now().toString(36)}${(++this.orderCounter).toString(36).padStart(4, "0")}`;
    const result = market.place({ orderId, memberId, side: input.side, type: input.type, tif: input.tif, ...parsed });
    if (result.code === "OK") this.applied(market, result);
    if (result.code === "OK" && (result.resting || result.waiting)) this.restingSymbol.set(orderId, c.symbol);
    for (const closed of result.closed) this.restingSymbol.delete(closed.orderId);
    const filledQty = result.trades.filter((t) => t.takerOrderId === orderId).reduce((sum, t) => sum + t.quantity, 0n);
    const closed = result.closed.find((x) => x.orderId === orderId);
    const answer: OrderAnswer =
      result.code !== "OK"
        ? reject(result.code)
        : {
            code: "OK",
            orderId,
            status: closed ? (closed.status === "filled" ? "filled" : "cancelled") : result.waiting ? "waiting" : "open",
            filled: fromMinor(filledQty, c.amountScale),
            // Its own trades (stops it fired trade in this command too).
            trades: result.trades.filter((t) => t.takerOrderId === orderId).length,
          };
    const writes = this.writes();
    if (result.code === "OK") {
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
        filled: fromMinor(filledQty, c.amountScale),
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
    const symbol = this.restingSymbol.get(orderId);
    const market = symbol ? this.markets.get(symbol) : undefined;
    if (!market) return "ORDER_UNKNOWN";
    const result = market.cancel(orderId, memberId);
    // Another member's order is answered like a missing one: nothing about it is revealed.
    if (result.code !== "OK") return "ORDER_UNKNOWN";
    this.restingSymbol.delete(orderId);
    this.applied(market, result);
    const writes = this.writes();
    this.recordResult(writes, market, result, null);
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
    const r = this.ledger.transfer(transferId, { owner: t.memberId, kind: t.from, asset: t.asset }, { owner: t.memberId, kind: t.to, asset: t.asset }, t.minor);
    if (r.code === "LEDGER_INSUFFICIENT_AVAILABLE") return "RISK_INSUFFICIENT_AVAILABLE";
    if (r.code !== "OK") return "ORDER_BAD_COMMAND";
    const writes = this.writes();
    this.recordTransfers(writes, r.transfers);
    await this.committer.commit((trx) => writes.write(trx));
    return "OK";
  }

  /**
   * Halts or resumes a market (operator): stored first, so a restart keeps it, then applied.
   * Answers false for an unknown market.
   */
  async setHalted(symbol: string, halted: boolean): Promise<boolean> {
    const market = this.markets.get(symbol);
    if (!market) return false;
    await this.options.db.updateTable("market_symbol").set({ halted }).where("symbol_name", "=", symbol).execute();
    market.setHalted(halted);
    return true;
  }

  /** A deposit from outside (operator credit, demo funds, later the chain watcher). */
  async deposit(memberId: string, asset: string, kind: AccountKind, amount: string, depositId: string): Promise<boolean> {
    if (await this.journalHas(depositId)) return false;
    const r = this.ledger.deposit(depositId, { owner: memberId, kind, asset }, toMinor(amount, this.scaleOf(asset)));
    if (r.code !== "OK") return false;
    const writes = this.writes();
    this.recordTransfers(writes, r.transfers);
    await this.committer.commit((trx) => writes.write(trx));
    return true;
  }

  /** A member's balances of one account kind, as decimal strings. */
  balances(memberId: string, kind: AccountKind): Array<{ coin: string; available: string; frozen: string }> {
    return [...this.assetScales.entries()].map(([asset, scale]) => {
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
        const [owner, kind, asset] = key.split("/") as [string, string, string];
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

/** Decimal inputs to the core's units; too many decimals is a tick or lot error. */
function parseAmounts(
  input: PlaceOrderInput,
  priceScale: number,
  amountScale: number,
  quoteScale: number,
): { price?: bigint; quantity?: bigint; money?: bigint; stopProfitPrice?: bigint; stopLossPrice?: bigint } | { code: SpotCode } {
  const out: { price?: bigint; quantity?: bigint; money?: bigint; stopProfitPrice?: bigint; stopLossPrice?: bigint } = {};
  try {
    if (input.price !== undefined) out.price = toMinor(input.price, priceScale);
    if (input.stopProfitPrice !== undefined) out.stopProfitPrice = toMinor(input.stopProfitPrice, priceScale);
    if (input.stopLossPrice !== undefined) out.stopLossPrice = toMinor(input.stopLossPrice, priceScale);
  } catch {
    return { code: "ORDER_BAD_TICK" };
  }
  try {
    if (input.quantity !== undefined) out.quantity = toMinor(input.quantity, amountScale);
  } catch {
    return { code: "ORDER_BAD_LOT" };
  }
  try {
    if (input.money !== undefined) out.money = toMinor(input.money, quoteScale);
  } catch {
    return { code: "ORDER_BAD_MONEY" };
  }
  return out;
}

/** A market an operator lists (decimal texts at the market's scales). */
export interface MarketDefinition {
  symbol: string;
  base: string;
  quote: string;
  priceScale: number;
  amountScale: number;
  tickSize: string;
  lotSize: string;
  minQuantity: string;
  makerFeeBps: number;
  takerFeeBps: number;
  /** A base asset the exchange does not list yet: its scale (decimals) and name. */
  newBase?: { scale: number; name: string };
}

/** What listing or changing a market answers. */
export type MarketChange =
  | { code: "OK"; market: SpotMarket }
  | { code: "MARKET_EXISTS" }
  | { code: "MARKET_UNKNOWN" }
  | { code: "ASSET_UNKNOWN"; problem: string }
  | { code: "BAD_RULES"; problem: string };

/** A market refused by its rules (rolls its transaction back). */
class Refused extends Error {}

/** What a transfer between a member's accounts answers. */
export type TransferCode = "OK" | "RISK_INSUFFICIENT_AVAILABLE" | "ORDER_BAD_COMMAND" | typeof KEY_REUSED;

function rejected(code: SpotServiceCode): OrderAnswer {
  return { code, orderId: null, status: "rejected", filled: "0", trades: 0 };
}

export { accountId };
